package pyrt

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The methods of Python's str (3.11), with CPython's arguments, results
// and error texts, counting characters (code points), not bytes. Text
// that is all ASCII (a starlark.String) takes fast paths where a byte is
// a character; any other text is an *interp.Unicode. Every result is made
// by interp.MakeString, or is a starlark.String when it is cut from ASCII
// text. Work in proportion to the text is charged to the run's budget, and
// a result whose size an argument sets (a width, a tab size, a
// replacement) is refused before it is made when it alone would exceed
// the memory budget.

// addTextMethods registers the str methods (and bytes.decode).
func addTextMethods(ms methodSet) {
	for name, fn := range map[string]strFunc{
		"capitalize":   caseMethod("capitalize", mapCapitalize, asciiCapitalize),
		"casefold":     caseMethod("casefold", mapFold, strings.ToLower),
		"lower":        caseMethod("lower", mapLower, strings.ToLower),
		"upper":        caseMethod("upper", mapUpper, strings.ToUpper),
		"swapcase":     caseMethod("swapcase", mapSwapcase, asciiSwapcase),
		"title":        caseMethod("title", mapTitle, asciiTitle),
		"isalnum":      classMethod("isalnum", isAlnumChar, false),
		"isalpha":      classMethod("isalpha", unicode.IsLetter, false),
		"isascii":      classMethod("isascii", func(r rune) bool { return r < utf8.RuneSelf }, true),
		"isdecimal":    classMethod("isdecimal", isDecimalChar, false),
		"isdigit":      classMethod("isdigit", isDigitChar, false),
		"isnumeric":    classMethod("isnumeric", isNumericChar, false),
		"isprintable":  classMethod("isprintable", isPrintableChar, true),
		"isspace":      classMethod("isspace", isSpace, false),
		"islower":      caseClassMethod("islower", isLowerChar, isUpperChar),
		"isupper":      caseClassMethod("isupper", isUpperChar, isLowerChar),
		"istitle":      istitleMethod,
		"isidentifier": isidentifierMethod,
		"center":       padMethod("center"),
		"ljust":        padMethod("ljust"),
		"rjust":        padMethod("rjust"),
		"zfill":        zfillMethod,
		"count":        countMethod,
		"find":         findMethod("find", false, false),
		"rfind":        findMethod("rfind", true, false),
		"index":        findMethod("index", false, true),
		"rindex":       findMethod("rindex", true, true),
		"startswith":   affixMethod("startswith", false),
		"endswith":     affixMethod("endswith", true),
		"strip":        stripMethod("strip", true, true),
		"lstrip":       stripMethod("lstrip", true, false),
		"rstrip":       stripMethod("rstrip", false, true),
		"removeprefix": removeMethod("removeprefix", false),
		"removesuffix": removeMethod("removesuffix", true),
		"partition":    partitionMethod("partition", false),
		"rpartition":   partitionMethod("rpartition", true),
		"split":        splitMethod("split", false),
		"rsplit":       splitMethod("rsplit", true),
		"splitlines":   splitlinesMethod,
		"expandtabs":   expandtabsMethod,
		"translate":    translateMethod,
		"format_map":   formatMapMethod,
		"encode":       encodeMethod,
		"maketrans": func(b *interp.Budget, _ str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return maketrans(b, args, kwargs)
		},
	} {
		ms.add(kindText, name, strMethod(fn))
	}
	// Starlark's own methods of strings: an ASCII text keeps them as they
	// are; the elements of other text are its characters.
	for _, name := range []string{"elems", "codepoints", "elem_ords", "codepoint_ords"} {
		ms.add(kindText, name, elemsMethod(name))
	}
	ms.add(kindBytes, "decode", decodeMethod)
}

// str is the receiver of a str method.
type str struct {
	v     starlark.Value // starlark.String, or *interp.Unicode
	s     string
	ascii bool // v is a starlark.String: all ASCII, a byte is a character
}

type strFunc func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// strMethod adapts a method of str.
func strMethod(fn strFunc) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		t := str{v: recv}
		switch x := recv.(type) {
		case starlark.String:
			// All ASCII: text enters a program through interp.MakeString.
			t.s, t.ascii = string(x), true
		case *interp.Unicode:
			t.s = x.Text()
		}
		return fn(interp.BudgetOf(thread), t, args, kwargs)
	}
}

// len is the text's length in characters.
func (t str) len() int {
	if t.ascii {
		return len(t.s)
	}
	return t.v.(*interp.Unicode).Len()
}

// cut is a piece of the text (s[i:j] of t.s): ASCII when t is.
func (t str) cut(s string) starlark.Value {
	if len(s) == len(t.s) {
		return t.v
	}
	if t.ascii {
		return starlark.String(s)
	}
	return interp.MakeString(s)
}

// span returns the byte offsets of the characters start and end of t
// (0 <= start <= end <= t.len()), in constant time once the text has been
// indexed: a loop of s.find(x, i) over a long text stays linear.
func (t str) span(start, end int) (lo, hi int) {
	if t.ascii {
		return start, end
	}
	u := t.v.(*interp.Unicode)
	return u.Offset(start), u.Offset(end)
}

// runeCount is the length of s in characters.
func runeCount(s string) int { return utf8.RuneCountInString(s) }

// maxText bounds a text a method makes when no memory budget does: far
// above any budget onetool runs with, below what would take a process
// down.
const maxText = 1<<31 - 1

