package eventloop

import (
	"fmt"
	"slices"
	"sort"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The synchronization primitives of asyncio (Lock, Event, Semaphore,
// Condition) and its queues, each as CPython 3.11's: waiters are futures
// of the running loop, woken in the order they came.

// object is a value of this package with methods: its attributes are
// made by attr, the names listed.
type object struct {
	typ   string
	state any // the primitive's own state
	repr  func() string
	names []string
	attr  func(name string) (starlark.Value, error)
	held  func(visit func(starlark.Value))
}

func (o *object) String() string {
	if o.repr != nil {
		return o.repr()
	}
	return fmt.Sprintf("<asyncio.%s object at 0x%x>", o.typ, uintptr(unsafe.Pointer(o)))
}
func (o *object) Type() string                             { return o.typ }
func (o *object) Freeze()                                  {}
func (o *object) Truth() starlark.Bool                     { return true }
func (o *object) Hash() (uint32, error)                    { return uint32(uintptr(unsafe.Pointer(o)) >> 4), nil }
func (o *object) AttrNames() []string                      { return o.names }
func (o *object) Attr(name string) (starlark.Value, error) { return o.attr(name) }
func (o *object) Held(visit func(starlark.Value)) {
	if o.held != nil {
		o.held(visit)
	}
}

var _ interp.Holder = (*object)(nil)

// method is a bound method of a primitive.
func method(name string, fn func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
	return builtin(name, fn)
}

// waiters is a queue of futures waiting for a primitive.
type waiters []*Future

func (w *waiters) remove(f *Future) {
	if i := slices.Index(*w, f); i >= 0 {
		*w = slices.Delete(*w, i, i+1)
	}
}

// ---- Lock ----

type lock struct {
	locked  bool
	waiters waiters
}

func newLock(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "Lock() takes no arguments")
	}
	k := &lock{}
	o := &object{typ: "Lock", state: k, names: []string{"acquire", "locked", "release"}}
	o.repr = func() string {
		state := "unlocked"
		if k.locked {
			state = "locked"
		}
		return fmt.Sprintf("<asyncio.locks.Lock object at 0x%x [%s]>", uintptr(unsafe.Pointer(o)), state)
	}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "acquire", "__aenter__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Lock.acquire", func(thread *starlark.Thread) (starlark.Value, error) {
					if err := k.acquire(thread); err != nil {
						return nil, err
					}
					if name == "__aenter__" {
						return starlark.None, nil
					}
					return starlark.True, nil
				}), nil
			}), nil
		case "release":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, k.release()
			}), nil
		case "__aexit__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Lock.__aexit__", func(*starlark.Thread) (starlark.Value, error) {
					return starlark.None, k.release()
				}), nil
			}), nil
		case "locked":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.Bool(k.locked), nil
			}), nil
		}
		return nil, nil
	}
	return o, nil
}

func (k *lock) acquire(thread *starlark.Thread) error {
	free := true
	for _, w := range k.waiters {
		if w.state != cancelled {
			free = false
		}
	}
	if !k.locked && free {
		k.locked = true
		return nil
	}
	l, err := runningLoop(thread)
	if err != nil {
		return err
	}
	fut := newFuture(l)
	k.waiters = append(k.waiters, fut)
	_, err = pyrt.Await(thread, fut)
	k.waiters.remove(fut)
	if err != nil {
		if isCancelled(thread, err) && !k.locked {
			k.wakeFirst()
		}
		return err
	}
	k.locked = true
	return nil
}

func (k *lock) release() error {
	if !k.locked {
		return pyrt.Errorf("RuntimeError", "Lock is not acquired.")
	}
	k.locked = false
	k.wakeFirst()
	return nil
}

func (k *lock) wakeFirst() {
	if len(k.waiters) == 0 {
		return
	}
	if f := k.waiters[0]; f.state == pending {
		f.setResult(starlark.True)
	}
}

// ---- Event ----

type event struct {
	set     bool
	waiters waiters
}

