package interp

import (
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// A Watchdog enforces Options.MaxMemory for the runs that share it (SPEC
// §8.1: heap growth per run). Go cannot tell which goroutine owns which
// bytes, so the budget is kept in two steps:
//
//  1. While runs are active, one goroutine samples the process heap every
//     few milliseconds. When it has grown past the smallest active budget
//     since the watchdog began watching, it raises an alarm.
//  2. Every run checks for an alarm every few Starlark steps (an atomic
//     load) and answers it by measuring the values it can reach: its
//     globals and the locals of every frame. A run over its own budget
//     ends with "memory limit of … exceeded"; the others go on.
//
// A run that holds its memory somewhere the walk cannot see (a temporary
// in the middle of an expression, a Go builtin still running) is not
// caught in-process; `isolation: process` adds a hard limit per worker for
// that.
//
// A Watchdog is safe for concurrent use; its goroutine runs only while at
// least one run is watched. One per Runner is the intended use.
type Watchdog struct {
	interval time.Duration

	alarm atomic.Uint64 // bumped on each alarm; runs compare with what they saw

	mu        sync.Mutex
	runs      map[*memRun]struct{}
	running   bool
	baseline  uint64 // heap when watching began, lowered by later collections
	threshold uint64 // heap that triggers the next alarm
}

// NewWatchdog returns a watchdog that samples the heap every 5ms while
// runs are active.
func NewWatchdog() *Watchdog { return NewWatchdogEvery(5 * time.Millisecond) }

// NewWatchdogEvery returns a watchdog that samples the heap every d: a
// process that exists only to run programs (a worker) can afford to look
// more often and catch fast growth sooner.
func NewWatchdogEvery(d time.Duration) *Watchdog {
	return &Watchdog{interval: d, runs: map[*memRun]struct{}{}}
}

// memRun is one watched run. seen is touched only by the run's own
// goroutine.
type memRun struct {
	max  uint64
	seen uint64
}

func (w *Watchdog) add(max int64) *memRun {
	r := &memRun{max: uint64(max), seen: w.alarm.Load()}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.runs[r] = struct{}{}
	if !w.running {
		w.running = true
		w.baseline = liveHeap()
		w.threshold = w.baseline + w.smallest()
		go w.loop()
	} else if t := w.baseline + w.smallest(); t < w.threshold {
		w.threshold = t
	}
	return r
}

// remove ends watching r. A run that ended over budget leaves its values
// as garbage: collecting them now returns the memory to the system and
// keeps the next run's baseline honest.
func (w *Watchdog) remove(r *memRun, overBudget bool) {
	w.mu.Lock()
	delete(w.runs, r)
	w.mu.Unlock()
	if overBudget {
		debug.FreeOSMemory()
	}
}

// smallest is the smallest budget among the active runs. w.mu is held.
func (w *Watchdog) smallest() uint64 {
	var min uint64
	for r := range w.runs {
		if min == 0 || r.max < min {
			min = r.max
		}
	}
	return min
}

// loop samples the heap until no run is left. It never forces a
// collection: on a large heap full of pointers one takes seconds, while a
// value that doubles per step grows many times over budget. An alarm only
// asks each run to measure itself, so one that garbage set off costs a walk
// of each run's values, bounded by its budget.
func (w *Watchdog) loop() {
	t := time.NewTicker(w.interval)
	defer t.Stop()
	sample := []metrics.Sample{{Name: heapMetric}, {Name: stacksMetric}}
	for range t.C {
		heap := read(sample)
		w.mu.Lock()
		if len(w.runs) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		min := w.smallest()
		switch {
		case heap > w.threshold:
			// Ask again only after further growth of half a budget: the
			// runs are about to measure themselves.
			w.alarm.Add(1)
			w.threshold = heap + min/2
			if live := liveHeap(); live < w.baseline {
				w.baseline = live // the last collection found less
			}
		case heap+min < w.threshold:
			// The heap shrank (a run ended, garbage was collected): look
			// again from closer, but never below baseline + budget.
			w.threshold = max(w.baseline+min, heap+min/2)
		}
		w.mu.Unlock()
	}
}

// heapMetric counts the bytes of heap objects, live or not yet swept: it
// grows with every allocation, so a sample notices growth between
// collections.
const heapMetric = "/memory/classes/heap/objects:bytes"

// liveHeap is the heap that was live at the last collection, and the
// stacks in use now: garbage made before it does not count against the
// runs that start now.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: heapMetric}, {Name: stacksMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > 0 {
		return s[0].Value.Uint64() + s[2].Value.Uint64()
	}
	return read(s[1:])
}

// stacksMetric counts the bytes of goroutine stacks: a deep recursion
// grows them, not the heap (see frameBytes).
const stacksMetric = "/memory/classes/heap/stacks:bytes"

// read returns the sum of the samples.
func read(s []metrics.Sample) uint64 {
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	return n
}

// memPollSteps is how often (in steps) a watched run checks for an alarm:
// often enough that a string doubled in a loop is caught within a few
// doublings, rare enough to cost nothing measurable.
const memPollSteps = 16

// over reports whether the run answered an alarm and is over budget.
// session, when not nil, holds more values the run keeps.
func (r *memRun) over(w *Watchdog, thread *starlark.Thread, session starlark.StringDict) bool {
	a := w.alarm.Load()
	if a == r.seen {
		return false
	}
	r.seen = a
	return reachable(thread, r.max, session) > r.max
}