// allocText refuses a text of size bytes that alone exceeds the memory
// budget, before it is made.
func allocText(b *interp.Budget, size int64) error {
	if size < 0 || size > maxText {
		return exception("MemoryError", "a text of %d bytes is too large", size)
	}
	return b.Alloc(size)
}

// charge counts the work of visiting n bytes.
func charge(b *interp.Budget, n int) error { return b.Charge(uint64(n) / 64) }

// tick checks the run's budget once every million steps of a loop over
// text (i counts them): a loop over hundreds of megabytes takes seconds,
// and must stop at the run's deadline. Its work was charged before the
// loop; tick only looks.
func tick(b *interp.Budget, i int) error {
	if i&(1<<20-1) == 1<<20-1 {
		return b.Charge(1 << 12)
	}
	return nil
}

// Arguments, as CPython checks them. Its str methods parse arguments in
// four ways, each with its own texts; the helpers below give each one's.

// noArgs checks a method that takes no arguments: str.upper().
func noArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return typeError("str.%s() takes no keyword arguments", name)
	}
	if len(args) > 0 {
		return typeError("str.%s() takes no arguments (%d given)", name, len(args))
	}
	return nil
}

// oneArg checks a method of exactly one positional argument: str.zfill(width).
func oneArg(name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, typeError("str.%s() takes no keyword arguments", name)
	}
	if len(args) != 1 {
		return nil, typeError("str.%s() takes exactly one argument (%d given)", name, len(args))
	}
	return args[0], nil
}

// expectArgs checks a method of positional arguments whose count CPython
// checks as "center expected at least 1 argument, got 0".
func expectArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, min, max int) error {
	if len(kwargs) > 0 {
		return typeError("str.%s() takes no keyword arguments", name)
	}
	switch {
	case len(args) < min:
		return typeError("%s expected at least %d %s, got %d", name, min, plural(min, "argument"), len(args))
	case len(args) > max:
		return typeError("%s expected at most %d %s, got %d", name, max, plural(max, "argument"), len(args))
	}
	return nil
}

// takesArgs checks a method of positional arguments whose count CPython
// checks as "find() takes at least 1 argument (0 given)".
func takesArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, min, max int) error {
	if len(kwargs) > 0 {
		return typeError("str.%s() takes no keyword arguments", name)
	}
	switch {
	case len(args) < min:
		return typeError("%s() takes at least %d %s (%d given)", name, min, plural(min, "argument"), len(args))
	case len(args) > max:
		return typeError("%s() takes at most %d %s (%d given)", name, max, plural(max, "argument"), len(args))
	}
	return nil
}

// keywordArgs unpacks the arguments of a method whose parameters may be
// given by name (s.split(sep=",", maxsplit=1)); an absent one is nil.
func keywordArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, params ...string) ([]starlark.Value, error) {
	if n := len(args) + len(kwargs); n > len(params) {
		kw := ""
		if len(args) == 0 {
			kw = "keyword "
		}
		return nil, typeError("%s() takes at most %d %s%s (%d given)", name, len(params), kw, plural(len(params), "argument"), n)
	}
	out := make([]starlark.Value, len(params))
	copy(out, args)
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		i := 0
		for i < len(params) && params[i] != k {
			i++
		}
		switch {
		case i == len(params):
			return nil, typeError("'%s' is an invalid keyword argument for %s()", k, name)
		case i < len(args):
			return nil, typeError("argument for %s() given by name ('%s') and position (%d)", name, k, i+1)
		}
		out[i] = kv[1]
	}
	return out, nil
}

// argName is how Argument Clinic names the type of a bad argument: None
// is "None", anything else its type.
func argName(v starlark.Value) string {
	if v == starlark.None {
		return "None"
	}
	return pyTypeName(v)
}

// textArg is an argument that must be a str, with CPython's "must be
// str, not int".
func textArg(v starlark.Value) (string, error) {
	if s, ok := interp.AsText(v); ok {
		return s, nil
	}
	return "", typeError("must be str, not %s", pyTypeName(v))
}

// asIndex is an argument CPython reads as a Py_ssize_t (a width, a
// count): an int or a bool.
func asIndex(v starlark.Value) (int64, error) {
	return asInteger(v, math.MinInt64, math.MaxInt64, "ssize_t")
}

// asCInt is an argument CPython reads as a C int (a tab size).
func asCInt(v starlark.Value) (int64, error) {
	return asInteger(v, math.MinInt32, math.MaxInt32, "int")
}

func asInteger(v starlark.Value, min, max int64, ctype string) (int64, error) {
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n < min || n > max {
			return 0, exception("OverflowError", "Python int too large to convert to C %s", ctype)
		}
		return n, nil
	}
	return 0, typeError("'%s' object cannot be interpreted as an integer", pyTypeName(v))
}

// sliceIndex is a start or end argument: None, or an int, clamped as
// CPython clamps it.
func sliceIndex(v starlark.Value, def int) (int, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return def, nil
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		if n, ok := x.Int64(); ok && n >= math.MinInt && n <= math.MaxInt {
			return int(n), nil
		}
		if x.Sign() < 0 {
			return math.MinInt, nil
		}
		return math.MaxInt, nil
	}
	return 0, typeError("slice indices must be integers or None or have an __index__ method")
}

