package stdlib

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Functools is the functools module: reduce, partial, cmp_to_key,
// lru_cache and cache, wraps and update_wrapper, singledispatch.
func Functools() *starlarkstruct.Module {
	updateWrapper := interp.NewBuiltin("update_wrapper", ftUpdateWrapper)
	m := starlark.StringDict{
		"reduce":              interp.NewBuiltin("reduce", ftReduce),
		"partial":             partialClass,
		"cmp_to_key":          interp.NewBuiltin("cmp_to_key", ftCmpToKey),
		"lru_cache":           interp.NewBuiltin("lru_cache", ftLRUCache),
		"update_wrapper":      updateWrapper,
		"wraps":               interp.NewBuiltin("wraps", ftWraps(updateWrapper)),
		"WRAPPER_ASSIGNMENTS": wrapperAssignments,
		"WRAPPER_UPDATES":     wrapperUpdates,
		"singledispatch": interp.NewBuiltin("singledispatch", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return newDispatcher(thread, "singledispatch", 0, args, kwargs)
		}),
		"singledispatchmethod": interp.NewBuiltin("singledispatchmethod", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return newDispatcher(thread, "singledispatchmethod", 1, args, kwargs)
		}),
		"cache": interp.NewBuiltin("cache", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "cache() takes exactly one argument (%d given)", len(args)+len(kwargs))
			}
			return newCached(args[0], -1, false)
		}),
	}
	functoolsClassMembers(m)
	mod := &starlarkstruct.Module{Name: "functools", Members: m}
	mod.Freeze()
	return mod
}

// reduce(function, iterable[, initial]).
func ftReduce(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "reduce() takes no keyword arguments")
	}
	if len(args) < 2 {
		return nil, pyrt.Errorf("TypeError", "reduce expected at least 2 arguments, got %d", len(args))
	}
	if len(args) > 3 {
		return nil, pyrt.Errorf("TypeError", "reduce expected at most 3 arguments, got %d", len(args))
	}
	fn := args[0]
	if _, ok := fn.(starlark.Callable); !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not callable", pyrt.TypeName(fn))
	}
	next, err := pyrt.Iterate(thread, args[1])
	if err != nil {
		return nil, pyrt.Errorf("TypeError", "reduce() arg 2 must support iteration")
	}
	var acc starlark.Value
	if len(args) == 3 {
		acc = args[2]
	}
	for {
		x, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if acc == nil {
			acc = x
			continue
		}
		if acc, err = starlark.Call(thread, fn, starlark.Tuple{acc, x}, nil); err != nil {
			return nil, err
		}
	}
	if acc == nil {
		return nil, pyrt.Errorf("TypeError", "reduce() of empty iterable with no initial value")
	}
	return acc, nil
}

// partial is functools.partial(func, *args, **keywords): a callable with
// the arguments given first, and the keywords given overridable.
type partial struct {
	fn   starlark.Value
	args starlark.Tuple
	kw   *starlark.Dict
}

var (
	_ starlark.Callable = (*partial)(nil)
	_ starlark.HasAttrs = (*partial)(nil)
	_ interp.Holder     = (*partial)(nil)
	_ interp.TextValue  = (*partial)(nil)
)

func ftPartial(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "type 'partial' takes at least one argument")
	}
	if _, ok := args[0].(starlark.Callable); !ok {
		return nil, pyrt.Errorf("TypeError", "the first argument must be callable")
	}
	p := &partial{fn: args[0], args: append(starlark.Tuple(nil), args[1:]...), kw: starlark.NewDict(len(kwargs))}
	// partial of a partial flattens, as in CPython.
	if inner, ok := args[0].(*partial); ok {
		p.fn = inner.fn
		p.args = append(append(starlark.Tuple(nil), inner.args...), p.args...)
		for _, kv := range inner.kw.Items() {
			_ = p.kw.SetKey(kv[0], kv[1])
		}
	}
	for _, kv := range kwargs {
		_ = p.kw.SetKey(kv[0], kv[1])
	}
	return p, nil
}

func (p *partial) String() string {
	s, err := interp.Repr(nil, p)
	if err != nil {
		return "functools.partial(...)"
	}
	return s
}

