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
//  1. A run measures itself by walking the values it can reach: its
//     globals, the locals and operand stack of every frame, what its
//     builtins are building (Budget.Hold) and its session's values. A run
//     over its own budget ends with "memory limit of … exceeded"; the
//     others go on.
//  2. Between measurements, what a run holds can have grown by no more
//     than the process has allocated since the last one began (Go's
//     cumulative count of heap allocations, plus the growth of goroutine
//     stacks). One goroutine reads that count every few milliseconds and
//     asks a run to measure itself again once its last size plus what was
//     allocated since could pass its budget. The run answers at its next
//     check (every few Starlark steps, or inside a builtin's Charge).
//
// The bound of step 2 holds whatever the collector does: garbage, which
// made an earlier watchdog (sampling the heap's size) see a list of 100
// MiB as 300 and raise its next threshold past the budget, does not hide
// growth. What it costs is a walk of the run's values each time the
// process allocates the run's headroom; walks take at most a third of a
// run's time (after a walk of d, none for 2d), and a builtin about to make
// something large asks first (Budget.Room).
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
	epoch    time.Time // for the runs' notBefore, on the monotonic clock

	mu      sync.Mutex
	runs    map[*memRun]struct{}
	running bool
	freeing atomic.Bool // a return of memory to the system is under way
}

// NewWatchdog returns a watchdog that samples the process's allocations
// every 5ms while runs are active.
func NewWatchdog() *Watchdog { return NewWatchdogEvery(5 * time.Millisecond) }

// NewWatchdogEvery returns a watchdog that samples every d: a process
// that exists only to run programs (a worker) can afford to look more
// often and catch fast growth sooner.
func NewWatchdogEvery(d time.Duration) *Watchdog {
	return &Watchdog{interval: d, epoch: time.Now(), runs: map[*memRun]struct{}{}}
}

// memRun is one watched run. The watchdog's goroutine reads size, mark
// and notBefore, which only the run's own goroutine writes (after each
// measurement), and sets alarm, which the run clears.
type memRun struct {
	max       uint64
	size      atomic.Uint64 // bytes the last measurement counted
	mark      atomic.Uint64 // allocated() when that measurement began
	notBefore atomic.Int64  // no walk before this time (since epoch): walks are paced
	alarm     atomic.Bool   // measure again: size plus what was allocated since could pass max
	sample    [2]metrics.Sample
}

// add starts watching a run of budget max that already holds kept bytes
// (the values of the session whose input it is, as last measured).
func (w *Watchdog) add(max int64, kept uint64) *memRun {
	r := &memRun{max: uint64(max), sample: allocSamples()}
	r.size.Store(kept)
	r.mark.Store(allocated(r.sample[:]))
	w.mu.Lock()
	defer w.mu.Unlock()
	w.runs[r] = struct{}{}
	if !w.running {
		w.running = true
		go w.loop()
	}
	return r
}

// remove ends watching r.
func (w *Watchdog) remove(r *memRun) {
	w.mu.Lock()
	delete(w.runs, r)
	w.mu.Unlock()
}

// release returns to the system the memory that a run over its budget
// left as garbage, once its answer is on its way: in the background, one
// return at a time, so that the answer does not wait for a collection,
// and the process's RSS comes back near what its runs hold.
func (w *Watchdog) release() {
	if w.freeing.CompareAndSwap(false, true) {
		go func() {
			defer w.freeing.Store(false)
			debug.FreeOSMemory()
		}()
	}
}

// now is the time since the watchdog's epoch, on the monotonic clock.
func (w *Watchdog) now() int64 { return int64(time.Since(w.epoch)) }

// loop reads the process's allocations until no run is left, and raises
// the alarm of each run that could have passed its budget since it last
// measured itself. It never forces a collection: an alarm asks a run to
// measure itself, at a cost bounded by its budget, while a collection of
// a large heap full of pointers takes seconds.
func (w *Watchdog) loop() {
	t := time.NewTicker(w.interval)
	defer t.Stop()
	sample := allocSamples()
	for range t.C {
		a := allocated(sample[:])
		w.mu.Lock()
		if len(w.runs) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		for r := range w.runs {
			if r.mayPass(a, 0) {
				r.alarm.Store(true)
			}
		}
		w.mu.Unlock()
	}
}

// mayPass reports whether the run could hold more than its budget, with
// extra bytes more, when the process has allocated a bytes in all: its
// last size plus everything allocated since.
func (r *memRun) mayPass(a, extra uint64) bool {
	grown := a - min(a, r.mark.Load())
	return r.size.Load()+grown+extra > r.max
}

