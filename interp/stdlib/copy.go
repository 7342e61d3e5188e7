package stdlib

import (
	"reflect"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Copy is the copy module: copy makes a new container holding the same
// values, deepcopy copies the containers inside too. Values that cannot
// change (numbers, str, bytes, None, functions) are their own copies, as
// in CPython.
func Copy() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "copy", Members: starlark.StringDict{
		"copy":     interp.NewBuiltin("copy", copyBuiltin(false)),
		"deepcopy": interp.NewBuiltin("deepcopy", copyBuiltin(true)),
		"Error":    copyError,
		"error":    copyError,
	}}
}

// copyError is copy.Error, also named copy.error.
var copyError = pyrt.NewModuleClass("copy.Error", "Exception")

func copyBuiltin(deep bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		// deepcopy(x, memo=None, _nil=[]): the memo is CPython's own
		// business, accepted and not used.
		var x, memo, nilArg starlark.Value
		var err error
		if deep {
			err = unpack("deepcopy", args, kwargs, "x", &x, "memo?", &memo, "_nil?", &nilArg)
		} else {
			err = unpack("copy", args, kwargs, "x", &x)
		}
		if err != nil {
			return nil, err
		}
		c := &copier{thread: thread, b: interp.BudgetOf(thread), deep: deep, memo: map[starlark.Value]starlark.Value{}}
		defer c.b.Hold(c.held)()
		return c.copy(x, 0)
	}
}

// copier copies one value. memo maps each mutable container already
// copied to its copy, so that a structure that holds one list twice, or
// holds itself, is copied with the same shape (and a cycle ends).
type copier struct {
	thread *starlark.Thread
	b      *interp.Budget
	deep   bool
	memo   map[starlark.Value]starlark.Value
	// tuples are the tuples deep-copied so far, by their elements: a
	// tuple made of forty tuples that each hold the one before twice is
	// copied once per tuple (as CPython's memo does), not 2⁴⁰ times.
	tuples map[*starlark.Value]starlark.Tuple
	// memoDict is the memo a class's __deepcopy__ is given.
	memoDict *starlark.Dict
}

// held visits the copies made so far, for the memory meter: no variable
// of the program holds them before copy returns.
func (c *copier) held(visit func(starlark.Value)) {
	for _, y := range c.memo {
		visit(y)
	}
	for _, t := range c.tuples {
		visit(t)
	}
}

// hold refuses, before it is made, a copy of n bytes that alone would
// pass the memory budget, and charges making it.
func (c *copier) hold(n int64) error { return c.b.Alloc(n) }

// elem copies an element of a container: itself for a shallow copy.
func (c *copier) elem(x starlark.Value, depth int) (starlark.Value, error) {
	if !c.deep {
		return x, nil
	}
	return c.copy(x, depth+1)
}

