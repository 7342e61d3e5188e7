package stdlib

import (
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Itertools is the itertools module. Its iterators are lazy, as in
// CPython: count(), cycle() and repeat() are endless, and each element
// any of them yields is charged to the run's budget, so list(count())
// ends with the budget's error, not a hang. product, permutations and
// combinations hold their input pools (as CPython does) and make one
// tuple per element asked for, never the whole result.
func Itertools() *starlarkstruct.Module {
	m := starlark.StringDict{}
	add := func(name string, fn interp.BuiltinFunc) { m[name] = interp.NewBuiltin(name, fn) }
	add("count", itCount)
	add("cycle", itCycle)
	add("repeat", itRepeat)
	add("islice", itIslice)
	add("takewhile", itWhile("takewhile", true))
	add("dropwhile", itWhile("dropwhile", false))
	m["chain"] = &chainFn{}
	add("zip_longest", itZipLongest)
	add("accumulate", itAccumulate)
	add("groupby", itGroupby)
	add("product", itProduct)
	add("permutations", itPermutations)
	add("combinations", itCombinations(false))
	add("combinations_with_replacement", itCombinations(true))
	add("compress", itCompress)
	add("starmap", itStarmap)
	add("pairwise", itPairwise)
	add("batched", itBatched)
	add("tee", itTee)
	add("filterfalse", itFilterfalse)
	mod := &starlarkstruct.Module{Name: "itertools", Members: m}
	mod.Freeze()
	return mod
}

type nextFn = func() (starlark.Value, bool, error)

func iterArg(thread *starlark.Thread, v starlark.Value) (nextFn, error) {
	return pyrt.Iterate(thread, v)
}

// newTuple makes the tuple of n elements an iterator yields, refused
// before it is allocated when it alone would exceed the memory budget.
func newTuple(thread *starlark.Thread, n int) (starlark.Tuple, error) {
	if err := interp.BudgetOf(thread).Alloc(int64(n+1) * slotSize); err != nil {
		return nil, err
	}
	return make(starlark.Tuple, n), nil
}

func truth(thread *starlark.Thread, fn, x starlark.Value) (bool, error) {
	if fn == nil || fn == starlark.None {
		return bool(x.Truth()), nil
	}
	r, err := starlark.Call(thread, fn, starlark.Tuple{x}, nil)
	if err != nil {
		return false, err
	}
	return bool(r.Truth()), nil
}

func noKwargs(name string, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return pyrt.Errorf("TypeError", "%s() takes no keyword arguments", name)
	}
	return nil
}

func nArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, n int) error {
	if err := noKwargs(name, kwargs); err != nil {
		return err
	}
	if len(args) != n {
		return pyrt.Errorf("TypeError", "%s expected %d argument%s, got %d", name, n, plural(n), len(args))
	}
	return nil
}

// unpack binds the arguments of a module function written in Python in
// CPython (statistics, string), with its messages for a missing or
// unknown argument.
func unpack(name string, args starlark.Tuple, kwargs []starlark.Tuple, pairs ...any) error {
	return unpackWith(argStyle{name: name}, args, kwargs, pairs...)
}

// unpackC binds the arguments of a function written in C in CPython
// (itertools), with its messages.
func unpackC(name string, args starlark.Tuple, kwargs []starlark.Tuple, pairs ...any) error {
	return unpackWith(argStyle{name: name, c: true}, args, kwargs, pairs...)
}

// argStyle is how CPython words what is wrong with a call of a function.
type argStyle struct {
	name string // as messages name it: "sub", "Random.randint"
	c    bool   // written in C: "missing required argument 'x' (pos 2)"
	self bool   // a method written in Python: self counts among the positional arguments
	// maxPos is how many parameters may be given by position (the rest
	// are keyword-only); 0 for all of them.
	maxPos int
	// badKeyword is the name an unknown keyword is reported under, when
	// not name (json.dumps's is "JSONEncoder.__init__").
	badKeyword string
}

