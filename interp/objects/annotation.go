package objects

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// An Annotation is a class body's annotation that is not a plain class:
// list[int], Optional[str], int | None. It shows its source text, as
// CPython's typing objects show theirs, and names its origin (list,
// typing.Optional) for the modules that read annotations (dataclasses
// looks for ClassVar and InitVar).
type Annotation struct {
	text   string
	origin starlark.Value // nil when unknown
}

func (a *Annotation) String() string        { return a.text }
func (a *Annotation) Type() string          { return "GenericAlias" }
func (a *Annotation) Freeze()               {}
func (a *Annotation) Truth() starlark.Bool  { return true }
func (a *Annotation) Hash() (uint32, error) { return starlark.String(a.text).Hash() }

// Text is the annotation as written.
func (a *Annotation) Text() string { return a.text }

// Origin is what the annotation subscripts (list in list[int]); nil
// when unknown.
func (a *Annotation) Origin() starlark.Value { return a.origin }

func (a *Annotation) Attr(name string) (starlark.Value, error) {
	if name == "__origin__" && a.origin != nil {
		return a.origin, nil
	}
	return nil, nil
}
func (a *Annotation) AttrNames() []string { return []string{"__origin__"} }

// annotHelper is __ot_annot(text, origin, whole): the value of an
// annotation. origin is a function giving the annotated class (or what
// the annotation subscripts), None when there is none; whole says the
// origin is the annotation itself (int), which is then its value. An
// origin not defined yet (a forward reference) leaves the text.
func annotHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	text, _ := interp.AsText(args[0])
	var origin starlark.Value
	if args[1] != starlark.None {
		v, err := starlark.Call(thread, args[1], nil, nil)
		if err != nil {
			if interp.BudgetOf(thread).Tripped() != nil {
				return nil, err
			}
			return starlark.String(text), nil
		}
		origin = v
	}
	if args[2] == starlark.True && origin != nil {
		return origin, nil
	}
	return &Annotation{text: text, origin: origin}, nil
}
