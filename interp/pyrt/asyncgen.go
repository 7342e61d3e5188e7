package pyrt

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Async generators (PEP 525), `async for` and `async with`.

// agenStep is an awaitable step of an async generator: __anext__()
// (asend(None)), asend(v), athrow(e) or aclose(). Awaited, it resumes
// the generator on the awaiting coroutine's thread; each await of the
// generator's body is awaited there in turn, and the step's result is
// the value the body yields next.
type agenStep struct {
	g     *Generator
	msg   genMsg
	close bool
	used  bool
}

func (s *agenStep) String() string        { return "<async_generator_asend object>" }
func (s *agenStep) Type() string          { return "async_generator_asend" }
func (s *agenStep) Freeze()               {}
func (s *agenStep) Truth() starlark.Bool  { return true }
func (s *agenStep) Hash() (uint32, error) { return 0, nil }

func (s *agenStep) Drive(thread *starlark.Thread) (starlark.Value, error) {
	if s.used {
		return nil, exception("RuntimeError", "cannot reuse already awaited __anext__()/asend()")
	}
	s.used = true
	g := s.g
	if s.close && (g.state == genCreated || g.state == genDone) {
		g.state = genDone
		return starlark.None, nil
	}
	msg := s.msg
	for {
		v, done, err := g.resume(thread, msg)
		switch {
		case err != nil:
			if s.close && isGeneratorExit(err) {
				return starlark.None, nil
			}
			return nil, err
		case done:
			if s.close {
				return starlark.None, nil
			}
			return nil, &Exception{Class: "StopAsyncIteration"}
		case g.last == msgAwait:
			r, aerr := awaitPassed(thread, v)
			if aerr != nil {
				if uncatchable(aerr) || aerr == errStopped {
					return nil, aerr
				}
				msg = genMsg{kind: msgThrow, err: aerr}
			} else {
				msg = genMsg{kind: msgSend, value: r}
			}
			continue
		}
		if s.close {
			return nil, exception("RuntimeError", "async generator ignored GeneratorExit")
		}
		return v, nil
	}
}

// awaitPassed awaits on thread what an async generator's body awaited:
// an Awaitable, or None for a plain suspension.
func awaitPassed(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	if v == starlark.None {
		v = Yield
	}
	return Await(thread, v)
}

// asyncGenMethod is an async generator's method name.
func asyncGenMethod(g *Generator, name string) starlark.Value {
	if g.kind != kindAsyncGen {
		return nil
	}
	var mk func(args starlark.Tuple) (starlark.Value, error)
	switch name {
	case "__aiter__":
		mk = func(starlark.Tuple) (starlark.Value, error) { return g, nil }
	case "__anext__":
		mk = func(starlark.Tuple) (starlark.Value, error) {
			return &agenStep{g: g, msg: genMsg{kind: msgSend, value: starlark.None}}, nil
		}
	case "asend":
		mk = func(args starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("asend() takes exactly one argument (%d given)", len(args))
			}
			return &agenStep{g: g, msg: genMsg{kind: msgSend, value: args[0]}}, nil
		}
	case "athrow":
		mk = func(args starlark.Tuple) (starlark.Value, error) {
			return &agenStep{g: g, msg: genMsg{kind: msgThrow}}, nil
		}
	case "aclose":
		mk = func(starlark.Tuple) (starlark.Value, error) {
			return &agenStep{g: g, msg: genMsg{kind: msgThrow, err: generatorExit()}, close: true}, nil
		}
	default:
		return nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if name == "athrow" {
			err, terr := thrown(thread, args)
			if terr != nil {
				return nil, terr
			}
			return &agenStep{g: g, msg: genMsg{kind: msgThrow, err: err}}, nil
		}
		return mk(args)
	})
}

// asyncIter is what `async for` walks (__ot_aiter(x)): a Stepper giving
// each value awaited from x.__aiter__().__anext__(), on the thread of the
// coroutine that walks it, until StopAsyncIteration.
type asyncIter struct {
	it   starlark.Value // what __aiter__ returned
	next starlark.Value // its __anext__
}

func (a *asyncIter) String() string        { return "<async_iterator>" }
func (a *asyncIter) Type() string          { return "async_iterator" }
func (a *asyncIter) Freeze()               {}
func (a *asyncIter) Truth() starlark.Bool  { return true }
func (a *asyncIter) Hash() (uint32, error) { return 0, nil }

func (a *asyncIter) Step(thread *starlark.Thread) (starlark.Value, bool, error) {
	if thread == nil {
		return nil, false, exception("RuntimeError", "async for outside a coroutine")
	}
	var step starlark.Value
	if g, ok := a.it.(*Generator); ok && g.kind == kindAsyncGen {
		step = &agenStep{g: g, msg: genMsg{kind: msgSend, value: starlark.None}}
	} else {
		var err error
		if step, err = starlark.Call(thread, a.next, nil, nil); err != nil {
			return nil, false, err
		}
	}
	v, err := Await(thread, step)
	if err != nil {
		if ex := asException(err); ex != nil && (ex.Class == "StopAsyncIteration" || ex.Value != nil && ex.Value.class.IsSubclass(BuiltinClass("StopAsyncIteration"))) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return v, true, nil
}

func aiterBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, typeError("aiter() takes exactly one argument")
	}
	x := args[0]
	if g, ok := x.(*Generator); ok {
		if g.kind != kindAsyncGen {
			return nil, typeError("'async for' requires an object with __aiter__ method, got %s", g.kind)
		}
		return &asyncIter{it: g}, nil
	}
	ai, err := GetAttr(thread, x, "__aiter__")
	if err != nil {
		return nil, typeError("'async for' requires an object with __aiter__ method, got %s", pyTypeName(x))
	}
	it, err := starlark.Call(thread, ai, nil, nil)
	if err != nil {
		return nil, err
	}
	if g, ok := it.(*Generator); ok && g.kind == kindAsyncGen {
		return &asyncIter{it: g}, nil
	}
	next, err := GetAttr(thread, it, "__anext__")
	if err != nil {
		return nil, typeError("'async for' received an object from __aiter__ that does not implement __anext__: %s", pyTypeName(it))
	}
	return &asyncIter{it: it, next: next}, nil
}