func newEvent(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "Event() takes no arguments")
	}
	e := &event{}
	o := &object{typ: "Event", names: []string{"clear", "is_set", "set", "wait"}}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "set":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				e.fire()
				return starlark.None, nil
			}), nil
		case "clear":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				e.set = false
				return starlark.None, nil
			}), nil
		case "is_set":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.Bool(e.set), nil
			}), nil
		case "wait":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Event.wait", e.wait), nil
			}), nil
		}
		return nil, nil
	}
	return o, nil
}

func (e *event) fire() {
	if e.set {
		return
	}
	e.set = true
	for _, f := range e.waiters {
		if f.state == pending {
			f.setResult(starlark.True)
		}
	}
}

func (e *event) wait(thread *starlark.Thread) (starlark.Value, error) {
	if e.set {
		return starlark.True, nil
	}
	l, err := runningLoop(thread)
	if err != nil {
		return nil, err
	}
	fut := newFuture(l)
	e.waiters = append(e.waiters, fut)
	_, err = pyrt.Await(thread, fut)
	e.waiters.remove(fut)
	if err != nil {
		return nil, err
	}
	return starlark.True, nil
}

// ---- Semaphore ----

type semaphore struct {
	value, bound int
	bounded      bool
	waiters      waiters
}

func newSemaphore(bounded bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		value := 1
		name := "Semaphore"
		if bounded {
			name = "BoundedSemaphore"
		}
		if err := starlark.UnpackArgs(name, args, kwargs, "value?", &value); err != nil {
			return nil, err
		}
		if value < 0 {
			return nil, pyrt.Errorf("ValueError", "Semaphore initial value must be >= 0")
		}
		s := &semaphore{value: value, bound: value, bounded: bounded}
		o := &object{typ: name, names: []string{"acquire", "locked", "release"}}
		o.attr = func(attr string) (starlark.Value, error) {
			switch attr {
			case "acquire", "__aenter__":
				return method(attr, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
					return coroutine(thread, name+".acquire", func(thread *starlark.Thread) (starlark.Value, error) {
						if err := s.acquire(thread); err != nil {
							return nil, err
						}
						if attr == "__aenter__" {
							return starlark.None, nil
						}
						return starlark.True, nil
					}), nil
				}), nil
			case "release":
				return method(attr, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
					return starlark.None, s.release()
				}), nil
			case "__aexit__":
				return method(attr, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
					return coroutine(thread, name+".__aexit__", func(*starlark.Thread) (starlark.Value, error) {
						return starlark.None, s.release()
					}), nil
				}), nil
			case "locked":
				return method(attr, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
					return starlark.Bool(s.locked()), nil
				}), nil
			}
			return nil, nil
		}
		return o, nil
	}
}

func (s *semaphore) locked() bool {
	if s.value == 0 {
		return true
	}
	for _, w := range s.waiters {
		if w.state != cancelled {
			return true
		}
	}
	return false
}

func (s *semaphore) acquire(thread *starlark.Thread) error {
	if !s.locked() {
		s.value--
		return nil
	}
	l, err := runningLoop(thread)
	if err != nil {
		return err
	}
	fut := newFuture(l)
	s.waiters = append(s.waiters, fut)
	_, err = pyrt.Await(thread, fut)
	s.waiters.remove(fut)
	if err != nil {
		if isCancelled(thread, err) && fut.state != cancelled {
			s.value++
			s.wakeNext()
		}
		return err
	}
	if s.value > 0 {
		s.wakeNext()
	}
	return nil
}

func (s *semaphore) release() error {
	if s.bounded && s.value >= s.bound {
		return pyrt.Errorf("ValueError", "BoundedSemaphore released too many times")
	}
	s.value++
	s.wakeNext()
	return nil
}

func (s *semaphore) wakeNext() {
	for _, f := range s.waiters {
		if f.state == pending {
			s.value--
			f.setResult(starlark.True)
			return
		}
	}
}

// ---- Condition ----

// condition is asyncio.Condition's state: its lock and waiters.
type condition struct {
	k  *lock
	ws waiters
}

