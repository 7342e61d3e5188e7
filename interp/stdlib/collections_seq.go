package stdlib

import (
	"fmt"
	"math"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// unpackPositional is starlark.UnpackPositionalArgs with CPython's
// words for an argument that is not an int.
func unpackPositional(name string, args starlark.Tuple, kwargs []starlark.Tuple, min int, vars ...any) error {
	err := starlark.UnpackPositionalArgs(name, args, kwargs, min, vars...)
	if err == nil || !strings.HasSuffix(err.Error(), "want int") {
		return err
	}
	msg := err.Error()
	if i := strings.Index(msg, ": for parameter "); i >= 0 {
		var k int
		if _, serr := fmt.Sscanf(msg[i+len(": for parameter "):], "%d", &k); serr == nil && k >= 1 && k <= len(args) {
			return pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(args[k-1]))
		}
	}
	return err
}

// deque is collections.deque: a ring of values, so that appends and pops
// at either end cost the same whatever the length.
type deque struct {
	ring   []starlark.Value
	head   int // index in ring of the first value
	n      int
	maxlen int // -1 for none
	frozen bool
	// state counts the changes of the deque's length or order (not
	// q[i] = x), as CPython's does: an iteration that sees it change
	// fails.
	state uint64
	// thread is the run that made the deque, whose budget q + r and
	// q * n (operators, which get no thread) charge.
	thread *starlark.Thread
}

var (
	_ starlark.Indexable    = (*deque)(nil)
	_ starlark.Sequence     = (*deque)(nil)
	_ starlark.Container    = (*deque)(nil)
	_ starlark.HasAttrs     = (*deque)(nil)
	_ starlark.Comparable   = (*deque)(nil)
	_ starlark.HasBinary    = (*deque)(nil)
	_ interp.TextValue      = (*deque)(nil)
	_ interp.GoValuer       = (*deque)(nil)
	_ interp.StarlarkValuer = (*deque)(nil)
	_ interp.Holder         = (*deque)(nil)
)

// Held visits the deque's ring, for the memory meter.
func (q *deque) Held(visit func(starlark.Value)) { visit(heldTuple(q.ring)) }

func (q *deque) String() string {
	s, err := interp.Repr(nil, q)
	if err != nil {
		return "deque(...)"
	}
	return s
}
func (q *deque) Type() string         { return "deque" }
func (q *deque) Freeze()              { q.frozen = true }
func (q *deque) Truth() starlark.Bool { return q.n > 0 }
func (q *deque) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'collections.deque'")
}
func (q *deque) Len() int { return q.n }

// SetIndex is q[i] = x (i already within range: Starlark checks it).
func (q *deque) SetIndex(i int, x starlark.Value) error {
	if q.frozen {
		return pyrt.Errorf("TypeError", "cannot modify a frozen deque")
	}
	q.ring[(q.head+i)%len(q.ring)] = x
	return nil
}

// DeleteItem is del q[i].
func (q *deque) DeleteItem(thread *starlark.Thread, k starlark.Value) error {
	if q.frozen {
		return pyrt.Errorf("TypeError", "cannot modify a frozen deque")
	}
	var i int
	if err := starlark.AsInt(k, &i); err != nil {
		return pyrt.Errorf("TypeError", "sequence index must be integer, not '%s'", pyrt.TypeName(k))
	}
	if i < 0 {
		i += q.n
	}
	if i < 0 || i >= q.n {
		return pyrt.Errorf("IndexError", "deque index out of range")
	}
	if err := interp.BudgetOf(thread).Charge(uint64(q.n)); err != nil {
		return err
	}
	v := q.values()
	v = append(v[:i], v[i+1:]...)
	q.ring, q.head, q.n = v, 0, len(v)
	q.state++
	return nil
}
func (q *deque) Index(i int) starlark.Value {
	return q.ring[(q.head+i)%len(q.ring)]
}
func (q *deque) values() []starlark.Value {
	out := make([]starlark.Value, q.n)
	for i := range out {
		out[i] = q.Index(i)
	}
	return out
}
func (q *deque) Iterate() starlark.Iterator { return starlark.NewList(q.values()).Iterate() }