// asyncWith is __ot_awith(m): the context manager `async with m` uses,
// whose __enter__ and __exit__ await m's __aenter__ and __aexit__.
type asyncWith struct {
	m starlark.Value
}

func (a *asyncWith) String() string        { return "<async_with>" }
func (a *asyncWith) Type() string          { return "async_with" }
func (a *asyncWith) Freeze()               {}
func (a *asyncWith) Truth() starlark.Bool  { return true }
func (a *asyncWith) Hash() (uint32, error) { return 0, nil }
func (a *asyncWith) AttrNames() []string   { return []string{"__enter__", "__exit__"} }
func (a *asyncWith) Attr(name string) (starlark.Value, error) {
	var target string
	switch name {
	case "__enter__":
		target = "__aenter__"
	case "__exit__":
		target = "__aexit__"
	default:
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn, err := GetAttr(thread, a.m, target)
		if err != nil {
			if isAttributeError(err) {
				return nil, typeError("'%s' object does not support the asynchronous context manager protocol", pyTypeName(a.m))
			}
			return nil, err
		}
		aw, err := starlark.Call(thread, fn, args, kwargs)
		if err != nil {
			return nil, err
		}
		return Await(thread, aw)
	}), nil
}

func asyncWithBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, typeError("__ot_awith takes 1 argument")
	}
	return &asyncWith{m: args[0]}, nil
}

// anextBuiltin is anext(it[, default]): an awaitable of it's next value.
func anextBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, typeError("anext expected 1 or 2 arguments, got %d", len(args))
	}
	var step starlark.Value
	if g, ok := args[0].(*Generator); ok && g.kind == kindAsyncGen {
		step = &agenStep{g: g, msg: genMsg{kind: msgSend, value: starlark.None}}
	} else {
		fn, err := GetAttr(thread, args[0], "__anext__")
		if err != nil {
			return nil, typeError("'%s' object is not an async iterator", pyTypeName(args[0]))
		}
		if step, err = starlark.Call(thread, fn, nil, nil); err != nil {
			return nil, err
		}
	}
	if len(args) == 1 {
		return step, nil
	}
	return &anextDefault{step: step, dflt: args[1]}, nil
}

// anextDefault is anext(it, default): the default at the end.
type anextDefault struct{ step, dflt starlark.Value }

func (a *anextDefault) String() string        { return "<anext_awaitable object>" }
func (a *anextDefault) Type() string          { return "anext_awaitable" }
func (a *anextDefault) Freeze()               {}
func (a *anextDefault) Truth() starlark.Bool  { return true }
func (a *anextDefault) Hash() (uint32, error) { return 0, nil }
func (a *anextDefault) Drive(thread *starlark.Thread) (starlark.Value, error) {
	v, err := Await(thread, a.step)
	if err != nil {
		if ex := asException(err); ex != nil && ex.Class == "StopAsyncIteration" {
			return a.dflt, nil
		}
	}
	return v, err
}

func asyncBuiltins() starlark.StringDict {
	return starlark.StringDict{
		lowered.AsyncGenerator: interp.NewBuiltin(lowered.AsyncGenerator, newSuspendable(kindAsyncGen)),
		lowered.Await:          interp.NewBuiltin(lowered.Await, awaitBuiltin),
		lowered.AsyncIter:      interp.NewBuiltin(lowered.AsyncIter, aiterBuiltin),
		lowered.AsyncWith:      interp.NewBuiltin(lowered.AsyncWith, asyncWithBuiltin),
		"aiter":                interp.NewBuiltin("aiter", aiterBuiltin),
		"anext":                interp.NewBuiltin("anext", anextBuiltin),
		lowered.TopLevelAsync:  interp.NewBuiltin(lowered.TopLevelAsync, topLevelAsync),
		lowered.TopLevelAwait:  interp.NewBuiltin(lowered.TopLevelAwait, topAwait),
	}
}

// AsyncGenSend is the awaitable of g.asend(v) (v nil: __anext__()).
func AsyncGenSend(g *Generator, v starlark.Value) starlark.Value {
	if v == nil {
		v = starlark.None
	}
	return &agenStep{g: g, msg: genMsg{kind: msgSend, value: v}}
}

// AsyncGenThrow is the awaitable of g.athrow(exc).
func AsyncGenThrow(thread *starlark.Thread, g *Generator, exc starlark.Value) (starlark.Value, error) {
	err, terr := thrown(thread, starlark.Tuple{exc})
	if terr != nil {
		return nil, terr
	}
	return &agenStep{g: g, msg: genMsg{kind: msgThrow, err: err}}, nil
}

// IsAsyncGenerator reports an async generator object.
func IsAsyncGenerator(v starlark.Value) bool {
	g, ok := v.(*Generator)
	return ok && g.kind == kindAsyncGen
}

// IsStopAsyncIteration reports StopAsyncIteration.
func IsStopAsyncIteration(err error) bool {
	ex := asException(err)
	return ex != nil && (ex.Class == "StopAsyncIteration" || ex.Value != nil && ex.Value.class.IsSubclass(BuiltinClass("StopAsyncIteration")))
}
