package pyrt

import (
	"math"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"weak"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The order of a set. go.starlark.net's sets keep their elements in the
// order they were added; CPython's are hash tables walked slot by slot,
// so {3, 1, 2} prints as {1, 2, 3} and list(set(xs)) of small ints comes
// out sorted. Where every element's CPython hash is known (ints, bools,
// floats other than NaN, and tuples of them) the hash and the set's
// history decide that order, and programs print it. A setTable models
// CPython's table of such a set: its size, growth, probe sequence, freed
// slots and their reuse, and what each operation does to them (a copy
// takes the slots of its source, a union sizes the table once, `a - b`
// adds what it keeps in a's order, …).
//
// A set built by adding elements one by one (a display, a comprehension,
// set(list), add) needs no table until it is shown: its elements, in the
// order they were added, replay its history. The other operations keep a
// table for the set they make or change (setTables), and the methods that
// change a set keep it in step. The hash of a str is salted per process
// in CPython, so a set holding text has no order a program can rely on:
// it keeps the order of insertion.

const (
	setMinSize      = 8 // the smallest table
	setLinearProbes = 9 // slots tried one after the other before jumping
	setPerturbShift = 5
	slotEmpty       = -1
	slotDummy       = -2 // a freed slot, reused by a later insertion
)

func init() {
	interp.SetOrder = setOrder
}

// setMemory tells the memory meter what the tables of setTables take
// (interp.SetMemory), from among the predeclared names.
type setMemory struct{}

func (setMemory) String() string        { return "<set memory>" }
func (setMemory) Type() string          { return "set_memory" }
func (setMemory) Freeze()               {}
func (setMemory) Truth() starlark.Bool  { return true }
func (setMemory) Hash() (uint32, error) { return 0, nil }

// SetBytes is what the table kept for s takes, its elements aside.
func (setMemory) SetBytes(s *starlark.Set) int64 { return storedTable(s).bytes() }

// setTable models CPython's table of a set: slots hold indexes into
// keys, or slotEmpty / slotDummy.
type setTable struct {
	mask   uint64
	slots  []int32
	keys   []starlark.Value
	hashes []int64
	free   []int32 // indexes of keys no slot holds
	fill   int     // slots not empty (active and freed)
	used   int     // active slots
	finger uint64  // where pop looks first
}

// bytes is what t takes in memory beyond the keys themselves; 0 for nil.
func (t *setTable) bytes() int64 {
	if t == nil {
		return 0
	}
	return int64(cap(t.slots))*4 + int64(cap(t.keys))*16 + int64(cap(t.hashes))*8 + int64(cap(t.free))*4
}

func newSetTable() *setTable {
	return &setTable{mask: setMinSize - 1, slots: emptySlots(setMinSize)}
}

func emptySlots(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = slotEmpty
	}
	return s
}

