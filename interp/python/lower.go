package python

import "strings"

// Method calls: x.name(args) becomes __ot_name(x, args) for the names
// loweredMethod lists, so that onetool's implementation for the kind of x
// runs (a str method counting characters, a list method Starlark lacks).
// A call of such a method on another value (a struct, a module, a pack)
// falls back to the value's own method, so user values with fields of
// those names keep working.

// Names of the helpers the lowered tree calls; Builtins provides them.
const (
	mulName    = "__ot_mul"
	addName    = "__ot_plus"
	lshiftName = "__ot_lshift"
	modName    = "__ot_mod"
)

// boolArithNames are the helpers of arithmetic on a bool, by operator
// (see binaryHelper).
var boolArithNames = map[string]string{
	"+": "__ot_badd", "-": "__ot_bsub", "*": "__ot_bmul", "/": "__ot_bdiv", "//": "__ot_bfloordiv",
	"%": "__ot_bmod", "&": "__ot_band", "|": "__ot_bor", "^": "__ot_bxor", "<<": "__ot_blshift", ">>": "__ot_brshift",
}

// loweredMethod reports whether a call of the method name is routed to
// its helper, and its name. The helper calls onetool's implementation for
// the receiver's kind (methods in builtins.go): every str method, which
// must count characters; the list, dict and set methods Starlark lacks or
// has with other arguments; and the methods that add a whole iterable to a
// collection (go.starlark.net grows it inside one call, so a range of a
// billion is refused by its length first). A switch, not a map, so that
// nothing global can be changed; TestLoweredMethodsHaveHelpers checks it
// against the implementations.
func loweredMethod(name string) (helper string, ok bool) {
	if !isLoweredMethod(name) {
		return "", false
	}
	return "__ot_" + name, true
}

func isLoweredMethod(name string) bool {
	switch name {
	case "format", "replace", "join", "extend", "union", "update",
		"intersection", "difference", "symmetric_difference",
		// str (and bytes.decode): strmethods.go
		"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs",
		"find", "format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal",
		"isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
		"istitle", "isupper", "ljust", "lower", "lstrip", "maketrans", "partition",
		"removeprefix", "removesuffix", "rfind", "rindex", "rjust", "rpartition",
		"rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase",
		"title", "translate", "upper", "zfill", "elems", "codepoints", "elem_ords",
		"codepoint_ords", "decode", "hex",
		// int (bytesmethods.go)
		"to_bytes", "bit_length", "bit_count", "as_integer_ratio", "is_integer", "conjugate",
		// list, tuple, dict and set methods (listdict.go)
		"sort", "copy", "reverse", "remove", "pop", "popitem", // count, index: above
		"add", "discard", "clear", "keys", "values", "items",
		"isdisjoint", "issubset", "issuperset", "intersection_update",
		"difference_update", "symmetric_difference_update":
		return true
	}
	return false
}

// LoweredCall reports whether helper is the name a call of a method is
// lowered to (x.items() → __ot_items(x)), and which method. Tools named
// like these methods (demo.items) are called through it.
func LoweredCall(helper string) (method string, ok bool) {
	method, ok = strings.CutPrefix(helper, "__ot_")
	if !ok || !isLoweredMethod(method) {
		return "", false
	}
	return method, true
}

// GetMethod is the helper that x.name read as a value is lowered to,
// for the names LoweredCall lists: __ot_getmethod(x, "name").
const GetMethod = "__ot_getmethod"
