package pyrt

import (
	"errors"
	"fmt"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Generators (PEP 255, 342, 380, 479). go.starlark.net has no way to
// suspend a function, so the body of a generator function (the inner def
// the lowering makes of it, lowered.GenBody) runs on a thread of its own,
// an interp.Child, on a goroutine of its own. Resuming the generator
// hands that goroutine a message (a value to send, an exception to
// throw) and waits for its answer (a value yielded, or the end); the
// body's __ot_yield hands its value back and waits for the next message.
// Only one of the two computes at any moment, so the run's budget,
// output and variables are never touched by two goroutines at once, and
// every statement inside the body — try/finally, with, loops, closures —
// keeps its meaning because it runs as it would in any function.
//
// A generator whose body has not started holds no goroutine; one that
// has finished has let its goroutine go. One left suspended when its run
// ends is stopped then (interp.Child's OnStop): its thread is cancelled,
// so that none of its code runs after the run, and its goroutine ends.
//
// `yield from g` of a generator that has not started runs g's body
// inline, on the delegating generator's thread: its yields are then the
// delegating generator's, send/throw/close reach it directly, and a deep
// chain of them (a recursive tree walk) is one thread's stack, bounded as
// any recursion is.

// genKind tells the objects that run a suspendable body apart.
type genKind uint8

const (
	kindGenerator genKind = iota
	kindCoroutine
	kindAsyncGen
)

func (k genKind) String() string {
	switch k {
	case kindCoroutine:
		return "coroutine"
	case kindAsyncGen:
		return "async_generator"
	}
	return "generator"
}

type genState uint8

const (
	genCreated genState = iota
	genSuspended
	genRunning
	genDone
)

type msgKind uint8

const (
	msgSend  msgKind = iota // to the body: the value of its yield
	msgThrow                // to the body: raise err at its yield
	msgStop                 // to the body: the run is over
	msgYield                // from the body: a value
	msgAwait                // from an async generator's body: wait for value, then resume it
	msgDone                 // from the body: it returned value, or raised err
)

type genMsg struct {
	kind  msgKind
	value starlark.Value
	err   error
}

// genLocal is the thread-local of a child thread naming the Generator
// whose body it runs.
const genLocal = "onetool.pyrt.generator"

// errStopped is what a suspended body gets when its run ends.
var errStopped = errors.New("the run that made this generator has ended")

// Generator is a generator object, a coroutine object (async def) or an
// async generator object.
type Generator struct {
	kind     genKind
	qualname string
	fn       starlark.Callable // the body, lowered.GenBody
	args     starlark.Tuple
	state    genState
	child    *interp.Child
	to, from chan genMsg
	exited   chan struct{}
	// delegate is what a yield from (or an await) of the body is
	// walking: gi_yieldfrom.
	delegate starlark.Value
	// awaited marks a coroutine already awaited or run.
	awaited bool
	// last is the kind of the body's last answer: an async generator's
	// yield (msgYield) or await (msgAwait).
	last msgKind
	// inherited counts the exceptions at the bottom of the body's
	// handling stack that are its resumer's (see inherit).
	inherited int
	// host finds the thread running the program now, for a caller that
	// has none (go.starlark.net's iteration protocol passes none).
	host *interp.Host
}

var (
	_ Stepper           = (*Generator)(nil)
	_ starlark.HasAttrs = (*Generator)(nil)
	_ interp.Holder     = (*Generator)(nil)
)

// newSuspendable is __ot_generator(body, qualname, *params): the object
// calling a generator function (or an async def) gives.
func newSuspendable(kind genKind) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) < 2 || len(kwargs) > 0 {
			return nil, typeError("%s takes a body and a name", b.Name())
		}
		fn, ok := args[0].(starlark.Callable)
		name, ok2 := args[1].(starlark.String)
		if !ok || !ok2 {
			return nil, typeError("%s takes a body and a name", b.Name())
		}
		return &Generator{kind: kind, qualname: string(name), fn: fn, args: append(starlark.Tuple(nil), args[2:]...), host: interp.HostOf(thread)}, nil
	}
}