// Walk is how Python iterates the deque (pyrt.Walker): its elements
// in place, one at a time, failing when the deque changes meanwhile.
func (q *deque) Walk() func() (starlark.Value, bool, error) {
	state, i, done := q.state, 0, false
	return func() (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		if q.state != state {
			done = true // as CPython's iterator is, after the error
			return nil, false, pyrt.Errorf("RuntimeError", "deque mutated during iteration")
		}
		if i >= q.n {
			return nil, false, nil
		}
		x := q.Index(i)
		i++
		return x, true, nil
	}
}
func (q *deque) GoValue() (any, error) { return interp.ToGo(q) }
func (q *deque) StarlarkValue() starlark.Value {
	return starlark.NewList(q.values())
}
func (q *deque) Has(x starlark.Value) (bool, error) {
	for i := 0; i < q.n; i++ {
		if eq, err := pyrt.Compare(nil, syntax.EQL, q.Index(i), x); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// Binary is q + r of two deques and q * n (n * q): a new deque with q's
// maxlen, as in CPython, its size charged to the run's budget first.
// q + a list or tuple makes one too, so that q += [1, 2] (which Starlark
// runs as q = q + [1, 2]) extends it.
func (q *deque) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch op {
	case syntax.PLUS:
	case syntax.STAR:
		v, err := q.repeat(y)
		if v == nil && err == nil && side == starlark.Left {
			err = pyrt.Errorf("TypeError", "can't multiply sequence by non-int of type '%s'", pyrt.TypeName(y))
		}
		return v, err
	default:
		return nil, nil
	}
	o, ok := y.(*deque)
	if !ok && side == starlark.Left {
		switch y := y.(type) {
		case *starlark.List:
			o, ok = &deque{maxlen: -1, ring: listValues(y), n: y.Len()}, true
		case starlark.Tuple:
			o, ok = &deque{maxlen: -1, ring: append([]starlark.Value(nil), y...), n: len(y)}, true
		}
	}
	if !ok {
		return nil, nil
	}
	a, b := q, o
	if side == starlark.Right {
		a, b = o, q
	}
	if err := q.charge(int64(a.n) + int64(b.n)); err != nil {
		return nil, err
	}
	out := &deque{maxlen: a.maxlen, thread: q.thread}
	for _, part := range [2]*deque{a, b} {
		for _, x := range part.values() {
			out.push(x, false)
		}
	}
	return out, nil
}

// repeat is q * n: the elements n times over, only the last maxlen of
// them kept when there is one.
func (q *deque) repeat(y starlark.Value) (starlark.Value, error) {
	var k int64
	switch y := y.(type) {
	case starlark.Int:
		var ok bool
		if k, ok = y.Int64(); !ok {
			return nil, pyrt.Errorf("OverflowError", "cannot fit 'int' into an index-sized integer")
		}
	case starlark.Bool:
		if y {
			k = 1
		}
	default:
		return nil, nil
	}
	out := &deque{maxlen: q.maxlen, thread: q.thread}
	if k <= 0 || q.n == 0 {
		return out, nil
	}
	total := int64(q.n) * k
	if k > math.MaxInt64/int64(q.n) {
		total = math.MaxInt64
	}
	keep := total
	if q.maxlen >= 0 {
		keep = min(keep, int64(q.maxlen))
	}
	if err := q.charge(keep); err != nil {
		return nil, err
	}
	vals := q.values()
	// The kept elements are the last keep of the repetition.
	start := (total - keep) % int64(q.n)
	for i := int64(0); i < keep; i++ {
		out.push(vals[(start+i)%int64(q.n)], false)
	}
	return out, nil
}

// charge counts n elements of a new deque against the budget of the run
// that made q: their memory and the work of copying them. A deque made
// without a run (none is) may hold no more than a million.
func (q *deque) charge(n int64) error {
	if q.thread == nil {
		if n > 1<<20 {
			return pyrt.Errorf("MemoryError", "deque too large")
		}
		return nil
	}
	b := interp.BudgetOf(q.thread)
	if err := b.Alloc(n * 16); err != nil {
		return err
	}
	return b.Charge(uint64(n))
}

func (q *deque) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, starlark.Tuple(q.values()), starlark.Tuple(y.(*deque).values()), depth)
}