// WriteText writes functools.partial(<fn>, args..., k=v...), its parts
// under the writer's depth limit and cycle check (a partial may hold a
// list that holds it).
func (p *partial) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("functools.partial(" + p.fn.String()); err != nil {
		return err
	}
	for _, a := range p.args {
		if err := w.WriteString(", "); err != nil {
			return err
		}
		if err := w.Nested(a, depth+1); err != nil {
			return err
		}
	}
	for _, kv := range p.kw.Items() {
		k, _ := interp.AsText(kv[0])
		if err := w.WriteString(", " + k + "="); err != nil {
			return err
		}
		if err := w.Nested(kv[1], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (p *partial) Type() string         { return "functools.partial" }
func (p *partial) Freeze()              { p.fn.Freeze(); p.args.Freeze(); p.kw.Freeze() }
func (p *partial) Truth() starlark.Bool { return true }

// Hash: a partial is hashable and equal only to itself, as in CPython
// (equality falls back to identity, so one hash for all is correct).
func (p *partial) Hash() (uint32, error) { return starlark.String("functools.partial").Hash() }
func (p *partial) Name() string          { return "partial" }
func (p *partial) Held(visit func(starlark.Value)) {
	visit(p.fn)
	visit(p.args)
	visit(p.kw)
}

func (p *partial) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	all := append(append(starlark.Tuple(nil), p.args...), args...)
	kw := starlark.NewDict(p.kw.Len() + len(kwargs))
	for _, kv := range p.kw.Items() {
		_ = kw.SetKey(kv[0], kv[1])
	}
	for _, kv := range kwargs {
		_ = kw.SetKey(kv[0], kv[1])
	}
	var kws []starlark.Tuple
	for _, kv := range kw.Items() {
		kws = append(kws, starlark.Tuple{kv[0], kv[1]})
	}
	return starlark.Call(thread, p.fn, all, kws)
}

func (p *partial) Attr(name string) (starlark.Value, error) {
	switch name {
	case "func":
		return p.fn, nil
	case "args":
		return p.args, nil
	case "keywords":
		return p.kw, nil
	}
	return nil, noAttr(p, name)
}

func (p *partial) AttrNames() []string { return []string{"args", "func", "keywords"} }

// cmp_to_key(mycmp): a key function whose keys order as mycmp says.
func ftCmpToKey(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cmp starlark.Value
	if err := unpackC("cmp_to_key", args, kwargs, "mycmp", &cmp); err != nil {
		return nil, err
	}
	return interp.NewBuiltin("functools.KeyWrapper", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "K() takes exactly 1 argument (%d given)", len(args))
		}
		return &cmpKey{cmp: cmp, obj: args[0], thread: thread}, nil
	}), nil
}

// cmpKey is a key made by cmp_to_key: it keeps the thread of the call that
// made it, since comparisons get none.
type cmpKey struct {
	cmp, obj starlark.Value
	thread   *starlark.Thread
}

var _ starlark.Comparable = (*cmpKey)(nil)

func (k *cmpKey) String() string       { return "<functools.KeyWrapper object>" }
func (k *cmpKey) Type() string         { return "functools.KeyWrapper" }
func (k *cmpKey) Freeze()              {}
func (k *cmpKey) Truth() starlark.Bool { return true }
func (k *cmpKey) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'functools.KeyWrapper'")
}
func (k *cmpKey) Held(visit func(starlark.Value)) {
	visit(k.cmp)
	visit(k.obj)
}

func (k *cmpKey) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	r, err := starlark.Call(k.thread, k.cmp, starlark.Tuple{k.obj, y.(*cmpKey).obj}, nil)
	if err != nil {
		return false, err
	}
	return pyrt.Compare(k.thread, op, r, starlark.MakeInt(0))
}

