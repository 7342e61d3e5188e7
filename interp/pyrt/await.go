package pyrt

import (
	"errors"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Coroutines (PEP 492) are generators whose body awaits: a coroutine
// object runs its body on a child thread as a generator does, and
// `await x` suspends that thread, handing x — an asyncio future, or None
// to let the others run once — to whoever resumes the coroutine: an
// asyncio Task of package eventloop, which resumes it when x is done.
// Awaiting another coroutine runs its body inline, on the same thread,
// so that a chain of awaits costs calls, not goroutines, and a task is
// one thread however deep its awaits go.
//
// An async generator's body runs on a child of its own, handed values
// by its consumer's `async for`; its awaits are passed to the consumer,
// which waits for them on its own task and hands back the result.

// Awaitable is what `await` waits for by suspending the coroutine until
// it is done: asyncio's futures and tasks (package eventloop).
type Awaitable interface {
	starlark.Value
	// Done reports whether the result is there.
	Done() bool
	// Result is the result, or the exception that ended it.
	Result(thread *starlark.Thread) (starlark.Value, error)
}

// Driver is an awaitable that computes its result on the awaiting
// coroutine's thread, awaiting what it needs there itself: a step of an
// async generator (__anext__, asend, athrow, aclose).
type Driver interface {
	starlark.Value
	Drive(thread *starlark.Thread) (starlark.Value, error)
}

// sleepZero is what asyncio.sleep(0) awaits: one suspension, so that the
// event loop runs every other task ready.
type sleepZero struct{}

func (sleepZero) String() string        { return "<yield>" }
func (sleepZero) Type() string          { return "yield" }
func (sleepZero) Freeze()               {}
func (sleepZero) Truth() starlark.Bool  { return true }
func (sleepZero) Hash() (uint32, error) { return 0, nil }

// Yield is a value `await Yield` suspends the coroutine once for, with
// None handed to the event loop (asyncio.sleep(0)).
var Yield starlark.Value = sleepZero{}

// Await is `await x` on thread: x's result, the coroutine on thread
// suspended until it is there.
func Await(thread *starlark.Thread, x starlark.Value) (starlark.Value, error) {
	g := current(thread)
	if g == nil || g.kind == kindGenerator {
		return awaitTop(thread, x)
	}
	switch v := x.(type) {
	case *Generator:
		if v.kind != kindCoroutine {
			return nil, typeError("object %s can't be used in 'await' expression", v.kind)
		}
		if v.state != genCreated || v.awaited {
			return nil, exception("RuntimeError", "cannot reuse already awaited coroutine")
		}
		return v.runInline(thread, g)
	case sleepZero:
		return starlark.None, g.pass(thread, starlark.None)
	case Driver:
		return v.Drive(thread)
	case Awaitable:
		if !v.Done() {
			prev := g.delegate
			g.delegate = v
			err := g.pass(thread, v)
			g.delegate = prev
			if err != nil {
				return nil, err
			}
			if !v.Done() {
				return nil, exception("RuntimeError", "await wasn't used with future")
			}
		}
		return v.Result(thread)
	}
	// An object with __await__ (a program's class): the iterator it
	// returns is walked as yield from would, each value passed on.
	aw, err := GetAttr(thread, x, "__await__")
	if err != nil || aw == nil {
		return nil, typeError("object %s can't be used in 'await' expression", pyTypeName(x))
	}
	it, err := starlark.Call(thread, aw, nil, nil)
	if err != nil {
		return nil, err
	}
	if sub, ok := it.(*Generator); ok {
		if sub.kind == kindCoroutine {
			return Await(thread, sub)
		}
		v, done, err := sub.resume(thread, genMsg{kind: msgSend, value: starlark.None})
		for {
			if err != nil {
				return nil, err
			}
			if done {
				return v, nil
			}
			if perr := g.pass(thread, v); perr != nil {
				if errors.Is(perr, errStopped) || uncatchable(perr) {
					return nil, perr // the run is over: nothing more runs
				}
				v, done, err = sub.resume(thread, genMsg{kind: msgThrow, err: perr})
				continue
			}
			v, done, err = sub.resume(thread, genMsg{kind: msgSend, value: starlark.None})
		}
	}
	next, err := Iterate(thread, it)
	if err != nil {
		return nil, typeError("__await__() returned non-iterator of type '%s'", pyTypeName(it))
	}
	for {
		v, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return starlark.None, nil
		}
		if err := g.pass(thread, v); err != nil {
			return nil, err
		}
	}
}

// pass suspends the coroutine (or async generator) on thread, handing v
// to what resumes it; the error is an exception thrown in meanwhile (a
// task's cancellation).
func (g *Generator) pass(thread *starlark.Thread, v starlark.Value) error {
	kind := msgYield
	if g.kind == kindAsyncGen {
		kind = msgAwait
	}
	m := g.suspend(thread, genMsg{kind: kind, value: v})
	switch m.kind {
	case msgSend:
		return nil
	case msgThrow:
		return m.err
	}
	return errStopped
}