func (q *deque) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString("deque("); err != nil {
		return err
	}
	if err := w.Nested(starlark.NewList(q.values()), depth+1); err != nil {
		return err
	}
	if q.maxlen >= 0 {
		if err := w.WriteString(", maxlen=" + starlark.MakeInt(q.maxlen).String()); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (q *deque) grow() {
	if q.n < len(q.ring) {
		return
	}
	ring := make([]starlark.Value, 2*len(q.ring)+4)
	copy(ring, q.values())
	q.ring, q.head = ring, 0
}

// fits refuses, before it is made, a growth of the ring (which doubles)
// that alone would pass the memory budget; it charges the copy.
func (q *deque) fits(b *interp.Budget) error {
	if q.n < len(q.ring) || q.maxlen >= 0 && q.n >= q.maxlen {
		return nil
	}
	return b.Alloc(int64(2*len(q.ring)+4) * slotSize)
}

func (q *deque) push(x starlark.Value, left bool) {
	q.state++
	if q.maxlen == 0 {
		return
	}
	if q.n == q.maxlen {
		q.pop(!left)
	}
	q.grow()
	if left {
		q.head = (q.head - 1 + len(q.ring)) % len(q.ring)
		q.ring[q.head] = x
	} else {
		q.ring[(q.head+q.n)%len(q.ring)] = x
	}
	q.n++
}

func (q *deque) pop(left bool) starlark.Value {
	q.state++
	var i int
	if left {
		i = q.head
		q.head = (q.head + 1) % len(q.ring)
	} else {
		i = (q.head + q.n - 1) % len(q.ring)
	}
	x := q.ring[i]
	q.ring[i] = nil
	q.n--
	return x
}

func (q *deque) AttrNames() []string {
	return []string{"append", "appendleft", "clear", "copy", "count", "extend", "extendleft", "index", "insert", "maxlen", "pop", "popleft", "remove", "reverse", "rotate"}
}

func (q *deque) Attr(name string) (starlark.Value, error) {
	v, err := q.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("collections.deque", name)
	}
	return v, err
}

func (q *deque) attr(name string) (starlark.Value, error) {
	if name == "maxlen" {
		if q.maxlen < 0 {
			return starlark.None, nil
		}
		return starlark.MakeInt(q.maxlen), nil
	}
	fn, ok := dequeMethods[name]
	if !ok {
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if q.frozen && name != "copy" && name != "count" && name != "index" {
			return nil, pyrt.Errorf("TypeError", "cannot modify a frozen deque")
		}
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		if err := dequeArity(name, args, kwargs); err != nil {
			return nil, err
		}
		return fn(thread, q, args, kwargs)
	}).BindReceiver(q), nil
}

// dequeArity refuses a call of a deque's method with arguments it does
// not take, in CPython's words.
func dequeArity(name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return pyrt.Errorf("TypeError", "deque.%s() takes no keyword arguments", name)
	}
	n := len(args)
	switch name {
	case "clear", "copy", "reverse", "pop", "popleft":
		if n != 0 {
			return pyrt.Errorf("TypeError", "deque.%s() takes no arguments (%d given)", name, n)
		}
	case "append", "appendleft", "count", "extend", "extendleft", "remove":
		if n != 1 {
			return pyrt.Errorf("TypeError", "deque.%s() takes exactly one argument (%d given)", name, n)
		}
	case "rotate":
		if n > 1 {
			return pyrt.Errorf("TypeError", "deque.rotate expected at most 1 argument, got %d", n)
		}
	case "index":
		if n < 1 {
			return pyrt.Errorf("TypeError", "index() takes at least 1 argument (%d given)", n)
		}
		if n > 3 {
			return pyrt.Errorf("TypeError", "index() takes at most 3 arguments (%d given)", n)
		}
	case "insert":
		if n != 2 {
			return pyrt.Errorf("TypeError", "insert() takes exactly 2 arguments (%d given)", n)
		}
	}
	return nil
}

type dequeMethod func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