func (c *condition) wait(thread *starlark.Thread) (starlark.Value, error) {
	if !c.k.locked {
		return nil, pyrt.Errorf("RuntimeError", "cannot wait on un-acquired lock")
	}
	if err := c.k.release(); err != nil {
		return nil, err
	}
	l, err := runningLoop(thread)
	if err != nil {
		return nil, err
	}
	fut := newFuture(l)
	c.ws = append(c.ws, fut)
	_, werr := pyrt.Await(thread, fut)
	c.ws.remove(fut)
	cancelledNow := false
	for {
		err := c.k.acquire(thread)
		if err == nil {
			break
		}
		if !isCancelled(thread, err) {
			return nil, err
		}
		cancelledNow = true
	}
	if cancelledNow {
		return nil, cancelledError(starlark.None)
	}
	if werr != nil {
		return nil, werr
	}
	return starlark.True, nil
}

// waitFor waits until pred holds.
func (c *condition) waitFor(thread *starlark.Thread, pred func() (bool, error)) error {
	for {
		ok, err := pred()
		if err != nil || ok {
			return err
		}
		if _, err := c.wait(thread); err != nil {
			return err
		}
	}
}

func (c *condition) notify(n int) error {
	if !c.k.locked {
		return pyrt.Errorf("RuntimeError", "cannot notify on un-acquired lock")
	}
	i := 0
	for _, f := range c.ws {
		if i >= n {
			break
		}
		if f.state == pending {
			i++
			f.setResult(starlark.False)
		}
	}
	return nil
}

func newCondition(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lk starlark.Value = starlark.None
	if err := starlark.UnpackArgs("Condition", args, kwargs, "lock?", &lk); err != nil {
		return nil, err
	}
	if lk == starlark.None {
		lk, _ = newLock(thread, nil, nil)
	}
	o0, ok := lk.(*object)
	if !ok || o0.typ != "Lock" {
		return nil, pyrt.Errorf("TypeError", "Condition() takes an asyncio.Lock")
	}
	c := &condition{k: lockOf(o0)}
	o := &object{typ: "Condition", state: c, names: []string{"acquire", "locked", "notify", "notify_all", "release", "wait", "wait_for"}}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "acquire", "release", "locked", "__aenter__", "__aexit__":
			return o0.attr(name)
		case "wait":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Condition.wait", c.wait), nil
			}), nil
		case "wait_for":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				if len(args) != 1 {
					return nil, pyrt.Errorf("TypeError", "wait_for() takes exactly one argument")
				}
				pred := args[0]
				return coroutine(thread, "Condition.wait_for", func(thread *starlark.Thread) (starlark.Value, error) {
					var r starlark.Value
					err := c.waitFor(thread, func() (bool, error) {
						var err error
						r, err = starlark.Call(thread, pred, nil, nil)
						return err == nil && bool(r.Truth()), err
					})
					return r, err
				}), nil
			}), nil
		case "notify":
			return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				n := 1
				if err := starlark.UnpackArgs("notify", args, kwargs, "n?", &n); err != nil {
					return nil, err
				}
				return starlark.None, c.notify(n)
			}), nil
		case "notify_all":
			return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, c.notify(len(c.ws))
			}), nil
		}
		return nil, nil
	}
	return o, nil
}

// ---- Barrier ----

const (
	barrierFilling = iota
	barrierDraining
	barrierResetting
	barrierBroken
)