// bounds reads the optional start and end arguments (args[0], args[1])
// and adjusts them to a text of n characters as CPython does: negative
// counts from the end, end capped at n; start may stay beyond n.
func bounds(args starlark.Tuple, n int) (start, end int, err error) {
	var s, e starlark.Value
	if len(args) > 0 {
		s = args[0]
	}
	if len(args) > 1 {
		e = args[1]
	}
	if start, err = sliceIndex(s, 0); err != nil {
		return 0, 0, err
	}
	if end, err = sliceIndex(e, n); err != nil {
		return 0, 0, err
	}
	if end > n {
		end = n
	} else if end < 0 {
		end = max(end+n, 0)
	}
	if start < 0 {
		start = max(start+n, 0)
	}
	return start, end, nil
}

// Case.

// caseMethod is a method that maps each character's case: ascii maps a
// text that is all ASCII.
func caseMethod(name string, full, ascii func(string) string) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		if err := charge(b, len(t.s)); err != nil {
			return nil, err
		}
		if t.ascii {
			out, err := mapCaseChunks(b, name, t.s, true, ascii)
			if err != nil {
				return nil, err
			}
			if out == t.s {
				return t.v, nil
			}
			return starlark.String(out), nil
		}
		// A full mapping is at most three characters of at most 4 bytes
		// each for a character of at least 2.
		if err := allocText(b, int64(len(t.s))*6); err != nil {
			return nil, err
		}
		out, err := mapCaseChunks(b, name, t.s, false, full)
		if err != nil {
			return nil, err
		}
		return interp.MakeString(out), nil
	}
}

// caseChunk is how much text a case mapping maps between two checks of
// the run's budget: a few milliseconds.
const caseChunk = 1 << 20

// mapCaseChunks maps the case of s with f (the method name's mapping), a
// megabyte at a time, checking the run's budget between chunks: upper()
// of a text of hundreds of megabytes takes seconds. ASCII text is cut
// anywhere (title carries whether the last character was cased); other
// text at a character's start, each range mapped with the whole text as
// its context (mapRange).
func mapCaseChunks(b *interp.Budget, name, s string, ascii bool, f func(string) string) (string, error) {
	if len(s) <= caseChunk {
		return f(s), nil
	}
	var sb strings.Builder
	sb.Grow(len(s))
	prevCased := false
	for from := 0; from < len(s); {
		to := min(len(s), from+caseChunk)
		for to < len(s) && !utf8.RuneStart(s[to]) {
			to++
		}
		part := s[from:to]
		switch {
		case !ascii:
			sb.WriteString(mapRange(name, s, from, to))
		case name == "title":
			var out string
			out, prevCased = asciiTitleFrom(part, prevCased)
			sb.WriteString(out)
		case name == "capitalize" && from > 0:
			sb.WriteString(strings.ToLower(part))
		default:
			sb.WriteString(f(part))
		}
		from = to
		if err := charge(b, len(part)); err != nil {
			return "", err
		}
	}
	return sb.String(), nil
}

func asciiTitle(s string) string {
	out, _ := asciiTitleFrom(s, false)
	return out
}

// asciiTitleFrom is title() of ASCII text that follows a cased character
// when prevCased; it says whether its last character is cased.
func asciiTitleFrom(s string, prevCased bool) (string, bool) {
	buf := []byte(s)
	for i, c := range buf {
		lower, upper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
		switch {
		case prevCased && upper:
			buf[i] = c + 'a' - 'A'
		case !prevCased && lower:
			buf[i] = c - ('a' - 'A')
		}
		prevCased = lower || upper
	}
	return string(buf), prevCased
}

func asciiCapitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + strings.ToLower(s[1:])
}

func asciiSwapcase(s string) string {
	buf := []byte(s)
	for i, c := range buf {
		switch {
		case c >= 'a' && c <= 'z':
			buf[i] = c - ('a' - 'A')
		case c >= 'A' && c <= 'Z':
			buf[i] = c + 'a' - 'A'
		}
	}
	return string(buf)
}

// Character classes.

// isPrintableChar is str.isprintable for one character.
func isPrintableChar(r rune) bool { return unicode.IsPrint(r) }

// classMethod is a method true when every character is of a class:
// isalpha, isdigit …; empty is whether the empty text is.
func classMethod(name string, class func(rune) bool, empty bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		if t.s == "" {
			return starlark.Bool(empty), nil
		}
		i := 0
		if t.ascii {
			for i < len(t.s) && class(rune(t.s[i])) {
				i++
			}
		} else {
			for i < len(t.s) {
				r, n := utf8.DecodeRuneInString(t.s[i:])
				if !class(r) {
					break
				}
				i += n
			}
		}
		return starlark.Bool(i == len(t.s)), charge(b, i)
	}
}

// caseClassMethod is islower or isupper: no character of the other case
// (nor title case), and at least one of this one.
func caseClassMethod(name string, this, other func(rune) bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		if err := charge(b, len(t.s)); err != nil {
			return nil, err
		}
		cased := false
		for _, r := range t.s {
			if other(r) || unicode.IsTitle(r) {
				return starlark.False, nil
			}
			cased = cased || this(r)
		}
		return starlark.Bool(cased), nil
	}
}

// istitleMethod: upper and title case only after an uncased character,
// lower case only after a cased one, and something cased.
func istitleMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("istitle", args, kwargs); err != nil {
		return nil, err
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	cased, prevCased := false, false
	for _, r := range t.s {
		switch {
		case isUpperChar(r) || unicode.IsTitle(r):
			if prevCased {
				return starlark.False, nil
			}
			prevCased, cased = true, true
		case isLowerChar(r):
			if !prevCased {
				return starlark.False, nil
			}
			prevCased, cased = true, true
		default:
			prevCased = false
		}
	}
	return starlark.Bool(cased), nil
}