var dequeMethods = map[string]dequeMethod{
	"append":     dequePush(false),
	"appendleft": dequePush(true),
	"pop":        dequePop(false),
	"popleft":    dequePop(true),
	"extend":     dequeExtend(false),
	"extendleft": dequeExtend(true),
	"clear": func(_ *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("clear", args, kwargs, 0); err != nil {
			return nil, err
		}
		q.ring, q.head, q.n = nil, 0, 0
		q.state++
		return starlark.None, nil
	},
	"copy": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("copy", args, kwargs, 0); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Alloc(int64(q.n) * 16); err != nil {
			return nil, err
		}
		return &deque{ring: q.values(), n: q.n, maxlen: q.maxlen, thread: thread}, nil
	},
	"reverse": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("reverse", args, kwargs, 0); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Alloc(int64(q.n) * 16); err != nil {
			return nil, err
		}
		v := q.values()
		for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
			v[i], v[j] = v[j], v[i]
		}
		q.ring, q.head = v, 0
		return starlark.None, nil
	},
	"rotate": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		n := 1
		if err := unpackPositional("rotate", args, kwargs, 0, &n); err != nil {
			return nil, err
		}
		if q.n <= 1 {
			return starlark.None, nil
		}
		n %= q.n
		if n < 0 {
			n += q.n
		}
		if err := interp.BudgetOf(thread).Charge(uint64(n)); err != nil {
			return nil, err
		}
		for ; n > 0; n-- {
			q.push(q.pop(false), true)
		}
		return starlark.None, nil
	},
	"count": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("count", args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Charge(uint64(q.n)); err != nil {
			return nil, err
		}
		k := 0
		for i := 0; i < q.n; i++ {
			eq, err := pyrt.Compare(thread, syntax.EQL, q.Index(i), x)
			if err != nil {
				return nil, err
			}
			if eq {
				k++
			}
		}
		return starlark.MakeInt(k), nil
	},
	"index": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		start, stop := 0, q.n
		if err := starlark.UnpackPositionalArgs("index", args, kwargs, 1, &x, &start, &stop); err != nil {
			if strings.HasSuffix(err.Error(), "want int") {
				return nil, pyrt.Errorf("TypeError", "slice indices must be integers or have an __index__ method")
			}
			return nil, err
		}
		if err := interp.BudgetOf(thread).Charge(uint64(q.n)); err != nil {
			return nil, err
		}
		if start < 0 {
			start = max(start+q.n, 0)
		}
		if stop < 0 {
			stop += q.n
		}
		for i := start; i < min(stop, q.n); i++ {
			eq, err := pyrt.Compare(thread, syntax.EQL, q.Index(i), x)
			if err != nil {
				return nil, err
			}
			if eq {
				return starlark.MakeInt(i), nil
			}
		}
		s, _ := interp.Repr(nil, x)
		return nil, pyrt.Errorf("ValueError", "%s is not in deque", s)
	},
	"insert": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var i int
		var x starlark.Value
		if err := unpackPositional("insert", args, kwargs, 2, &i, &x); err != nil {
			return nil, err
		}
		if q.maxlen >= 0 && q.n >= q.maxlen {
			return nil, pyrt.Errorf("IndexError", "deque already at its maximum size")
		}
		if err := interp.BudgetOf(thread).Charge(uint64(q.n)); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Alloc(int64(q.n+1) * 16); err != nil {
			return nil, err
		}
		// list.insert's clamping: a negative index counts from the end,
		// and an index past either end inserts at that end.
		if i < 0 {
			i = max(i+q.n, 0)
		}
		i = min(i, q.n)
		v := q.values()
		v = append(v[:i], append([]starlark.Value{x}, v[i:]...)...)
		q.ring, q.head, q.n = v, 0, len(v)
		q.state++
		return starlark.None, nil
	},
	"remove": func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("remove", args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Charge(uint64(q.n)); err != nil {
			return nil, err
		}
		v := q.values()
		for i, e := range v {
			eq, err := pyrt.Compare(thread, syntax.EQL, e, x)
			if err != nil {
				return nil, err
			}
			if eq {
				v = append(v[:i], v[i+1:]...)
				q.ring, q.head, q.n = v, 0, len(v)
				q.state++
				return starlark.None, nil
			}
		}
		s, _ := interp.Repr(nil, x)
		return nil, pyrt.Errorf("ValueError", "%s is not in deque", s)
	},
}