// allocSamples are the metrics allocated reads.
func allocSamples() [2]metrics.Sample {
	return [2]metrics.Sample{{Name: allocsMetric}, {Name: stacksMetric}}
}

// allocsMetric is the bytes allocated on the heap since the process
// began: it only grows, whatever the collector frees.
const allocsMetric = "/gc/heap/allocs:bytes"

// stacksMetric counts the bytes of goroutine stacks: a deep recursion
// grows them, not the heap (see frameBytes).
const stacksMetric = "/memory/classes/heap/stacks:bytes"

// allocated is what the process has allocated so far: its heap
// allocations and its goroutine stacks. What a run holds grows by no
// more than this does.
func allocated(s []metrics.Sample) uint64 {
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
	if !r.alarm.Load() {
		return false
	}
	if w.now() < r.notBefore.Load() {
		// Too soon for a walk: the bulk of what the run holds answers
		// until the next tick of the watchdog raises the alarm again.
		r.alarm.Store(false)
		return bulk(thread, session) > r.max
	}
	return r.measure(w, thread, session, 0) > r.max
}

// measure walks what the run holds, plus extra bytes a builtin is about
// to allocate where the walk cannot see them, and records the size for
// the watchdog. The total stops growing soon after it passes the budget.
func (r *memRun) measure(w *Watchdog, thread *starlark.Thread, session starlark.StringDict, extra uint64) uint64 {
	start := w.now()
	mark := allocated(r.sample[:])
	n := extra + reachable(thread, r.max-min(r.max, extra), session)
	r.size.Store(n - extra)
	r.mark.Store(mark)
	end := w.now()
	// A walk costs about as much as the values it counts: the next one
	// comes no sooner than twice as long after, so that a run holding
	// most of its budget beside a neighbour that allocates fast still
	// spends most of its time on its own work.
	r.notBefore.Store(end + 2*(end-start))
	r.alarm.Store(false)
	return n
}

// room reports whether the run can hold extra bytes more than it does:
// at once if its last size plus what the process allocated since leaves
// room, else by measuring itself. A walk due before its pace allows is
// skipped (the answer is yes): the watchdog asks again soon after.
func (r *memRun) room(w *Watchdog, thread *starlark.Thread, session starlark.StringDict, extra uint64) bool {
	if !r.mayPass(allocated(r.sample[:]), extra) {
		return true
	}
	if w.now() < r.notBefore.Load() {
		return bulk(thread, session)+extra <= r.max
	}
	return r.measure(w, thread, session, extra) <= r.max
}

// bulk is a lower bound of what a run holds, found in microseconds where
// a walk of its values takes up to a second: the arrays, tables and texts
// of bulkMin bytes or more that its variables, its frames' operands, its
// builtins' held values and its session hold directly, each once. A walk
// comes at most a third of the time (see measure); between walks, bulk
// answers the alarms, so that a list a comprehension grows past the
// budget (one array of 16 million slots beside a few small values) stops
// within a tick of the watchdog, not a paced walk later.
func bulk(thread *starlark.Thread, session starlark.StringDict) uint64 {
	var (
		seen  []unsafe.Pointer
		total uint64
	)
	add := func(v starlark.Value) {
		n, p := ownBytes(v)
		if n < bulkMin || slices.Contains(seen, p) {
			return
		}
		seen = append(seen, p)
		total += n
	}
	for _, v := range session {
		add(v)
	}
	if b := BudgetOf(thread); b != nil {
		for _, h := range b.held {
			if h != nil {
				h(add)
			}
		}
	}
	globalsDone := false
	frames := func(t *starlark.Thread) {
		for d := range t.CallStackDepth() {
			fn, ok := t.DebugFrame(d).Callable().(*starlark.Function)
			if !ok {
				continue
			}
			for _, v := range frameSlots(t.DebugFrame(d), fn) {
				if v != nil {
					add(v)
				}
			}
			if !globalsDone {
				globalsDone = true
				for _, v := range fn.Globals() {
					add(v)
				}
			}
		}
	}
	frames(thread)
	visitChildren(thread, frames)
	return total
}

// bulkMin is the least a value must hold itself for bulk to count it:
// smaller ones are left to the walks.
const bulkMin = 64 << 10