// NewGenerator is a generator object whose body is fn(args...), named
// qualname: for Go code that makes generators (a generator expression).
func NewGenerator(thread *starlark.Thread, qualname string, fn starlark.Callable, args ...starlark.Value) *Generator {
	return &Generator{qualname: qualname, fn: fn, args: args, host: interp.HostOf(thread)}
}

func (g *Generator) name() string {
	n := g.qualname
	for i := len(n) - 1; i >= 0; i-- {
		if n[i] == '.' {
			return n[i+1:]
		}
	}
	return n
}

func (g *Generator) String() string {
	return fmt.Sprintf("<%s object %s at 0x%x>", g.kind, g.qualname, uintptr(unsafe.Pointer(g)))
}
func (g *Generator) Type() string         { return g.kind.String() }
func (g *Generator) Freeze()              {}
func (g *Generator) Truth() starlark.Bool { return true }
func (g *Generator) Hash() (uint32, error) {
	p := uintptr(unsafe.Pointer(g))
	return uint32(p>>4) ^ uint32(p>>36), nil
}

// Held visits what a generator keeps alive: its body and arguments (its
// frames, once started, are walked by the memory meter as a child's).
func (g *Generator) Held(visit func(starlark.Value)) {
	visit(g.fn)
	for _, a := range g.args {
		visit(a)
	}
	if g.delegate != nil {
		visit(g.delegate)
	}
}

// Kind is "generator", "coroutine" or "async_generator".
func (g *Generator) Kind() string { return g.kind.String() }

// Step is next(g): a generator's next value, false at its end.
func (g *Generator) Step(thread *starlark.Thread) (starlark.Value, bool, error) {
	if g.kind != kindGenerator {
		return nil, false, typeError("'%s' object is not an iterator", g.kind)
	}
	v, done, err := g.resume(thread, genMsg{kind: msgSend, value: starlark.None})
	if err != nil || done {
		return nil, false, err
	}
	return v, true, nil
}

// Next is next(g) with CPython's StopIteration, which carries the value
// the body returned.
func (g *Generator) Next(thread *starlark.Thread) (starlark.Value, error) {
	v, done, err := g.resume(thread, genMsg{kind: msgSend, value: starlark.None})
	if err != nil {
		return nil, err
	}
	if done {
		return nil, stopIteration(v)
	}
	return v, nil
}

// stopIteration is StopIteration(v), or StopIteration() for None.
func stopIteration(v starlark.Value) error {
	if v == nil || v == starlark.None {
		return &Exception{Class: "StopIteration"}
	}
	exc := &ExcValue{class: BuiltinClass("StopIteration"), args: starlark.Tuple{v}}
	return &Exception{Class: "StopIteration", Msg: exc.Message(), Value: exc}
}