func dequePush(left bool) dequeMethod {
	return func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs("append", args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		if err := q.fits(interp.BudgetOf(thread)); err != nil {
			return nil, err
		}
		q.push(x, left)
		return starlark.None, nil
	}
}

func dequePop(left bool) dequeMethod {
	return func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("pop", args, kwargs, 0); err != nil {
			return nil, err
		}
		if q.n == 0 {
			return nil, pyrt.Errorf("IndexError", "pop from an empty deque")
		}
		return q.pop(left), nil
	}
}

func dequeExtend(left bool) dequeMethod {
	return func(thread *starlark.Thread, q *deque, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var src starlark.Value
		if err := starlark.UnpackPositionalArgs("extend", args, kwargs, 1, &src); err != nil {
			return nil, err
		}
		return starlark.None, q.extend(thread, src, left)
	}
}

func (q *deque) extend(thread *starlark.Thread, src starlark.Value, left bool) error {
	b := interp.BudgetOf(thread)
	if o, ok := src.(*deque); ok {
		src = starlark.NewList(o.values()) // q.extend(q) sees q as it was
	}
	// deque(count()) grows a deque in no variable yet: shown to the
	// meter while it grows.
	defer b.Hold(func(visit func(starlark.Value)) { visit(q) })()
	return pyrt.ForEach(thread, src, func(x starlark.Value) (bool, error) {
		if err := q.fits(b); err != nil {
			return true, err
		}
		q.push(x, left)
		return false, nil
	})
}

func newDeque(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src, maxlen starlark.Value = starlark.NewList(nil), starlark.None
	if len(args)+len(kwargs) > 2 {
		return nil, pyrt.Errorf("TypeError", "deque() takes at most 2 arguments (%d given)", len(args)+len(kwargs))
	}
	if err := starlark.UnpackArgs("deque", args, kwargs, "iterable?", &src, "maxlen?", &maxlen); err != nil {
		return nil, err
	}
	q := &deque{maxlen: -1, thread: thread}
	if maxlen != starlark.None {
		if err := starlark.AsInt(maxlen, &q.maxlen); err != nil {
			return nil, pyrt.Errorf("TypeError", "an integer is required")
		}
		if q.maxlen < 0 {
			return nil, pyrt.Errorf("ValueError", "maxlen must be non-negative")
		}
	}
	if err := q.extend(thread, src, false); err != nil {
		return nil, err
	}
	return q, nil
}

// ntType is a class made by namedtuple: calling it makes an ntValue.
type ntType struct {
	name     string
	fields   []string
	defaults starlark.Tuple // for the last len(defaults) fields
	module   string         // __module__: "__main__" when empty
}

var (
	_ starlark.Callable = (*ntType)(nil)
	_ starlark.HasAttrs = (*ntType)(nil)
)

func (t *ntType) String() string        { return "<class '" + t.moduleName() + "." + t.name + "'>" }
func (t *ntType) Type() string          { return "type" }
func (t *ntType) Name() string          { return t.name }
func (t *ntType) Freeze()               {}
func (t *ntType) Truth() starlark.Bool  { return true }
func (t *ntType) Hash() (uint32, error) { return starlark.String(t.name).Hash() }
func (t *ntType) AttrNames() []string {
	return []string{"__doc__", "__module__", "__name__", "__qualname__", "_field_defaults", "_fields", "_make"}
}

