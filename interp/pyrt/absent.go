package pyrt

import (
	"slices"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// Python builtins a program cannot have here (SPEC §2.7: files through
// the packs, no code from strings). Each is still a name, so
// that a program naming one compiles and runs up to the call, as in
// CPython, where a missing name is only an error when reached; the call
// raises NameError (catchable, as CPython's would be) with a hint that
// says what to write instead, so that the model's next attempt works.
// input() is the exception: a program has no standard input, and
// CPython reading an empty one writes the prompt, then raises EOFError.
func absentBuiltins() starlark.StringDict {
	const (
		byName = "keep the values to look up by name in a dict of your own"
	)
	hints := map[string]string{
		"eval":       "programs cannot run code from a string: write the expression itself; parse data with json.loads, int() or float()",
		"exec":       "programs cannot run code from a string: write the statements themselves",
		"compile":    "programs cannot compile code from a string: write the code itself",
		"globals":    byName,
		"locals":     byName,
		"help":       "use ot.help(query=...) for packs, tools and modules",
		"breakpoint": "there is no debugger: print() the values to look at",
		"memoryview": "use bytes or bytearray",
		"complex":    "complex numbers are not supported: keep the real and imaginary parts as two floats",
	}
	d := make(starlark.StringDict, len(hints)+1)
	for name, hint := range hints {
		d[name] = &absent{name: name, hint: hint}
	}
	d["input"] = interp.NewBuiltin("input", inputBuiltin)
	return d
}

// UnavailableBuiltins lists, sorted, the builtins of Python a program
// cannot have: calling one raises NameError with a hint.
func UnavailableBuiltins() []string {
	var names []string
	for name, v := range absentBuiltins() {
		if _, ok := v.(*absent); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// absent is a builtin a program cannot have: calling it raises NameError
// with the hint. It is interp.Unavailable, never suggested or completed.
type absent struct{ name, hint string }

var (
	_ starlark.Callable  = (*absent)(nil)
	_ interp.Unavailable = (*absent)(nil)
)

func (a *absent) Unavailable()          {}
func (a *absent) Name() string          { return a.name }
func (a *absent) String() string        { return "<built-in function " + a.name + ">" }
func (a *absent) Type() string          { return "builtin_function_or_method" }
func (a *absent) Freeze()               {}
func (a *absent) Truth() starlark.Bool  { return true }
func (a *absent) Hash() (uint32, error) { return starlark.String(a.name).Hash() }

func (a *absent) CallInternal(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, &Exception{Class: "NameError", Msg: "name '" + a.name + "' is not defined", Advice: a.hint,
		Attrs: starlark.StringDict{"name": interp.MakeString(a.name)}}
}

// inputBuiltin is input(prompt=""): the prompt is written, then, as from
// an empty standard input, EOFError.
func inputBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var prompt starlark.Value = starlark.String("")
	if err := starlark.UnpackPositionalArgs("input", args, kwargs, 0, &prompt); err != nil {
		return nil, err
	}
	w := interp.TextWriter{Budget: interp.BudgetOf(thread)}
	if err := w.Str(prompt); err != nil {
		return nil, err
	}
	if err := interp.Print(thread, w.String()); err != nil {
		return nil, err
	}
	return nil, &Exception{Class: "EOFError", Msg: "EOF when reading a line",
		Advice: "a program has no standard input: write the values into the program, or get them with a tool call"}
}