// resume hands msg to the body and waits for its answer: a value
// yielded (done false), or its end (done true, with the value it
// returned, or its exception as err).
func (g *Generator) resume(thread *starlark.Thread, msg genMsg) (v starlark.Value, done bool, err error) {
	if thread == nil {
		if thread = g.host.Thread(); thread == nil {
			return nil, false, exception("RuntimeError", "%s resumed outside a run", g.kind)
		}
	}
	switch g.state {
	case genRunning:
		return nil, false, valueError("%s already executing", g.kind)
	case genDone:
		switch msg.kind {
		case msgThrow:
			return nil, true, msg.err
		case msgSend:
			if g.kind == kindCoroutine {
				return nil, true, exception("RuntimeError", "cannot reuse already awaited coroutine")
			}
		}
		return starlark.None, true, nil
	case genCreated:
		switch {
		case msg.kind == msgThrow:
			// Thrown before it started: the body never runs.
			g.state = genDone
			return nil, true, msg.err
		case msg.kind == msgStop:
			g.state = genDone
			return starlark.None, true, nil
		case msg.value != starlark.None:
			what := g.kind.String()
			if g.kind == kindAsyncGen {
				what = "async generator"
			}
			return nil, false, typeError("can't send non-None value to a just-started %s", what)
		}
		child, err := interp.NewChild(thread, g.name())
		if err != nil {
			if errors.Is(err, interp.ErrTooManyChildren) {
				return nil, false, exception("RuntimeError", "%v (at most %d): close the generators you no longer need (g.close()), or consume them", err, interp.MaxChildren)
			}
			return nil, false, err
		}
		g.child = child
		g.to, g.from, g.exited = make(chan genMsg), make(chan genMsg, 1), make(chan struct{})
		child.Thread.SetLocal(genLocal, g)
		child.OnStop(g.stop)
		g.state = genRunning
		leave := child.Enter(thread)
		g.inherit(thread)
		go g.run()
		return g.answer(thread, leave)
	}
	g.state = genRunning
	leave := g.child.Enter(thread)
	g.inherit(thread)
	g.to <- msg
	return g.answer(thread, leave)
}

// answer waits for the body's answer to a resume from thread.
func (g *Generator) answer(thread *starlark.Thread, leave func()) (starlark.Value, bool, error) {
	r := <-g.from
	leave()
	g.last = r.kind
	switch r.kind {
	case msgYield, msgAwait:
		g.state = genSuspended
		return r.value, false, nil
	}
	g.state = genDone
	g.child = nil
	if r.err != nil {
		g.stitch(thread, r.err)
		return nil, true, g.escaped(r.err)
	}
	return r.value, true, nil
}

// escaped is the exception a body raised as its caller sees it: a
// StopIteration that escapes a generator is a RuntimeError (PEP 479), as
// a StopAsyncIteration escaping an async generator is.
func (g *Generator) escaped(err error) error {
	ex := asException(err)
	if ex == nil {
		return err
	}
	cls := BuiltinClass(ex.Class)
	if ex.Value != nil {
		cls = ex.Value.class
	}
	if cls == nil {
		return err
	}
	what := ""
	switch {
	case cls.IsSubclass(BuiltinClass("StopIteration")):
		what = "StopIteration"
	case g.kind == kindAsyncGen && cls.IsSubclass(BuiltinClass("StopAsyncIteration")):
		what = "StopAsyncIteration"
	default:
		return err
	}
	cause := ex.Value
	if cause == nil {
		cause = &ExcValue{class: cls}
		if ex.Msg != "" {
			cause.args = starlark.Tuple{starlark.String(ex.Msg)}
		}
	}
	kind := g.kind.String()
	if g.kind == kindAsyncGen {
		kind = "async generator"
	}
	exc := &ExcValue{class: BuiltinClass("RuntimeError"), args: starlark.Tuple{starlark.String(kind + " raised " + what)}, cause: cause, context: cause, suppress: true}
	return &Exception{Class: "RuntimeError", Msg: exc.Message(), Value: exc}
}

// run is the body's goroutine.
func (g *Generator) run() {
	defer close(g.exited)
	t := g.child.Thread
	var v starlark.Value
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error: %v", r)
			}
		}()
		v, err = starlark.Call(t, g.fn, g.args, nil)
	}()
	if serr := g.child.Settle(); serr != nil && err == nil {
		err = serr
	}
	g.child.Done()
	g.from <- genMsg{kind: msgDone, value: v, err: err}
}

// suspend is the body's side of a yield: it hands msg to whoever resumed
// the generator and waits for the next message.
func (g *Generator) suspend(thread *starlark.Thread, msg genMsg) genMsg {
	if err := g.child.Settle(); err != nil {
		return genMsg{kind: msgThrow, err: err}
	}
	g.from <- msg
	return <-g.to
}