func (t *ntType) moduleName() string {
	if t.module == "" {
		return "__main__"
	}
	return t.module
}
func (t *ntType) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(t.name), nil
	case "__module__":
		return starlark.String(t.moduleName()), nil
	case "__doc__":
		// CPython's docstring of the class: Point(x, y).
		return starlark.String(t.name + "(" + strings.Join(t.fields, ", ") + ")"), nil
	case "_fields":
		return t.fieldTuple(), nil
	case "_field_defaults":
		return t.fieldDefaults(), nil
	case "_make":
		return interp.NewBuiltin("_make", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var src starlark.Value
			if err := starlark.UnpackPositionalArgs("_make", args, kwargs, 1, &src); err != nil {
				return nil, err
			}
			var vals starlark.Tuple
			if err := pyrt.ForEach(thread, src, func(x starlark.Value) (bool, error) {
				vals = append(vals, x)
				return len(vals) > len(t.fields), interp.BudgetOf(thread).Alloc(16)
			}); err != nil {
				return nil, err
			}
			if len(vals) != len(t.fields) {
				return nil, pyrt.Errorf("TypeError", "Expected %d arguments, got %d", len(t.fields), len(vals))
			}
			return &ntValue{typ: t, vals: vals}, nil
		}), nil
	}
	return nil, nil
}

// fieldDefaults is _field_defaults: the fields that have a default, with
// it, in field order.
func (t *ntType) fieldDefaults() *starlark.Dict {
	d := starlark.NewDict(len(t.defaults))
	first := len(t.fields) - len(t.defaults)
	for i, v := range t.defaults {
		_ = d.SetKey(starlark.String(t.fields[first+i]), v)
	}
	return d
}

func (t *ntType) fieldTuple() starlark.Tuple {
	out := make(starlark.Tuple, len(t.fields))
	for i, f := range t.fields {
		out[i] = starlark.String(f)
	}
	return out
}

func (t *ntType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := interp.BudgetOf(thread).Alloc(int64(len(t.fields)) * 16); err != nil {
		return nil, err
	}
	n := len(t.fields)
	if len(args) > n {
		return nil, pyrt.Errorf("TypeError", "%s.__new__() takes %d positional arguments but %d were given", t.name, n+1, len(args)+1)
	}
	vals := make(starlark.Tuple, n)
	copy(vals, args)
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		i := t.index(k)
		if i < 0 {
			return nil, pyrt.Errorf("TypeError", "%s.__new__() got an unexpected keyword argument '%s'", t.name, k)
		}
		if vals[i] != nil {
			return nil, pyrt.Errorf("TypeError", "%s.__new__() got multiple values for argument '%s'", t.name, k)
		}
		vals[i] = kv[1]
	}
	var missing []string
	for i := range vals {
		if vals[i] == nil {
			if d := i - (n - len(t.defaults)); d >= 0 {
				vals[i] = t.defaults[d]
			} else {
				missing = append(missing, "'"+t.fields[i]+"'")
			}
		}
	}
	if len(missing) > 0 {
		list := missing[len(missing)-1]
		switch len(missing) {
		case 1:
		case 2:
			list = missing[0] + " and " + list
		default:
			list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + list
		}
		s := "s"
		if len(missing) == 1 {
			s = ""
		}
		return nil, pyrt.Errorf("TypeError", "%s.__new__() missing %d required positional argument%s: %s", t.name, len(missing), s, list)
	}
	return &ntValue{typ: t, vals: vals}, nil
}

// HasInstance: isinstance(p, P) holds for the values P made.
func (t *ntType) HasInstance(v starlark.Value) bool {
	n, ok := v.(*ntValue)
	return ok && n.typ == t
}

func (t *ntType) index(field string) int {
	for i, f := range t.fields {
		if f == field {
			return i
		}
	}
	return -1
}

// ntValue is a value of a namedtuple class: a tuple whose elements are
// also attributes.
type ntValue struct {
	typ  *ntType
	vals starlark.Tuple
}

var (
	_ starlark.Indexable    = (*ntValue)(nil)
	_ starlark.Sequence     = (*ntValue)(nil)
	_ starlark.Container    = (*ntValue)(nil)
	_ starlark.HasAttrs     = (*ntValue)(nil)
	_ starlark.HasSetField  = (*ntValue)(nil)
	_ starlark.Sliceable    = (*ntValue)(nil)
	_ starlark.HasBinary    = (*ntValue)(nil)
	_ starlark.Comparable   = (*ntValue)(nil)
	_ interp.TextValue      = (*ntValue)(nil)
	_ interp.GoValuer       = (*ntValue)(nil)
	_ interp.StarlarkValuer = (*ntValue)(nil)
	_ interp.Holder         = (*ntValue)(nil)
)

