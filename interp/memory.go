package interp

import (
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"slices"
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
// its module globals, every frame's locals and operand stack (where a
// comprehension builds its list and an expression keeps its operands),
// what the run's builtins are building (Budget.Hold), and the stack its
// calls take. Shared values count once. The walk stops as soon as the
// total passes limit, so its cost is bounded by the budget, not by the
// heap.
func reachable(thread *starlark.Thread, limit uint64, session starlark.StringDict) uint64 {
	m := &meter{limit: limit}
	for _, v := range session {
		m.add(v)
	}
	if b := BudgetOf(thread); b != nil {
		for _, h := range b.held {
			if h != nil {
				h(m.add)
			}
		}
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
		for _, v := range frameSlots(fr, fn) {
			if v != nil {
				m.add(v)
			}
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
	m := &meter{limit: limit}
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

// meter sums value sizes. Sizes are what Go allocates for each kind of
// value in go.starlark.net, rounded up to the allocator's size classes
// (see sizeOf): a dict is at least 512 bytes, a list 32 bytes and its
// array, an int beyond 32 bits a big.Int. An estimate that is too low
// lets a structure of many small containers (a list nested ten million
// deep, a dict in a dict) hold several times the budget before it is
// caught.
type meter struct {
	seen  ptrSet
	stack []starlark.Value
	total uint64
	limit uint64
}

// slot is the bytes of one value held by a container: an interface.
const slot = 16

// Sizes of go.starlark.net's values on 64-bit platforms.
const (
	listBytes     = 32  // *starlark.List: its slice, frozen flag and iterator count
	boxBytes      = 16  // a string or a float put in an interface is boxed: its header
	tupleBox      = 24  // a tuple in an interface: its boxed slice header
	tableBytes    = 512 // the hash table of a dict or set, with its first bucket of 8 entries inline
	bucketBytes   = 456 // each further bucket: 8 entries of 56 bytes and a link
	bigIntBytes   = 32  // a big.Int, for ints beyond 32 bits
	structBytes   = 48  // a starlarkstruct.Struct, before its fields
	fieldBytes    = 32  // one field of a struct: name and value
	functionBytes = 64  // a closure: its code, module, defaults and free variables
	builtinBytes  = 48  // a bound method
	unicodeBytes  = 48  // an *interp.Unicode, before its text
)

func (m *meter) add(v starlark.Value) {
	m.stack = append(m.stack[:0], v)
	for len(m.stack) > 0 && m.total <= m.limit {
		v := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		switch v := v.(type) {
		case starlark.Tuple:
			// A tuple is a slice: the same tuple held in many places
			// (each level of a tuple of tuples holding the one below
			// twice) shares its array, and counts once.
			if len(v) > 0 && m.first(unsafe.Pointer(unsafe.SliceData(v))) {
				m.total += tupleBox + sizeClass(uint64(len(v))*slot)
				for _, x := range v {
					m.content(x) // its slot is in the array counted above
				}
			}
		case heldSlice:
			if cap(v) > 0 && m.first(unsafe.Pointer(unsafe.SliceData(v))) {
				m.total += sizeClass(uint64(cap(v)) * slot)
				for _, x := range v {
					if m.total > m.limit {
						break
					}
					m.content(x)
				}
			}
		case *starlark.List:
			if m.first(unsafe.Pointer(v)) {
				m.total += listBytes + sizeClass(uint64(listCap(v))*slot)
				for i := 0; i < v.Len() && m.total <= m.limit; i++ {
					m.content(v.Index(i))
				}
			}
		case *starlark.Dict:
			if m.first(unsafe.Pointer(v)) {
				m.total += hashBytes(v.Len())
				for k, x := range v.Entries() {
					if m.total > m.limit {
						break
					}
					m.content(k)
					m.content(x)
				}
			}
		case *starlark.Set:
			if m.first(unsafe.Pointer(v)) {
				m.total += hashBytes(v.Len())
				if SetExtra != nil {
					m.total += uint64(SetExtra(v))
				}
				for x := range v.Elements() {
					if m.total > m.limit {
						break
					}
					m.content(x)
				}
			}
		case *starlarkstruct.Struct:
			if m.first(unsafe.Pointer(v)) {
				names := v.AttrNames()
				m.total += structBytes + uint64(len(names))*fieldBytes
				for _, name := range names {
					x, _ := v.Attr(name)
					m.content(x)
				}
			}
		case *starlark.Function:
			// A closure holds the variables it captured and its defaults:
			// `lambda: big` kept in a list keeps big.
			if m.first(unsafe.Pointer(v)) {
				m.total += functionBytes
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
			if r := v.Receiver(); r != nil && m.first(unsafe.Pointer(v)) { // a bound method: big.append
				m.total += builtinBytes
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
			m.content(v)
		}
	}
}

// elem counts a value held by a container in a slot of its own (a list
// element, a local): the slot, then the value.
func (m *meter) elem(v starlark.Value) {
	m.total += slot
	m.content(v)
}

// content counts what a value holds beyond the slot that holds it:
// scalars at once, containers later, so that the stack grows with
// nesting, not with length.
func (m *meter) content(v starlark.Value) {
	switch v := v.(type) {
	case starlark.String:
		m.text(string(v))
	case *Unicode:
		m.total += unicodeBytes + uint64(len(v.off))*4
		m.text(v.s)
	case starlark.Bytes:
		m.text(string(v))
	case Bytes:
		m.text(string(v))
	case *ByteArray:
		m.total += 32
		m.text(string(v.b))
	case starlark.Int:
		m.total += intBytes(v)
	case starlark.Float:
		m.total += 8
	case starlark.Tuple, *starlark.List, *starlark.Dict, *starlark.Set, *starlarkstruct.Struct,
		*starlark.Function, *starlark.Builtin, *Cell, Holder, heldSlice:
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

// text counts a string: its boxed header and its bytes (rounded up as the
// allocator does), the bytes once however many values share them.
func (m *meter) text(s string) {
	m.total += boxBytes
	if len(s) > 0 && (len(s) < 256 || m.first(unsafe.Pointer(unsafe.StringData(s)))) {
		m.total += sizeClass(uint64(len(s)))
	}
}

func (m *meter) first(p unsafe.Pointer) bool { return m.seen.add(uintptr(p)) }

// ptrSet is a set of addresses, for the meter to count each value once:
// a bit for every 8 bytes of address space, in chunks of 2 MiB made as
// they are touched. Go's heap does not move objects, and two values never
// share an 8-byte word, so an address names one value. Values that live
// side by side (a list nested ten million deep was allocated in order)
// fall in the same chunk: a walk of millions of values costs a few
// nanoseconds and a few bits each, where a map costs a hundred
// nanoseconds and tens of bytes.
type ptrSet struct {
	chunks    map[uintptr]*[chunkWords]uint64
	lastKey   uintptr
	lastChunk *[chunkWords]uint64
}

const (
	chunkShift = 21                         // 2 MiB of address space a chunk
	chunkWords = 1 << (chunkShift - 3) / 64 // a bit for each 8 bytes
)

// add adds p, reporting whether it was not in the set before.
func (s *ptrSet) add(p uintptr) bool {
	key := p >> chunkShift
	c := s.lastChunk
	if c == nil || key != s.lastKey {
		if s.chunks == nil {
			s.chunks = map[uintptr]*[chunkWords]uint64{}
		}
		if c = s.chunks[key]; c == nil {
			c = new([chunkWords]uint64)
			s.chunks[key] = c
		}
		s.lastKey, s.lastChunk = key, c
	}
	bit := (p & (1<<chunkShift - 1)) >> 3
	w, mask := bit/64, uint64(1)<<(bit%64)
	if c[w]&mask != 0 {
		return false
	}
	c[w] |= mask
	return true
}

// intBytes is what an int takes beyond its slot: nothing within 32 bits
// (go.starlark.net keeps those in the pointer itself), else a big.Int
// and its words.
func intBytes(x starlark.Int) uint64 {
	if n, ok := x.Int64(); ok && n >= -1<<31 && n < 1<<31 {
		return 0
	}
	// math/big makes the words of a result with four to spare.
	return bigIntBytes + sizeClass((uint64(x.BigInt().BitLen()+63)/64+4)*8)
}

// hashBytes is what a dict or set of n entries takes: its table, with
// the first bucket inline, and beyond 8 entries a bucket array with
// about 6.5 entries a bucket (go.starlark.net's load factor), in a power
// of two of buckets.
func hashBytes(n int) uint64 {
	if n <= 8 {
		return tableBytes
	}
	buckets := uint64(1)
	for float64(n) >= 6.5*float64(buckets) {
		buckets <<= 1
	}
	return tableBytes + sizeClass(buckets*bucketBytes)
}

// listCap is the capacity of a list's array, which append grows ahead of
// its length (by up to twice).
func listCap(l *starlark.List) int {
	if f := listElems(); f >= 0 {
		return reflect.ValueOf(l).Elem().Field(f).Cap()
	}
	return l.Len()
}

// listElems is the index of starlark.List's slice of elements, read by
// reflection for its capacity; -1 if the type has changed shape.
var listElems = sync.OnceValue(func() int {
	t := reflect.TypeFor[starlark.List]()
	for i := range t.NumField() {
		if f := t.Field(i); f.Name == "elems" && f.Type == reflect.TypeFor[[]starlark.Value]() {
			return i
		}
	}
	return -1
})

// sizeClasses are the Go allocator's size classes up to 32 KiB
// (runtime/sizeclasses.go): an allocation takes the smallest that holds
// it; a larger one takes whole 8 KiB pages.
var sizeClasses = [...]uint64{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// sizeClass is the bytes the allocator gives to a request of n bytes.
func sizeClass(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	if n > sizeClasses[len(sizeClasses)-1] {
		return (n + 8191) &^ 8191
	}
	i, _ := slices.BinarySearch(sizeClasses[:], n)
	return sizeClasses[i]
}

// heldSlice is the slice of values a builtin is building (HoldValues),
// which the meter counts as a list of its capacity.
type heldSlice []starlark.Value

func (h heldSlice) String() string        { return "<held>" }
func (h heldSlice) Type() string          { return "held" }
func (h heldSlice) Freeze()               {}
func (h heldSlice) Truth() starlark.Bool  { return len(h) > 0 }
func (h heldSlice) Hash() (uint32, error) { return 0, nil }

// SetExtra, when set, is what a set holds beyond its hash table and
// elements: the Python front end keeps, beside some sets, the table of
// CPython's order of their elements.
var SetExtra func(s *starlark.Set) int64

// TableBytes is what a dict or set of n entries takes in memory, its
// keys and values aside: for builtins that size one before or while they
// fill it.
func TableBytes(n int) int64 { return int64(hashBytes(n)) }
