package pyrt

import (
	"errors"
	"math/big"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The methods of bytes (interp.Bytes) with CPython's arguments, results
// and error texts: bytes count bytes, their case and character classes
// are ASCII's, and every argument that is data must be bytes too (an int
// where CPython takes one). Each method charges its scan to the run's
// budget and refuses a result larger than the memory budget before it is
// made.

// byteSpace is what bytes.split() and bytes.strip() take for
// whitespace.
const byteSpace = " \t\n\r\x0b\x0c"

// addBytesMethods registers the bytes methods.
func addBytesMethods(ms methodSet) {
	for name, fn := range map[string]bytesFunc{
		"hex":          bytesHex,
		"startswith":   bytesAffix("startswith", strings.HasPrefix),
		"endswith":     bytesAffix("endswith", strings.HasSuffix),
		"find":         bytesFind("find", false, false),
		"rfind":        bytesFind("rfind", true, false),
		"index":        bytesFind("index", false, true),
		"rindex":       bytesFind("rindex", true, true),
		"count":        bytesCount,
		"replace":      bytesReplace,
		"split":        bytesSplit(false),
		"rsplit":       bytesSplit(true),
		"strip":        bytesStrip("strip"),
		"lstrip":       bytesStrip("lstrip"),
		"rstrip":       bytesStrip("rstrip"),
		"lower":        bytesMap("lower", asciiLower),
		"upper":        bytesMap("upper", asciiUpper),
		"swapcase":     bytesMap("swapcase", func(c byte) byte { return asciiLower(c) ^ asciiUpper(c) ^ c }),
		"join":         bytesJoin,
		"title":        bytesCasing("title", true),
		"capitalize":   bytesCasing("capitalize", false),
		"isdigit":      bytesClass("isdigit", isDigitByte),
		"isalpha":      bytesClass("isalpha", isAlphaByte),
		"isalnum":      bytesClass("isalnum", func(c byte) bool { return isAlphaByte(c) || isDigitByte(c) }),
		"isspace":      bytesClass("isspace", func(c byte) bool { return strings.IndexByte(byteSpace, c) >= 0 }),
		"islower":      bytesCased("islower", true),
		"isupper":      bytesCased("isupper", false),
		"removeprefix": bytesRemove("removeprefix", strings.TrimPrefix),
		"removesuffix": bytesRemove("removesuffix", strings.TrimSuffix),
		"partition":    bytesPartition("partition", false),
		"rpartition":   bytesPartition("rpartition", true),
		"splitlines":   bytesSplitlines,
		"ljust":        bytesPad("ljust"),
		"rjust":        bytesPad("rjust"),
		"center":       bytesPad("center"),
		"zfill":        bytesZfill,
		"elems":        bytesElems,
	} {
		fn := fn
		ms.add(kindBytes, name, func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			s, _ := interp.AsBytes(recv)
			return fn(interp.BudgetOf(thread), s, args, kwargs)
		})
	}
	ms.add(kindBytes, "isascii", func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("bytes.isascii", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		s, _ := interp.AsBytes(recv)
		return starlark.Bool(interp.IsASCII(s)), nil
	})
	ms.add(kindInt, "to_bytes", toBytesMethod)
	ms.add(kindInt, "bit_length", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("int.bit_length", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		n, _ := asIntValue(recv)
		return starlark.MakeInt(n.BitLen()), nil
	})
}

type bytesFunc func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }
func isAlphaByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// bytesLike is an argument that must be bytes, with CPython's "a
// bytes-like object is required, not 'str'".
func bytesLike(v starlark.Value) (string, error) {
	if s, ok := interp.AsBytes(v); ok {
		return s, nil
	}
	return "", typeError("a bytes-like object is required, not '%s'", pyTypeName(v))
}