// awaitTop is an await outside any coroutine: at the top level of a
// program (or inside a generator, where CPython would not compile it).
func awaitTop(thread *starlark.Thread, x starlark.Value) (starlark.Value, error) {
	if g := current(thread); g != nil {
		return nil, exception("SyntaxError", "'await' outside async function")
	}
	// asyncio runs the event loop until x is done (_toplevel_await).
	m, err := importAsyncio(thread)
	if err != nil {
		return nil, err
	}
	run, err := GetAttr(thread, m, "_toplevel_await")
	if err != nil {
		return nil, exception("SyntaxError", "'await' outside async function")
	}
	return starlark.Call(thread, run, starlark.Tuple{x}, nil)
}

// importAsyncio is the asyncio module, imported as a program does.
func importAsyncio(thread *starlark.Thread) (starlark.Value, error) {
	imp, ok := interp.Predeclared(thread)["__ot_import"].(starlark.Callable)
	if !ok {
		return nil, exception("SyntaxError", "'await' outside async function")
	}
	return starlark.Call(thread, imp, starlark.Tuple{starlark.String("asyncio")}, nil)
}

// topAwaitLocal is the run-local counting the top-level awaits whose
// operand is being evaluated: the tools called then give awaitables (see
// InCoroutine).
const topAwaitLocal = "onetool.pyrt.topawait"

// topAwait is __ot_topawait(fn): await fn() at the top level.
func topAwait(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, typeError("__ot_topawait takes 1 argument")
	}
	n, _ := interp.RunLocal(thread, topAwaitLocal).(int)
	interp.SetRunLocal(thread, topAwaitLocal, n+1)
	x, err := starlark.Call(thread, args[0], nil, nil)
	interp.SetRunLocal(thread, topAwaitLocal, n)
	if err != nil {
		return nil, err
	}
	return Await(thread, x)
}

// topLevelAsync is __ot_toplevel_async(), the first statement of such a
// program: the event loop's hook (interp.Async) is set up now, so that
// the tools its first line calls start on the loop.
func topLevelAsync(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	m, err := importAsyncio(thread)
	if err != nil {
		return nil, err
	}
	setup, err := GetAttr(thread, m, "_toplevel_setup")
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, setup, nil, nil)
}

// InCoroutine reports whether the code calling on thread is the body of
// a coroutine (an async def), not a plain function it called: a tool
// called there gives an awaitable (see interp.AsyncOf).
func InCoroutine(thread *starlark.Thread) bool {
	g := current(thread)
	if g == nil {
		n, _ := interp.RunLocal(thread, topAwaitLocal).(int)
		return n > 0 && nearestDef(thread) == "<toplevel>"
	}
	if g.kind == kindGenerator {
		return false
	}
	return nearestDef(thread) == lowered.GenBody
}

// nearestDef is the name of the innermost def running on thread, above
// the builtin asking: lambdas, generator expressions and the lowering's
// own parts (try, with) belong to the def around them.
func nearestDef(thread *starlark.Thread) string {
	for d := 1; d < thread.CallStackDepth(); d++ {
		fn, ok := thread.DebugFrame(d).Callable().(*starlark.Function)
		if !ok {
			continue
		}
		name := fn.Name()
		if name == "lambda" || (name != lowered.GenBody && len(name) > 5 && name[:5] == "__ot_") {
			continue
		}
		return name
	}
	return ""
}

// awaitBuiltin is __ot_await(x).
func awaitBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, typeError("__ot_await takes 1 argument")
	}
	return Await(thread, args[0])
}

// NewCoroutine is a coroutine object whose body is fn(args...), which
// may be Go code that awaits with Await: asyncio's own coroutine
// functions (sleep, wait_for) are such.
func NewCoroutine(thread *starlark.Thread, qualname string, fn starlark.Callable, args ...starlark.Value) *Generator {
	return &Generator{kind: kindCoroutine, qualname: qualname, fn: fn, args: args, host: interp.HostOf(thread)}
}

// CoroutineSend resumes a coroutine (for an asyncio Task's step): what it
// awaits next (an Awaitable, or None for a plain suspension), or done
// with its result; err is the exception that ended it.
func CoroutineSend(thread *starlark.Thread, c starlark.Value, throw error) (awaiting starlark.Value, done bool, err error) {
	g, ok := c.(*Generator)
	if !ok || g.kind != kindCoroutine {
		return nil, true, typeError("a coroutine was expected, got %s", pyTypeName(c))
	}
	g.awaited = true
	if throw != nil {
		return g.resume(thread, genMsg{kind: msgThrow, err: throw})
	}
	return g.resume(thread, genMsg{kind: msgSend, value: starlark.None})
}

// CoroutineClose closes a coroutine never run (asyncio's cleanup).
func CoroutineClose(thread *starlark.Thread, c starlark.Value) error {
	if g, ok := c.(*Generator); ok {
		return g.Close(thread)
	}
	return nil
}
