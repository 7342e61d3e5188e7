package objects

import (
	"unsafe"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// maxSmallAttrs is the most attributes an instance keeps in its small
// table (Instance.attrs) before it moves them to a dict.
const maxSmallAttrs = 8

// attr is one attribute of an instance's small table: its name as the
// starlark.String the class's lookup cache boxed (so that the memory
// meter visits it without boxing it again), and its value.
type attr struct {
	key starlark.Value
	v   starlark.Value
}

// name is the attribute's name.
func (a *attr) name() string {
	s, _ := a.key.(starlark.String)
	return string(s)
}

var _ interp.OwnSizer = (*Instance)(nil)

// OwnBytes is what the instance takes besides the slots of the values
// Held visits (two per attribute of its small table, or its dict): its
// struct and its table's unused room, for the memory meter.
func (in *Instance) OwnBytes() uint64 {
	return uint64(unsafe.Sizeof(*in)) + uint64(cap(in.attrs)-len(in.attrs))*uint64(unsafe.Sizeof(attr{}))
}

// An instance keeps its first few attributes in a small table, in the
// order they were first set, and makes its __dict__ (a *starlark.Dict)
// only when it gets more of them, loses one (del), or the program asks
// for the dict itself (vars(obj), obj.__dict__), which it may then hold
// and change: from then on the dict is the instance's attributes. A
// Starlark dict is 512 bytes however few its entries; most instances
// have a handful of attributes, and making a dict for each was the
// largest cost of creating one (C(i): 600 bytes and a fifth of its
// time). A scan of at most maxSmallAttrs names costs less than hashing
// one, so a read stays O(1).

// getOwn is the instance's own attribute key (a starlark.String, boxed
// once by the class's lookup cache).
func (in *Instance) getOwn(key starlark.Value) (starlark.Value, bool) {
	if in.dict != nil {
		v, found, _ := in.dict.Get(key)
		return v, found
	}
	name, _ := key.(starlark.String)
	for i := range in.attrs {
		if k, _ := in.attrs[i].key.(starlark.String); k == name {
			return in.attrs[i].v, true
		}
	}
	return nil, false
}

// setOwn sets the instance's own attribute key to v.
func (in *Instance) setOwn(key starlark.Value, v starlark.Value) error {
	name, ok := key.(starlark.String)
	if in.dict == nil && ok {
		for i := range in.attrs {
			if k, _ := in.attrs[i].key.(starlark.String); k == name {
				in.attrs[i].v = v
				return nil
			}
		}
		if n := len(in.attrs); n < maxSmallAttrs {
			if in.attrs == nil {
				in.attrs = make([]attr, 0, max(in.class.attrHint, 4))
			}
			in.attrs = append(in.attrs, attr{key, v})
			if n >= in.class.attrHint {
				in.class.attrHint = n + 1
			}
			return nil
		}
	}
	return in.dictValue().SetKey(key, v)
}

// hasOwnAttrs reports whether the instance has an attribute of its own.
func (in *Instance) hasOwnAttrs() bool {
	return in.dict != nil && in.dict.Len() > 0 || len(in.attrs) > 0
}