// needleArg is what find, index and count look for: bytes, or an int
// that is one byte.
func needleArg(v starlark.Value) (string, error) {
	if s, ok := interp.AsBytes(v); ok {
		return s, nil
	}
	switch v.(type) {
	case starlark.Int, starlark.Bool:
		n, err := asIndex(v)
		if err != nil || n < 0 || n > 255 {
			return "", valueError("byte must be in range(0, 256)")
		}
		return string([]byte{byte(n)}), nil
	}
	return "", typeError("argument should be integer or bytes-like object, not '%s'", pyTypeName(v))
}

// bytesHex is bytes.hex(sep=None, bytes_per_sep=1).
func bytesHex(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sepV, perV starlark.Value
	if err := unpackArgs("hex", args, kwargs, []string{"sep", "bytes_per_sep"}, 0, &sepV, &perV); err != nil {
		return nil, err
	}
	sep := ""
	if sepV != nil && sepV != starlark.None {
		text, ok := interp.AsText(sepV)
		if !ok {
			if text, ok = interp.AsBytes(sepV); !ok {
				return nil, typeError("sep must be str or bytes.")
			}
		}
		if len([]rune(text)) != 1 {
			return nil, valueError("sep must be length 1.")
		}
		if !interp.IsASCII(text) {
			return nil, valueError("sep must be ASCII.")
		}
		sep = text
	}
	per := int64(1)
	if perV != nil {
		n, err := asCInt(perV)
		if err != nil {
			return nil, err
		}
		per = n
	}
	group := per
	if group < 0 {
		group = -group
	}
	if sep == "" || group == 0 || len(s) == 0 {
		sep = ""
	}
	size := int64(len(s)) * 2
	if sep != "" {
		size += (int64(len(s)) - 1) / group
	}
	if err := allocText(b, size); err != nil {
		return nil, err
	}
	if err := charge(b, int(size)); err != nil {
		return nil, err
	}
	const digits = "0123456789abcdef"
	var w strings.Builder
	w.Grow(int(size))
	n := int64(len(s))
	for i := int64(0); i < n; i++ {
		if err := tick(b, int(i)); err != nil {
			return nil, err
		}
		if sep != "" && i > 0 {
			// Groups count from the right for a positive bytes_per_sep,
			// from the left for a negative one.
			if per > 0 && (n-i)%group == 0 || per < 0 && i%group == 0 {
				w.WriteString(sep)
			}
		}
		w.WriteByte(digits[s[i]>>4])
		w.WriteByte(digits[s[i]&15])
	}
	return starlark.String(w.String()), nil
}

// fromhexBuiltin is bytes.fromhex(string): pairs of hex digits, ASCII
// whitespace allowed between them.
func fromhexBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("fromhex", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(args[0])
	if !ok {
		return nil, typeError("fromhex() argument must be str, not %s", pyTypeName(args[0]))
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(s)) / 2); err != nil {
		return nil, err
	}
	if err := charge(b, len(s)); err != nil {
		return nil, err
	}
	hexVal := func(c byte) int {
		switch {
		case '0' <= c && c <= '9':
			return int(c - '0')
		case 'a' <= c && c <= 'f':
			return int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			return int(c-'A') + 10
		}
		return -1
	}
	// Positions in CPython's message count characters, not bytes.
	pos := func(i int) int { return len([]rune(s[:i])) }
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); {
		if strings.IndexByte(byteSpace, s[i]) >= 0 {
			i++
			continue
		}
		hi := hexVal(s[i])
		if hi < 0 {
			return nil, valueError("non-hexadecimal number found in fromhex() arg at position %d", pos(i))
		}
		if i+1 >= len(s) || hexVal(s[i+1]) < 0 {
			return nil, valueError("non-hexadecimal number found in fromhex() arg at position %d", pos(i+1))
		}
		out = append(out, byte(hi<<4|hexVal(s[i+1])))
		i += 2
	}
	return interp.Bytes(out), nil
}