// ownBytes is at most what v holds itself, its elements aside, and the
// address that names it (for counting it once).
func ownBytes(v starlark.Value) (uint64, unsafe.Pointer) {
	switch v := v.(type) {
	case starlark.String:
		return uint64(len(v)), unsafe.Pointer(unsafe.StringData(string(v)))
	case starlark.Bytes:
		return uint64(len(v)), unsafe.Pointer(unsafe.StringData(string(v)))
	case Bytes:
		return uint64(len(v)), unsafe.Pointer(unsafe.StringData(string(v)))
	case *Unicode:
		return uint64(len(v.s)) + uint64(len(v.off))*4, unsafe.Pointer(v)
	case *ByteArray:
		return uint64(len(v.b)), unsafe.Pointer(v)
	case *starlark.List:
		return uint64(listCap(v)) * slot, unsafe.Pointer(v)
	case starlark.Tuple:
		return uint64(len(v)) * slot, unsafe.Pointer(unsafe.SliceData(v))
	case heldSlice:
		return uint64(cap(v)) * slot, unsafe.Pointer(unsafe.SliceData(v))
	case *starlark.Dict:
		return hashBytes(v.Len()), unsafe.Pointer(v)
	case *starlark.Set:
		return hashBytes(v.Len()), unsafe.Pointer(v)
	}
	return 0, nil
}

// reachable estimates the bytes of the values thread's program can reach:
// its module globals, every frame's locals and operand stack (where a
// comprehension builds its list and an expression keeps its operands),
// what the run's builtins are building (Budget.Hold), and the stack its
// calls take. Shared values count once. The walk stops as soon as the
// total passes limit, so its cost is bounded by the budget, not by the
// heap.
func reachable(thread *starlark.Thread, limit uint64, session starlark.StringDict) uint64 {
	m := &meter{limit: limit, sets: setMemoryIn(Predeclared(thread))}
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
	m.frames(thread, true)
	// The frames of suspended generators and tasks (see Child).
	visitChildren(thread, func(t *starlark.Thread) {
		m.total += childBytes
		m.frames(t, false)
	})
	return m.total
}

// frames counts the frames of thread's stack and what they hold, and with
// globals the module globals of the outermost function.
func (m *meter) frames(thread *starlark.Thread, globals bool) {
	depth := thread.CallStackDepth()
	globalsDone := !globals
	for d := 0; d < depth && m.total <= m.limit; d++ {
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
}

// sessionSize is reachable for a Session's globals alone.
func sessionSize(globals starlark.StringDict, limit uint64) uint64 {
	m := &meter{limit: limit, sets: setMemoryIn(globals)}
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
	sets  SetMemory // what the front end keeps beside sets; may be nil
	depth int       // containers being opened, one inside the other
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

// add counts v, held where no container's slot holds it (a variable), and
// everything it reaches.
func (m *meter) add(v starlark.Value) {
	m.content(v)
	for len(m.stack) > 0 && m.total <= m.limit {
		v := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		m.open(v)
	}
	m.stack = m.stack[:0]
}

// open counts a container that content pushed, seen for the first time:
// its own bytes now, what it holds through content.
func (m *meter) open(v starlark.Value) {
	switch v := v.(type) {
	case starlark.Tuple:
		// A tuple is a slice: the same tuple held in many places (each
		// level of a tuple of tuples holding the one below twice)
		// shares its array, and counts once.
		m.total += tupleBox + sizeClass(uint64(len(v))*slot)
		for _, x := range v {
			if m.total > m.limit {
				break
			}
			m.content(x) // its slot is in the array counted above
		}
	case heldSlice:
		m.total += sizeClass(uint64(cap(v)) * slot)
		for _, x := range v {
			if m.total > m.limit {
				break
			}
			m.content(x)
		}
	case *starlark.List:
		m.total += listBytes + sizeClass(uint64(listCap(v))*slot)
		for i := 0; i < v.Len() && m.total <= m.limit; i++ {
			m.content(v.Index(i))
		}
	case *starlark.Dict:
		m.total += hashBytes(v.Len())
		for k, x := range v.Entries() {
			if m.total > m.limit {
				break
			}
			m.content(k)
			m.content(x)
		}
	case *starlark.Set:
		m.total += hashBytes(v.Len())
		if m.sets != nil {
			m.total += uint64(m.sets.SetBytes(v))
		}
		for x := range v.Elements() {
			if m.total > m.limit {
				break
			}
			m.content(x)
		}
	case *starlarkstruct.Struct:
		names := v.AttrNames()
		m.total += structBytes + uint64(len(names))*fieldBytes
		for _, name := range names {
			x, _ := v.Attr(name)
			m.content(x)
		}
	case *starlark.Function:
		// A closure holds the variables it captured and its defaults:
		// `lambda: big` kept in a list keeps big.
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
	case *starlark.Builtin: // a bound method: big.append
		m.total += builtinBytes
		m.elem(v.Receiver())
	case *Cell:
		m.elem(v.value)
	case Holder:
		if o, ok := v.(OwnSizer); ok {
			m.total += o.OwnBytes()
		}
		v.Held(m.elem)
	}
}

// elem counts a value held by a container in a slot of its own (a list
// element, a local): the slot, then the value.
func (m *meter) elem(v starlark.Value) {
	m.total += slot
	m.content(v)
}

// content counts what a value holds beyond the slot that holds it:
// scalars at once, containers later (once each, however many slots hold
// them: a list of ten million references to one list pushes it once), so
// that the stack grows with nesting and with the containers the walk has
// still to open, never with the length of one.
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
		// The array as a text over the same memory: string(v.b) would
		// copy it at every walk, and that allocation would ask for the
		// next walk.
		m.text(unsafe.String(unsafe.SliceData(v.b), cap(v.b)))
	case starlark.Int:
		m.total += intBytes(v)
	case starlark.Float:
		m.total += 8
	case starlark.Tuple:
		if len(v) > 0 {
			m.push(v, unsafe.Pointer(unsafe.SliceData(v)))
		}
	case heldSlice:
		if cap(v) > 0 {
			m.push(v, unsafe.Pointer(unsafe.SliceData(v)))
		}
	case *starlark.List:
		m.push(v, unsafe.Pointer(v))
	case *starlark.Dict:
		m.push(v, unsafe.Pointer(v))
	case *starlark.Set:
		m.push(v, unsafe.Pointer(v))
	case *starlarkstruct.Struct:
		m.push(v, unsafe.Pointer(v))
	case *starlark.Function:
		m.push(v, unsafe.Pointer(v))
	case *starlark.Builtin:
		if v.Receiver() != nil {
			m.push(v, unsafe.Pointer(v))
		}
	case *Cell:
		if v.value != nil {
			m.push(v, unsafe.Pointer(v))
		}
	case Holder:
		if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer {
			m.push(v, nil)
		} else {
			m.push(v, rv.UnsafePointer())
		}
	}
}

