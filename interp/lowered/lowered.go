// Package lowered is the contract between onetool's Python front end
// (package python, which lowers a program to Starlark syntax trees) and
// the runtime those trees call (package pyrt). Starlark has no
// exceptions, classes or Python's operators, so the trees call
// predeclared helpers for them; this package names those helpers and
// fixes the shape of the values the trees pass them: the control codes a
// part of a try or with statement returns, the kinds of pattern a match
// statement describes, the methods whose calls are routed to a helper.
//
// It holds no state and imports nothing of onetool's, so that the front
// end and the runtime depend on it and never on each other, as CPython's
// compiler and its evaluation loop share only the opcodes.
package lowered

import (
	"strings"

	"go.starlark.net/syntax"
)

// Names of the helpers of operators whose Starlark form would run
// unbounded or mean something else than Python's.
const (
	Mul    = "__ot_mul"    // x * y: a repetition is sized before it is made
	Add    = "__ot_plus"   // x + y: a concatenation is sized and copied in pieces
	LShift = "__ot_lshift" // x << y: the result's bits are counted first
	Mod    = "__ot_mod"    // x % y: printf-style formatting of a str
)

// GetMethod is the helper that x.name read as a value is lowered to, for
// the names Method lists: __ot_getmethod(x, "name").
const GetMethod = "__ot_getmethod"

// ZeroDiv names the helper of x / y or x // y (op) where the divisor may
// be zero and either side a float: Python says "float division by zero"
// where the interpreter words it as for ints.
func ZeroDiv(op string) (name string, ok bool) {
	switch op {
	case "/":
		return "__ot_div", true
	case "//":
		return "__ot_floordiv", true
	}
	return "", false
}

// BoolArith names the helper of the arithmetic operator op where an
// operand is a bool, which Python takes for the int it is.
func BoolArith(op string) (name string, ok bool) {
	switch op {
	case "+":
		return "__ot_badd", true
	case "-":
		return "__ot_bsub", true
	case "*":
		return "__ot_bmul", true
	case "/":
		return "__ot_bdiv", true
	case "//":
		return "__ot_bfloordiv", true
	case "%":
		return "__ot_bmod", true
	case "&":
		return "__ot_band", true
	case "|":
		return "__ot_bor", true
	case "^":
		return "__ot_bxor", true
	case "<<":
		return "__ot_blshift", true
	case ">>":
		return "__ot_brshift", true
	}
	return "", false
}

// BinaryToken is the Starlark token of Python's binary operator op, for
// the operators both languages have.
func BinaryToken(op string) (syntax.Token, bool) {
	switch op {
	case "+":
		return syntax.PLUS, true
	case "-":
		return syntax.MINUS, true
	case "*":
		return syntax.STAR, true
	case "/":
		return syntax.SLASH, true
	case "//":
		return syntax.SLASHSLASH, true
	case "%":
		return syntax.PERCENT, true
	case "&":
		return syntax.AMP, true
	case "|":
		return syntax.PIPE, true
	case "^":
		return syntax.CIRCUMFLEX, true
	case "<<":
		return syntax.LTLT, true
	case ">>":
		return syntax.GTGT, true
	}
	return 0, false
}

// Control codes a part of a lowered try or with statement returns: None
// when it fell through, else a tuple (code,) or (Return, value), and the
// code after the helper's call does what it says.
const (
	Return   = 1
	Break    = 2
	Continue = 3
)

// A try statement is lowered to one function of its enclosing scope,
// called as __ot_try(parts, spec): parts(k, e) runs the part k names
// (a handler gets the exception as e), and spec is 4 times the number of
// handlers, plus TryHasElse and TryHasFinally.
const (
	TryBody     = 0
	TryElse     = 1
	TryFinally  = 2
	TryClasses  = 3 // returns the handlers' classes: one, or a tuple
	TryHandler  = 4 // the first handler; the others follow
	TryHasElse  = 1
	TryHasFinal = 2
)

// The kinds of pattern of a lowered match statement, the first element
// of each pattern's description: __ot_match(subject, description, n).
const (
	PatWild    = iota // (PatWild,)
	PatCapture        // (PatCapture, slot)
	PatAs             // (PatAs, pattern, slot)
	PatValue          // (PatValue, value): subject == value
	PatSingle         // (PatSingle, None|True|False): subject is value
	PatSeq            // (PatSeq, (patterns…), star index or -1, star slot or -1)
	PatMap            // (PatMap, (keys…), (patterns…), rest slot or -1)
	PatClass          // (PatClass, class, (patterns…), (names…), (patterns…))
	PatOr             // (PatOr, (patterns…))
)