func (c *copier) copy(x starlark.Value, depth int) (starlark.Value, error) {
	if depth > interp.MaxDepth {
		return nil, interp.ErrTooDeep
	}
	if err := c.b.Charge(1); err != nil {
		return nil, err
	}
	switch x.(type) {
	case *starlark.List, *starlark.Dict, *starlark.Set, *collDict, *deque, *chainMap, *objects.Instance:
		if y, ok := c.memo[x]; ok {
			return y, nil
		}
	}
	switch v := x.(type) {
	case *interp.ByteArray:
		if err := c.hold(int64(v.Len())); err != nil {
			return nil, err
		}
		return interp.NewByteArray(v.Bytes()), nil
	case *starlark.List:
		if err := c.hold(int64(v.Len()) * slotSize); err != nil {
			return nil, err
		}
		out := starlark.NewList(make([]starlark.Value, 0, v.Len()))
		c.memo[x] = out
		for i := 0; i < v.Len(); i++ {
			e, err := c.elem(v.Index(i), depth)
			if err != nil {
				return nil, err
			}
			if err := out.Append(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *starlark.Dict:
		out := starlark.NewDict(v.Len())
		c.memo[x] = out
		return out, c.entries(v, out, depth)
	case *collDict:
		out := &collDict{kind: v.kind, d: starlark.NewDict(v.d.Len()), factory: v.factory, thread: c.thread}
		c.memo[x] = out
		return out, c.entries(v.d, out.d, depth)
	case *starlark.Set:
		if err := c.hold(interp.TableBytes(v.Len())); err != nil {
			return nil, err
		}
		out := starlark.NewSet(v.Len())
		c.memo[x] = out
		it := v.Iterate()
		defer it.Done()
		var e starlark.Value
		for it.Next(&e) {
			ce, err := c.elem(e, depth)
			if err != nil {
				return nil, err
			}
			if err := out.Insert(ce); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *deque:
		if err := c.hold(int64(v.n) * slotSize); err != nil {
			return nil, err
		}
		out := &deque{maxlen: v.maxlen, thread: c.thread}
		c.memo[x] = out
		for _, e := range v.values() {
			ce, err := c.elem(e, depth)
			if err != nil {
				return nil, err
			}
			out.push(ce, false)
		}
		return out, nil
	case *chainMap:
		// A shallow copy is cm.copy(): a copy of the first mapping and the
		// others as they are; a deep one copies every mapping.
		if err := c.hold(int64(v.maps.Len()) * slotSize); err != nil {
			return nil, err
		}
		out := &chainMap{maps: starlark.NewList(nil), thread: c.b.Thread()}
		c.memo[x] = out
		for i := 0; i < v.maps.Len(); i++ {
			m := v.maps.Index(i)
			var cm starlark.Value = m
			var err error
			if c.deep {
				cm, err = c.copy(m, depth+1)
			} else if i == 0 {
				cm, err = c.copy(m, depth+1)
			}
			if err != nil {
				return nil, err
			}
			if err := out.maps.Append(cm); err != nil {
				return nil, err
			}
		}
		return out, nil
	case starlark.Tuple:
		vals, same, err := c.tuple(v, depth)
		if err != nil || same {
			return x, err
		}
		return vals, nil
	case *ntValue:
		vals, same, err := c.tuple(v.vals, depth)
		if err != nil || same {
			return x, err
		}
		return &ntValue{typ: v.typ, vals: vals}, nil
	case *objects.Instance:
		return c.instance(v, depth)
	}
	return x, nil
}

// instance copies an instance of a program's class as copy's
// _reconstruct does: __copy__ or __deepcopy__ when the class defines
// them, else a new instance of the class (no __init__ called) with the
// attributes of the first (copied too, for deepcopy) and a copy of the
// builtin value it holds. Enum members are their own copies.
func (c *copier) instance(in *objects.Instance, depth int) (starlark.Value, error) {
	cls := in.Class()
	if enumDataOf(cls) != nil {
		return in, nil
	}
	if in.Exception() != nil {
		return in, nil
	}
	name := "__copy__"
	var args starlark.Tuple
	if c.deep {
		name = "__deepcopy__"
		if c.memoDict == nil {
			c.memoDict = starlark.NewDict(0)
		}
		args = starlark.Tuple{c.memoDict}
	}
	if _, ok := cls.Lookup(name); ok {
		f, err := pyrt.GetAttr(c.thread, in, name)
		if err != nil {
			return nil, err
		}
		y, err := starlark.Call(c.thread, f, args, nil)
		if err != nil {
			return nil, err
		}
		c.memo[in] = y
		return y, nil
	}
	names := in.Names()
	if err := c.hold(int64(len(names))*slotSize + 64); err != nil {
		return nil, err
	}
	out, err := cls.NewInstance(c.thread)
	if err != nil {
		return nil, err
	}
	c.memo[in] = out
	if b := in.Builtin(); b != nil {
		// The builtin value is the instance's own: a copy of it, even
		// for a shallow copy (copy of a list subclass copies the list).
		cb, err := c.copy(b, depth+1)
		if err != nil {
			return nil, err
		}
		out.SetBuiltin(cb)
	}
	for _, n := range names {
		v, _ := in.Own(n)
		cv, err := c.elem(v, depth)
		if err != nil {
			return nil, err
		}
		if err := out.SetAttr(c.thread, n, cv); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tuple deep-copies the elements of a tuple; same when none changed, so
// that the tuple itself serves, as CPython's deepcopy does.
func (c *copier) tuple(t starlark.Tuple, depth int) (starlark.Tuple, bool, error) {
	if !c.deep || len(t) == 0 {
		return t, true, nil
	}
	if done, ok := c.tuples[&t[0]]; ok && len(done) == len(t) {
		return done, identical(done, t), nil
	}
	if err := c.hold(int64(len(t)) * slotSize); err != nil {
		return nil, false, err
	}
	out := make(starlark.Tuple, len(t))
	same := true
	for i, e := range t {
		ce, err := c.copy(e, depth+1)
		if err != nil {
			return nil, false, err
		}
		out[i] = ce
		same = same && identical(ce, e)
	}
	if c.tuples == nil {
		c.tuples = map[*starlark.Value]starlark.Tuple{}
	}
	if same {
		c.tuples[&t[0]] = t
	} else {
		c.tuples[&t[0]] = out
	}
	return out, same, nil
}

func (c *copier) entries(from, to *starlark.Dict, depth int) error {
	if err := c.hold(interp.TableBytes(from.Len())); err != nil {
		return err
	}
	for _, kv := range from.Items() {
		k, err := c.elem(kv[0], depth)
		if err != nil {
			return err
		}
		v, err := c.elem(kv[1], depth)
		if err != nil {
			return err
		}
		if err := to.SetKey(k, v); err != nil {
			return err
		}
	}
	return nil
}

// identical reports whether a and b are the same value; tuples, which ==
// cannot compare, are the same when they share their elements.
func identical(a, b starlark.Value) bool {
	if ta, ok := a.(starlark.Tuple); ok {
		tb, ok := b.(starlark.Tuple)
		return ok && len(ta) == len(tb) && (len(ta) == 0 || &ta[0] == &tb[0])
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}