// probe calls visit with each slot of h's probe sequence until visit
// reports true.
func (t *setTable) probe(h int64, visit func(j uint64) bool) {
	mask := t.mask
	i := uint64(h) & mask
	perturb := uint64(h)
	for {
		probes := uint64(0)
		if i+setLinearProbes <= mask {
			probes = setLinearProbes
		}
		for j := i; j <= i+probes; j++ {
			if visit(j) {
				return
			}
		}
		perturb >>= setPerturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// find returns the slot holding a key equal to key, or -1.
func (t *setTable) find(key starlark.Value, h int64) (int, error) {
	at := -1
	var err error
	t.probe(h, func(j uint64) bool {
		k := t.slots[j]
		switch {
		case k == slotEmpty:
			return true
		case k >= 0 && t.hashes[k] == h:
			var eq bool
			if eq, err = starlark.Equal(t.keys[k], key); err != nil || eq {
				if eq {
					at = int(j)
				}
				return true
			}
		}
		return false
	})
	return at, err
}

// add inserts key (whose hash is h) unless an equal key is there: in
// the last freed slot its probe sequence met, else the empty slot that
// ends it, growing the table when it is three fifths full.
func (t *setTable) add(key starlark.Value, h int64) error {
	free := -1
	var err error
	done := false
	t.probe(h, func(j uint64) bool {
		k := t.slots[j]
		switch {
		case k == slotEmpty:
			if free >= 0 {
				t.slots[free] = t.put(key, h)
				t.used++
				return true
			}
			t.slots[j] = t.put(key, h)
			t.fill++
			t.used++
			done = true
			return true
		case k == slotDummy:
			free = int(j) // the last freed slot met is the one reused
		case t.hashes[k] == h:
			var eq bool
			if eq, err = starlark.Equal(t.keys[k], key); err != nil || eq {
				return true
			}
		}
		return false
	})
	if done && t.fill*5 >= int(t.mask)*3 {
		grow := t.used * 4
		if t.used > 50000 {
			grow = t.used * 2
		}
		t.resize(grow)
	}
	return err
}

// discard frees the slot of key; it reports whether key was there.
func (t *setTable) discard(key starlark.Value, h int64) (bool, error) {
	j, err := t.find(key, h)
	if err != nil || j < 0 {
		return false, err
	}
	t.release(j)
	return true, nil
}

// release frees slot j.
func (t *setTable) release(j int) {
	k := t.slots[j]
	t.keys[k] = nil
	t.free = append(t.free, k)
	t.slots[j] = slotDummy
	t.used--
}

// pop frees the first active slot from the finger on, and returns its
// key.
func (t *setTable) pop() starlark.Value {
	if t.used == 0 {
		return nil
	}
	n := uint64(len(t.slots))
	j := t.finger & t.mask
	for t.slots[j] < 0 {
		j = (j + 1) % n
	}
	key := t.keys[t.slots[j]]
	t.release(int(j))
	t.finger = j + 1
	return key
}

// clear empties the table, back to its smallest size.
func (t *setTable) clear() {
	t.mask, t.slots = setMinSize-1, emptySlots(setMinSize)
	t.keys, t.hashes, t.free = nil, nil, nil
	t.fill, t.used = 0, 0
}

// put records a key and returns its index.
func (t *setTable) put(key starlark.Value, h int64) int32 {
	if n := len(t.free); n > 0 {
		k := t.free[n-1]
		t.free = t.free[:n-1]
		t.keys[k], t.hashes[k] = key, h
		return k
	}
	t.keys = append(t.keys, key)
	t.hashes = append(t.hashes, h)
	return int32(len(t.keys) - 1)
}

// resize moves the active keys, in slot order, to a table of the smallest
// size above minUsed, as CPython does when a table fills up.
func (t *setTable) resize(minUsed int) {
	size := setMinSize
	for size <= minUsed {
		size <<= 1
	}
	old := t.slots
	keys, hashes := t.keys, t.hashes
	t.slots = emptySlots(size)
	t.mask = uint64(size - 1)
	t.keys, t.hashes, t.free = make([]starlark.Value, 0, t.used), make([]int64, 0, t.used), nil
	t.fill = t.used
	for _, k := range old {
		if k >= 0 {
			t.insertClean(t.put(keys[k], hashes[k]))
		}
	}
}

// insertClean puts key index k in the first empty slot of its probe
// sequence (the table has no freed slots and no equal key).
func (t *setTable) insertClean(k int32) {
	t.probe(t.hashes[k], func(j uint64) bool {
		if t.slots[j] == slotEmpty {
			t.slots[j] = k
			return true
		}
		return false
	})
}

// merge adds the keys of o, as CPython's set_merge does: the table is
// sized once for both; an empty table of o's size takes o's slots as they
// are.
func (t *setTable) merge(o *setTable) error {
	if o == t || o.used == 0 {
		return nil
	}
	if (t.fill+o.used)*5 >= int(t.mask)*3 {
		t.resize((t.used + o.used) * 2)
	}
	if t.fill == 0 && t.mask == o.mask && o.fill == o.used {
		for j, k := range o.slots {
			if k >= 0 {
				t.slots[j] = t.put(o.keys[k], o.hashes[k])
			}
		}
		t.fill, t.used = o.used, o.used
		return nil
	}
	if t.fill == 0 {
		t.fill, t.used = o.used, o.used
		for _, k := range o.slots {
			if k >= 0 {
				t.insertClean(t.put(o.keys[k], o.hashes[k]))
			}
		}
		return nil
	}
	for _, k := range o.slots {
		if k >= 0 {
			if err := t.add(o.keys[k], o.hashes[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// order is the active keys in slot order.
func (t *setTable) order() []starlark.Value {
	out := make([]starlark.Value, 0, t.used)
	for _, k := range t.slots {
		if k >= 0 {
			out = append(out, t.keys[k])
		}
	}
	return out
}

// copyTable is a new table with the keys of t, as set(s) and s.copy()
// make it.
func copyTable(t *setTable) *setTable {
	c := newSetTable()
	c.merge(t) // no comparisons: the keys are distinct
	return c
}

// knownHash is CPython's hash of v when it is the same in every CPython
// process: numbers (not NaN, whose hash is its address) and tuples of
// them.
func knownHash(v starlark.Value, depth int) (int64, bool) {
	switch x := v.(type) {
	case starlark.Int:
		if n, ok := x.Int64(); ok && n > -hashModulus && n < hashModulus {
			if n == -1 {
				return -2, true
			}
			return n, true
		}
		return hashInt(x.BigInt()), true
	case starlark.Bool:
		if x {
			return 1, true
		}
		return 0, true
	case starlark.Float:
		if math.IsNaN(float64(x)) {
			return 0, false
		}
		return hashFloat(float64(x)), true
	case starlark.Tuple:
		if depth > 8 {
			return 0, false
		}
		const (
			prime1 uint64 = 11400714785074694791
			prime2 uint64 = 14029467366897019727
			prime5 uint64 = 2870177450012600261
		)
		acc := prime5
		for _, e := range x {
			h, ok := knownHash(e, depth+1)
			if !ok {
				return 0, false
			}
			acc += uint64(h) * prime2
			acc = acc<<31 | acc>>33
			acc *= prime1
		}
		acc += uint64(len(x)) ^ (prime5 ^ 3527539)
		if acc == math.MaxUint64 {
			return 1546275796, true
		}
		return int64(acc), true
	}
	return 0, false
}

// setTables holds the tables of the sets whose history the order of
// their elements cannot replay, by a weak pointer: an entry goes when its
// set does.
var setTables struct {
	mu sync.Mutex
	m  map[weak.Pointer[starlark.Set]]*setTable
	n  atomic.Int64 // len(m), read without the lock
}

func storedTable(s *starlark.Set) *setTable {
	if setTables.n.Load() == 0 {
		return nil // the common case: no set anywhere needs a kept table
	}
	setTables.mu.Lock()
	defer setTables.mu.Unlock()
	return setTables.m[weak.Make(s)]
}

// keepTable records t as the table of s; nil forgets s's.
func keepTable(s *starlark.Set, t *setTable) {
	if t == nil && setTables.n.Load() == 0 {
		return
	}
	wp := weak.Make(s)
	setTables.mu.Lock()
	defer setTables.mu.Unlock()
	defer func() { setTables.n.Store(int64(len(setTables.m))) }()
	if t == nil {
		delete(setTables.m, wp)
		return
	}
	if setTables.m == nil {
		setTables.m = map[weak.Pointer[starlark.Set]]*setTable{}
	}
	if _, ok := setTables.m[wp]; !ok {
		goruntime.AddCleanup(s, func(wp weak.Pointer[starlark.Set]) {
			setTables.mu.Lock()
			delete(setTables.m, wp)
			setTables.n.Store(int64(len(setTables.m)))
			setTables.mu.Unlock()
		}, wp)
	}
	setTables.m[wp] = t
}

// replays reports whether adding t's keys one by one, in t's order, to
// an empty table makes t again (no freed slot, no pop begun, the same
// size and slots): then the set needs no kept table, its order of
// insertion being that order.
func (t *setTable) replays() bool {
	if t.fill != t.used || t.finger != 0 {
		return false
	}
	r := newSetTable()
	for _, k := range t.slots {
		if k >= 0 {
			r.add(t.keys[k], t.hashes[k]) // distinct keys: no comparison fails
		}
	}
	if r.mask != t.mask {
		return false
	}
	for j, k := range t.slots {
		rk := r.slots[j]
		if (k >= 0) != (rk >= 0) {
			return false
		}
		if k >= 0 {
			if t.hashes[k] != r.hashes[rk] {
				return false
			}
			if eq, err := starlark.Equal(t.keys[k], r.keys[rk]); err != nil || !eq {
				return false
			}
		}
	}
	return true
}

// tableOf returns the table of s, nil when the hash of one of its
// elements is unknown. A table made by replaying s's elements is kept
// when keep is set: the caller is about to change s and the table with
// it.
func tableOf(b *interp.Budget, s *starlark.Set, keep bool) (*setTable, error) {
	return tableOfChecked(b, s, keep, false)
}

// tableOfChecked is tableOf; with verify, a kept table is checked
// element by element against s (as a walk of s costs anyway), not only
// by its count.
func tableOfChecked(b *interp.Budget, s *starlark.Set, keep, verify bool) (*setTable, error) {
	if t := storedTable(s); t != nil {
		ok, err := t.sync(b, s, verify)
		if err != nil || !ok {
			keepTable(s, nil)
			return nil, err
		}
		return t, nil
	}
	if err := b.Alloc(int64(s.Len()) * (16 + 2*slot)); err != nil {
		return nil, err
	}
	if err := b.Charge(uint64(s.Len())); err != nil {
		return nil, err
	}
	t := newSetTable()
	for v := range s.Elements() {
		h, ok := knownHash(v, 0)
		if !ok {
			return nil, nil
		}
		if err := t.add(v, h); err != nil {
			return nil, err
		}
	}
	if keep {
		keepTable(s, t)
	}
	return t, nil
}

// sync brings a kept table up to date with s, should something have
// changed s without it (a method taken as a value, a module's code):
// what s lost is freed, what it gained is added. It reports false when
// an element's hash is unknown.
func (t *setTable) sync(b *interp.Budget, s *starlark.Set, verify bool) (bool, error) {
	if t.used == s.Len() && !verify {
		return true, nil // the methods that change a set keep its table
	}
	if err := b.Charge(uint64(len(t.slots) + s.Len())); err != nil {
		return false, err
	}
	if s.Len() == 0 {
		if t.used != 0 {
			t.clear() // emptied at once, as clear() does
		}
		return true, nil
	}
	for j, k := range t.slots {
		if k >= 0 {
			if in, err := s.Has(t.keys[k]); err != nil || !in {
				if err != nil {
					return false, err
				}
				t.release(j)
			}
		}
	}
	if t.used == s.Len() {
		return true, nil // every element of s is in the table
	}
	for v := range s.Elements() {
		h, ok := knownHash(v, 0)
		if !ok {
			return false, nil
		}
		if err := t.add(v, h); err != nil {
			return false, err
		}
	}
	return true, nil
}

// setOrder returns the elements of s in the order CPython would walk
// them, or nil when that is the order of insertion (or unknowable: an
// element's hash differs from process to process). It is interp.SetOrder.
func setOrder(b *interp.Budget, s *starlark.Set) ([]starlark.Value, error) {
	if s.Len() < 2 {
		return nil, nil
	}
	t, err := tableOfChecked(b, s, false, true)
	if err != nil || t == nil {
		return nil, err
	}
	return t.order(), nil
}

// setElems is the elements of s in CPython's order (see setOrder).
func setElems(b *interp.Budget, s *starlark.Set) ([]starlark.Value, error) {
	order, err := setOrder(b, s)
	if err != nil || order != nil {
		return order, err
	}
	out := make([]starlark.Value, 0, s.Len())
	for v := range s.Elements() {
		out = append(out, v)
	}
	return out, nil
}

// setAdd adds x to s and to its kept table.
func setAdd(s *starlark.Set, x starlark.Value) error {
	if err := s.Insert(x); err != nil {
		return err
	}
	if t := storedTable(s); t != nil {
		h, ok := knownHash(x, 0)
		if !ok {
			keepTable(s, nil)
			return nil
		}
		return t.add(x, h)
	}
	return nil
}

// setDiscard removes x from s, keeping a table for s first (see
// tableOf): CPython's table keeps its size and the freed slot.
func setDiscard(b *interp.Budget, s *starlark.Set, x starlark.Value) (bool, error) {
	t, err := tableOf(b, s, true)
	if err != nil {
		return false, err
	}
	found, err := s.Delete(x)
	if err != nil || !found {
		return found, err
	}
	if t != nil {
		h, _ := knownHash(x, 0)
		_, err = t.discard(x, h)
	}
	return true, err
}