// lru_cache(maxsize=128) returns a decorator; lru_cache(f) decorates f.
func ftLRUCache(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var maxsize starlark.Value = starlark.MakeInt(128)
	var typed starlark.Value = starlark.False
	if err := unpack("lru_cache", args, kwargs, "maxsize?", &maxsize, "typed?", &typed); err != nil {
		return nil, err
	}
	if _, ok := maxsize.(starlark.Callable); ok {
		if _, ok := typed.(starlark.Bool); !ok {
			return nil, pyrt.Errorf("TypeError", "Expected first argument to be an integer, a callable, or None")
		}
		return newCached(maxsize, 128, bool(typed.Truth()))
	}
	limit := -1
	switch n := maxsize.(type) {
	case starlark.NoneType:
	case starlark.Int:
		i, _ := n.Int64()
		limit = int(max(i, 0))
	default:
		return nil, pyrt.Errorf("TypeError", "Expected first argument to be an integer, a callable, or None")
	}
	return interp.NewBuiltin("decorating_function", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "decorating_function() takes exactly one argument")
		}
		return newCached(args[0], limit, bool(typed.Truth()))
	}), nil
}

// cached is a function memoised by its arguments: at most limit results
// (-1: no bound but the run's memory budget), the least recently used
// forgotten first.
type cached struct {
	fn     starlark.Value
	limit  int
	memo   *starlark.Dict // key → result
	order  []starlark.Value
	hits   int
	misses int
	typed  bool           // arguments of two types are cached apart (f(1) and f(1.0))
	dict   *starlark.Dict // attributes the program set; nil until one is
}

var (
	_ starlark.Callable    = (*cached)(nil)
	_ interp.Holder        = (*cached)(nil)
	_ starlark.HasSetField = (*cached)(nil)
)

// DescriptorGet binds a cached function held by a class to the instance
// it is read through, as CPython's lru_cache wrapper does.
func (c *cached) DescriptorGet(_ *starlark.Thread, obj, _ starlark.Value) (starlark.Value, error) {
	if obj == nil || obj == starlark.None {
		return c, nil
	}
	return pyrt.NewBoundMethod(c, obj), nil
}

// SetField sets an attribute, as on any function (update_wrapper's).
func (c *cached) SetField(name string, v starlark.Value) error {
	switch name {
	case "cache_info", "cache_clear", "cache_parameters":
		return pyrt.Errorf("AttributeError", "'functools._lru_cache_wrapper' object attribute '%s' is read-only", name)
	}
	if c.dict == nil {
		c.dict = starlark.NewDict(1)
	}
	return c.dict.SetKey(starlark.String(name), v)
}

func newCached(fn starlark.Value, limit int, typed bool) (starlark.Value, error) {
	if _, ok := fn.(starlark.Callable); !ok {
		return nil, pyrt.Errorf("TypeError", "the first argument must be callable")
	}
	return &cached{fn: fn, limit: limit, memo: starlark.NewDict(0), typed: typed}, nil
}

func (c *cached) String() string        { return "<functools._lru_cache_wrapper object>" }
func (c *cached) Type() string          { return "functools._lru_cache_wrapper" }
func (c *cached) Freeze()               {} // a cache stays writable, as in Python
func (c *cached) Truth() starlark.Bool  { return true }
func (c *cached) Hash() (uint32, error) { return starlark.String("cached").Hash() }
func (c *cached) Name() string {
	if n, ok := c.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "cached"
}
func (c *cached) Held(visit func(starlark.Value)) {
	visit(c.fn)
	visit(c.memo)
	if c.dict != nil {
		visit(c.dict)
	}
}