// unpackWith checks the call against the parameters of pairs (names,
// "?" for an optional one) and words what is wrong with it as CPython
// does; then it binds the arguments as starlark.UnpackArgs does.
func unpackWith(st argStyle, args starlark.Tuple, kwargs []starlark.Tuple, pairs ...any) error {
	name, cStyle := st.name, st.c
	var params []string
	required := 0
	for i := 0; i+1 < len(pairs); i += 2 {
		p, _ := pairs[i].(string)
		if !strings.HasSuffix(p, "?") {
			required = len(params) + 1
		}
		params = append(params, strings.TrimSuffix(p, "?"))
	}
	given := make([]bool, len(params))
	for i := range args {
		if i < len(given) {
			given[i] = true
		}
	}
	var unknown string
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		i := indexOf(params, k)
		if i < 0 {
			if cStyle {
				// C functions name a missing argument first.
				if unknown == "" {
					unknown = k
				}
				continue
			}
			where := name
			if st.badKeyword != "" {
				where = st.badKeyword
			}
			return pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", where, k)
		}
		if given[i] {
			if cStyle {
				return pyrt.Errorf("TypeError", "argument for %s() given by name ('%s') and position (%d)", name, k, i+1)
			}
			return pyrt.Errorf("TypeError", "%s() got multiple values for argument '%s'", name, k)
		}
		given[i] = true
	}
	maxPos := len(params)
	if st.maxPos > 0 {
		maxPos = st.maxPos
	}
	if cStyle && len(args)+len(kwargs) > len(params) {
		return pyrt.Errorf("TypeError", "%s() takes at most %d argument%s (%d given)", name, len(params), plural(len(params)), len(args)+len(kwargs))
	}
	if !cStyle && len(args) > maxPos {
		self := 0
		if st.self {
			self = 1
		}
		n, given := maxPos+self, len(args)+self
		were := "were"
		if given == 1 {
			were = "was"
		}
		if required >= maxPos {
			return pyrt.Errorf("TypeError", "%s() takes %d positional argument%s but %d %s given", name, n, plural(n), given, were)
		}
		return pyrt.Errorf("TypeError", "%s() takes from %d to %d positional arguments but %d %s given", name, min(required, maxPos)+self, n, given, were)
	}
	var missing []string
	for i := 0; i < required; i++ {
		if !given[i] {
			if cStyle {
				return pyrt.Errorf("TypeError", "%s() missing required argument '%s' (pos %d)", name, params[i], i+1)
			}
			missing = append(missing, "'"+params[i]+"'")
		}
	}
	if unknown != "" {
		return pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for %s()", unknown, name)
	}
	if len(missing) > 0 {
		list := missing[len(missing)-1]
		if len(missing) == 2 {
			list = missing[0] + " and " + list
		} else if len(missing) > 2 {
			list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + list
		}
		return pyrt.Errorf("TypeError", "%s() missing %d required positional argument%s: %s", name, len(missing), plural(len(missing)), list)
	}
	if err := starlark.UnpackArgs(name, args, kwargs, pairs...); err != nil {
		// A value of the wrong type for an int parameter.
		msg := err.Error()
		if i := strings.Index(msg, ": for parameter "); i >= 0 && strings.HasSuffix(msg, "want int") {
			p := msg[i+len(": for parameter "):]
			p = p[:strings.IndexByte(p, ':')]
			p = strings.Trim(p, `"`) // go.starlark.net quotes a parameter's name
			if k := indexOf(params, p); k >= 0 {
				var v starlark.Value
				if k < len(args) {
					v = args[k]
				}
				for _, kv := range kwargs {
					if n, _ := starlark.AsString(kv[0]); n == p {
						v = kv[1]
					}
				}
				if v != nil {
					return pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
				}
			}
		}
		return pyrt.Errorf("TypeError", "%s", msg)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isNumber(v starlark.Value) bool {
	switch v.(type) {
	case starlark.Int, starlark.Float, starlark.Bool:
		return true
	}
	return false
}

// count(start=0, step=1).
func itCount(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var start, step starlark.Value = starlark.MakeInt(0), starlark.MakeInt(1)
	if err := unpackC("count", args, kwargs, "start?", &start, "step?", &step); err != nil {
		return nil, err
	}
	if !isNumber(start) || !isNumber(step) {
		return nil, pyrt.Errorf("TypeError", "a number is required")
	}
	cur := start
	repr := func() string {
		// count(5), count(1.5, 0.5): the step shown unless it is the int 1.
		s, _ := interp.Repr(nil, cur)
		if one, ok := step.(starlark.Int); step != starlark.True && (!ok || !isIntOne(one)) {
			t, _ := interp.Repr(nil, step)
			s += ", " + t
		}
		return "count(" + s + ")"
	}
	return pyrt.NewIteratorRepr(thread, "count", repr, func(thread *starlark.Thread) (starlark.Value, bool, error) {
		x := cur
		next, err := pyrt.Add(thread, cur, step)
		if err != nil {
			return nil, false, pyrt.Classify(err)
		}
		cur = next
		return x, true, nil
	}), nil
}

// cycle(iterable): its elements, saved as they first come, then again
// and again.
func itCycle(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("cycle", args, kwargs, 1); err != nil {
		return nil, err
	}
	next, err := iterArg(thread, args[0])
	if err != nil {
		return nil, err
	}
	// What saved holds, the iterator shows the meter (cycle(count())
	// grows it without end); its array, which doubles, is refused alone
	// before it passes the budget.
	saved := starlark.NewList(nil)
	i, first := 0, true
	return pyrt.NewIterator(thread, "cycle", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if first {
			x, ok, err := next()
			if err != nil {
				return nil, false, err
			}
			if ok {
				if err := interp.BudgetOf(thread).Fits(2 * int64(saved.Len()+1) * slotSize); err != nil {
					return nil, false, err
				}
				_ = saved.Append(x)
				return x, true, nil
			}
			first = false
		}
		if saved.Len() == 0 {
			return nil, false, nil
		}
		x := saved.Index(i % saved.Len())
		i++
		return x, true, nil
	}, saved), nil
}