// stop ends a suspended body when its run ends: its thread is cancelled
// (nothing of the program runs after its run), the body unwinds, and its
// goroutine ends before stop returns.
func (g *Generator) stop() {
	if g.state != genSuspended || g.child == nil {
		return
	}
	g.child.Thread.Cancel(errStopped.Error())
	g.to <- genMsg{kind: msgStop}
	// Until the body ends: Go code in it that resumed something else
	// may yield once more as it unwinds; each such yield is answered
	// with the same stop.
	for r := range g.from {
		if r.kind == msgDone {
			break
		}
		g.to <- genMsg{kind: msgStop}
	}
	<-g.exited
	g.state, g.child = genDone, nil
}

// current is the generator whose body runs on thread, nil on a thread
// that runs none.
func current(thread *starlark.Thread) *Generator {
	g, _ := thread.Local(genLocal).(*Generator)
	return g
}

// yieldBuiltin is __ot_yield(v): the value of `yield v` is what the
// generator is sent next.
func yieldBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	g := current(thread)
	if g == nil || len(args) != 1 {
		return nil, exception("SyntaxError", "'yield' outside function")
	}
	if g.kind == kindCoroutine {
		return nil, exception("SyntaxError", "'yield' inside a coroutine")
	}
	return g.yield(thread, args[0])
}

// yield hands v to the consumer and returns what it sends back.
func (g *Generator) yield(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	m := g.suspend(thread, genMsg{kind: msgYield, value: v})
	switch m.kind {
	case msgSend:
		return m.value, nil
	case msgThrow:
		return nil, m.err
	}
	return nil, errStopped
}

// yieldValue is __ot_yieldv(v): a generator expression's yield, which
// is false so that the comprehension it is in keeps nothing.
func yieldValue(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if _, err := yieldBuiltin(thread, b, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.False, nil
}

// genExp is __ot_genexp(fn, it): a generator expression whose first
// iterable, it, was evaluated where the expression is (as Python does);
// the rest runs lazily in fn(it). __ot_agenexp is an async one's.
func genExp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, typeError("__ot_genexp takes 2 arguments")
	}
	fn, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, typeError("__ot_genexp takes a function")
	}
	kind := kindGenerator
	if b.Name() == lowered.AsyncGenExp {
		kind = kindAsyncGen
	}
	return &Generator{kind: kind, qualname: "<genexpr>", fn: fn, args: starlark.Tuple{args[1]}, host: interp.HostOf(thread)}, nil
}

// yieldFrom is __ot_yield_from(x): yields what x gives, passing on what
// the consumer sends or throws, and is the value x's generator returns.
func yieldFrom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	g := current(thread)
	if g == nil || len(args) != 1 {
		return nil, exception("SyntaxError", "'yield' outside function")
	}
	x := args[0]
	sub, ok := x.(*Generator)
	if ok && sub.kind == kindCoroutine {
		return nil, typeError("cannot 'yield from' a coroutine object in a non-coroutine generator")
	}
	if ok && sub.kind == kindGenerator && sub.state == genCreated {
		return sub.runInline(thread, g)
	}
	if ok && sub.kind == kindGenerator {
		g.delegate = sub
		defer func() { g.delegate = nil }()
		v, done, err := sub.resume(thread, genMsg{kind: msgSend, value: starlark.None})
		for {
			if err != nil {
				return nil, err
			}
			if done {
				return v, nil
			}
			m := g.suspend(thread, genMsg{kind: msgYield, value: v})
			switch m.kind {
			case msgStop:
				return nil, errStopped
			case msgThrow:
				if isGeneratorExit(m.err) {
					if _, _, cerr := sub.resume(thread, genMsg{kind: msgThrow, err: generatorExit()}); cerr != nil && !isGeneratorExit(cerr) {
						return nil, cerr
					}
					return nil, m.err
				}
			}
			v, done, err = sub.resume(thread, m)
		}
	}
	// Any other iterable: its values, one per yield. Its iterator has no
	// send: a value other than None sent is CPython's AttributeError.
	it, err := iterOf(thread, x)
	if err != nil {
		return nil, err
	}
	g.delegate = it
	defer func() { g.delegate = nil }()
	for {
		v, ok, err := it.next(thread)
		if err != nil {
			return nil, err
		}
		if !ok {
			return starlark.None, nil
		}
		m := g.suspend(thread, genMsg{kind: msgYield, value: v})
		switch m.kind {
		case msgStop:
			return nil, errStopped
		case msgThrow:
			return nil, m.err
		case msgSend:
			if m.value != starlark.None {
				return nil, exception("AttributeError", "'%s' object has no attribute 'send'", it.name)
			}
		}
	}
}