// bytesAffix is startswith and endswith: a prefix or a tuple of them,
// within optional start and end.
func bytesAffix(name string, has func(s, affix string) bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 3); err != nil {
			return nil, err
		}
		start, end, err := bounds(args[1:], len(s))
		if err != nil {
			return nil, err
		}
		var affixes []string
		bad := func(v starlark.Value) error {
			return typeError("%s first arg must be bytes or a tuple of bytes, not %s", name, pyTypeName(v))
		}
		if t, ok := args[0].(starlark.Tuple); ok {
			for _, e := range t {
				a, ok := interp.AsBytes(e)
				if !ok {
					return nil, typeError("a bytes-like object is required, not '%s'", pyTypeName(e))
				}
				affixes = append(affixes, a)
			}
		} else {
			a, ok := interp.AsBytes(args[0])
			if !ok {
				return nil, bad(args[0])
			}
			affixes = []string{a}
		}
		if start > len(s) || start > end {
			return starlark.False, nil
		}
		sub := s[start:end]
		for _, a := range affixes {
			if err := charge(b, len(a)); err != nil {
				return nil, err
			}
			if has(sub, a) {
				return starlark.True, nil
			}
		}
		return starlark.False, nil
	}
}

// searchArgs reads the (sub, start, end) of find, index and count, and
// charges the search of s: the needle and the window to look in, start
// <= end <= len(s) when in is true.
func searchArgs(name string, b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (needle string, start, end int, in bool, err error) {
	if err := arity(name, args, kwargs, 1, 3); err != nil {
		return "", 0, 0, false, err
	}
	if needle, err = needleArg(args[0]); err != nil {
		return "", 0, 0, false, err
	}
	if start, end, err = bounds(args[1:], len(s)); err != nil {
		return "", 0, 0, false, err
	}
	if err := charge(b, len(s)); err != nil {
		return "", 0, 0, false, err
	}
	return needle, start, end, start <= len(s) && start <= end, nil
}

// bytesFind is find, rfind, index and rindex.
func bytesFind(name string, last, raise bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		needle, start, end, in, err := searchArgs(name, b, s, args, kwargs)
		if err != nil {
			return nil, err
		}
		i := -1
		if in {
			if last {
				i = strings.LastIndex(s[start:end], needle)
			} else {
				i = strings.Index(s[start:end], needle)
			}
			if i >= 0 {
				i += start
			}
		}
		if i < 0 && raise {
			return nil, valueError("subsection not found")
		}
		return starlark.MakeInt(i), nil
	}
}

// bytesCount is bytes.count(sub, start, end).
func bytesCount(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	needle, start, end, in, err := searchArgs("count", b, s, args, kwargs)
	if err != nil {
		return nil, err
	}
	if !in {
		return starlark.MakeInt(0), nil
	}
	return starlark.MakeInt(strings.Count(s[start:end], needle)), nil
}

// bytesReplace is bytes.replace(old, new, count=-1).
func bytesReplace(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("replace", args, kwargs, 2, 3); err != nil {
		return nil, err
	}
	old, err := bytesLike(args[0])
	if err != nil {
		return nil, err
	}
	repl, err := bytesLike(args[1])
	if err != nil {
		return nil, err
	}
	count := int64(-1)
	if len(args) > 2 {
		if count, err = asIndex(args[2]); err != nil {
			return nil, err
		}
	}
	if err := charge(b, len(s)); err != nil {
		return nil, err
	}
	n := int64(len(s) + 1)
	if old != "" {
		n = int64(strings.Count(s, old))
	}
	if count >= 0 && count < n {
		n = count
	}
	if err := allocText(b, int64(len(s))+n*int64(len(repl)-len(old))); err != nil {
		return nil, err
	}
	if old == "" {
		return interp.Bytes(strings.Replace(s, old, repl, int(n))), nil
	}
	out, err := replaceCharged(b, s, old, repl, int(n))
	if err != nil {
		return nil, err
	}
	return interp.Bytes(out), nil
}