// repeat(object[, times]).
func itRepeat(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var obj starlark.Value
	var times starlark.Value = starlark.None
	if err := unpackC("repeat", args, kwargs, "object", &obj, "times?", &times); err != nil {
		return nil, err
	}
	n := int64(-1)
	if times != starlark.None {
		t, ok := times.(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(times))
		}
		n, _ = t.Int64()
		n = max(n, 0)
	}
	repr := func() string {
		// repeat('a'), repeat('a', 2): the times left.
		s, _ := interp.Repr(nil, obj)
		if n >= 0 {
			s += ", " + strconv.FormatInt(n, 10)
		}
		return "repeat(" + s + ")"
	}
	return pyrt.NewIteratorRepr(thread, "repeat", repr, func(*starlark.Thread) (starlark.Value, bool, error) {
		if n == 0 {
			return nil, false, nil
		}
		if n > 0 {
			n--
		}
		return obj, true, nil
	}, obj), nil
}

// islice(iterable, stop) or islice(iterable, start, stop[, step]).
func itIslice(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noKwargs("islice", kwargs); err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, pyrt.Errorf("TypeError", "islice expected at least 2 arguments, got %d", len(args))
	}
	if len(args) > 4 {
		return nil, pyrt.Errorf("TypeError", "islice expected at most 4 arguments, got %d", len(args))
	}
	index := func(v starlark.Value, none int64, msg string) (int64, error) {
		if v == starlark.None {
			return none, nil
		}
		if i, ok := v.(starlark.Int); ok {
			if n, ok := i.Int64(); ok && n >= 0 {
				return n, nil
			}
		}
		return 0, pyrt.Errorf("ValueError", "%s", msg)
	}
	const idxMsg = "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize."
	start, stop, step := int64(0), int64(-1), int64(1)
	var err error
	if len(args) == 2 {
		if stop, err = index(args[1], -1, "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."); err != nil {
			return nil, err
		}
	} else {
		if start, err = index(args[1], 0, idxMsg); err != nil {
			return nil, err
		}
		if stop, err = index(args[2], -1, idxMsg); err != nil {
			return nil, err
		}
		if len(args) == 4 {
			if step, err = index(args[3], 1, "Step for islice() must be a positive integer or None."); err != nil || step == 0 {
				return nil, pyrt.Errorf("ValueError", "Step for islice() must be a positive integer or None.")
			}
		}
	}
	next, err := iterArg(thread, args[0])
	if err != nil {
		return nil, err
	}
	pos, want := int64(0), start
	return pyrt.NewIterator(thread, "islice", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		for {
			if stop >= 0 && want >= stop {
				// Consume up to stop, as CPython does, then end.
				for pos < stop {
					if _, ok, err := next(); err != nil || !ok {
						pos = stop
						return nil, false, err
					}
					pos++
				}
				return nil, false, nil
			}
			x, ok, err := next()
			if err != nil || !ok {
				stop, want = 0, 0
				return nil, false, err
			}
			pos++
			if pos-1 == want {
				want += step
				return x, true, nil
			}
			if err := interp.BudgetOf(thread).Charge(1); err != nil {
				return nil, false, err
			}
		}
	}), nil
}