// DunderAttr reports whether x.name is read through the helper
// __ot_dunder(x, "name"): attributes Python's values have and Starlark's
// lack (a function's __name__, a number's real part).
func DunderAttr(name string) bool {
	switch name {
	case "__name__", "__qualname__", "__class__", "__doc__",
		"__module__", "__defaults__", "__kwdefaults__", "__dict__", "__annotations__", // of functions
		"real", "imag", "numerator", "denominator": // of numbers
		return true
	}
	return false
}

// Method reports whether a call of the method name is routed to its
// helper (x.name(args) becomes helper(x, args)), and the helper's name.
// The helper runs onetool's implementation for the receiver's kind: every
// str method, which must count characters; the list, dict and set
// methods Starlark lacks or has with other arguments; and the methods
// that add a whole iterable to a collection (go.starlark.net grows it
// inside one call, so a range of a billion is refused by its length
// first). A call of such a method on another value (a struct, a module, a
// pack) falls back to the value's own method. A switch, not a map, so
// that nothing global can be changed.
func Method(name string) (helper string, ok bool) {
	if !isMethod(name) {
		return "", false
	}
	return "__ot_" + name, true
}

// Call reports whether helper is the name a call of a method is lowered
// to (x.items() → __ot_items(x)), and which method. Tools named like these
// methods (demo.items) are called through it.
func Call(helper string) (method string, ok bool) {
	method, ok = strings.CutPrefix(helper, "__ot_")
	if !ok || !isMethod(method) {
		return "", false
	}
	return method, true
}

func isMethod(name string) bool {
	switch name {
	case "format", "replace", "join", "extend", "union", "update",
		"intersection", "difference", "symmetric_difference",
		// str (and bytes.decode)
		"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs",
		"find", "format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal",
		"isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
		"istitle", "isupper", "ljust", "lower", "lstrip", "maketrans", "partition",
		"removeprefix", "removesuffix", "rfind", "rindex", "rjust", "rpartition",
		"rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase",
		"title", "translate", "upper", "zfill", "elems", "codepoints", "elem_ords",
		"codepoint_ords", "decode", "hex",
		// int
		"to_bytes", "bit_length", "bit_count", "as_integer_ratio", "is_integer", "conjugate",
		// list, tuple, dict and set
		"sort", "copy", "reverse", "remove", "pop", "popitem", // count, index: above
		"add", "discard", "clear", "keys", "values", "items",
		"isdisjoint", "issubset", "issuperset", "intersection_update",
		"difference_update", "symmetric_difference_update":
		return true
	}
	return false
}

// MangleName is name as written inside class class: a private name (__x,
// not __x__) is _C__x, as CPython's compiler writes it. The front end
// mangles the names a class body and its methods use; the runtime the
// names a class lists in __slots__.
func MangleName(class, name string) string {
	if !strings.HasPrefix(name, "__") || strings.HasSuffix(name, "__") || strings.Contains(name, ".") {
		return name
	}
	c := strings.TrimLeft(class, "_")
	if c == "" {
		return name
	}
	return "_" + c + name
}

// Generators and coroutines. A def whose body yields or that is written
// `async def` keeps its parameters, and its body moves to an inner def
// named GenBody taking the same parameters as plain ones; the def returns
// Generator(GenBody, qualname, params...) (or Coroutine, or
// AsyncGenerator for an async def that yields), the object that runs the
// body when asked, suspended at each Yield(v), YieldFrom(it) or Await(x).
const (
	GenBody        = "__ot_genbody"
	Generator      = "__ot_generator"
	Coroutine      = "__ot_coroutine"
	AsyncGenerator = "__ot_asyncgen"
	Yield          = "__ot_yield"
	YieldFrom      = "__ot_yield_from"
	Await          = "__ot_await"
	// GenExp(fn, it, name) is a generator expression of several clauses,
	// or of a target other than a name: fn(it) runs the comprehension
	// whose first iterable is it, each element given by YieldValue(elt),
	// which yields and is false (so that the comprehension keeps none).
	GenExp      = "__ot_genexp"
	AsyncGenExp = "__ot_agenexp"
	YieldValue  = "__ot_yieldv"
	// AsyncIter(x) is what `async for` walks: each element awaited from
	// x.__anext__() until StopAsyncIteration. AsyncWith(m) is the sync
	// context manager whose enter and exit await m's __aenter__ and
	// __aexit__.
	AsyncIter = "__ot_aiter"
	AsyncWith = "__ot_awith"
	// TopLevelAwait(fn) is `await x` at a program's top level: x is
	// fn(), evaluated with the tools it calls giving awaitables.
	TopLevelAwait = "__ot_topawait"
	// TryStar is __ot_try for a try statement of except* clauses.
	TryStar = "__ot_trystar"
	// TopLevelAsync() is the first statement of a program with await at
	// its top level (as `python -m asyncio` and notebooks run them): the
	// tools its top level calls give awaitables.
	TopLevelAsync = "__ot_toplevel_async"
)