// reachable estimates the bytes of the values thread's program can reach:
// its module globals and every frame's locals, and the stack its calls
// take. Shared values count once. The walk stops as soon as the total
// passes limit, so its cost is bounded by the budget, not by the heap.
func reachable(thread *starlark.Thread, limit uint64, session starlark.StringDict) uint64 {
	m := &meter{seen: map[unsafe.Pointer]bool{}, limit: limit}
	for _, v := range session {
		m.add(v)
	}
	depth := thread.CallStackDepth()
	globalsDone := false
	for d := 0; d < depth && m.total <= limit; d++ {
		m.total += frameBytes
		fr := thread.DebugFrame(d)
		fn, ok := fr.Callable().(*starlark.Function)
		if !ok {
			continue
		}
		for i := 0; i < fr.NumLocals(); i++ {
			_, v := fr.Local(i)
			m.add(v)
		}
		if !globalsDone {
			globalsDone = true
			for _, v := range fn.Globals() {
				m.add(v)
			}
		}
	}
	return m.total
}

// sessionSize is reachable for a Session's globals alone.
func sessionSize(globals starlark.StringDict, limit uint64) uint64 {
	m := &meter{seen: map[unsafe.Pointer]bool{}, limit: limit}
	for _, v := range globals {
		m.add(v)
	}
	return m.total
}

// frameBytes is what one nested call costs the run beyond its values:
// the interpreter's Go stack (about 1.4 KB a call, in a stack that grows
// by doubling) and its frame. Without it a program recursing 100,000
// deep (go.starlark.net's own bound) would hold 256 MiB of stack that no
// budget saw.
const frameBytes = 2 << 10

// meter sums value sizes. Sizes are estimates of what Go allocates: a
// value slot is 16 bytes (an interface), a string its bytes plus header.
type meter struct {
	seen  map[unsafe.Pointer]bool
	stack []starlark.Value
	total uint64
	limit uint64
}

const slot = 16

func (m *meter) add(v starlark.Value) {
	m.stack = append(m.stack[:0], v)
	for len(m.stack) > 0 && m.total <= m.limit {
		v := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		switch v := v.(type) {
		case starlark.Tuple:
			m.total += uint64(len(v)) * slot
			for _, x := range v {
				m.elem(x)
			}
		case *starlark.List:
			if m.first(unsafe.Pointer(v)) {
				m.total += uint64(v.Len()) * slot
				for i := 0; i < v.Len() && m.total <= m.limit; i++ {
					m.elem(v.Index(i))
				}
			}
		case *starlark.Dict:
			if m.first(unsafe.Pointer(v)) {
				m.total += uint64(v.Len()) * 3 * slot
				for k, x := range v.Entries() {
					if m.total > m.limit {
						break
					}
					m.elem(k)
					m.elem(x)
				}
			}
		case *starlark.Set:
			if m.first(unsafe.Pointer(v)) {
				m.total += uint64(v.Len()) * 2 * slot
				for x := range v.Elements() {
					if m.total > m.limit {
						break
					}
					m.elem(x)
				}
			}
		case *starlarkstruct.Struct:
			if m.first(unsafe.Pointer(v)) {
				for _, name := range v.AttrNames() {
					x, _ := v.Attr(name)
					m.elem(x)
				}
			}
		case *starlark.Function:
			// A closure holds the variables it captured and its defaults:
			// `lambda: big` kept in a list keeps big.
			if m.first(unsafe.Pointer(v)) {
				for i := range v.NumFreeVars() {
					_, x := v.FreeVar(i)
					m.elem(x)
				}
				for i := range v.NumParams() {
					if d := v.ParamDefault(i); d != nil {
						m.elem(d)
					}
				}
			}
		case *starlark.Builtin:
			if r := v.Receiver(); r != nil { // a bound method: big.append
				m.elem(r)
			}
		case *Cell:
			if v.value != nil && m.first(unsafe.Pointer(v)) {
				m.elem(v.value)
			}
		case Holder:
			if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || m.first(rv.UnsafePointer()) {
				v.Held(m.elem)
			}
		default:
			m.elem(v)
		}
	}
}

// elem counts a value held by a container: scalars at once, containers
// later, so the stack grows with nesting, not with length.
func (m *meter) elem(v starlark.Value) {
	m.total += slot
	switch v := v.(type) {
	case starlark.String:
		m.text(string(v))
	case *Unicode:
		m.total += 32 // the struct; its offsets when indexed, 4 bytes a character
		m.text(v.s)
		m.total += uint64(len(v.off)) * 4
	case starlark.Bytes:
		m.text(string(v))
	case Bytes:
		m.text(string(v))
	case *ByteArray:
		m.total += 32
		m.text(string(v.b))
	case starlark.Tuple, *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct,
		*starlark.Function, *starlark.Builtin, *Cell, Holder:
		m.stack = append(m.stack, v)
	}
}

// Holder is a value of a front end or a library that holds other values
// (an exception its arguments, an iterator the elements it has still to
// give): Held visits each, so that the memory meter counts them.
type Holder interface {
	starlark.Value
	Held(visit func(starlark.Value))
}

// text counts a string: its boxed header and its bytes (rounded up to a
// word, as the allocator does), the bytes once however many values share
// them.
func (m *meter) text(s string) {
	m.total += 16
	if len(s) < 256 || m.first(unsafe.Pointer(unsafe.StringData(s))) {
		m.total += uint64(len(s)+7) &^ 7
	}
}

func (m *meter) first(p unsafe.Pointer) bool {
	if m.seen[p] {
		return false
	}
	m.seen[p] = true
	return true
}