// bytesSplit is split and rsplit(sep=None, maxsplit=-1).
func bytesSplit(right bool) bytesFunc {
	name := "split"
	if right {
		name = "rsplit"
	}
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var sepV, maxV starlark.Value
		if err := unpackArgs(name, args, kwargs, []string{"sep", "maxsplit"}, 0, &sepV, &maxV); err != nil {
			return nil, err
		}
		max := int64(-1)
		if maxV != nil {
			var err error
			if max, err = asIndex(maxV); err != nil {
				return nil, err
			}
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		var parts []string
		if sepV == nil || sepV == starlark.None {
			var err error
			if parts, err = splitByteSpace(b, s, max, right); err != nil {
				return nil, err
			}
		} else {
			sep, err := bytesLike(sepV)
			if err != nil {
				return nil, err
			}
			if sep == "" {
				return nil, valueError("empty separator")
			}
			n := int(max)
			if max < 0 || max > int64(len(s)) {
				n = -1
			} else {
				n++
			}
			if right {
				parts = rsplitN(s, sep, n)
			} else {
				parts = strings.SplitN(s, sep, n)
			}
		}
		if err := b.Alloc(int64(len(parts)) * slot); err != nil {
			return nil, err
		}
		return bytesList(parts), nil
	}
}

// rsplitN splits s by sep from the right into at most n parts (n < 0:
// all).
func rsplitN(s, sep string, n int) []string {
	var parts []string
	for n < 0 || len(parts) < n-1 {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		parts = append(parts, s[i+len(sep):])
		s = s[:i]
	}
	parts = append(parts, s)
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return parts
}

// splitByteSpace splits s at runs of ASCII whitespace, at most max times
// (max < 0: no limit), from the right when right is set.
func splitByteSpace(b *interp.Budget, s string, max int64, right bool) ([]string, error) {
	isSp := func(c byte) bool { return strings.IndexByte(byteSpace, c) >= 0 }
	var parts []string
	// Millions of parts take a while: the budget is checked as they come.
	part := func(p string) error {
		parts = append(parts, p)
		if len(parts)&4095 == 0 {
			return b.Charge(4096)
		}
		return nil
	}
	if !right {
		i := 0
		for {
			for i < len(s) && isSp(s[i]) {
				i++
			}
			if i == len(s) {
				return parts, nil
			}
			if max >= 0 && int64(len(parts)) == max {
				return append(parts, s[i:]), nil // its trailing whitespace kept, as in CPython
			}
			j := i
			for j < len(s) && !isSp(s[j]) {
				j++
			}
			if err := part(s[i:j]); err != nil {
				return nil, err
			}
			i = j
		}
	}
	j := len(s)
	for {
		for j > 0 && isSp(s[j-1]) {
			j--
		}
		if j == 0 {
			break
		}
		if max >= 0 && int64(len(parts)) == max {
			parts = append(parts, s[:j]) // its leading whitespace kept
			break
		}
		i := j
		for i > 0 && !isSp(s[i-1]) {
			i--
		}
		if err := part(s[i:j]); err != nil {
			return nil, err
		}
		j = i
	}
	for a, z := 0, len(parts)-1; a < z; a, z = a+1, z-1 {
		parts[a], parts[z] = parts[z], parts[a]
	}
	return parts, nil
}

func bytesList(parts []string) *starlark.List {
	elems := make([]starlark.Value, len(parts))
	for i, p := range parts {
		elems[i] = interp.Bytes(p)
	}
	return starlark.NewList(elems)
}

// bytesStrip is strip, lstrip and rstrip(bytes=None).
func bytesStrip(name string) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		cut := byteSpace
		if len(args) > 0 && args[0] != starlark.None {
			var err error
			if cut, err = bytesLike(args[0]); err != nil {
				return nil, err
			}
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		// Byte by byte: strings.Trim would read cut as UTF-8.
		isCut := func(c byte) bool { return strings.IndexByte(cut, c) >= 0 }
		i, j := 0, len(s)
		if name != "rstrip" {
			for i < j && isCut(s[i]) {
				i++
			}
		}
		if name != "lstrip" {
			for j > i && isCut(s[j-1]) {
				j--
			}
		}
		return interp.Bytes(s[i:j]), nil
	}
}

// bytesMap is lower, upper and swapcase: ASCII letters only.
func bytesMap(name string, f func(byte) byte) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("bytes."+name, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		if err := allocText(b, int64(len(s))); err != nil {
			return nil, err
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		out := make([]byte, len(s))
		for i := 0; i < len(s); i++ {
			out[i] = f(s[i])
		}
		return interp.Bytes(out), nil
	}
}