// newBarrier is asyncio.Barrier(parties), as CPython 3.11's.
func newBarrier(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var parties int
	if err := starlark.UnpackArgs("Barrier", args, kwargs, "parties", &parties); err != nil {
		return nil, err
	}
	if parties < 1 {
		return nil, pyrt.Errorf("ValueError", "parties must be > 0")
	}
	lk, _ := newLock(thread, nil, nil)
	c := &condition{k: lockOf(lk.(*object))}
	state, count := barrierFilling, 0
	broken := func() error { return pyrt.NewExc(brokenBarrierClass, starlark.String("Barrier aborted")).Error() }
	locked := func(thread *starlark.Thread, fn func() error) error {
		if err := c.k.acquire(thread); err != nil {
			return err
		}
		err := fn()
		if rerr := c.k.release(); err == nil {
			err = rerr
		}
		return err
	}
	wait := func(thread *starlark.Thread) (starlark.Value, error) {
		var index int
		err := locked(thread, func() error {
			if err := c.waitFor(thread, func() (bool, error) { return state != barrierDraining && state != barrierResetting, nil }); err != nil {
				return err
			}
			if state == barrierBroken {
				return broken()
			}
			index = count
			count++
			var err error
			if index+1 == parties {
				state = barrierDraining
				err = c.notify(len(c.ws))
			} else {
				err = c.waitFor(thread, func() (bool, error) { return state != barrierFilling, nil })
				if err == nil && (state == barrierBroken || state == barrierResetting) {
					err = pyrt.NewExc(brokenBarrierClass, starlark.String("Abort or reset of barrier")).Error()
				}
			}
			count--
			if count == 0 {
				if state == barrierResetting || state == barrierDraining {
					state = barrierFilling
				}
				_ = c.notify(len(c.ws))
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt(index), nil
	}
	o := &object{typ: "Barrier", names: []string{"abort", "broken", "n_waiting", "parties", "reset", "wait"}}
	o.attr = func(name string) (starlark.Value, error) {
		switch name {
		case "parties":
			return starlark.MakeInt(parties), nil
		case "n_waiting":
			if state == barrierFilling {
				return starlark.MakeInt(count), nil
			}
			return starlark.MakeInt(0), nil
		case "broken":
			return starlark.Bool(state == barrierBroken), nil
		case "wait", "__aenter__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Barrier.wait", wait), nil
			}), nil
		case "__aexit__":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Barrier.__aexit__", func(*starlark.Thread) (starlark.Value, error) { return starlark.None, nil }), nil
			}), nil
		case "reset", "abort":
			return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
				return coroutine(thread, "Barrier."+name, func(thread *starlark.Thread) (starlark.Value, error) {
					return starlark.None, locked(thread, func() error {
						switch {
						case name == "abort":
							state = barrierBroken
						case count > 0:
							state = barrierResetting
						default:
							state = barrierFilling
						}
						return c.notify(len(c.ws))
					})
				}), nil
			}), nil
		}
		return nil, nil
	}
	o.repr = func() string {
		extra := [...]string{"filling", "draining", "resetting", "broken"}[state]
		if state != barrierBroken {
			n := 0
			if state == barrierFilling {
				n = count
			}
			extra += fmt.Sprintf(", waiters:%d/%d", n, parties)
		}
		return fmt.Sprintf("<asyncio.locks.Barrier object at 0x%x [%s]>", uintptr(unsafe.Pointer(o)), extra)
	}
	return o, nil
}

// lockOf is the state behind a Lock object (its locked method's).
func lockOf(o *object) *lock { return o.state.(*lock) }

// ---- Queues ----

type queueKind int

const (
	fifo queueKind = iota
	lifo
	priority
)

type queue struct {
	kind       queueKind
	maxsize    int
	items      []starlark.Value
	getters    waiters
	putters    waiters
	unfinished int
	finished   *event
}

func newQueue(kind queueKind) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		maxsize := 0
		name := [...]string{"Queue", "LifoQueue", "PriorityQueue"}[kind]
		if err := starlark.UnpackArgs(name, args, kwargs, "maxsize?", &maxsize); err != nil {
			return nil, err
		}
		q := &queue{kind: kind, maxsize: maxsize, finished: &event{set: true}}
		o := &object{typ: name, names: []string{"empty", "full", "get", "get_nowait", "join", "maxsize", "put", "put_nowait", "qsize", "task_done"}}
		o.repr = func() string {
			s := fmt.Sprintf("<%s at 0x%x maxsize=%d", name, uintptr(unsafe.Pointer(o)), q.maxsize)
			if q.unfinished > 0 {
				s += fmt.Sprintf(" tasks=%d", q.unfinished)
			}
			return s + ">"
		}
		o.held = func(visit func(starlark.Value)) {
			for _, x := range q.items {
				visit(x)
			}
		}
		o.attr = func(attr string) (starlark.Value, error) { return q.attr(thread, attr) }
		return o, nil
	}
}

func (q *queue) full() bool { return q.maxsize > 0 && len(q.items) >= q.maxsize }