func generatorExit() error {
	exc := &ExcValue{class: BuiltinClass("GeneratorExit")}
	return &Exception{Class: "GeneratorExit", Value: exc}
}

func isGeneratorExit(err error) bool {
	ex := asException(err)
	if ex == nil {
		return false
	}
	if ex.Value != nil {
		return ex.Value.class.IsSubclass(BuiltinClass("GeneratorExit"))
	}
	return ex.Class == "GeneratorExit"
}

// Attr gives the methods and gi_ attributes.
func (g *Generator) Attr(name string) (starlark.Value, error) {
	prefix := "gi_"
	switch g.kind {
	case kindCoroutine:
		prefix = "cr_"
	case kindAsyncGen:
		prefix = "ag_"
	}
	switch name {
	case "__name__":
		return starlark.String(g.name()), nil
	case "__qualname__":
		return starlark.String(g.qualname), nil
	case prefix + "running":
		return starlark.Bool(g.state == genRunning), nil
	case prefix + "suspended":
		return starlark.Bool(g.state == genSuspended), nil
	case prefix + "frame":
		if g.state == genDone {
			return starlark.None, nil
		}
		line := 0
		if c := g.child; c != nil && g.state == genSuspended && c.Thread.CallStackDepth() > 1 {
			// Suspended, its stack stands still: the yield's caller.
			line = int(c.Thread.CallFrame(1).Pos.Line)
		}
		return starlarkstruct.FromStringDict(starlark.String("frame"), starlark.StringDict{"f_lineno": starlark.MakeInt(line)}), nil
	case prefix + "code":
		return starlarkstruct.FromStringDict(starlark.String("code"), starlark.StringDict{"co_name": starlark.String(g.name()), "co_qualname": starlark.String(g.qualname)}), nil
	case prefix + "yieldfrom", "cr_await":
		if g.delegate == nil || (name == "cr_await") != (g.kind == kindCoroutine) {
			if name == prefix+"yieldfrom" || g.kind == kindCoroutine {
				return starlark.None, nil
			}
			return nil, nil
		}
		return g.delegate, nil
	}
	m := g.method(name)
	if m == nil {
		return nil, nil
	}
	return m, nil
}

func (g *Generator) method(name string) starlark.Value {
	var fn func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error)
	switch {
	case name == "send" && g.kind != kindAsyncGen:
		fn = func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("send() takes exactly one argument (%d given)", len(args))
			}
			return g.sendValue(thread, genMsg{kind: msgSend, value: args[0]})
		}
	case name == "throw" && g.kind != kindAsyncGen:
		fn = func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			err, terr := thrown(thread, args)
			if terr != nil {
				return nil, terr
			}
			return g.sendValue(thread, genMsg{kind: msgThrow, err: err})
		}
	case name == "close" && g.kind != kindAsyncGen:
		fn = func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			return starlark.None, g.Close(thread)
		}
	case (name == "__next__" || name == "__iter__") && g.kind == kindGenerator:
		fn = func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			if name == "__iter__" {
				return g, nil
			}
			return g.Next(thread)
		}
	case name == "__await__" && g.kind == kindCoroutine:
		fn = func(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
			return g.awaitWrapper(thread), nil
		}
	default:
		return asyncGenMethod(g, name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(kwargs) > 0 {
			return nil, typeError("%s() takes no keyword arguments", name)
		}
		return fn(thread, args)
	})
}