// bytesCasing is title (each run of letters capitalized) and capitalize
// (the first byte upper, the rest lower), for ASCII letters.
func bytesCasing(name string, title bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("bytes."+name, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		if err := allocText(b, int64(len(s))); err != nil {
			return nil, err
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		out := make([]byte, len(s))
		prevLetter := false
		for i := 0; i < len(s); i++ {
			if err := tick(b, i); err != nil {
				return nil, err
			}
			upper := i == 0
			if title {
				upper = !prevLetter
			}
			if upper {
				out[i] = asciiUpper(s[i])
			} else {
				out[i] = asciiLower(s[i])
			}
			prevLetter = isAlphaByte(s[i])
		}
		return interp.Bytes(out), nil
	}
}

// bytesClass is isdigit, isalpha, isalnum and isspace: every byte of a
// class, and at least one.
func bytesClass(name string, in func(byte) bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("bytes."+name, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		for i := 0; i < len(s); i++ {
			if !in(s[i]) {
				return starlark.False, nil
			}
		}
		return starlark.Bool(len(s) > 0), nil
	}
}

// bytesCased is islower and isupper: at least one cased byte, and none
// of the other case.
func bytesCased(name string, lower bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("bytes."+name, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		cased := false
		for i := 0; i < len(s); i++ {
			c := s[i]
			isLow, isUp := 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z'
			if lower && isUp || !lower && isLow {
				return starlark.False, nil
			}
			cased = cased || isLow || isUp
		}
		return starlark.Bool(cased), nil
	}
}

// bytesJoin is bytes.join(iterable of bytes).
func bytesJoin(b *interp.Budget, sep string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("join", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	elems, err := collect(b, "join", args[0], slot)
	if err != nil {
		return nil, err
	}
	total := int64(len(sep)) * int64(max(len(elems)-1, 0))
	parts := make([]string, len(elems))
	for i, e := range elems {
		s, ok := interp.AsBytes(e)
		if !ok {
			return nil, typeError("sequence item %d: expected a bytes-like object, %s found", i, pyTypeName(e))
		}
		parts[i] = s
		total += int64(len(s))
	}
	if err := allocText(b, total); err != nil {
		return nil, err
	}
	return interp.Bytes(strings.Join(parts, sep)), nil
}

// bytesRemove is removeprefix and removesuffix.
func bytesRemove(name string, cut func(s, affix string) string) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		affix, err := bytesLike(args[0])
		if err != nil {
			return nil, err
		}
		return interp.Bytes(cut(s, affix)), nil
	}
}

// bytesPartition is partition and rpartition.
func bytesPartition(name string, last bool) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		sep, err := bytesLike(args[0])
		if err != nil {
			return nil, err
		}
		if sep == "" {
			return nil, valueError("empty separator")
		}
		if err := charge(b, len(s)); err != nil {
			return nil, err
		}
		var i int
		if last {
			i = strings.LastIndex(s, sep)
		} else {
			i = strings.Index(s, sep)
		}
		if i < 0 {
			if last {
				return starlark.Tuple{interp.Bytes(""), interp.Bytes(""), interp.Bytes(s)}, nil
			}
			return starlark.Tuple{interp.Bytes(s), interp.Bytes(""), interp.Bytes("")}, nil
		}
		return starlark.Tuple{interp.Bytes(s[:i]), interp.Bytes(sep), interp.Bytes(s[i+len(sep):])}, nil
	}
}

// bytesSplitlines is bytes.splitlines(keepends=False): at \n, \r and
// \r\n only.
func bytesSplitlines(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var keepV starlark.Value
	if err := unpackArgs("splitlines", args, kwargs, []string{"keepends"}, 0, &keepV); err != nil {
		return nil, err
	}
	keep := keepV != nil && bool(keepV.Truth())
	if err := charge(b, len(s)); err != nil {
		return nil, err
	}
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		eol := j
		if j < len(s) {
			if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
				j += 2
			} else {
				j++
			}
		}
		if keep {
			eol = j
		}
		parts = append(parts, s[i:eol])
		i = j
	}
	if err := b.Alloc(int64(len(parts)) * slot); err != nil {
		return nil, err
	}
	return bytesList(parts), nil
}