// takewhile(predicate, iterable) and dropwhile(predicate, iterable).
func itWhile(name string, take bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs(name, args, kwargs, 2); err != nil {
			return nil, err
		}
		pred := args[0]
		next, err := iterArg(thread, args[1])
		if err != nil {
			return nil, err
		}
		done := false
		return pyrt.NewIterator(thread, name, func(thread *starlark.Thread) (starlark.Value, bool, error) {
			if take && done {
				return nil, false, nil
			}
			for {
				x, ok, err := next()
				if err != nil || !ok {
					return nil, false, err
				}
				if !take && done {
					return x, true, nil
				}
				if pred == starlark.None {
					// Unlike filter and filterfalse, these call their
					// predicate, None too.
					return nil, false, pyrt.Errorf("TypeError", "'NoneType' object is not callable")
				}
				t, err := truth(thread, pred, x)
				if err != nil {
					return nil, false, err
				}
				if take {
					if !t {
						done = true
						return nil, false, nil
					}
					return x, true, nil
				}
				if !t {
					done = true
					return x, true, nil
				}
				if err := interp.BudgetOf(thread).Charge(1); err != nil {
					return nil, false, err
				}
			}
		}, pred), nil
	}
}

// chain is chain(*iterables), with chain.from_iterable(iterable).
type chainFn struct{}

func (*chainFn) String() string        { return "<class 'itertools.chain'>" }
func (*chainFn) Type() string          { return "type" }
func (*chainFn) Freeze()               {}
func (*chainFn) Truth() starlark.Bool  { return true }
func (*chainFn) Hash() (uint32, error) { return starlark.String("itertools.chain").Hash() }
func (*chainFn) Name() string          { return "chain" }
func (*chainFn) AttrNames() []string   { return []string{"from_iterable"} }
func (c *chainFn) Attr(name string) (starlark.Value, error) {
	if name != "from_iterable" {
		return nil, nil
	}
	return interp.NewBuiltin("from_iterable", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := nArgs("from_iterable", args, kwargs, 1); err != nil {
			return nil, err
		}
		outer, err := iterArg(thread, args[0])
		if err != nil {
			return nil, err
		}
		return chainOf(thread, outer), nil
	}), nil
}

func (c *chainFn) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noKwargs("chain", kwargs); err != nil {
		return nil, err
	}
	i := 0
	return chainOf(thread, func() (starlark.Value, bool, error) {
		if i >= len(args) {
			return nil, false, nil
		}
		i++
		return args[i-1], true, nil
	}), nil
}

// chainOf yields the elements of each iterable outer gives, each iterable
// taken only when the one before is done.
func chainOf(thread *starlark.Thread, outer nextFn) starlark.Value {
	var cur nextFn
	return pyrt.NewIterator(thread, "chain", func(*starlark.Thread) (starlark.Value, bool, error) {
		for {
			if cur == nil {
				v, ok, err := outer()
				if err != nil || !ok {
					return nil, false, err
				}
				if cur, err = iterArg(thread, v); err != nil {
					return nil, false, err
				}
			}
			x, ok, err := cur()
			if err != nil {
				return nil, false, err
			}
			if ok {
				return x, true, nil
			}
			cur = nil
		}
	})
}

// zip_longest(*iterables, fillvalue=None).
func itZipLongest(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fill starlark.Value = starlark.None
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k != "fillvalue" {
			return nil, pyrt.Errorf("TypeError", "zip_longest() got an unexpected keyword argument")
		}
		fill = kv[1]
	}
	nexts := make([]nextFn, len(args))
	for i, a := range args {
		n, err := iterArg(thread, a)
		if err != nil {
			return nil, err
		}
		nexts[i] = n
	}
	live := len(nexts)
	done := make([]bool, len(nexts))
	return pyrt.NewIterator(thread, "zip_longest", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if live == 0 {
			return nil, false, nil
		}
		row, err := newTuple(thread, len(nexts))
		if err != nil {
			return nil, false, err
		}
		for i, n := range nexts {
			if done[i] {
				row[i] = fill
				continue
			}
			x, ok, err := n()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				done[i] = true
				live--
				if live == 0 {
					return nil, false, nil
				}
				x = fill
			}
			row[i] = x
		}
		return row, true, nil
	}, fill), nil
}