// Held visits the values, for the memory meter.
func (v *ntValue) Held(visit func(starlark.Value)) { visit(v.vals) }

func (v *ntValue) String() string {
	s, err := interp.Repr(nil, v)
	if err != nil {
		return v.typ.name + "(...)"
	}
	return s
}
func (v *ntValue) Type() string                       { return v.typ.name }
func (v *ntValue) Freeze()                            { v.vals.Freeze() }
func (v *ntValue) Truth() starlark.Bool               { return len(v.vals) > 0 }
func (v *ntValue) Hash() (uint32, error)              { return v.vals.Hash() }
func (v *ntValue) Len() int                           { return len(v.vals) }
func (v *ntValue) Index(i int) starlark.Value         { return v.vals[i] }
func (v *ntValue) Iterate() starlark.Iterator         { return v.vals.Iterate() }
func (v *ntValue) Has(x starlark.Value) (bool, error) { return v.vals.Has(x) }

// StarlarkValue is the namedtuple as a run's result or a tool's argument:
// an object of its fields, as the issue asks ("a namedtuple as an
// object"), so that P(x=1, y=2) reads {"x":1,"y":2}. json.dumps keeps
// CPython's array (see json.go).
func (v *ntValue) StarlarkValue() starlark.Value {
	d := starlark.NewDict(len(v.vals))
	for i, f := range v.typ.fields {
		_ = d.SetKey(starlark.String(f), v.vals[i])
	}
	return d
}
func (v *ntValue) GoValue() (any, error) { return interp.ToGo(v) }
func (v *ntValue) BuiltinBase() string   { return "tuple" }
func (v *ntValue) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, v.vals, y.(*ntValue).vals, depth)
}

func (v *ntValue) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString(v.typ.name + "("); err != nil {
		return err
	}
	for i, f := range v.typ.fields {
		sep := ", "
		if i == 0 {
			sep = ""
		}
		if err := w.WriteString(sep + f + "="); err != nil {
			return err
		}
		if err := w.Nested(v.vals[i], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

// Slice is p[i:j:k]: a plain tuple, as in CPython.
func (v *ntValue) Slice(start, end, step int) starlark.Value {
	return v.vals.Slice(start, end, step)
}

// Binary is p + t and t + p: plain tuples, as in CPython. (p * n, which
// would make a tuple whose size the run's memory budget must check first,
// is left out.)
func (v *ntValue) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if o, ok := y.(*ntValue); ok {
		y = o.vals
	}
	if op != syntax.PLUS && op != syntax.STAR { // p + t, p * n: tuples
		return nil, nil
	}
	if side == starlark.Left {
		return starlark.Binary(op, v.vals, y)
	}
	return starlark.Binary(op, y, v.vals)
}

// SetField refuses p.x = v as CPython does: a namedtuple is immutable.
func (v *ntValue) SetField(name string, _ starlark.Value) error {
	if v.typ.index(name) >= 0 {
		return pyrt.Errorf("AttributeError", "can't set attribute")
	}
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", v.typ.name, name)
}

func (v *ntValue) AttrNames() []string {
	return append([]string{"_asdict", "_field_defaults", "_fields", "_replace", "count", "index"}, v.typ.fields...)
}

func (v *ntValue) Attr(name string) (starlark.Value, error) {
	if i := v.typ.index(name); i >= 0 {
		return v.vals[i], nil
	}
	if m := tupleMethod(name, v.vals); m != nil {
		return m, nil
	}
	switch name {
	case "_fields":
		return v.typ.fieldTuple(), nil
	case "_field_defaults":
		return v.typ.fieldDefaults(), nil
	case "_asdict":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			d := starlark.NewDict(len(v.vals))
			for i, f := range v.typ.fields {
				_ = d.SetKey(starlark.String(f), v.vals[i])
			}
			return d, nil
		}), nil
	case "_replace":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "%s._replace() takes 1 positional argument but %d were given", v.typ.name, len(args)+1)
			}
			vals := append(starlark.Tuple(nil), v.vals...)
			var bad []string
			for _, kv := range kwargs {
				k, _ := starlark.AsString(kv[0])
				i := v.typ.index(k)
				if i < 0 {
					bad = append(bad, "'"+k+"'")
					continue
				}
				vals[i] = kv[1]
			}
			if len(bad) > 0 {
				return nil, pyrt.Errorf("ValueError", "Got unexpected field names: [%s]", strings.Join(bad, ", "))
			}
			return &ntValue{typ: v.typ, vals: vals}, nil
		}), nil
	}
	return nil, nil
}