// sendValue is send(v) or throw(e): the next value yielded, or
// StopIteration with the value the body returned.
func (g *Generator) sendValue(thread *starlark.Thread, msg genMsg) (starlark.Value, error) {
	v, done, err := g.resume(thread, msg)
	if err != nil {
		return nil, err
	}
	if done {
		return nil, stopIteration(v)
	}
	return v, nil
}

// Close is g.close(): GeneratorExit thrown in at the yield where the body
// waits, so that its finally blocks and with statements run; a body that
// yields again is a RuntimeError.
func (g *Generator) Close(thread *starlark.Thread) error {
	switch g.state {
	case genCreated:
		g.state = genDone
		return nil
	case genDone:
		return nil
	}
	_, done, err := g.resume(thread, genMsg{kind: msgThrow, err: generatorExit()})
	switch {
	case err != nil && isGeneratorExit(err):
		return nil
	case err != nil:
		return err
	case !done:
		// It yielded again: it stays suspended there, as in CPython.
		return exception("RuntimeError", "%s ignored GeneratorExit", g.kind)
	}
	return nil
}

// thrown is the exception throw(typ[, val]) or throw(exc) raises.
func thrown(thread *starlark.Thread, args starlark.Tuple) (error, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, typeError("throw expected at least 1 argument, got %d", len(args))
	}
	// throw(typ, val): val an instance, or the argument of typ.
	if _, isInstance := args[0].(*ExcValue); !isInstance && len(args) > 1 && args[1] != starlark.None {
		if v, ok := args[1].(*ExcValue); ok {
			return v.raised(thread), nil
		}
	}
	var targs starlark.Tuple
	if len(args) > 1 && args[1] != starlark.None {
		targs = starlark.Tuple{args[1]}
	}
	exc, err := excInstance(thread, args[0], targs)
	if err != nil {
		return nil, err
	}
	if exc == nil {
		return nil, typeError("exceptions must be classes or instances deriving from BaseException, not %s", pyTypeName(args[0]))
	}
	return exc.raised(thread), nil
}

func (g *Generator) AttrNames() []string {
	switch g.kind {
	case kindCoroutine:
		return []string{"close", "cr_await", "cr_code", "cr_frame", "cr_running", "cr_suspended", "send", "throw"}
	case kindAsyncGen:
		return []string{"aclose", "ag_code", "ag_frame", "ag_running", "asend", "athrow"}
	}
	return []string{"close", "gi_code", "gi_frame", "gi_running", "gi_suspended", "gi_yieldfrom", "send", "throw"}
}

// generatorBuiltins are the helpers of generator functions and
// expressions.
func generatorBuiltins() starlark.StringDict {
	d := starlark.StringDict{
		lowered.Generator:   interp.NewBuiltin(lowered.Generator, newSuspendable(kindGenerator)),
		lowered.Coroutine:   interp.NewBuiltin(lowered.Coroutine, newSuspendable(kindCoroutine)),
		lowered.Yield:       interp.NewBuiltin(lowered.Yield, yieldBuiltin),
		lowered.YieldFrom:   interp.NewBuiltin(lowered.YieldFrom, yieldFrom),
		lowered.YieldValue:  interp.NewBuiltin(lowered.YieldValue, yieldValue),
		lowered.GenExp:      interp.NewBuiltin(lowered.GenExp, genExp),
		lowered.AsyncGenExp: interp.NewBuiltin(lowered.AsyncGenExp, genExp),
	}
	for k, v := range asyncBuiltins() {
		d[k] = v
	}
	return d
}

