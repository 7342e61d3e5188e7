package interp_test

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// A program's result is shown as compact JSON by default, keys in the order
// the program wrote them; __format__ picks another mode.
func ExampleFormat() {
	v, _ := starlark.Eval(&starlark.Thread{}, "example", `{"name": "test", "value": 123, "tags": ["é", "<b>"]}`, nil)
	for _, mode := range []string{interp.FormatJSON, interp.FormatYAML, interp.FormatYAMLFlow, interp.FormatRaw} {
		text, _ := interp.Format(v, mode)
		fmt.Printf("%s:\n%s\n", mode, text)
	}

	// Strings are shown as themselves; an unknown mode adds a note.
	text, note := interp.Format(starlark.String("done"), "xml")
	fmt.Println(text)
	fmt.Println(note)
	// Output:
	// json:
	// {"name":"test","value":123,"tags":["é","<b>"]}
	// yaml:
	// name: test
	// value: 123
	// tags:
	//   - é
	//   - <b>
	// yaml_flow:
	// {name: test, value: 123, tags: [é, <b>]}
	// raw:
	// {'name': 'test', 'value': 123, 'tags': ['é', '<b>']}
	// done
	// note: unknown __format__ "xml"; using json (modes: json, json_h, yaml, yaml_flow, raw)
}

// ToGo gives the Go form of a value, as a tool receives its arguments: dicts
// become *ordered.Map in insertion order, ints int64.
func ExampleToGo() {
	v, _ := starlark.Eval(&starlark.Thread{}, "example", `{"query": "bug", "limit": 10, "labels": ("p1", "ui")}`, nil)
	g, err := interp.ToGo(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	args := g.(*ordered.Map)
	fmt.Println(args.Keys())
	limit, _ := args.Get("limit")
	fmt.Printf("%T %v\n", limit, limit)
	text, _ := ordered.Encode(args)
	fmt.Println(string(text))

	// Values with no JSON form are errors, not guesses.
	big, _ := starlark.Eval(&starlark.Thread{}, "example", `{"n": 123456789012345678901234567890}`, nil)
	_, err = interp.ToGo(big)
	fmt.Println(err)
	// Output:
	// [query limit labels]
	// int64 10
	// {"query":"bug","limit":10,"labels":["p1","ui"]}
	// integer 123456789012345678901234567890 does not fit in 64 bits (JSON numbers are limited to int64)
}

// FromGo turns a tool's Go result into a Starlark value. Go maps have no
// order, so their keys are sorted; an *ordered.Map keeps its order.
func ExampleFromGo() {
	v, _ := interp.FromGo(map[string]any{"b": 1, "a": []string{"x"}})
	fmt.Println(v)

	m := ordered.NewMap(2)
	m.Set("b", 1)
	m.Set("a", nil)
	v, _ = interp.FromGo(m)
	fmt.Println(v)
	// Output:
	// {"a": ["x"], "b": 1}
	// {"b": 1, "a": None}
}