// accumulate(iterable[, func, *, initial=None]).
func itAccumulate(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it, fn, initial starlark.Value = nil, starlark.None, starlark.None
	if err := unpackC("accumulate", args, kwargs, "iterable", &it, "func?", &fn, "initial?", &initial); err != nil {
		return nil, err
	}
	next, err := iterArg(thread, it)
	if err != nil {
		return nil, err
	}
	var total starlark.Value
	pending := initial != starlark.None
	if pending {
		total = initial
	}
	return pyrt.NewIterator(thread, "accumulate", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if pending {
			pending = false
			return total, true, nil
		}
		x, ok, err := next()
		if err != nil || !ok {
			return nil, false, err
		}
		switch {
		case total == nil:
			total = x
		case fn == starlark.None:
			total, err = pyrt.Add(thread, total, x)
			err = pyrt.Classify(err)
		default:
			total, err = starlark.Call(thread, fn, starlark.Tuple{total, x}, nil)
		}
		if err != nil {
			return nil, false, err
		}
		return total, true, nil
	}), nil
}

// groupby(iterable, key=None): (key, group) for each run of equal keys;
// a group is an iterator sharing the input, spent when the next group is
// asked for, as in CPython.
func itGroupby(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it, keyfn starlark.Value = nil, starlark.None
	if err := unpackC("groupby", args, kwargs, "iterable", &it, "key?", &keyfn); err != nil {
		return nil, err
	}
	next, err := iterArg(thread, it)
	if err != nil {
		return nil, err
	}
	// nil keys are CPython's initial marker, equal only to each other.
	var curKey, tgtKey, curVal starlark.Value
	id := 0
	equal := func(a, b starlark.Value) (bool, error) {
		if a == nil || b == nil {
			return a == nil && b == nil, nil
		}
		return pyrt.Compare(thread, syntax.EQL, a, b)
	}
	advance := func() (bool, error) {
		x, ok, err := next()
		if err != nil || !ok {
			return false, err
		}
		k := x
		if keyfn != starlark.None {
			if k, err = starlark.Call(thread, keyfn, starlark.Tuple{x}, nil); err != nil {
				return false, err
			}
		}
		curVal, curKey = x, k
		return true, nil
	}
	return pyrt.NewIterator(thread, "groupby", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		id++
		for {
			eq, err := equal(curKey, tgtKey)
			if err != nil {
				return nil, false, err
			}
			if !eq {
				break
			}
			if ok, err := advance(); err != nil || !ok {
				return nil, false, err
			}
		}
		tgtKey = curKey
		myID, tgt, started := id, tgtKey, false
		group := pyrt.NewIterator(thread, "_grouper", func(*starlark.Thread) (starlark.Value, bool, error) {
			if myID != id {
				return nil, false, nil
			}
			if started {
				if ok, err := advance(); err != nil || !ok {
					return nil, false, err
				}
			}
			started = true
			eq, err := equal(curKey, tgt)
			if err != nil || !eq {
				return nil, false, err
			}
			return curVal, true, nil
		})
		return starlark.Tuple{tgtKey, group}, true, nil
	}), nil
}

// pools collects each iterable argument as a tuple, charged.
func pools(thread *starlark.Thread, args starlark.Tuple) ([][]starlark.Value, error) {
	out := make([][]starlark.Value, len(args))
	for i, a := range args {
		elems, err := pyrt.Collect(thread, a)
		if err != nil {
			return nil, err
		}
		out[i] = elems
	}
	return out, nil
}