// isStopIteration reports an exception of StopIteration's class.
func isStopIteration(err error) bool {
	ex := asException(err)
	if ex == nil {
		return false
	}
	if ex.Value != nil {
		return ex.Value.class.IsSubclass(BuiltinClass("StopIteration"))
	}
	return ex.Class == "StopIteration"
}

// Iterate is how go.starlark.net walks a generator (and how code that
// takes any starlark.Iterable does): its values, its errors ending the
// run as pyIterView's do. The runtime's own loops take it as a Stepper.
func (g *Generator) Iterate() starlark.Iterator {
	it := &pyIter{name: g.kind.String(), src: stepSource{g}, thread: g.host.Thread()}
	return it.Iterate()
}

// Send resumes a generator with v (nil: next()): the value it yields
// next, or done with the value its body returned.
func (g *Generator) Send(thread *starlark.Thread, v starlark.Value) (starlark.Value, bool, error) {
	if v == nil {
		v = starlark.None
	}
	return g.resume(thread, genMsg{kind: msgSend, value: v})
}

// Throw raises exc (an exception instance or class) at the yield where
// the generator waits: the value it yields next, or done with the value
// its body returned, or the exception that ended it.
func (g *Generator) Throw(thread *starlark.Thread, exc starlark.Value) (starlark.Value, bool, error) {
	err, terr := thrown(thread, starlark.Tuple{exc})
	if terr != nil {
		return nil, false, terr
	}
	return g.resume(thread, genMsg{kind: msgThrow, err: err})
}

// IsGenerator reports whether v is a generator object (not a coroutine).
func IsGenerator(v starlark.Value) bool {
	switch g := v.(type) {
	case *Generator:
		return g.kind == kindGenerator
	case *pyIter:
		_, ok := g.src.(*genSource) // (x for x in y): a Go generator
		return ok
	}
	return false
}

// IsCoroutine reports whether v is a coroutine object.
func IsCoroutine(v starlark.Value) bool {
	g, ok := v.(*Generator)
	return ok && g.kind == kindCoroutine
}

// SameException reports whether the exception err raises is the
// instance v (an exception instance, or a program's exception object).
func SameException(thread *starlark.Thread, err error, v starlark.Value) bool {
	exc, ok := ExceptionOf(thread, err)
	if !ok {
		return false
	}
	switch x := v.(type) {
	case *ExcValue:
		return x == exc
	case Raisable:
		return x.Exception() == exc
	}
	return false
}

// CauseIs reports whether the exception err raises was raised from v
// (its __cause__), as a StopIteration thrown into a generator comes back
// as the RuntimeError of PEP 479.
func CauseIs(thread *starlark.Thread, err error, v starlark.Value) bool {
	exc, ok := ExceptionOf(thread, err)
	if !ok || exc.cause == nil {
		return false
	}
	switch x := v.(type) {
	case *ExcValue:
		return exc.cause == x
	case Raisable:
		return exc.cause == x.Exception()
	}
	return false
}

// Has is `x in g`: the generator is advanced until it gives a value
// equal to x (what it gave is consumed, as in Python).
func (g *Generator) Has(x starlark.Value) (bool, error) {
	if g.kind != kindGenerator {
		return false, typeError("argument of type '%s' is not iterable", g.kind)
	}
	return iteratorHas(g.host.Thread(), x, func(thread *starlark.Thread) (starlark.Value, bool, error) {
		return g.Step(thread)
	})
}

func iteratorHas(thread *starlark.Thread, x starlark.Value, next func(*starlark.Thread) (starlark.Value, bool, error)) (bool, error) {
	b := interp.BudgetOf(thread)
	for {
		v, ok, err := next(thread)
		if err != nil || !ok {
			return false, err
		}
		if eq, err := pyEqual(b, v, x); err != nil || eq {
			return eq, err
		}
	}
}

