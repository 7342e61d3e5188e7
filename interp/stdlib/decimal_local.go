package stdlib

import (
	"slices"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// decimal.localcontext(ctx=None, **kwargs): a context manager whose
// block computes with a copy of ctx (the current context when None),
// changed by kwargs; the context current before the block is current
// again after it, however the block ends, so that precision set inside
// (ctx.prec = 50, getcontext().prec = 50) is undone.

var decLocalClass = &pyClass{module: "decimal", name: "ContextManager", is: isOf[*decLocal]}

type decLocal struct {
	cmBase
	ctx    *decContext // nil: the context current when the block starts
	kwargs []starlark.Tuple
	saved  []*decContext // the contexts replaced, innermost last
}

func decLocalcontext(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, pyrt.Errorf("TypeError", "localcontext() takes at most 1 positional argument (%d given)", len(args))
	}
	var base *decContext
	if len(args) == 1 && args[0] != starlark.None {
		c, ok := args[0].(*decContext)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "optional argument must be a context")
		}
		base = c
	}
	m := &decLocal{ctx: base}
	if len(kwargs) > 0 {
		// The settings are applied when the block starts, to a copy of
		// the context then current; checked now, as CPython does.
		probe := defaultContext()
		for _, kv := range kwargs {
			name, _ := starlark.AsString(kv[0])
			if name == "ctx" {
				return nil, pyrt.Errorf("TypeError", "localcontext() got multiple values for argument 'ctx'")
			}
			if !slices.Contains(contextFields, name) {
				return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for this function", name)
			}
			if err := probe.SetField(name, kv[1]); err != nil {
				return nil, err
			}
		}
		m.kwargs = kwargs
	}
	return m, nil
}

func (m *decLocal) String() string          { return "<decimal.ContextManager object>" }
func (m *decLocal) Type() string            { return "decimal.ContextManager" }
func (m *decLocal) PyClass() starlark.Value { return decLocalClass }
func (m *decLocal) AttrNames() []string     { return nil }

func (m *decLocal) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__enter__", "__exit__":
		return cmMethod(name, m, m.enter, m.exit), nil
	}
	return nil, noAttrNamed("decimal.ContextManager", name)
}

func (m *decLocal) enter(thread *starlark.Thread) (starlark.Value, error) {
	if len(m.saved) >= maxRedirectDepth {
		return nil, pyrt.Errorf("RecursionError", "localcontext() entered more than %d times without leaving", maxRedirectDepth)
	}
	if err := interp.BudgetOf(thread).Charge(1); err != nil {
		return nil, err
	}
	r := runDecimal(thread)
	base := m.ctx
	if base == nil {
		base = r.ctx
	}
	c := base.copy()
	for _, kv := range m.kwargs {
		name, _ := starlark.AsString(kv[0])
		if err := c.SetField(name, kv[1]); err != nil {
			return nil, err
		}
	}
	m.saved = append(m.saved, r.ctx)
	r.ctx = c
	return c, nil
}

func (m *decLocal) exit(thread *starlark.Thread, _, _, _ starlark.Value) (starlark.Value, error) {
	if n := len(m.saved); n > 0 {
		runDecimal(thread).ctx = m.saved[n-1]
		m.saved = m.saved[:n-1]
	}
	return starlark.None, nil
}
