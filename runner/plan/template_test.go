package plan

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// items is the result of step s0 in the template tests: an ordered map
// holding a list of three ordered maps, plus plain Go values.
func items() any {
	m := ordered.NewMap(3)
	var list []any
	for _, id := range []string{"a", "b", "c"} {
		it := ordered.NewMap(2)
		it.Set("id", id)
		it.Set("n", len(list))
		list = append(list, it)
	}
	m.Set("items", list)
	m.Set("count", 3)
	m.Set("plain", map[string]any{"k": []any{1.5, "x"}})
	m.Set("name", "box")
	return m
}

func TestTemplates(t *testing.T) {
	cases := []struct {
		tmpl string
		want any
	}{
		{"${steps.s0.data.items.*.id}", []any{"a", "b", "c"}},
		{"${steps.s0.data.items[*].id}", []any{"a", "b", "c"}},
		{"${step[0].data.items[1].id}", "b"},
		{"${steps.0.data.items[-1].id}", "c"},
		{"${ steps.s0.data.count }", 3},
		{"${steps.s0.data.plain.k}", []any{1.5, "x"}},
		{"${steps.s0.id}/${steps.s0.tool}/${steps.s0.status}", "s0/data/ok"},
		{"n=${steps.s0.data.count} ids=${steps.s0.data.items.*.id} name=${steps.s0.data.name}!", `n=3 ids=["a","b","c"] name=box!`},
		{"${HOME} and $ and ${ and ${steps.s0.data.name}", "${HOME} and $ and ${ and box"},
		{"no template", "no template"},
	}
	for _, c := range cases {
		t.Run(c.tmpl, func(t *testing.T) {
			got, err := resolveWith(c.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

// resolveWith resolves one template string against a plan whose step s0
// returned items() — or, for a list at the root, the list of items.
func resolveWith(tmpl string) (any, error) {
	return resolveData(tmpl, items())
}

func resolveData(tmpl string, data any) (any, error) {
	steps := []Step{
		{ID: "s0", Tool: "data"},
		{ID: "s1", Tool: "echo", DependsOn: []string{"s0"}, Args: map[string]any{"v": tmpl, "nested": []any{map[string]any{"v": tmpl}}}},
	}
	call := func(ctx context.Context, tool string, args map[string]any) (any, error) {
		if tool == "data" {
			return data, nil
		}
		return args, nil
	}
	res, err := Run(context.Background(), steps, call, Options{})
	if err != nil {
		return nil, err
	}
	if res[1].Status != StatusOK {
		return nil, res[1].Err
	}
	args := res[1].Data.(map[string]any)
	nested := args["nested"].([]any)[0].(map[string]any)["v"]
	if !reflect.DeepEqual(nested, args["v"]) {
		return nil, errors.New("nested value differs")
	}
	return args["v"], nil
}

func TestWildcardOverRootList(t *testing.T) {
	list := []any{
		map[string]any{"id": 1}, map[string]any{"id": 2}, map[string]any{"id": 3},
	}
	got, err := resolveData("${step[0].data.*.id}", list)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []any{1, 2, 3}) {
		t.Fatalf("%#v", got)
	}
	// A whole-string template keeps the type; the value is a copy.
	got, err = resolveData("${step[0].data}", list)
	if err != nil || !reflect.DeepEqual(got, list) {
		t.Fatalf("%#v %v", got, err)
	}
	got.([]any)[0].(map[string]any)["id"] = 99
	if list[0].(map[string]any)["id"] != 1 {
		t.Fatal("template value shares memory with the step result")
	}
	// Typed Go slices and maps work too.
	got, err = resolveData("${step[0].data.xs[1]}-${step[0].data.m.k}", map[string]any{"xs": []string{"p", "q"}, "m": map[string]int{"k": 7}})
	if err != nil || got != "q-7" {
		t.Fatalf("%#v %v", got, err)
	}
}

func TestTemplateErrors(t *testing.T) {
	cases := []struct {
		tmpl string
		is   error
		want string
	}{
		{"${steps.s0.data.itemz}", ErrMissingPath, `steps.s0.data has no key "itemz" (did you mean "items"?); keys: items, count, plain, name`},
		{"${steps.s0.result}", ErrMissingPath, `steps.s0 has no key "result"`},
		{"${steps.s0.data.name.x}", ErrMissingPath, "steps.s0.data.name is a string, not a map"},
		{"${steps.s0.data.plain[0]}", ErrMissingPath, "is a map, not a list"},
		{"${steps.s0.data.items[3].id}", ErrIndexOutOfRange, "steps.s0.data.items[3], but the list has 3 items"},
		{"${steps.s0.data.items[-4]}", ErrIndexOutOfRange, "[-4]"},
		{"${steps.s0.data.*}", ErrWildcardNotList, "steps.s0.data is a map"},
		{"x ${steps.s0.data.count[*]}", ErrWildcardNotList, "steps.s0.data.count is an int"},
		{"${steps.s0.data.items.*.nope}", ErrMissingPath, "steps.s0.data.items[0] has no key"},
	}
	for _, c := range cases {
		t.Run(c.tmpl, func(t *testing.T) {
			_, err := resolveWith(c.tmpl)
			if !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %v", err, c.is)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "template ${") {
				t.Fatalf("err = %q, want it to name the template and contain %q", msg, c.want)
			}
		})
	}
}

// A template error fails only its step; the template's failed step has no
// attempts, and its own dependents are skipped.
func TestTemplateErrorFailsStep(t *testing.T) {
	steps := []Step{
		{ID: "s0", Tool: "echo"},
		{ID: "s1", Tool: "echo", DependsOn: []string{"s0"}, Args: map[string]any{"x": "${steps.s0.data.missing}"}},
		{ID: "s2", Tool: "echo", DependsOn: []string{"s1"}},
		{ID: "s3", Tool: "echo", DependsOn: []string{"s0"}},
	}
	res := run(t, steps, newFake(), Options{Retries: 3})
	if res[1].Status != StatusFailed || res[1].Attempts != 0 || !errors.Is(res[1].Err, ErrMissingPath) {
		t.Fatalf("%+v", res[1])
	}
	if res[2].Status != StatusSkipped || res[3].Status != StatusOK {
		t.Fatalf("%+v", res)
	}
}

// ErrMissingStep at run time (Validate normally catches it first).
func TestMissingStepAtRunTime(t *testing.T) {
	g, err := build([]Step{{ID: "a", Tool: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = resolveString("${steps.b.data}", g, func(int) *StepResult { return nil })
	if !errors.Is(err, ErrMissingStep) {
		t.Fatal(err)
	}
	_, err = resolveString("${steps.a.data}", g, func(int) *StepResult { return nil })
	if !errors.Is(err, ErrMissingStep) {
		t.Fatal(err)
	}
}

func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"${step[0].data.*.id}", "${steps.s0.data.items[0].id}", "a ${steps.s0.data} b",
		"${steps.}", "${step[", "${steps.s0.data[-1]}", "${step[0]..x}", "${}${steps.s0[*]}",
	} {
		f.Add(s)
	}
	g, err := build([]Step{{ID: "s0", Tool: "t"}, {ID: "s1", Tool: "t"}})
	if err != nil {
		f.Fatal(err)
	}
	res := &StepResult{ID: "s0", Tool: "t", Status: StatusOK, Data: items()}
	f.Fuzz(func(t *testing.T, s string) {
		pieces, err := parseString(s)
		if err != nil {
			if !errors.Is(err, ErrBadTemplate) {
				t.Fatalf("parse error %v is not ErrBadTemplate", err)
			}
			return
		}
		v, err := resolveString(s, g, func(int) *StepResult { return res })
		if err != nil {
			return
		}
		if pieces == nil && v != s {
			t.Fatalf("%q without templates became %#v", s, v)
		}
	})
}