// State is inspect.getgeneratorstate's answer (getcoroutinestate's with
// CORO_): CREATED, RUNNING, SUSPENDED or CLOSED.
func (g *Generator) State() string {
	return [...]string{genCreated: "CREATED", genSuspended: "SUSPENDED", genRunning: "RUNNING", genDone: "CLOSED"}[g.state]
}

// awaitWrapper is coro.__await__(): a generator that drives the
// coroutine, yielding what it waits for and passing on what it is sent
// or thrown; its return value is the coroutine's.
func (g *Generator) awaitWrapper(thread *starlark.Thread) *Generator {
	body := interp.NewBuiltin("coroutine_wrapper", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		w := current(thread)
		msg := genMsg{kind: msgSend, value: starlark.None}
		for {
			v, done, err := g.resume(thread, msg)
			if err != nil || done {
				return v, err
			}
			m := w.suspend(thread, genMsg{kind: msgYield, value: v})
			if m.kind == msgStop {
				return nil, errStopped
			}
			msg = m
		}
	})
	return &Generator{qualname: "coroutine_wrapper", fn: body, host: interp.HostOf(thread)}
}

// stitch makes the call stack of an error the body raised read as
// CPython's traceback does: the frames of the code that resumed the
// generator, then the body's, named for the generator's function (the
// body ran on a thread of its own, whose stack has only its frames).
func (g *Generator) stitch(resumer *starlark.Thread, err error) {
	var inner *starlark.EvalError
	for e := err; e != nil; e = errors.Unwrap(e) {
		ee, ok := e.(*starlark.EvalError)
		if !ok {
			continue
		}
		for i := range ee.CallStack {
			if ee.CallStack[i].Name == lowered.GenBody {
				ee.CallStack[i].Name = g.name()
			}
		}
		inner = ee
	}
	if inner == nil || resumer == nil {
		return
	}
	outer := resumer.CallStack()
	stack := append(outer[:len(outer):len(outer)], inner.CallStack...)
	if len(stack) > maxStitched {
		// An error rising through a chain of ten thousand generators
		// is stitched at each: keep its two ends (a report says "...
		// N more calls ..." between them anyway), not a copy that grows
		// with the chain at every level.
		stack = append(stack[:maxStitched/2:maxStitched/2], stack[len(stack)-maxStitched/2:]...)
	}
	inner.CallStack = stack
}

// maxStitched bounds the call stack stitch keeps.
const maxStitched = 400

// inherit gives the body the exception its resumer is handling, beneath
// those its own except clauses handle: as in CPython, sys.exc_info() in
// a generator resumed from an except clause is that clause's exception,
// and an exception raised there has it as its __context__.
func (g *Generator) inherit(resumer *starlark.Thread) {
	t := g.child.Thread
	s, _ := t.Local(handlingLocal).(*[]*ExcValue)
	top := Handling(resumer)
	if top == nil && (s == nil || g.inherited == 0) {
		return
	}
	if s == nil {
		s = new([]*ExcValue)
		t.SetLocal(handlingLocal, s)
	}
	own := (*s)[g.inherited:]
	next := make([]*ExcValue, 0, 1+len(own))
	if top != nil {
		next = append(next, top)
	}
	*s = append(next, own...)
	g.inherited = len(next) - len(own)
}

// runInline runs the body of g, not yet started, on thread, on behalf of
// by, the generator or coroutine whose body runs there (yield from a
// fresh generator, await of a coroutine): g's yields and awaits are by's,
// and a chain of them is one thread's stack.
func (g *Generator) runInline(thread *starlark.Thread, by *Generator) (starlark.Value, error) {
	g.awaited = true
	g.state = genRunning
	prev := by.delegate
	by.delegate = g
	v, err := starlark.Call(thread, g.fn, g.args, nil)
	by.delegate = prev
	g.state = genDone
	if err != nil {
		return nil, g.escaped(err)
	}
	return v, nil
}