// bytesPad is ljust, rjust and center(width, fillbyte=b' ').
func bytesPad(name string) bytesFunc {
	return func(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity(name, args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		width, err := asIndex(args[0])
		if err != nil {
			return nil, err
		}
		fill := byte(' ')
		if len(args) > 1 {
			f, ok := interp.AsBytes(args[1])
			if !ok || len(f) != 1 {
				what := pyTypeName(args[1])
				if ok {
					what = "a bytes object of length " + big.NewInt(int64(len(f))).String()
				}
				return nil, typeError("%s() argument 2 must be a byte string of length 1, not %s", name, what)
			}
			fill = f[0]
		}
		pad := width - int64(len(s))
		if pad <= 0 {
			return interp.Bytes(s), nil
		}
		if err := allocText(b, width); err != nil {
			return nil, err
		}
		left := int64(0)
		switch name {
		case "rjust":
			left = pad
		case "center":
			// CPython's rule: the odd byte goes left when the width is odd.
			left = pad/2 + (pad & width & 1)
		}
		f := string([]byte{fill})
		return interp.Bytes(strings.Repeat(f, int(left)) + s + strings.Repeat(f, int(pad-left))), nil
	}
}

// bytesZfill is bytes.zfill(width).
func bytesZfill(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("zfill", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	width, err := asIndex(args[0])
	if err != nil {
		return nil, err
	}
	pad := width - int64(len(s))
	if pad <= 0 {
		return interp.Bytes(s), nil
	}
	if err := allocText(b, width); err != nil {
		return nil, err
	}
	sign := ""
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	return interp.Bytes(sign + strings.Repeat("0", int(pad)) + s), nil
}

// bytesElems is Starlark's bytes.elems(): the bytes' values, for plain
// Starlark programs.
func bytesElems(b *interp.Budget, s string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("elems", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return interp.Bytes(s), nil
}

// byteorderArg reads byteorder, "big" (the default) or "little".
func byteorderArg(v starlark.Value) (little bool, err error) {
	if v == nil {
		return false, nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return false, typeError("to_bytes() argument 'byteorder' must be str, not %s", pyTypeName(v))
	}
	switch s {
	case "big":
		return false, nil
	case "little":
		return true, nil
	}
	return false, valueError("byteorder must be either 'little' or 'big'")
}

// toBytesMethod is int.to_bytes(length=1, byteorder='big', *,
// signed=False).
func toBytesMethod(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lenV, orderV, signedV starlark.Value
	if len(args) > 2 {
		return nil, typeError("to_bytes() takes at most 2 positional arguments (%d given)", len(args))
	}
	if err := unpackArgs("to_bytes", args, kwargs, []string{"length", "byteorder", "signed"}, 0, &lenV, &orderV, &signedV); err != nil {
		return nil, err
	}
	length := int64(1)
	if lenV != nil {
		var err error
		if length, err = asIndex(lenV); err != nil {
			return nil, err
		}
		if length < 0 {
			return nil, valueError("length argument must be non-negative")
		}
	}
	little, err := byteorderArg(orderV)
	if err != nil {
		return nil, err
	}
	signed := signedV != nil && bool(signedV.Truth())
	n, _ := asIntValue(recv)
	if n.Sign() < 0 && !signed {
		return nil, exception("OverflowError", "can't convert negative int to unsigned")
	}
	// The value must fit before the bytes are made: a length of 10**12
	// for a small number is refused by the memory budget, not allocated.
	bits := n.BitLen()
	if signed {
		// Two's complement needs a sign bit; -2**(8k-1) fits in k bytes.
		m := new(big.Int).Set(n)
		if n.Sign() < 0 {
			m.Add(m, big.NewInt(1)).Neg(m)
		}
		bits = m.BitLen() + 1
	}
	if int64(bits) > length*8 {
		return nil, exception("OverflowError", "int too big to convert")
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(length); err != nil {
		return nil, err
	}
	v := n
	if n.Sign() < 0 {
		v = new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), uint(length*8)), n)
	}
	out := make([]byte, length)
	v.FillBytes(out)
	if little {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return interp.Bytes(out), nil
}

// fromBytesBuiltin is int.from_bytes(bytes, byteorder='big', *,
// signed=False): bytes, or an iterable of ints 0-255.
func fromBytesBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var dataV, orderV, signedV starlark.Value
	if len(args) > 2 {
		return nil, typeError("from_bytes() takes at most 2 positional arguments (%d given)", len(args))
	}
	if err := unpackArgs("from_bytes", args, kwargs, []string{"bytes", "byteorder", "signed"}, 1, &dataV, &orderV, &signedV); err != nil {
		return nil, err
	}
	little, err := byteorderArg(orderV)
	if err != nil {
		return nil, err
	}
	data, ok := interp.AsBytes(dataV)
	if !ok {
		if _, isText := interp.AsText(dataV); isText {
			return nil, typeError("cannot convert 'str' object to bytes")
		}
		v, err := bytesBuiltin(thread, nil, starlark.Tuple{dataV}, nil)
		if err != nil {
			return nil, err
		}
		data, _ = interp.AsBytes(v)
	}
	b := interp.BudgetOf(thread)
	if max := b.IntBits(); max > 0 && len(data)*8 > max+8 {
		return nil, b.IntLimit()
	}
	buf := []byte(data)
	if little {
		for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
			buf[i], buf[j] = buf[j], buf[i]
		}
	}
	n := new(big.Int).SetBytes(buf)
	if signedV != nil && bool(signedV.Truth()) && len(buf) > 0 && buf[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(buf)*8)))
	}
	if err := b.CheckBits(n); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(n), nil
}