// IsIdentifier is str.isidentifier: s is a name by Unicode's ID_Start
// and ID_Continue as Python reads them (keywords included).
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 && !isXIDStart(r) || i > 0 && !isXIDContinue(r) {
			return false
		}
	}
	return true
}

func isidentifierMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("isidentifier", args, kwargs); err != nil {
		return nil, err
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	return starlark.Bool(IsIdentifier(t.s)), nil
}

// Padding.

// padMethod is center, ljust or rjust(width, fillchar=" ").
func padMethod(name string) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := expectArgs(name, args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		width, err := asIndex(args[0])
		if err != nil {
			return nil, err
		}
		fill := " "
		if len(args) > 1 {
			f, ok := interp.AsText(args[1])
			if !ok {
				return nil, typeError("The fill character must be a unicode character, not %s", pyTypeName(args[1]))
			}
			if runeCount(f) != 1 {
				return nil, typeError("The fill character must be exactly one character long")
			}
			fill = f
		}
		n := int64(t.len())
		if width <= n {
			return t.v, nil
		}
		marg := width - n
		var left int64
		switch name {
		case "center":
			// CPython's rounding: the odd space goes left when width is odd.
			left = marg/2 + (marg & width & 1)
		case "rjust":
			left = marg
		}
		return padText(b, t, fill, left, marg-left)
	}
}

// padText returns t with left and right copies of fill around it, checking
// the size first.
func padText(b *interp.Budget, t str, fill string, left, right int64) (starlark.Value, error) {
	if (left + right) > maxText/int64(len(fill)) {
		return nil, allocText(b, math.MaxInt64)
	}
	if err := allocText(b, int64(len(t.s))+(left+right)*int64(len(fill))); err != nil {
		return nil, err
	}
	out := strings.Repeat(fill, int(left)) + t.s + strings.Repeat(fill, int(right))
	if t.ascii && len(fill) == 1 {
		return starlark.String(out), nil
	}
	return interp.MakeString(out), nil
}

// zfillMethod: zeros on the left, after a leading sign.
func zfillMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	arg, err := oneArg("zfill", args, kwargs)
	if err != nil {
		return nil, err
	}
	width, err := asIndex(arg)
	if err != nil {
		return nil, err
	}
	n := int64(t.len())
	if width <= n {
		return t.v, nil
	}
	if err := allocText(b, int64(len(t.s))+width-n); err != nil {
		return nil, err
	}
	zeros := strings.Repeat("0", int(width-n))
	s := t.s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return t.cutOrMake(s[:1] + zeros + s[1:]), nil
	}
	return t.cutOrMake(zeros + s), nil
}

// cutOrMake is a text made from t and ASCII: ASCII when t is.
func (t str) cutOrMake(s string) starlark.Value {
	if t.ascii {
		return starlark.String(s)
	}
	return interp.MakeString(s)
}

// Searching.

// findArgs reads (sub, start=None, end=None) of count, find …
func findArgs(name string, t str, args starlark.Tuple, kwargs []starlark.Tuple) (sub string, start, end int, err error) {
	if err = takesArgs(name, args, kwargs, 1, 3); err != nil {
		return
	}
	if start, end, err = bounds(args[1:], t.len()); err != nil {
		return
	}
	sub, err = textArg(args[0])
	return
}

func countMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sub, start, end, err := findArgs("count", t, args, kwargs)
	if err != nil {
		return nil, err
	}
	subN := runeCount(sub)
	if end-start < subN {
		return starlark.MakeInt(0), nil
	}
	if sub == "" {
		return starlark.MakeInt(end - start + 1), nil
	}
	lo, hi := t.span(start, end)
	if err := charge(b, hi-lo); err != nil {
		return nil, err
	}
	return starlark.MakeInt(strings.Count(t.s[lo:hi], sub)), nil
}

// findMethod is find, rfind, index or rindex (sub, start=None, end=None):
// index and rindex raise where find and rfind answer -1.
func findMethod(name string, last, raise bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		sub, start, end, err := findArgs(name, t, args, kwargs)
		if err != nil {
			return nil, err
		}
		at := -1
		if end-start >= runeCount(sub) {
			switch {
			case sub == "" && last:
				at = end
			case sub == "":
				at = start
			default:
				lo, hi := t.span(start, end)
				var i, scanned int
				if last {
					i = strings.LastIndex(t.s[lo:hi], sub)
					scanned = hi - lo - max(i, 0)
				} else {
					i = strings.Index(t.s[lo:hi], sub)
					scanned = i + len(sub)
				}
				if i < 0 {
					scanned = hi - lo
				}
				// What was searched, not the whole text: a loop of
				// s.find(x, i) over a text is charged once for it.
				if err := charge(b, scanned); err != nil {
					return nil, err
				}
				if i >= 0 {
					at = start + i
					if !t.ascii {
						at = start + runeCount(t.s[lo:lo+i])
					}
				}
			}
		}
		if at < 0 && raise {
			return nil, valueError("substring not found")
		}
		return starlark.MakeInt(at), nil
	}
}

