package eventloop

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp/pyrt"
)

// release is _release_waiter: a callback that gives waiter its result.
func release(waiter *Future) callback {
	return callback{id: new(int), fn: func(*starlark.Thread, *Future) error {
		if waiter.state == pending {
			waiter.setResult(starlark.None)
		}
		return nil
	}}
}

// cancelAndWait cancels fut and waits until it is done.
func cancelAndWait(thread *starlark.Thread, l *Loop, fut *Future) error {
	waiter := newFuture(l)
	cb := release(waiter)
	fut.addCallback(cb)
	defer fut.removeCallback(cb.same)
	fut.Cancel(starlark.None)
	_, err := pyrt.Await(thread, waiter)
	return err
}

// timeoutFrom is TimeoutError() raised from cause (a CancelledError).
func timeoutFrom(thread *starlark.Thread, cause error) error {
	exc := pyrt.NewExc(pyrt.BuiltinClass("TimeoutError"))
	if c, ok := pyrt.ExceptionOf(thread, cause); ok {
		exc.SetCause(c)
	}
	return exc.Error()
}

// waitFor is asyncio.wait_for(aw, timeout), as CPython 3.11's.
func waitFor(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var aw, timeout starlark.Value
	if err := starlark.UnpackArgs("wait_for", args, kwargs, "fut", &aw, "timeout", &timeout); err != nil {
		return nil, err
	}
	var d float64
	if timeout != starlark.None {
		var err error
		if d, err = seconds(timeout, "wait_for"); err != nil {
			return nil, err
		}
	}
	return coroutine(thread, "wait_for", func(thread *starlark.Thread) (starlark.Value, error) {
		if timeout == starlark.None {
			return pyrt.Await(thread, aw)
		}
		l, err := runningLoop(thread)
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			fut, err := ensureFuture(thread, l, aw)
			if err != nil {
				return nil, err
			}
			if fut.Done() {
				return fut.Result(thread)
			}
			return timedOut(thread, l, fut)
		}
		waiter := newFuture(l)
		h := l.callLater(d, release(waiter).now())
		defer h.Cancel()
		fut, err := ensureFuture(thread, l, aw)
		if err != nil {
			return nil, err
		}
		cb := release(waiter)
		fut.addCallback(cb)
		if _, err := pyrt.Await(thread, waiter); err != nil {
			if !isCancelled(thread, err) {
				return nil, err
			}
			if fut.Done() {
				return fut.Result(thread)
			}
			fut.removeCallback(cb.same)
			if werr := cancelAndWait(thread, l, fut); werr != nil {
				return nil, werr
			}
			return nil, err
		}
		if fut.Done() {
			return fut.Result(thread)
		}
		fut.removeCallback(cb.same)
		return timedOut(thread, l, fut)
	}), nil
}

// timedOut is the end of a wait_for whose time ran out: fut cancelled and
// waited for, its cancellation raised as TimeoutError (its result, if it
// finished meanwhile).
func timedOut(thread *starlark.Thread, l *Loop, fut *Future) (starlark.Value, error) {
	if err := cancelAndWait(thread, l, fut); err != nil {
		return nil, err
	}
	v, err := fut.Result(thread)
	if err != nil && isCancelled(thread, err) {
		return nil, timeoutFrom(thread, err)
	}
	return v, err
}