// product(*iterables, repeat=1): an odometer over the pools.
func itProduct(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	repeat := int64(1)
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		if k != "repeat" {
			return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for product()", k)
		}
		r, ok := kv[1].(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(kv[1]))
		}
		repeat, _ = r.Int64()
		if repeat < 0 {
			return nil, pyrt.Errorf("ValueError", "repeat argument cannot be negative")
		}
	}
	ps, err := pools(thread, args)
	if err != nil {
		return nil, err
	}
	if int64(len(ps))*repeat > math.MaxInt32 {
		return nil, pyrt.Errorf("OverflowError", "repeat argument too large")
	}
	// The pools repeated, their odometer and the first tuple, refused
	// before they are made: product('ab', repeat=10**9) asks for 50 GB.
	if err := interp.BudgetOf(thread).Alloc(int64(len(ps)) * repeat * (24 + 8 + slotSize)); err != nil {
		return nil, err
	}
	all := make([][]starlark.Value, 0, int64(len(ps))*repeat)
	for r := int64(0); r < repeat; r++ {
		all = append(all, ps...)
	}
	idx := make([]int, len(all))
	done := false
	for _, p := range all {
		if len(p) == 0 {
			done = true
		}
	}
	first := true
	return pyrt.NewIterator(thread, "product", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		if !first {
			i := len(idx) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(all[i]) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				done = true
				return nil, false, nil
			}
		}
		first = false
		row, err := newTuple(thread, len(idx))
		if err != nil {
			return nil, false, err
		}
		for i, j := range idx {
			row[i] = all[i][j]
		}
		return row, true, nil
	}), nil
}

// permutations(iterable, r=None), in CPython's order.
func itPermutations(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it, rv starlark.Value = nil, starlark.None
	if err := unpackC("permutations", args, kwargs, "iterable", &it, "r?", &rv); err != nil {
		return nil, err
	}
	pool, err := pyrt.Collect(thread, it)
	if err != nil {
		return nil, err
	}
	n := len(pool)
	r := n
	if rv != starlark.None {
		ri, ok := rv.(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "Expected int as r")
		}
		r64, _ := ri.Int64()
		if r64 < 0 {
			return nil, pyrt.Errorf("ValueError", "r must be non-negative")
		}
		r = int(min(r64, int64(n)+1))
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	cycles := make([]int, max(r, 0))
	for i := range cycles {
		cycles[i] = n - i
	}
	done, first := r > n, true
	return pyrt.NewIterator(thread, "permutations", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		if !first {
			if err := interp.BudgetOf(thread).Charge(uint64(r)); err != nil {
				return nil, false, err
			}
			i := r - 1
			for ; i >= 0; i-- {
				cycles[i]--
				if cycles[i] == 0 {
					x := idx[i]
					copy(idx[i:], idx[i+1:])
					idx[n-1] = x
					cycles[i] = n - i
					continue
				}
				j := n - cycles[i]
				idx[i], idx[j] = idx[j], idx[i]
				break
			}
			if i < 0 {
				done = true
				return nil, false, nil
			}
		}
		first = false
		row, err := newTuple(thread, r)
		if err != nil {
			return nil, false, err
		}
		for i := range row {
			row[i] = pool[idx[i]]
		}
		return row, true, nil
	}), nil
}

// combinations(iterable, r) and combinations_with_replacement(iterable, r).
func itCombinations(repl bool) interp.BuiltinFunc {
	name := "combinations"
	if repl {
		name = "combinations_with_replacement"
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var it starlark.Value
		var rv starlark.Int
		if err := unpackC(name, args, kwargs, "iterable", &it, "r", &rv); err != nil {
			return nil, err
		}
		pool, err := pyrt.Collect(thread, it)
		if err != nil {
			return nil, err
		}
		r64, _ := rv.Int64()
		if r64 < 0 {
			return nil, pyrt.Errorf("ValueError", "r must be non-negative")
		}
		n := len(pool)
		done := (!repl && r64 > int64(n)) || (repl && n == 0 && r64 > 0)
		r := 0
		if !done {
			r = int(r64)
		}
		// The indices and the first tuple, refused before they are made:
		// combinations_with_replacement('a', 10**9) asks for 24 GB.
		if err := interp.BudgetOf(thread).Alloc(int64(r) * (8 + slotSize)); err != nil {
			return nil, err
		}
		idx := make([]int, r)
		for i := range idx {
			if !repl {
				idx[i] = i
			}
		}
		first := true
		return pyrt.NewIterator(thread, name, func(thread *starlark.Thread) (starlark.Value, bool, error) {
			if done {
				return nil, false, nil
			}
			if !first {
				if err := interp.BudgetOf(thread).Charge(uint64(r)); err != nil {
					return nil, false, err
				}
				i := r - 1
				if repl {
					for ; i >= 0 && idx[i] == n-1; i-- {
					}
				} else {
					for ; i >= 0 && idx[i] == i+n-r; i-- {
					}
				}
				if i < 0 {
					done = true
					return nil, false, nil
				}
				if repl {
					v := idx[i] + 1
					for j := i; j < r; j++ {
						idx[j] = v
					}
				} else {
					idx[i]++
					for j := i + 1; j < r; j++ {
						idx[j] = idx[j-1] + 1
					}
				}
			}
			first = false
			row, err := newTuple(thread, r)
			if err != nil {
				return nil, false, err
			}
			for i := range row {
				row[i] = pool[idx[i]]
			}
			return row, true, nil
		}), nil
	}
}