// affixMethod is startswith or endswith(affix, start=None, end=None),
// where affix is a str or a tuple of them.
func affixMethod(name string, suffix bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := takesArgs(name, args, kwargs, 1, 3); err != nil {
			return nil, err
		}
		n := t.len()
		start, end, err := bounds(args[1:], n)
		if err != nil {
			return nil, err
		}
		if tuple, ok := args[0].(starlark.Tuple); ok {
			for _, x := range tuple {
				affix, ok := interp.AsText(x)
				if !ok {
					return nil, typeError("tuple for %s must only contain str, not %s", name, pyTypeName(x))
				}
				if t.hasAffix(affix, start, end, n, suffix) {
					return starlark.True, nil
				}
			}
			return starlark.False, nil
		}
		affix, ok := interp.AsText(args[0])
		if !ok {
			return nil, typeError("%s first arg must be str or a tuple of str, not %s", name, pyTypeName(args[0]))
		}
		return starlark.Bool(t.hasAffix(affix, start, end, n, suffix)), nil
	}
}

// hasAffix reports whether t[start:end] starts (or ends) with affix, as
// CPython's tailmatch does.
func (t str) hasAffix(affix string, start, end, n int, suffix bool) bool {
	k := runeCount(affix)
	if end-k < start {
		return false
	}
	if k == 0 {
		return true
	}
	switch {
	case suffix && end == n:
		return strings.HasSuffix(t.s, affix)
	case !suffix && start == 0:
		return strings.HasPrefix(t.s, affix)
	}
	at := start
	if suffix {
		at = end - k
	}
	lo, hi := t.span(at, at+k)
	return t.s[lo:hi] == affix
}

// Stripping and cutting.

// stripMethod is strip, lstrip or rstrip(chars=None): whitespace, or the
// characters given.
func stripMethod(name string, left, right bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := expectArgs(name, args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 1 && args[0] != starlark.None {
			cutset, ok := interp.AsText(args[0])
			if !ok {
				return nil, typeError("%s arg must be None or str", name)
			}
			s := t.s
			if left {
				s = strings.TrimLeft(s, cutset)
			}
			if right {
				s = strings.TrimRight(s, cutset)
			}
			return t.cut(s), charge(b, len(t.s)-len(s))
		}
		i, j := 0, len(t.s)
		if left {
			for i < j {
				c := t.s[i]
				if c < utf8.RuneSelf {
					if !asciiSpace(c) {
						break
					}
					i++
					continue
				}
				r, n := utf8.DecodeRuneInString(t.s[i:])
				if !isSpace(r) {
					break
				}
				i += n
			}
		}
		if right {
			for j > i {
				c := t.s[j-1]
				if c < utf8.RuneSelf {
					if !asciiSpace(c) {
						break
					}
					j--
					continue
				}
				r, n := utf8.DecodeLastRuneInString(t.s[i:j])
				if !isSpace(r) {
					break
				}
				j -= n
			}
		}
		return t.cut(t.s[i:j]), charge(b, len(t.s)-(j-i))
	}
}

// removeMethod is removeprefix or removesuffix(affix).
func removeMethod(name string, suffix bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		arg, err := oneArg(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		affix, ok := interp.AsText(arg)
		if !ok {
			return nil, typeError("%s() argument must be str, not %s", name, argName(arg))
		}
		if suffix {
			return t.cut(strings.TrimSuffix(t.s, affix)), nil
		}
		return t.cut(strings.TrimPrefix(t.s, affix)), nil
	}
}

// partitionMethod is partition or rpartition(sep): a tuple of the text
// before the separator, the separator and the text after.
func partitionMethod(name string, last bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		arg, err := oneArg(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		sep, err := textArg(arg)
		if err != nil {
			return nil, err
		}
		if sep == "" {
			return nil, valueError("empty separator")
		}
		empty := starlark.String("")
		var i int
		if last {
			i = strings.LastIndex(t.s, sep)
		} else {
			i = strings.Index(t.s, sep)
		}
		// What was searched; a text that is not ASCII is also scanned
		// when its pieces are made.
		scanned := len(t.s)
		if t.ascii && i >= 0 && !last {
			scanned = i + len(sep)
		} else if t.ascii && i >= 0 {
			scanned = len(t.s) - i
		}
		if err := charge(b, scanned); err != nil {
			return nil, err
		}
		switch {
		case i >= 0:
			return starlark.Tuple{t.cut(t.s[:i]), interp.MakeString(sep), t.cut(t.s[i+len(sep):])}, nil
		case last:
			return starlark.Tuple{empty, empty, t.v}, nil
		}
		return starlark.Tuple{t.v, empty, empty}, nil
	}
}

// Splitting.

// partSize is what one piece of a split costs in memory: its place in
// the list and the string value.
const partSize = 3 * slot

// splitMethod is split or rsplit(sep=None, maxsplit=-1).
func splitMethod(name string, right bool) strFunc {
	return func(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		p, err := keywordArgs(name, args, kwargs, "sep", "maxsplit")
		if err != nil {
			return nil, err
		}
		sep, hasSep := "", false
		if p[0] != nil && p[0] != starlark.None {
			if sep, hasSep = interp.AsText(p[0]); !hasSep {
				return nil, typeError("must be str or None, not %s", pyTypeName(p[0]))
			}
		}
		maxsplit := int64(-1)
		if p[1] != nil {
			if maxsplit, err = asIndex(p[1]); err != nil {
				return nil, err
			}
		}
		if hasSep && sep == "" {
			return nil, valueError("empty separator")
		}
		if maxsplit < 0 || maxsplit > int64(len(t.s)) {
			maxsplit = int64(len(t.s)) // no text splits more often
		}
		if err := charge(b, len(t.s)); err != nil {
			return nil, err
		}
		var parts []string
		limit := maxParts(b)
		switch {
		case hasSep && right:
			parts = rsplitSep(t.s, sep, int(maxsplit), limit)
		case hasSep:
			n := min(strings.Count(t.s, sep), int(maxsplit)) + 1
			if err := allocText(b, int64(n)*partSize); err != nil {
				return nil, err
			}
			parts = strings.SplitN(t.s, sep, n)
		case right:
			parts = rsplitSpace(t.s, int(maxsplit), limit)
		default:
			parts = splitSpace(t.s, int(maxsplit), limit)
		}
		return t.list(b, parts)
	}
}