// futuresOf is the futures of an iterable of awaitables, each made a
// task as ensure_future would (coroutines refused where CPython does).
func futuresOf(thread *starlark.Thread, l *Loop, fs starlark.Value, fn string, coroutines bool) ([]*Future, error) {
	if _, ok := fs.(*Future); ok || pyrt.IsCoroutine(fs) {
		return nil, pyrt.Errorf("TypeError", "expect a list of futures, not %s", pyrt.TypeName(fs))
	}
	items, err := pyrt.Collect(thread, fs)
	if err != nil {
		return nil, err
	}
	var out []*Future
	seen := map[starlark.Value]bool{}
	for _, x := range items {
		if isHashableKey(x) {
			if seen[x] {
				continue
			}
			seen[x] = true
		}
		if !coroutines && pyrt.IsCoroutine(x) {
			return nil, pyrt.Errorf("TypeError", "Passing coroutines is forbidden, use tasks explicitly.")
		}
		f, err := ensureFuture(thread, l, x)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// waitBuiltin is asyncio.wait(fs, *, timeout=None, return_when=ALL_COMPLETED).
func waitBuiltin(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fs starlark.Value
	var timeout starlark.Value = starlark.None
	var when starlark.Value = starlark.String("ALL_COMPLETED")
	if err := starlark.UnpackArgs("wait", args, kwargs, "fs", &fs, "timeout?", &timeout, "return_when?", &when); err != nil {
		return nil, err
	}
	mode, _ := when.(starlark.String)
	switch mode {
	case "FIRST_COMPLETED", "FIRST_EXCEPTION", "ALL_COMPLETED":
	default:
		return nil, pyrt.Errorf("ValueError", "Invalid return_when value: %s", when)
	}
	return coroutine(thread, "wait", func(thread *starlark.Thread) (starlark.Value, error) {
		l, err := runningLoop(thread)
		if err != nil {
			return nil, err
		}
		futs, err := futuresOf(thread, l, fs, "wait", false)
		if err != nil {
			return nil, err
		}
		if len(futs) == 0 {
			return nil, pyrt.Errorf("ValueError", "Set of Tasks/Futures is empty.")
		}
		waiter := newFuture(l)
		var h *handle
		if timeout != starlark.None {
			d, err := seconds(timeout, "wait")
			if err != nil {
				return nil, err
			}
			h = l.callLater(d, release(waiter).now())
		}
		counter := len(futs)
		onDone := callback{id: new(int), fn: func(thread *starlark.Thread, f *Future) error {
			counter--
			stop := counter <= 0 || mode == "FIRST_COMPLETED" ||
				(mode == "FIRST_EXCEPTION" && f.state == finished && f.err != nil)
			if stop {
				if h != nil {
					h.Cancel()
				}
				if waiter.state == pending {
					waiter.setResult(starlark.None)
				}
			}
			return nil
		}}
		for _, f := range futs {
			f.addCallback(onDone)
		}
		_, err = pyrt.Await(thread, waiter)
		if h != nil {
			h.Cancel()
		}
		for _, f := range futs {
			f.removeCallback(onDone.same)
		}
		if err != nil {
			return nil, err
		}
		done, pend := starlark.NewSet(len(futs)), starlark.NewSet(len(futs))
		for _, f := range futs {
			if f.Done() {
				_ = done.Insert(f)
			} else {
				_ = pend.Insert(f)
			}
		}
		return starlark.Tuple{done, pend}, nil
	}), nil
}

// asCompleted is asyncio.as_completed(fs, *, timeout=None): an iterator
// of coroutines, each giving the result of the next awaitable to finish.
func asCompleted(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fs starlark.Value
	var timeout starlark.Value = starlark.None
	if err := starlark.UnpackArgs("as_completed", args, kwargs, "fs", &fs, "timeout?", &timeout); err != nil {
		return nil, err
	}
	l, err := runningLoop(thread)
	if err != nil {
		l = topLoop(thread)
	}
	futs, err := futuresOf(thread, l, fs, "as_completed", true)
	if err != nil {
		return nil, err
	}
	todo := map[*Future]bool{}
	for _, f := range futs {
		todo[f] = true
	}
	var done []*Future // nil entries: the timeout
	var waiters []*Future
	wake := func() {
		for len(waiters) > 0 {
			w := waiters[0]
			waiters = waiters[1:]
			if w.state == pending {
				w.setResult(starlark.None)
				return
			}
		}
	}
	var h *handle
	onDone := callback{id: new(int)}
	onDone.fn = func(thread *starlark.Thread, f *Future) error {
		if len(todo) == 0 {
			return nil
		}
		delete(todo, f)
		done = append(done, f)
		wake()
		if len(todo) == 0 && h != nil {
			h.Cancel()
		}
		return nil
	}
	for _, f := range futs {
		f.addCallback(onDone)
	}
	if len(todo) > 0 && timeout != starlark.None {
		d, err := seconds(timeout, "as_completed")
		if err != nil {
			return nil, err
		}
		h = l.callLater(d, func(*starlark.Thread) error {
			for f := range todo {
				f.removeCallback(onDone.same)
			}
			done = append(done, nil)
			wake()
			clear(todo)
			return nil
		})
	}
	n := len(todo)
	i := 0
	return pyrt.NewIterator(thread, "generator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if i >= n {
			return nil, false, nil
		}
		i++
		return coroutine(thread, "_wait_for_one", func(thread *starlark.Thread) (starlark.Value, error) {
			for len(done) == 0 {
				w := newFuture(l)
				waiters = append(waiters, w)
				if _, err := pyrt.Await(thread, w); err != nil {
					return nil, err
				}
			}
			f := done[0]
			done = done[1:]
			if f == nil {
				return nil, pyrt.NewExc(pyrt.BuiltinClass("TimeoutError")).Error()
			}
			return f.Result(thread)
		}), true, nil
	}), nil
}

// shield is asyncio.shield(aw): a future that follows aw, whose
// cancellation does not cancel aw.
func shield(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var aw starlark.Value
	if err := starlark.UnpackArgs("shield", args, kwargs, "arg", &aw); err != nil {
		return nil, err
	}
	l, err := runningLoop(thread)
	if err != nil {
		return nil, err
	}
	inner, err := ensureFuture(thread, l, aw)
	if err != nil {
		return nil, err
	}
	if inner.Done() {
		return inner, nil
	}
	outer := newFuture(l)
	inner.addCallback(callback{fn: func(thread *starlark.Thread, f *Future) error {
		if outer.state != pending {
			return nil
		}
		switch {
		case f.state == cancelled:
			outer.cancel(starlark.None)
		case f.err != nil:
			outer.setErr(f.err)
		default:
			outer.setResult(f.result)
		}
		return nil
	}})
	return outer, nil
}

// getRunningLoop is asyncio.get_running_loop().
func getRunningLoop(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	l, err := runningLoop(thread)
	if err != nil {
		return nil, err
	}
	return &loopValue{l: l}, nil
}

// getEventLoop is asyncio.get_event_loop(): the running loop, else the
// loop of the program's top level (made now).
func getEventLoop(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return &loopValue{l: loopOf(thread)}, nil
}

func newEventLoop(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return &loopValue{l: newLoop(thread)}, nil
}