func newNamedTuple(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var names starlark.Value
	var defaults starlark.Value = starlark.None
	var rename bool
	var module starlark.Value
	if err := starlark.UnpackArgs("namedtuple", args, kwargs, "typename", &name, "field_names", &names, "rename?", &rename, "defaults?", &defaults, "module?", &module); err != nil {
		return nil, err
	}
	var fields []string
	if s, ok := interp.AsText(names); ok {
		fields = strings.Fields(strings.ReplaceAll(s, ",", " "))
	} else {
		// namedtuple('P', count()) ends at the budget: list()'s.
		vals, err := pyrt.Collect(thread, names)
		if err != nil {
			return nil, err
		}
		fields = make([]string, len(vals))
		for i, x := range vals {
			s, ok := interp.AsText(x)
			if !ok {
				// CPython takes str() of each field name.
				if s, err = interp.Str(interp.BudgetOf(thread), x); err != nil {
					return nil, err
				}
			}
			fields[i] = s
		}
	}
	seen := map[string]bool{}
	for i, f := range fields {
		if rename && (!isIdent(f) || strings.HasPrefix(f, "_") || seen[f]) {
			f = "_" + starlark.MakeInt(i).String()
			fields[i] = f
		}
		seen[f] = true
	}
	seen = map[string]bool{}
	for _, f := range append([]string{name}, fields...) {
		if pyast.IsKeyword(f) {
			return nil, pyrt.Errorf("ValueError", "Type names and field names cannot be a keyword: '%s'", f)
		}
		if !isIdent(f) {
			return nil, pyrt.Errorf("ValueError", "Type names and field names must be valid identifiers: '%s'", f)
		}
	}
	for _, f := range fields {
		if strings.HasPrefix(f, "_") && !rename {
			return nil, pyrt.Errorf("ValueError", "Field names cannot start with an underscore: '%s'", f)
		}
		if seen[f] {
			return nil, pyrt.Errorf("ValueError", "Encountered duplicate field name: '%s'", f)
		}
		seen[f] = true
	}
	t := &ntType{name: name, fields: fields}
	if module != nil && module != starlark.None {
		t.module = module.String()
		if m, ok := interp.AsText(module); ok {
			t.module = m
		}
	}
	if defaults != starlark.None {
		if err := pyrt.ForEach(thread, defaults, func(x starlark.Value) (bool, error) {
			t.defaults = append(t.defaults, x)
			return false, nil
		}); err != nil {
			return nil, err
		}
		if len(t.defaults) > len(fields) {
			return nil, pyrt.Errorf("TypeError", "Got more default values than field names")
		}
	}
	return t, nil
}

// isIdent reports whether s is a Python identifier and not a keyword.
func isIdent(s string) bool { return pyrt.IsIdentifier(s) && !pyast.IsKeyword(s) }

// tupleMethod is a tuple's count or index method over vals, for the
// values that derive from tuple (a namedtuple, time.struct_time,
// isocalendar()'s), or nil for any other name.
func tupleMethod(name string, vals []starlark.Value) starlark.Value {
	switch name {
	case "count":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
				return nil, err
			}
			n := 0
			for _, e := range vals {
				eq, err := pyrt.Compare(thread, syntax.EQL, e, x)
				if err != nil {
					return nil, err
				}
				if eq {
					n++
				}
			}
			return starlark.MakeInt(n), nil
		})
	case "index":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
				return nil, err
			}
			for i, e := range vals {
				eq, err := pyrt.Compare(thread, syntax.EQL, e, x)
				if err != nil {
					return nil, err
				}
				if eq {
					return starlark.MakeInt(i), nil
				}
			}
			return nil, pyrt.Errorf("ValueError", "tuple.index(x): x not in tuple")
		})
	}
	return nil
}