// maxParts is how many pieces of a text the memory budget allows, plus
// one: a split stops collecting there, and list refuses the result. -1
// means no bound.
func maxParts(b *interp.Budget) int {
	if m := b.MaxMemory(); m > 0 && m/partSize < maxText {
		return int(m/partSize) + 1
	}
	return -1
}

// list is a list of pieces of t, its size checked first.
func (t str) list(b *interp.Budget, parts []string) (starlark.Value, error) {
	if err := allocText(b, int64(len(parts))*partSize); err != nil {
		return nil, err
	}
	elems := make([]starlark.Value, len(parts))
	for i, p := range parts {
		elems[i] = t.cut(p)
	}
	return starlark.NewList(elems), nil
}

// spaceAt reports whether s[i:] starts with whitespace, and its length.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace(c), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return isSpace(r), n
}

// spaceBefore reports whether s[:j] ends with whitespace, and its length.
func spaceBefore(s string, j int) (bool, int) {
	if c := s[j-1]; c < utf8.RuneSelf {
		return asciiSpace(c), 1
	}
	r, n := utf8.DecodeLastRuneInString(s[:j])
	return isSpace(r), n
}

// splitSpace splits at runs of whitespace, none at either end; after
// maxsplit splits the rest is one piece, without its leading whitespace.
// The pieces are counted first, so that the list is made once.
func splitSpace(s string, maxsplit, limit int) []string {
	n := countFields(s)
	if n > maxsplit+1 {
		n = maxsplit + 1
	}
	if limit >= 0 && n > limit {
		n = limit
	}
	parts := make([]string, 0, n)
	i := 0
	for len(parts) < n {
		i = skipSpace(s, i)
		if len(parts) == n-1 && n == maxsplit+1 {
			return append(parts, s[i:])
		}
		j := i
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf {
				if asciiSpace(c) {
					break
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[j:])
			if isSpace(r) {
				break
			}
			j += size
		}
		parts = append(parts, s[i:j])
		i = j
	}
	return parts
}

// countFields counts the runs of characters that are not whitespace.
func countFields(s string) int {
	n, inField := 0, false
	for i := 0; i < len(s); {
		var sp bool
		if c := s[i]; c < utf8.RuneSelf {
			sp = asciiSpace(c)
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			sp = isSpace(r)
			i += size
		}
		if !sp && !inField {
			n++
		}
		inField = !sp
	}
	return n
}

// skipSpace is the offset of the first character at or after i that is
// not whitespace.
func skipSpace(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiSpace(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			return i
		}
		i += size
	}
	return i
}

// rsplitSpace is splitSpace from the right.
func rsplitSpace(s string, maxsplit, limit int) []string {
	var parts []string
	j := len(s)
	for len(parts) != limit {
		for j > 0 {
			sp, n := spaceBefore(s, j)
			if !sp {
				break
			}
			j -= n
		}
		if j == 0 {
			break
		}
		if maxsplit == 0 {
			parts = append(parts, s[:j])
			break
		}
		i := j
		for i > 0 {
			sp, n := spaceBefore(s, i)
			if sp {
				break
			}
			i -= n
		}
		parts = append(parts, s[i:j])
		maxsplit--
		j = i
	}
	reverse(parts)
	return parts
}

// rsplitSep splits at sep from the right, at most maxsplit times.
func rsplitSep(s, sep string, maxsplit, limit int) []string {
	var parts []string
	for maxsplit > 0 && len(parts) != limit {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		parts = append(parts, s[i+len(sep):])
		s = s[:i]
		maxsplit--
	}
	parts = append(parts, s)
	reverse(parts)
	return parts
}

func reverse(parts []string) {
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
}

// splitlinesMethod is splitlines(keepends=False), at every line boundary
// CPython knows: \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, \u2028, \u2029.
func splitlinesMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p, err := keywordArgs("splitlines", args, kwargs, "keepends")
	if err != nil {
		return nil, err
	}
	keepends := int64(0)
	if p[0] != nil {
		if keepends, err = asCInt(p[0]); err != nil {
			return nil, err
		}
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	s := t.s
	var parts []string
	limit := maxParts(b)
	for i := 0; i < len(s) && len(parts) != limit; {
		j, n := i, 0
		for j < len(s) {
			var r rune
			r, n = rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[j:])
			}
			if isLineBreak(r) {
				break
			}
			j += n
		}
		eol := j
		if j < len(s) {
			if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
				n = 2
			}
			j += n
			if keepends != 0 {
				eol = j
			}
		}
		parts = append(parts, s[i:eol])
		i = j
	}
	return t.list(b, parts)
}