// compress(data, selectors).
func itCompress(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var data, sel starlark.Value
	if err := unpackC("compress", args, kwargs, "data", &data, "selectors", &sel); err != nil {
		return nil, err
	}
	nd, err := iterArg(thread, data)
	if err != nil {
		return nil, err
	}
	ns, err := iterArg(thread, sel)
	if err != nil {
		return nil, err
	}
	return pyrt.NewIterator(thread, "compress", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		for {
			x, ok, err := nd()
			if err != nil || !ok {
				return nil, false, err
			}
			s, ok, err := ns()
			if err != nil || !ok {
				return nil, false, err
			}
			if s.Truth() {
				return x, true, nil
			}
			if err := interp.BudgetOf(thread).Charge(1); err != nil {
				return nil, false, err
			}
		}
	}), nil
}

// starmap(function, iterable).
func itStarmap(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("starmap", args, kwargs, 2); err != nil {
		return nil, err
	}
	fn := args[0]
	next, err := iterArg(thread, args[1])
	if err != nil {
		return nil, err
	}
	return pyrt.NewIterator(thread, "starmap", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		x, ok, err := next()
		if err != nil || !ok {
			return nil, false, err
		}
		fargs, err := pyrt.Collect(thread, x)
		if err != nil {
			return nil, false, err
		}
		r, err := starlark.Call(thread, fn, fargs, nil)
		return r, err == nil, err
	}, fn), nil
}

// pairwise(iterable).
func itPairwise(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("pairwise", args, kwargs, 1); err != nil {
		return nil, err
	}
	next, err := iterArg(thread, args[0])
	if err != nil {
		return nil, err
	}
	var prev starlark.Value
	return pyrt.NewIterator(thread, "pairwise", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if prev == nil {
			x, ok, err := next()
			if err != nil || !ok {
				return nil, false, err
			}
			prev = x
		}
		x, ok, err := next()
		if err != nil || !ok {
			return nil, false, err
		}
		t := starlark.Tuple{prev, x}
		prev = x
		return t, true, nil
	}), nil
}

// batched(iterable, n): tuples of n elements, the last maybe shorter.
func itBatched(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var nv starlark.Int
	if err := unpackC("batched", args, kwargs, "iterable", &it, "n", &nv); err != nil {
		return nil, err
	}
	n, _ := nv.Int64()
	if n < 1 {
		return nil, pyrt.Errorf("ValueError", "n must be at least one")
	}
	next, err := iterArg(thread, it)
	if err != nil {
		return nil, err
	}
	return pyrt.NewIterator(thread, "batched", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		// batched(repeat(1), 10**12) fills one batch without end: shown
		// to the meter while it grows.
		var row []starlark.Value
		b := interp.BudgetOf(thread)
		defer b.HoldValues(&row)()
		for int64(len(row)) < n {
			x, ok, err := next()
			if err != nil {
				return nil, false, err
			}
			if !ok {
				break
			}
			if row, err = appendValue(b, row, x); err != nil {
				return nil, false, err
			}
		}
		if len(row) == 0 {
			return nil, false, nil
		}
		return starlark.Tuple(row), true, nil
	}), nil
}

