package interp

import (
	"reflect"
	"sync"
	"unsafe"

	"go.starlark.net/starlark"
)

// The operand stack of a frame. go.starlark.net keeps a function's local
// variables and its operand stack in one array (interp.go: `space :=
// make([]Value, nlocals+MaxStack)`), and shows only the locals through
// its debugger API. The memory meter must see the rest: the list a
// comprehension is building lives there until the comprehension ends,
// and so do the operands of an expression being evaluated, which a run
// can make as large as it likes ([big for _ in range(n)] holds n values
// no variable names). The stack is read in place, through the locals'
// array, once a canary run has shown that the array is laid out so (see
// stackLayoutOK); if a new version of go.starlark.net lays it out
// otherwise, only the locals are read, as before, and
// TestComprehensionCountsAgainstMemory fails.

// frameSlots returns the locals and the operand stack of fr, a frame of
// fn (stale operands included: the array holds them until they are
// overwritten, so the memory they keep is the run's).
func frameSlots(fr starlark.DebugFrame, fn *starlark.Function) []starlark.Value {
	n := fr.NumLocals()
	if !stackLayoutOK() {
		return localsOf(fr, n)
	}
	base, ok := localsData(fr)
	if !ok || base == nil {
		return localsOf(fr, n)
	}
	size := n + maxStack(fn)
	if size == 0 {
		return nil
	}
	return unsafe.Slice((*starlark.Value)(base), size)
}

// localsOf returns the n locals of fr through the debugger API.
func localsOf(fr starlark.DebugFrame, n int) []starlark.Value {
	out := make([]starlark.Value, n)
	for i := range n {
		_, out[i] = fr.Local(i)
	}
	return out
}

// frameLocals is the index of the locals' slice in go.starlark.net's frame
// struct, funcodeField that of a Function's code, maxStackField that of
// the code's MaxStack; -1 when the types have changed shape.
var frameFields = sync.OnceValue(func() (f struct{ locals, funcode, maxStack int }) {
	f.locals, f.funcode, f.maxStack = -1, -1, -1
	th := &starlark.Thread{}
	// A frame's type is unexported: take it from a thread's frame.
	var frameType reflect.Type
	probe := starlark.NewBuiltin("probe", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		frameType = reflect.TypeOf(thread.DebugFrame(0))
		return starlark.None, nil
	})
	if _, err := starlark.Call(th, probe, nil, nil); err != nil || frameType == nil || frameType.Kind() != reflect.Pointer {
		return f
	}
	valueSlice := reflect.TypeFor[[]starlark.Value]()
	if sf, ok := frameType.Elem().FieldByName("locals"); ok && sf.Type == valueSlice && len(sf.Index) == 1 {
		f.locals = sf.Index[0]
	}
	if sf, ok := reflect.TypeFor[starlark.Function]().FieldByName("funcode"); ok && sf.Type.Kind() == reflect.Pointer && len(sf.Index) == 1 {
		if ms, ok := sf.Type.Elem().FieldByName("MaxStack"); ok && ms.Type.Kind() == reflect.Int && len(ms.Index) == 1 {
			f.funcode, f.maxStack = sf.Index[0], ms.Index[0]
		}
	}
	return f
})

// localsData returns the address of the first slot of fr's locals.
func localsData(fr starlark.DebugFrame) (unsafe.Pointer, bool) {
	f := frameFields()
	rv := reflect.ValueOf(fr)
	if f.locals < 0 || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, false
	}
	return rv.Elem().Field(f.locals).UnsafePointer(), true
}

// maxStack is the depth of fn's operand stack.
func maxStack(fn *starlark.Function) int {
	f := frameFields()
	if f.funcode < 0 {
		return 0
	}
	code := reflect.ValueOf(fn).Elem().Field(f.funcode)
	if code.IsNil() {
		return 0
	}
	return int(code.Elem().Field(f.maxStack).Int())
}

// stackLayoutOK runs a canary once: a function of 17 parameters calls a
// builtin that looks, through its caller's locals, at the first slot past
// them, where the function's operand stack must hold the builtin being
// called. 17 locals take 272 bytes, which the allocator rounds up to 288:
// if the stack were not in the same array, the slot read would still lie
// inside the locals' own allocation, never outside it.
var stackLayoutOK = sync.OnceValue(func() bool {
	f := frameFields()
	if f.locals < 0 || f.funcode < 0 {
		return false
	}
	const params = 17
	var ok bool
	var probe *starlark.Builtin
	probe = starlark.NewBuiltin("probe", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		fr := thread.DebugFrame(1)
		if fr.NumLocals() != params {
			return starlark.None, nil
		}
		base, found := localsData(fr)
		if !found || base == nil {
			return starlark.None, nil
		}
		slots := unsafe.Slice((*[2]uintptr)(base), params+1)
		var want starlark.Value = probe
		ok = slots[params] == *(*[2]uintptr)(unsafe.Pointer(&want))
		return starlark.None, nil
	})
	src := "def f(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16):\n    return probe()\n" +
		"f(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)\n"
	if _, err := starlark.ExecFileOptions(FileOptions(), &starlark.Thread{}, "canary", src, starlark.StringDict{"probe": probe}); err != nil {
		return false
	}
	return ok
})