// expandtabsMethod is expandtabs(tabsize=8): each tab becomes the spaces
// to the next column that is a multiple of tabsize, columns counted in
// characters from the last \n or \r.
func expandtabsMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	p, err := keywordArgs("expandtabs", args, kwargs, "tabsize")
	if err != nil {
		return nil, err
	}
	tabsize := int64(8)
	if p[0] != nil {
		if tabsize, err = asCInt(p[0]); err != nil {
			return nil, err
		}
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	if !strings.Contains(t.s, "\t") {
		return t.v, nil
	}
	// The size first, so that a huge tab size is refused before the
	// spaces are made.
	size, col := int64(0), int64(0)
	for _, r := range t.s {
		switch {
		case r == '\t':
			if tabsize > 0 {
				k := tabsize - col%tabsize
				size += k
				col += k
			}
		case r == '\n' || r == '\r':
			size++
			col = 0
		default:
			size += int64(utf8.RuneLen(r))
			col++
		}
		if size > maxText {
			break
		}
	}
	if err := allocText(b, size); err != nil {
		return nil, err
	}
	var w strings.Builder
	w.Grow(int(size))
	col = 0
	for _, r := range t.s {
		switch {
		case r == '\t':
			if tabsize > 0 {
				k := tabsize - col%tabsize
				for range k {
					w.WriteByte(' ')
				}
				col += k
			}
		case r == '\n' || r == '\r':
			w.WriteRune(r)
			col = 0
		default:
			w.WriteRune(r)
			col++
		}
	}
	return t.cutOrMake(w.String()), nil
}

// translateMethod is translate(table): each character c is replaced by
// table[ord(c)] — a str, an int (a code point) or None (removed) — and
// kept when the table has no entry for it (a dict from str.maketrans, a
// list, any value that can be indexed).
func translateMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	table, err := oneArg("translate", args, kwargs)
	if err != nil {
		return nil, err
	}
	if err := charge(b, len(t.s)); err != nil {
		return nil, err
	}
	var w strings.Builder
	w.Grow(len(t.s))
	var ascii [utf8.RuneSelf]*string // the replacements of ASCII characters, once looked up
	steps := 0
	for _, r := range t.s {
		if steps++; steps&(1<<20-1) == 0 {
			if err := b.Charge(1 << 12); err != nil {
				return nil, err
			}
		}
		var repl string
		if r < utf8.RuneSelf && ascii[r] != nil {
			repl = *ascii[r]
		} else {
			if err := b.Charge(1); err != nil {
				return nil, err
			}
			v, err := translateEntry(table, r)
			if err != nil {
				return nil, err
			}
			if repl, err = translation(v, r); err != nil {
				return nil, err
			}
			if r < utf8.RuneSelf {
				ascii[r] = &repl
			}
		}
		if n := w.Len() + len(repl); n > w.Cap() {
			// Doubling, each size checked before it is taken.
			if err := allocText(b, int64(n)); err != nil {
				return nil, err
			}
			w.Grow(max(n, 2*w.Cap()) - w.Len())
		}
		w.WriteString(repl)
	}
	if w.Len() == len(t.s) && w.String() == t.s {
		return t.v, nil
	}
	return interp.MakeString(w.String()), nil
}

// translateEntry is table[r], or nil when the table has no such entry.
func translateEntry(table starlark.Value, r rune) (starlark.Value, error) {
	switch x := table.(type) {
	case starlark.Mapping:
		v, found, err := x.Get(starlark.MakeInt(int(r)))
		if err != nil || !found {
			return nil, err
		}
		return v, nil
	case starlark.Indexable:
		if int(r) < x.Len() {
			return x.Index(int(r)), nil
		}
		return nil, nil
	case starlark.String:
		if int(r) < len(x) {
			return x[r : r+1], nil
		}
		return nil, nil
	}
	return nil, typeError("'%s' object is not subscriptable", pyTypeName(table))
}

// translation is the text a table's entry v gives for the character r.
func translation(v starlark.Value, r rune) (string, error) {
	switch x := v.(type) {
	case nil:
		return string(r), nil
	case starlark.NoneType:
		return "", nil
	case starlark.Int, starlark.Bool:
		n, err := asIndex(x)
		if err != nil || n < 0 || n > unicode.MaxRune {
			return "", valueError("character mapping must be in range(0x110000)")
		}
		return string(rune(n)), nil
	}
	if s, ok := interp.AsText(v); ok {
		return s, nil
	}
	return "", typeError("character mapping must return integer, None or str")
}

// maketransBuiltin is str.maketrans(x[, y[, z]]): the table of
// str.translate, a dict from code points to what replaces them. Given one
// argument, a dict whose keys are characters or code points; given two,
// two texts of equal length mapped character to character; the third
// holds the characters to remove.
func maketransBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return maketrans(interp.BudgetOf(thread), args, kwargs)
}