// bytesPrintf is `b"…" % args`: printf-style formatting where %s takes
// bytes (inserted as they are) and refuses str, as CPython's does.
func bytesPrintf(b *interp.Budget, format string, args starlark.Value) (starlark.Value, error) {
	wrap := func(v starlark.Value) starlark.Value {
		if _, ok := interp.AsBytes(v); ok {
			return printfBytesArg{v}
		}
		if _, ok := interp.AsText(v); ok {
			return printfBytesArg{v}
		}
		return v
	}
	switch a := args.(type) {
	case starlark.Tuple:
		t := make(starlark.Tuple, len(a))
		for i, v := range a {
			t[i] = wrap(v)
		}
		args = t
	default:
		args = wrap(args)
	}
	s, err := printf(b, format, args)
	if err != nil {
		var ex *Exception
		if errors.As(err, &ex) && strings.HasSuffix(ex.Msg, "during string formatting") {
			return nil, typeError("%s", strings.TrimSuffix(ex.Msg, "string formatting")+"bytes formatting")
		}
		return nil, err
	}
	return interp.Bytes(s), nil
}

// printfBytesArg is an argument of bytes formatting: its str() is the
// bytes themselves, and a str has none.
type printfBytesArg struct{ v starlark.Value }

var _ interp.TextValue = printfBytesArg{}

func (a printfBytesArg) String() string        { return a.v.String() }
func (a printfBytesArg) Type() string          { return a.v.Type() }
func (a printfBytesArg) Freeze()               {}
func (a printfBytesArg) Truth() starlark.Bool  { return a.v.Truth() }
func (a printfBytesArg) Hash() (uint32, error) { return a.v.Hash() }

func (a printfBytesArg) WriteText(w *interp.TextWriter, str bool, depth int) error {
	s, isBytes := interp.AsBytes(a.v)
	switch {
	case !str:
		return w.Nested(a.v, depth)
	case isBytes:
		return w.WriteString(s)
	}
	return typeError("%%b requires a bytes-like object, or an object that implements __bytes__, not '%s'", pyTypeName(a.v))
}
