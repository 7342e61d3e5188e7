package objects

import (
	"unsafe"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// maxSpecialDepth bounds special methods called from Go inside one
// another: a __repr__ that formats itself, an __eq__ comparing a cycle, a
// __getattr__ reading a missing attribute. Each level costs Go stack that
// go.starlark.net's own bound on nested calls (100,000) does not count
// well enough; CPython's recursion limit is 1,000.
const maxSpecialDepth = 1000

// instanceSize is what an instance costs the memory budget before its
// attributes: the meter counts those as they are set.
const instanceSize = 64

// maxClassesKept bounds the classes __subclasses__ can find: a program
// making classes in a loop keeps the first ones only.
const maxClassesKept = 10000

// A world is the object model's state for one run or session (one
// interp.Host): the thread to run special methods on, the depth of those
// calls, and the epoch that invalidates cached lookups when a class's
// namespace changes after its creation.
type world struct {
	host    *interp.Host
	depth   int
	epoch   uint64
	classes []*Class
	// scratch holds an argument tuple per depth of calls for callSelf.
	scratch []starlark.Tuple
}

// worldOf returns the world of thread's run.
func worldOf(thread *starlark.Thread) *world {
	h := interp.HostOf(thread)
	if h == nil {
		return &world{}
	}
	return h.State(func() any { return &world{host: h} }).(*world)
}

// thread is the thread running the program now.
func (w *world) thread() *starlark.Thread { return w.host.Thread() }

// call calls fn (a special method, a property's getter) from Go, bounded
// in depth.
func (w *world) call(thread *starlark.Thread, fn starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if w.depth >= maxSpecialDepth {
		return nil, pyrt.Errorf("RecursionError", "maximum recursion depth exceeded")
	}
	w.depth++
	defer func() { w.depth-- }()
	return starlark.Call(thread, fn, args, kwargs)
}

// callSelf calls fn with self first, then args: a special method, a
// property's getter or setter. A def of the program copies its arguments
// into its frame on entry, so its tuple is taken from scratch, one per
// depth (a call at this depth never overlaps another), instead of
// allocating one per call (as sort.go's call1 does for a key function);
// so is a Go method that says it keeps nothing of them
// (NewBorrowingMethod); anything else may keep its arguments and gets a
// tuple of its own.
func (w *world) callSelf(thread *starlark.Thread, fn, self starlark.Value, args ...starlark.Value) (starlark.Value, error) {
	n := len(args) + 1
	var lend bool
	switch f := fn.(type) {
	case *starlark.Function:
		lend = true
	case *Method:
		lend = f.borrows
	case *pyrt.Function:
		lend = f.CopiesArgs()
	}
	if !lend || n > 4 || w.depth >= maxSpecialDepth {
		all := make(starlark.Tuple, 0, n)
		all = append(all, self)
		all = append(all, args...)
		return w.call(thread, fn, all, nil)
	}
	for len(w.scratch) <= w.depth {
		w.scratch = append(w.scratch, make(starlark.Tuple, 4))
	}
	t := w.scratch[w.depth][:n]
	t[0] = self
	copy(t[1:], args)
	v, err := w.call(thread, fn, t, nil)
	clear(t)
	return v, err
}

// identityHash is the hash of a value compared by identity, from its
// address, as CPython's object.__hash__.
func identityHash(p any) uint32 {
	return uint32(identity(p) >> 4)
}

// identity is id(x) for the object model's values.
func identity(p any) uintptr {
	switch x := p.(type) {
	case *Instance:
		return uintptr(unsafe.Pointer(x))
	case *Class:
		return uintptr(unsafe.Pointer(x))
	}
	return 0
}