// push opens v, a container at address p (nil: a value without one), if
// the walk has not seen it yet: at once while the containers being
// opened are few (a list of a million small tuples needs no stack of a
// million), else later, from the stack, so that a structure nested ten
// million deep takes no Go stack.
func (m *meter) push(v starlark.Value, p unsafe.Pointer) {
	switch {
	case p != nil && !m.first(p):
	case m.depth < inlineDepth:
		m.depth++
		m.open(v)
		m.depth--
	default:
		m.stack = append(m.stack, v)
	}
}

// inlineDepth is how many containers the meter opens one inside the
// other before it defers the next to its stack.
const inlineDepth = 8

// Holder is a value of a front end or a library that holds other values
// (an exception its arguments, an iterator the elements it has still to
// give): Held visits each, so that the memory meter counts them.
type Holder interface {
	starlark.Value
	Held(visit func(starlark.Value))
}

// An OwnSizer is a Holder that takes memory of its own besides the slots
// of the values it visits (an instance of a program's class: its struct
// and the unused room of its attribute table), which the meter adds.
type OwnSizer interface {
	Holder
	OwnBytes() uint64
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

// SetMemory is implemented by a value of a front end that keeps, beside
// some sets, memory of its own (the Python front end: the table of
// CPython's order of their elements): SetBytes is how much, for s. The
// memory meter finds it among a run's predeclared names, under
// SetMemoryName, so that no package-level hook is needed.
type SetMemory interface {
	starlark.Value
	SetBytes(s *starlark.Set) int64
}

// SetMemoryName is the predeclared name under which a front end puts its
// SetMemory.
const SetMemoryName = "__ot_setmemory"

// setMemoryIn is the SetMemory among predeclared, or nil.
func setMemoryIn(predeclared starlark.StringDict) SetMemory {
	s, _ := predeclared[SetMemoryName].(SetMemory)
	return s
}

// TableBytes is what a dict or set of n entries takes in memory, its
// keys and values aside: for builtins that size one before or while they
// fill it.
func TableBytes(n int) int64 { return int64(hashBytes(n)) }

// TableGrowth is TableBytes(n+1) - TableBytes(n): what the table of a
// dict or set of n entries takes more when one more is added. It costs a
// division for the entries that do not grow the table (all but those
// where hashBytes doubles its buckets: the 9th, then 13 times each power
// of two), so that a builtin may ask at every insertion.
func TableGrowth(n int) int64 {
	if m := n + 1; m != 9 && (m%13 != 0 || (m/13)&(m/13-1) != 0) {
		return 0
	}
	return TableBytes(n+1) - TableBytes(n)
}