func maketrans(b *interp.Budget, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := expectArgs("maketrans", args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	var texts [3]string
	for i := 1; i < len(args); i++ {
		s, ok := interp.AsText(args[i])
		if !ok {
			return nil, typeError("maketrans() argument %d must be str, not %s", i+1, argName(args[i]))
		}
		texts[i] = s
	}
	if len(args) == 1 {
		d, ok := args[0].(*starlark.Dict)
		if !ok {
			return nil, typeError("if you give only one argument to maketrans it must be a dict")
		}
		if err := b.Charge(uint64(d.Len())); err != nil {
			return nil, err
		}
		out := starlark.NewDict(d.Len())
		for _, kv := range d.Items() {
			var key int
			switch k := kv[0].(type) {
			case starlark.Int:
				n, ok := k.Int64()
				if !ok || n < math.MinInt || n > math.MaxInt {
					return nil, exception("OverflowError", "Python int too large to convert to C ssize_t")
				}
				key = int(n)
			case starlark.Bool:
				if k {
					key = 1
				}
			default:
				s, ok := interp.AsText(k)
				if !ok {
					return nil, typeError("keys in translate table must be strings or integers")
				}
				r, n := utf8.DecodeRuneInString(s)
				if s == "" || n != len(s) {
					return nil, valueError("string keys in translate table must be of length 1")
				}
				key = int(r)
			}
			if err := out.SetKey(starlark.MakeInt(key), kv[1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	x, ok := interp.AsText(args[0])
	if !ok {
		return nil, typeError("first maketrans argument must be a string if there is a second argument")
	}
	from, to := []rune(x), []rune(texts[1])
	if len(from) != len(to) {
		return nil, valueError("the first two maketrans arguments must have equal length")
	}
	del := []rune(texts[2])
	if err := b.Charge(uint64(len(from) + len(del))); err != nil {
		return nil, err
	}
	out := starlark.NewDict(len(from) + len(del))
	for i, r := range from {
		if err := out.SetKey(starlark.MakeInt(int(r)), starlark.MakeInt(int(to[i]))); err != nil {
			return nil, err
		}
	}
	for _, r := range del {
		if err := out.SetKey(starlark.MakeInt(int(r)), starlark.None); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// formatMapMethod is format_map(mapping): str.format with the fields
// named by keys of mapping.
func formatMapMethod(b *interp.Budget, t str, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	mapping, err := oneArg("format_map", args, kwargs)
	if err != nil {
		return nil, err
	}
	// The fields' names are looked up in the mapping, and only those
	// become keyword arguments: the formatter looks each field up among
	// them, which is cheap for the few a format string names.
	var kw []starlark.Tuple
	d, isMapping := mapping.(starlark.Mapping)
	if isMapping {
		names := fieldNames(t.s)
		if err := b.Charge(uint64(len(names))); err != nil {
			return nil, err
		}
		for _, name := range names {
			v, found, err := d.Get(interp.MakeString(name))
			if err == nil && !found && !interp.IsASCII(name) {
				// A key that did not enter through interp.MakeString.
				v, found, err = d.Get(starlark.String(name))
			}
			if err != nil {
				return nil, err
			}
			if found {
				kw = append(kw, starlark.Tuple{starlark.String(name), v})
			}
		}
		if err := b.Charge(uint64(strings.Count(t.s, "{")) * uint64(len(kw)) / 64); err != nil {
			return nil, err
		}
	}
	out, err := strFormat(b, t.s, nil, kw)
	if ex, ok := err.(*Exception); ok {
		switch {
		case ex.Class == "IndexError" && strings.HasPrefix(ex.Msg, "Replacement index"):
			return nil, valueError("Format string contains positional fields")
		case ex.Class == "KeyError" && !isMapping:
			if _, ok := mapping.(starlark.Indexable); ok {
				return nil, typeError("%s indices must be integers or slices, not str", pyTypeName(mapping))
			}
			return nil, typeError("'%s' object is not subscriptable", pyTypeName(mapping))
		}
	}
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

// fieldNames are the names that begin the fields of a format string
// ("{name.attr[0]:spec}"), nested ones included; a name may be listed
// that is not a field (in "{{name}}"), which does no harm.
func fieldNames(format string) []string {
	seen := map[string]bool{}
	var names []string
	for i := strings.IndexByte(format, '{'); i >= 0; {
		rest := format[i+1:]
		end := strings.IndexAny(rest, ".[!:{}")
		if end < 0 {
			end = len(rest)
		}
		if name := rest[:end]; name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		j := strings.IndexByte(rest, '{')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return names
}

// elemsMethod is one of Starlark's methods elems, codepoints, elem_ords
// and codepoint_ords: an ASCII text's own; for other text, the elements
// are its characters.
func elemsMethod(name string) methodImpl {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if s, ok := recv.(starlark.String); ok && !interp.IsASCII(string(s)) {
			recv = interp.MakeString(string(s))
		}
		u, ok := recv.(*interp.Unicode)
		if !ok {
			return callOwn(thread, recv, name, args, kwargs)
		}
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
			return nil, err
		}
		if err := allocText(interp.BudgetOf(thread), int64(u.Len())*partSize); err != nil {
			return nil, err
		}
		ords := strings.HasSuffix(name, "_ords")
		out := make(starlark.Tuple, 0, u.Len())
		s := u.Text()
		for i, r := range s {
			if ords {
				out = append(out, starlark.MakeInt(int(r)))
			} else {
				out = append(out, interp.MakeString(s[i:i+utf8.RuneLen(r)]))
			}
		}
		return out, nil
	}
}

// replaceArgs reads the arguments of str.replace(old, new, count=-1, /):
// old and new text of either kind.
func replaceArgs(args starlark.Tuple, kwargs []starlark.Tuple) (old, new string, count int, err error) {
	if err := expectArgs("replace", args, kwargs, 2, 3); err != nil {
		return "", "", 0, err
	}
	var texts [2]string
	for i := range texts {
		var ok bool
		if texts[i], ok = interp.AsText(args[i]); !ok {
			return "", "", 0, typeError("replace() argument %d must be str, not %s", i+1, argName(args[i]))
		}
	}
	count = -1
	if len(args) == 3 {
		n, err := asIndex(args[2])
		if err != nil {
			return "", "", 0, err
		}
		count = int(max(min(n, math.MaxInt), math.MinInt))
	}
	return texts[0], texts[1], count, nil
}