func (c *cached) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.limit == 0 {
		// maxsize=0 caches nothing: the arguments need not be hashable.
		c.misses++
		return starlark.Call(thread, c.fn, args, kwargs)
	}
	key := make(starlark.Tuple, 0, len(args)+2*len(kwargs)+1)
	key = append(key, args...)
	if len(kwargs) > 0 {
		// f('x', 1) and f(x=1) are cached apart.
		key = append(key, kwdMark{})
	}
	for _, kv := range kwargs {
		key = append(key, kv[0], kv[1])
	}
	if c.typed {
		for _, x := range args {
			key = append(key, starlark.String(pyrt.TypeName(x)))
		}
		for _, kv := range kwargs {
			key = append(key, starlark.String(pyrt.TypeName(kv[1])))
		}
	}
	// The key's hash, walked under the budget first: arguments built from
	// shared tuples have 2⁴⁰ parts to hash.
	if err := pyrt.CheckHashable(interp.BudgetOf(thread), key); err != nil {
		return nil, err
	}
	if _, err := key.Hash(); err != nil {
		for _, x := range key {
			if _, err := x.Hash(); err != nil {
				return nil, pyrt.Errorf("TypeError", "unhashable type: '%s'", pyrt.TypeName(x))
			}
		}
		return nil, err
	}
	if v, found, err := c.memo.Get(key); err != nil {
		return nil, err
	} else if found {
		c.hits++
		if c.limit > 0 {
			// Most recently used last: a walk of at most limit keys.
			if err := interp.BudgetOf(thread).Charge(uint64(len(c.order))); err != nil {
				return nil, err
			}
			for i, k := range c.order {
				if eq, _ := starlark.Equal(k, key); eq {
					c.order = append(append(c.order[:i:i], c.order[i+1:]...), k)
					break
				}
			}
		}
		return v, nil
	}
	c.misses++
	v, err := starlark.Call(thread, c.fn, args, kwargs)
	if err != nil || c.limit == 0 {
		return v, err
	}
	if err := interp.BudgetOf(thread).Alloc(64); err != nil {
		return nil, err
	}
	if c.limit > 0 && c.memo.Len() >= c.limit {
		// Forget the least recently used result.
		_, _, _ = c.memo.Delete(c.order[0])
		c.order = c.order[1:]
	}
	if err := c.memo.SetKey(key, v); err != nil {
		return nil, err
	}
	if c.limit > 0 {
		c.order = append(c.order, key)
	}
	return v, nil
}

func (c *cached) Attr(name string) (starlark.Value, error) {
	if c.dict != nil {
		if v, found, _ := c.dict.Get(starlark.String(name)); found {
			return v, nil
		}
	}
	switch name {
	case "__wrapped__":
		return c.fn, nil
	case "__dict__":
		if c.dict == nil {
			c.dict = starlark.NewDict(0)
		}
		return c.dict, nil
	case "__name__", "__qualname__", "__doc__", "__module__", "__annotations__":
		// The wrapped function's, as functools.update_wrapper copies them.
		return pyrt.GetAttr(nil, c.fn, name)
	case "cache_clear":
		return interp.NewBuiltin("cache_clear", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			c.memo, c.order, c.hits, c.misses = starlark.NewDict(0), nil, 0, 0
			return starlark.None, nil
		}), nil
	case "cache_parameters":
		return interp.NewBuiltin("cache_parameters", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
				return nil, err
			}
			var ms starlark.Value = starlark.None
			if c.limit >= 0 {
				ms = starlark.MakeInt(c.limit)
			}
			d := starlark.NewDict(2)
			_ = d.SetKey(starlark.String("maxsize"), ms)
			_ = d.SetKey(starlark.String("typed"), starlark.Bool(c.typed))
			return d, nil
		}), nil
	case "cache_info":
		return interp.NewBuiltin("cache_info", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			var ms starlark.Value = starlark.None
			if c.limit >= 0 {
				ms = starlark.MakeInt(c.limit)
			}
			return &ntValue{typ: cacheInfoType, vals: starlark.Tuple{
				starlark.MakeInt(c.hits), starlark.MakeInt(c.misses), ms, starlark.MakeInt(c.memo.Len())}}, nil
		}), nil
	}
	return nil, noAttr(c, name)
}

// kwdMark separates the positional arguments of a cache's key from the
// keyword ones, equal only to itself.
type kwdMark struct{}

func (kwdMark) String() string        { return "<kwd_mark>" }
func (kwdMark) Type() string          { return "object" }
func (kwdMark) Freeze()               {}
func (kwdMark) Truth() starlark.Bool  { return true }
func (kwdMark) Hash() (uint32, error) { return 0x6b77646d, nil }

func (c *cached) AttrNames() []string {
	return []string{"__wrapped__", "cache_clear", "cache_info", "cache_parameters"}
}

// cacheInfoType is the namedtuple class cache_info() returns.
var cacheInfoType = &ntType{name: "CacheInfo", fields: []string{"hits", "misses", "maxsize", "currsize"}, module: "functools"}