// tee(iterable, n=2): n iterators over one input, sharing a buffer of
// what some have seen and others not yet.
func itTee(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noKwargs("tee", kwargs); err != nil {
		return nil, err
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "tee expected at most 2 arguments, got %d", len(args))
	}
	n := int64(2)
	if len(args) == 2 {
		nv, ok := args[1].(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(args[1]))
		}
		n, _ = nv.Int64()
		if n < 0 {
			return nil, pyrt.Errorf("ValueError", "n must be >= 0")
		}
	}
	// Each iterator, its state and its slot, refused before they are
	// made; making them is charged.
	b := interp.BudgetOf(thread)
	if err := b.Alloc(n * 256); err != nil {
		return nil, err
	}
	next, err := iterArg(thread, args[0])
	if err != nil {
		return nil, err
	}
	t := &teeState{next: next, pos: make([]int, n), atBase: int(n)}
	out := make(starlark.Tuple, n)
	for k := range out {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		out[k] = pyrt.NewIterator(thread, "_tee", func(thread *starlark.Thread) (starlark.Value, bool, error) {
			return t.step(interp.BudgetOf(thread), k)
		}, t)
	}
	return out, nil
}

// teeState is what the iterators of one tee share: the elements some
// have taken and others not yet, from index base of the input on.
type teeState struct {
	next   nextFn
	buf    []starlark.Value
	base   int
	pos    []int // each iterator's next index
	atBase int   // how many iterators are at base
}

// teeState is held by its iterators: it shows the meter what buf holds
// (a tee whose other iterator never moves grows it without end).
var _ interp.Holder = (*teeState)(nil)

func (t *teeState) Held(visit func(starlark.Value)) { visit(heldTuple(t.buf)) }
func (t *teeState) String() string                  { return "<tee buffer>" }
func (t *teeState) Type() string                    { return "tee_buffer" }
func (t *teeState) Freeze()                         {}
func (t *teeState) Truth() starlark.Bool            { return true }
func (t *teeState) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: 'tee_buffer'")
}
func (t *teeState) Len() int { return len(t.buf) }
func (t *teeState) Index(i int) starlark.Value {
	return t.buf[i]
}

// step advances iterator k.
func (t *teeState) step(b *interp.Budget, k int) (starlark.Value, bool, error) {
	i := t.pos[k] - t.base
	if i == len(t.buf) {
		x, ok, err := t.next()
		if err != nil || !ok {
			return nil, false, err
		}
		if len(t.pos) == 1 {
			// One iterator keeps nothing behind it.
			t.pos[k]++
			t.base++
			return x, true, nil
		}
		buf, err := appendValue(b, t.buf, x)
		if err != nil {
			return nil, false, err
		}
		t.buf = buf
	}
	x := t.buf[i]
	t.pos[k]++
	if i == 0 {
		t.atBase--
		if t.atBase == 0 {
			return x, true, t.forget(b)
		}
	}
	return x, true, nil
}

// forget drops the elements every iterator has taken, once none is left
// at base.
func (t *teeState) forget(b *interp.Budget) error {
	if err := b.Charge(uint64(len(t.pos))); err != nil {
		return err
	}
	low := t.pos[0]
	for _, p := range t.pos {
		low = min(low, p)
	}
	t.atBase = 0
	for _, p := range t.pos {
		if p == low {
			t.atBase++
		}
	}
	drop := low - t.base
	if drop >= 64 && drop >= len(t.buf)/2 || drop == len(t.buf) {
		// Copy what is left, so that the dropped part can be collected.
		if err := b.Charge(uint64(len(t.buf)-drop) + 1); err != nil {
			return err
		}
		t.buf = append([]starlark.Value(nil), t.buf[drop:]...)
	} else {
		clear(t.buf[:drop])
		t.buf = t.buf[drop:]
	}
	t.base = low
	return nil
}

// filterfalse(predicate, iterable).
func itFilterfalse(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := nArgs("filterfalse", args, kwargs, 2); err != nil {
		return nil, err
	}
	pred := args[0]
	next, err := iterArg(thread, args[1])
	if err != nil {
		return nil, err
	}
	return pyrt.NewIterator(thread, "filterfalse", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		for {
			x, ok, err := next()
			if err != nil || !ok {
				return nil, false, err
			}
			t, err := truth(thread, pred, x)
			if err != nil {
				return nil, false, err
			}
			if !t {
				return x, true, nil
			}
			if err := interp.BudgetOf(thread).Charge(1); err != nil {
				return nil, false, err
			}
		}
	}, pred), nil
}

func isIntOne(i starlark.Int) bool {
	n, ok := i.Int64()
	return ok && n == 1
}