func (q *queue) wakeNext(ws *waiters) {
	for len(*ws) > 0 {
		f := (*ws)[0]
		*ws = (*ws)[1:]
		if f.state == pending {
			f.setResult(starlark.None)
			return
		}
	}
}

func (q *queue) putNow(thread *starlark.Thread, x starlark.Value) error {
	if q.full() {
		return pyrt.NewExc(queueFullClass).Error()
	}
	// An insertion in order shifts the items after it: charged.
	if err := interp.BudgetOf(thread).Charge(1 + uint64(len(q.items))/16); err != nil {
		return err
	}
	switch q.kind {
	case priority:
		i := sort.Search(len(q.items), func(i int) bool {
			lt, _ := pyrt.Compare(thread, syntax.LT, x, q.items[i])
			return lt
		})
		q.items = slices.Insert(q.items, i, x)
	default:
		q.items = append(q.items, x)
	}
	q.unfinished++
	q.finished.set = false
	q.wakeNext(&q.getters)
	return nil
}

func (q *queue) getNow() (starlark.Value, error) {
	if len(q.items) == 0 {
		return nil, pyrt.NewExc(queueEmptyClass).Error()
	}
	var x starlark.Value
	if q.kind == lifo {
		x = q.items[len(q.items)-1]
		q.items[len(q.items)-1] = nil
		q.items = q.items[:len(q.items)-1]
	} else {
		x = q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
	}
	q.wakeNext(&q.putters)
	return x, nil
}

func (q *queue) attr(_ *starlark.Thread, name string) (starlark.Value, error) {
	switch name {
	case "maxsize":
		return starlark.MakeInt(q.maxsize), nil
	case "qsize":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(len(q.items)), nil
		}), nil
	case "empty":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(len(q.items) == 0), nil
		}), nil
	case "full":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Bool(q.full()), nil
		}), nil
	case "put_nowait":
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "item", &x); err != nil {
				return nil, err
			}
			return starlark.None, q.putNow(thread, x)
		}), nil
	case "get_nowait":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return q.getNow()
		}), nil
	case "put":
		return method(name, func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "item", &x); err != nil {
				return nil, err
			}
			return coroutine(thread, "Queue.put", func(thread *starlark.Thread) (starlark.Value, error) {
				for q.full() {
					if err := q.wait(thread, &q.putters, func() bool { return !q.full() }); err != nil {
						return nil, err
					}
				}
				return starlark.None, q.putNow(thread, x)
			}), nil
		}), nil
	case "get":
		return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return coroutine(thread, "Queue.get", func(thread *starlark.Thread) (starlark.Value, error) {
				for len(q.items) == 0 {
					if err := q.wait(thread, &q.getters, func() bool { return len(q.items) > 0 }); err != nil {
						return nil, err
					}
				}
				return q.getNow()
			}), nil
		}), nil
	case "task_done":
		return method(name, func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			if q.unfinished <= 0 {
				return nil, pyrt.Errorf("ValueError", "task_done() called too many times")
			}
			q.unfinished--
			if q.unfinished == 0 {
				q.finished.fire()
			}
			return starlark.None, nil
		}), nil
	case "join":
		return method(name, func(thread *starlark.Thread, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return coroutine(thread, "Queue.join", func(thread *starlark.Thread) (starlark.Value, error) {
				if q.unfinished > 0 {
					if _, err := q.finished.wait(thread); err != nil {
						return nil, err
					}
				}
				return starlark.None, nil
			}), nil
		}), nil
	}
	return nil, nil
}

// wait waits in ws for a getter's or putter's turn, as Queue.get and
// Queue.put do; ready says whether the queue could serve the next in
// line should this one be cancelled.
func (q *queue) wait(thread *starlark.Thread, ws *waiters, ready func() bool) error {
	l, err := runningLoop(thread)
	if err != nil {
		return err
	}
	fut := newFuture(l)
	*ws = append(*ws, fut)
	if _, err := pyrt.Await(thread, fut); err != nil {
		fut.cancel(starlark.None) // in case it is still pending
		ws.remove(fut)
		if ready() && fut.state == finished {
			q.wakeNext(ws)
		}
		return err
	}
	return nil
}
