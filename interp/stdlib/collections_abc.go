package stdlib

import (
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// abcClass is an abstract base class of collections.abc, for isinstance:
// isinstance(x, collections.abc.Mapping) holds for the values CPython's
// would hold it for (dicts, a Counter, a ChainMap, …). It cannot be
// called or subclassed.
type abcClass struct {
	name string
	is   func(starlark.Value) bool
}

var _ pyrt.Class = (*abcClass)(nil)

func (c *abcClass) String() string                    { return "<class 'collections.abc." + c.name + "'>" }
func (c *abcClass) Type() string                      { return "ABCMeta" }
func (c *abcClass) Freeze()                           {}
func (c *abcClass) Truth() starlark.Bool              { return true }
func (c *abcClass) Hash() (uint32, error)             { return starlark.String(c.name).Hash() }
func (c *abcClass) HasInstance(v starlark.Value) bool { return c.is(v) }
func (c *abcClass) AttrNames() []string               { return []string{"__name__"} }
func (c *abcClass) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(c.name), nil
	}
	return nil, nil
}

// baseKind is the builtin type a value is, or derives from (a Counter is
// a dict, a namedtuple value a tuple), by Python's name.
func baseKind(v starlark.Value) string {
	if s, ok := v.(pyrt.Subclass); ok {
		return s.BuiltinBase()
	}
	return pyrt.TypeName(v)
}

func kindIn(v starlark.Value, kinds ...string) bool {
	k := baseKind(v)
	for _, x := range kinds {
		if k == x {
			return true
		}
	}
	return false
}

// isIterator reports whether v is an iterator (a generator, iter(x),
// map(), an itertools object, a csv reader, …): a value that is its own
// iterator.
func isIterator(v starlark.Value) bool {
	if _, ok := v.(pyrt.Stepper); ok {
		return true
	}
	return pyrt.IsIterator(v)
}

func isIterable(v starlark.Value) bool {
	if _, ok := v.(starlark.Iterable); ok {
		return true
	}
	if _, ok := interp.AsText(v); ok {
		return true
	}
	if _, ok := interp.AsBytes(v); ok {
		return true
	}
	return isIterator(v)
}

func isSized(v starlark.Value) bool {
	if _, ok := interp.AsText(v); ok {
		return true
	}
	return starlark.Len(v) >= 0 && !isIterator(v)
}

func isContainer(v starlark.Value) bool {
	if isIterator(v) {
		return false
	}
	switch v.(type) {
	case starlark.Container, starlark.Mapping:
		return true
	}
	_, ok := interp.AsText(v)
	return ok
}

// isView reports a dict's view of one of kinds ("keys", "values",
// "items"): dict_keys, odict_keys, ….
func isView(v starlark.Value, kinds ...string) bool {
	t := v.Type()
	for _, k := range kinds {
		if t == "dict_"+k || t == "odict_"+k {
			return true
		}
	}
	return false
}

var (
	sequenceKinds = []string{"list", "tuple", "str", "range", "bytes", "bytearray", "deque"}
	mappingKinds  = []string{"dict", "ChainMap"}
)

// abcModule is collections.abc.
func abcModule() *starlarkstruct.Module {
	classes := map[string]func(starlark.Value) bool{
		"Iterable":   isIterable,
		"Iterator":   isIterator,
		"Generator":  func(v starlark.Value) bool { return pyrt.TypeName(v) == "generator" },
		"Sized":      isSized,
		"Container":  isContainer,
		"Collection": func(v starlark.Value) bool { return isSized(v) && isIterable(v) && isContainer(v) },
		"Callable": func(v starlark.Value) bool {
			_, ok := v.(starlark.Callable)
			return ok
		},
		"Hashable": func(v starlark.Value) bool {
			// Whether the type hashes, not the value: a tuple holding a
			// list is Hashable, as in CPython.
			if kindIn(v, "tuple") {
				return true
			}
			_, err := v.Hash()
			return err == nil
		},
		"Reversible":      func(v starlark.Value) bool { return kindIn(v, sequenceKinds...) || kindIn(v, "dict") },
		"Sequence":        func(v starlark.Value) bool { return kindIn(v, sequenceKinds...) },
		"MutableSequence": func(v starlark.Value) bool { return kindIn(v, "list", "bytearray", "deque") },
		"ByteString":      func(v starlark.Value) bool { return kindIn(v, "bytes", "bytearray") },
		"Set":             func(v starlark.Value) bool { return kindIn(v, "set", "frozenset") || isView(v, "keys", "items") },
		"MutableSet":      func(v starlark.Value) bool { return kindIn(v, "set") },
		"Mapping":         func(v starlark.Value) bool { return kindIn(v, mappingKinds...) },
		"MutableMapping":  func(v starlark.Value) bool { return kindIn(v, mappingKinds...) },
	}
	// A dict's views (an OrderedDict's too: odict_keys).
	classes["MappingView"] = func(v starlark.Value) bool { return isView(v, "keys", "values", "items") }
	classes["KeysView"] = func(v starlark.Value) bool { return isView(v, "keys") }
	classes["ItemsView"] = func(v starlark.Value) bool { return isView(v, "items") }
	classes["ValuesView"] = func(v starlark.Value) bool { return isView(v, "values") }
	classes["Awaitable"] = isAwaitable
	classes["Coroutine"] = pyrt.IsCoroutine
	classes["AsyncGenerator"] = pyrt.IsAsyncGenerator
	classes["AsyncIterable"] = func(v starlark.Value) bool { return pyrt.IsAsyncGenerator(v) || hasAttrs(v, "__aiter__") }
	classes["AsyncIterator"] = func(v starlark.Value) bool { return pyrt.IsAsyncGenerator(v) || hasAttrs(v, "__aiter__", "__anext__") }
	members := starlark.StringDict{}
	names := make([]string, 0, len(classes))
	for name := range classes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		members[name] = &abcClass{name: name, is: classes[name]}
	}
	m := &starlarkstruct.Module{Name: "collections.abc", Members: members}
	m.Freeze()
	return m
}
