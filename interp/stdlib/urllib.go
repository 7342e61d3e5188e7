package stdlib

import (
	"encoding/hex"
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// URLLib is the urllib package, whose one module is urllib.parse: URLs
// split, joined and quoted as CPython does (its own rules, RFC 3986 as
// CPython implements it, where Go's net/url differs). It works on str;
// the bytes forms of the parsing functions are not there.
func URLLib() *starlarkstruct.Module {
	fn := func(name string, f interp.BuiltinFunc) *starlark.Builtin { return interp.NewBuiltin(name, f) }
	parse := &starlarkstruct.Module{Name: "urllib.parse", Members: starlark.StringDict{
		"quote":            fn("quote", urlQuote),
		"quote_plus":       fn("quote_plus", urlQuote),
		"quote_from_bytes": fn("quote_from_bytes", urlQuote),
		"unquote":          fn("unquote", urlUnquote),
		"unquote_plus":     fn("unquote_plus", urlUnquote),
		"unquote_to_bytes": fn("unquote_to_bytes", urlUnquote),
		"urlencode":        fn("urlencode", urlEncode),
		"urlparse":         fn("urlparse", urlParse),
		"urlsplit":         fn("urlsplit", urlParse),
		"urlunparse":       fn("urlunparse", urlUnparse),
		"urlunsplit":       fn("urlunsplit", urlUnparse),
		"urljoin":          fn("urljoin", urlJoin),
		"urldefrag":        fn("urldefrag", urlDefrag),
		"parse_qs":         fn("parse_qs", parseQS),
		"parse_qsl":        fn("parse_qsl", parseQS),
		"ParseResult":      urlClasses[parseResult],
		"SplitResult":      urlClasses[splitResult],
		"DefragResult":     urlClasses[defragResult],
	}}
	return &starlarkstruct.Module{Name: "urllib", Members: starlark.StringDict{"parse": parse, "request": urllibRequest(), "error": urllibError()}}
}

// The schemes CPython's urllib.parse treats specially.
var (
	usesRelative = []string{"", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms",
		"prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss"}
	usesNetloc = []string{"", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp",
		"snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss"}
	usesParams = []string{"", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtsps", "rtspu", "sip",
		"sips", "mms", "sftp", "tel"}
)

// urlTexts reads the str arguments of a parsing function as CPython's
// do: all str (an empty or false one counts as ”), never str mixed with
// something else. Bytes, which CPython parses to results of bytes, are
// refused with what to do.
func urlTexts(fn string, vals ...starlark.Value) ([]string, error) {
	_, strInput := interp.AsText(vals[0])
	out := make([]string, len(vals))
	for i, v := range vals {
		s, isText := interp.AsText(v)
		if i > 0 && bool(v.Truth()) && isText != strInput {
			return nil, pyrt.Errorf("TypeError", "Cannot mix str and non-str arguments")
		}
		out[i] = s
	}
	if strInput {
		return out, nil
	}
	for _, v := range vals {
		if _, isBytes := interp.AsBytes(v); !isBytes && bool(v.Truth()) {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'decode'", pyrt.TypeName(v))
		}
	}
	return nil, pyrt.Errorf("TypeError", "%s() takes str here, not bytes: decode the URL first (url.decode())", fn)
}

// ---- quoting ----

// alwaysSafe are the bytes quote never escapes.
const alwaysSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~"

// quoteBytes percent-encodes data, keeping alwaysSafe and the ASCII
// bytes of safe (plus: a space becomes '+'), its size checked first.
func quoteBytes(thread *starlark.Thread, data, safe string, plus bool) (string, error) {
	var keep [256]bool
	for _, c := range []byte(alwaysSafe) {
		keep[c] = true
	}
	for _, c := range []byte(safe) {
		if c < 0x80 {
			keep[c] = true
		}
	}
	n := len(data)
	b := interp.BudgetOf(thread)
	for i := 0; i < len(data); i++ {
		if err := pace(b, i); err != nil {
			return "", err
		}
		if !keep[data[i]] && !(plus && data[i] == ' ') {
			n += 2
		}
	}
	if err := webGrow(thread, n); err != nil {
		return "", err
	}
	if n == len(data) && !plus {
		return data, nil
	}
	const hexUpper = "0123456789ABCDEF"
	out := make([]byte, 0, n)
	for i := 0; i < len(data); i++ {
		if err := pace(b, i); err != nil {
			return "", err
		}
		switch c := data[i]; {
		case plus && c == ' ':
			out = append(out, '+')
		case keep[c]:
			out = append(out, c)
		default:
			out = append(out, '%', hexUpper[c>>4], hexUpper[c&15])
		}
	}
	return string(out), nil
}

// checkUTF8 accepts the encodings onetool has for URLs: UTF-8 only.
func checkUTF8(v starlark.Value) error {
	if v == nil || v == starlark.None {
		return nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return pyrt.Errorf("TypeError", "encoding must be str, not %s", pyrt.TypeName(v))
	}
	switch strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(s), "-", ""), "_", "") {
	case "utf8", "u8", "utf":
		return nil
	}
	return pyrt.Errorf("LookupError", "unknown encoding: %s (urllib.parse here encodes and decodes utf-8 only)", s)
}

// urlQuote is quote(string, safe='/', encoding=None, errors=None),
// quote_plus (safe=”) and quote_from_bytes(bs, safe='/').
func urlQuote(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return quoteCall(thread, b.Name(), args, kwargs)
}

// quoteCall is a call of the quote function called name.
func quoteCall(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sv, enc, errs starlark.Value
	safeV := starlark.Value(starlark.String("/"))
	if name == "quote_plus" {
		safeV = starlark.String("")
	}
	if name == "quote_from_bytes" {
		if err := (webParams{fn: name, names: []string{"bs", "safe"}, required: 1, maxPos: 2}).unpack(args, kwargs, &sv, &safeV); err != nil {
			return nil, err
		}
		if _, ok := interp.AsBytes(sv); !ok {
			return nil, pyrt.Errorf("TypeError", "quote_from_bytes() expected bytes")
		}
	} else if err := (webParams{fn: name, names: []string{"string", "safe", "encoding", "errors"}, required: 1, maxPos: 4}).unpack(args, kwargs, &sv, &safeV, &enc, &errs); err != nil {
		return nil, err
	}
	var data string
	switch x := sv.(type) {
	case interp.Bytes, *interp.ByteArray, starlark.Bytes:
		if enc != nil && enc != starlark.None {
			return nil, pyrt.Errorf("TypeError", "quote() doesn't support 'encoding' for bytes")
		}
		if errs != nil && errs != starlark.None {
			return nil, pyrt.Errorf("TypeError", "quote() doesn't support 'errors' for bytes")
		}
		data, _ = interp.AsBytes(x)
	default:
		s, ok := interp.AsText(sv)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "quote_from_bytes() expected bytes")
		}
		if err := checkUTF8(enc); err != nil {
			return nil, err
		}
		data = s
	}
	var safe string
	switch x := safeV.(type) {
	case interp.Bytes:
		safe = string(x)
	case starlark.Bytes:
		safe = string(x)
	default:
		s, ok := interp.AsText(safeV)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "safe must be str or bytes, not %s", pyrt.TypeName(safeV))
		}
		safe = s
	}
	out, err := quoteBytes(thread, data, safe, name == "quote_plus")
	if err != nil {
		return nil, err
	}
	return starlark.String(out), nil
}

// percentDecode replaces each %XX of s by its byte; a '%' not followed
// by two hex digits stays.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isDigitInBase(s[i+1], 16) && isDigitInBase(s[i+2], 16) {
			out = append(out, unhexDigit(s[i+1])<<4|unhexDigit(s[i+2]))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

func unhexDigit(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// decodeUTF8 decodes UTF-8 with one of CPython's error handlers:
// replace (each maximal invalid subsequence becomes one U+FFFD), ignore,
// backslashreplace, or strict (a UnicodeDecodeError).
func decodeUTF8(s, errors string) (string, error) {
	if utf8.ValidString(s) {
		return s, nil
	}
	var w strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			w.WriteRune(r)
			i += n
			continue
		}
		n = invalidSpan(s[i:])
		switch errors {
		case "replace":
			w.WriteRune(utf8.RuneError)
		case "ignore":
		case "backslashreplace":
			for k := i; k < i+n; k++ {
				w.WriteString(`\x` + hex.EncodeToString([]byte{s[k]}))
			}
		case "strict":
			why := "invalid start byte"
			switch {
			case i+n == len(s) && n < utf8SeqLen(s[i]):
				why = "unexpected end of data"
			case n > 1 || utf8SeqLen(s[i]) > 1:
				why = "invalid continuation byte"
			}
			if n == 1 {
				return "", pyrt.Errorf("UnicodeDecodeError", "'utf-8' codec can't decode byte 0x%02x in position %d: %s", s[i], i, why)
			}
			return "", pyrt.Errorf("UnicodeDecodeError", "'utf-8' codec can't decode bytes in position %d-%d: %s", i, i+n-1, why)
		default:
			return "", pyrt.Errorf("LookupError", "unknown error handler name '%s'", errors)
		}
		i += n
	}
	return w.String(), nil
}

// utf8SeqLen is the length of the character a start byte announces, 1
// for a byte that starts none.
func utf8SeqLen(b0 byte) int {
	switch {
	case b0 >= 0xc2 && b0 <= 0xdf:
		return 2
	case b0 >= 0xe0 && b0 <= 0xef:
		return 3
	case b0 >= 0xf0 && b0 <= 0xf4:
		return 4
	}
	return 1
}

// invalidSpan is the length of the invalid sequence at the start of s:
// the start of a multi-byte character with as many of its continuation
// bytes as are valid there, or the one byte.
func invalidSpan(s string) int {
	b0 := s[0]
	size := 0
	lo, hi := byte(0x80), byte(0xbf)
	switch {
	case b0 >= 0xc2 && b0 <= 0xdf:
		size = 2
	case b0 >= 0xe0 && b0 <= 0xef:
		size = 3
		if b0 == 0xe0 {
			lo = 0xa0
		} else if b0 == 0xed {
			hi = 0x9f
		}
	case b0 >= 0xf0 && b0 <= 0xf4:
		size = 4
		if b0 == 0xf0 {
			lo = 0x90
		} else if b0 == 0xf4 {
			hi = 0x8f
		}
	default:
		return 1
	}
	k := 1
	for ; k < size && k < len(s); k++ {
		c := s[k]
		if k == 1 && (c < lo || c > hi) || c < 0x80 || c > 0xbf {
			break
		}
	}
	return k
}

// unquoteText is unquote of a str: only its ASCII runs hold escapes, and
// each run's bytes are decoded on their own.
func unquoteText(s, errors string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var w strings.Builder
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] < 0x80 {
			i++
		}
		text, err := decodeUTF8(percentDecode(s[:i]), errors)
		if err != nil {
			return "", err
		}
		w.WriteString(text)
		j := i
		for j < len(s) && s[j] >= 0x80 {
			j++
		}
		w.WriteString(s[i:j])
		s = s[j:]
	}
	return w.String(), nil
}

// errorsArg is an errors= argument: replace when it is not given.
func errorsArg(v starlark.Value) (string, error) {
	if v == nil || v == starlark.None {
		return "replace", nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "decode() argument 'errors' must be str, not %s", pyrt.TypeName(v))
	}
	return s, nil
}

// urlUnquote is unquote(string, encoding='utf-8', errors='replace'),
// unquote_plus and unquote_to_bytes(string).
func urlUnquote(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	var sv, enc, errs starlark.Value
	if name == "unquote_to_bytes" {
		if err := (webParams{fn: name, names: []string{"string"}, required: 1, maxPos: 1}).unpack(args, kwargs, &sv); err != nil {
			return nil, err
		}
	} else if err := (webParams{fn: name, names: []string{"string", "encoding", "errors"}, required: 1, maxPos: 3}).unpack(args, kwargs, &sv, &enc, &errs); err != nil {
		return nil, err
	}
	if err := checkUTF8(enc); err != nil {
		return nil, err
	}
	var s string
	isBytes := false
	switch x := sv.(type) {
	case interp.Bytes:
		s, isBytes = string(x), true
		if name == "unquote_plus" {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
	case starlark.Bytes:
		s, isBytes = string(x), true
		if name == "unquote_plus" {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
	default:
		text, ok := interp.AsText(sv)
		if !ok {
			if name == "unquote_plus" {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'replace'", pyrt.TypeName(sv))
			}
			return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(sv))
		}
		s = text
	}
	if err := webGrow(thread, len(s)); err != nil {
		return nil, err
	}
	if name == "unquote_plus" {
		s = strings.ReplaceAll(s, "+", " ")
	}
	if name == "unquote_to_bytes" {
		return interp.Bytes(percentDecode(s)), nil
	}
	handler, err := errorsArg(errs)
	if err != nil {
		return nil, err
	}
	var text string
	if isBytes {
		text, err = decodeUTF8(percentDecode(s), handler)
	} else {
		text, err = unquoteText(s, handler)
	}
	if err != nil {
		return nil, err
	}
	return interp.MakeString(text), nil
}

// ---- urlencode ----

// urlEncode is urlencode(query, doseq=False, safe=”, encoding=None,
// errors=None, quote_via=quote_plus).
func urlEncode(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var query, doseqV, enc, errs, via starlark.Value
	safe := starlark.Value(starlark.String(""))
	params := webParams{fn: "urlencode", names: []string{"query", "doseq", "safe", "encoding", "errors", "quote_via"}, required: 1, maxPos: 6}
	if err := params.unpack(args, kwargs, &query, &doseqV, &safe, &enc, &errs, &via); err != nil {
		return nil, err
	}
	doseq := flagArg(doseqV, false)
	if enc == nil {
		enc = starlark.None
	}
	if errs == nil {
		errs = starlark.None
	}
	b := interp.BudgetOf(thread)
	// The pairs: a mapping's items, or a sequence whose first element is
	// a tuple.
	var pairs starlark.Value
	if m, ok := query.(starlark.IterableMapping); ok {
		items := m.Items()
		if err := b.Alloc(int64(len(items)) * 32); err != nil {
			return nil, err
		}
		l := make([]starlark.Value, len(items))
		for i, kv := range items {
			l[i] = kv
		}
		pairs = starlark.NewList(l)
	} else {
		seq, ok := query.(starlark.Indexable)
		_, isText := interp.AsText(query)
		if !ok || isText && seq.Len() > 0 {
			return nil, pyrt.Errorf("TypeError", "not a valid non-string sequence or mapping object")
		}
		if seq.Len() > 0 {
			if _, ok := seq.Index(0).(starlark.Tuple); !ok {
				return nil, pyrt.Errorf("TypeError", "not a valid non-string sequence or mapping object")
			}
		}
		pairs = query
	}
	quote := func(v starlark.Value) (string, error) {
		if _, ok := interp.AsBytes(v); !ok {
			if _, ok := interp.AsText(v); !ok {
				s, err := interp.Str(b, v)
				if err != nil {
					return "", err
				}
				v = interp.MakeString(s)
			}
		}
		var out starlark.Value
		var err error
		if via == nil {
			if _, ok := interp.AsBytes(v); ok {
				out, err = quoteValue(thread, v, safe, starlark.None, starlark.None)
			} else {
				out, err = quoteValue(thread, v, safe, enc, errs)
			}
		} else if _, ok := interp.AsBytes(v); ok {
			out, err = starlark.Call(thread, via, starlark.Tuple{v, safe}, nil)
		} else {
			out, err = starlark.Call(thread, via, starlark.Tuple{v, safe, enc, errs}, nil)
		}
		if err != nil {
			return "", err
		}
		s, ok := interp.AsText(out)
		if !ok {
			return "", pyrt.Errorf("TypeError", "quote_via must return str, not %s", pyrt.TypeName(out))
		}
		return s, nil
	}
	var w strings.Builder
	size := 0
	add := func(k, v string) error {
		if w.Len() > 0 {
			w.WriteByte('&')
		}
		size += len(k) + len(v) + 2
		if err := b.Fits(int64(size)); err != nil { // the whole text so far, against the memory budget
			return err
		}
		if err := b.Charge(uint64(len(k)+len(v))/16 + 1); err != nil {
			return err
		}
		w.WriteString(k)
		w.WriteByte('=')
		w.WriteString(v)
		return nil
	}
	err := pyrt.ForEach(thread, pairs, func(pair starlark.Value) (bool, error) {
		kv, err := firstOf(thread, pair, 3) // k, v = pair: a third is one too many
		if err != nil {
			return true, err
		}
		switch {
		case len(kv) < 2:
			return true, pyrt.Errorf("ValueError", "not enough values to unpack (expected 2, got %d)", len(kv))
		case len(kv) > 2:
			return true, pyrt.Errorf("ValueError", "too many values to unpack (expected 2)")
		}
		k, err := quote(kv[0])
		if err != nil {
			return true, err
		}
		v := kv[1]
		_, isBytes := interp.AsBytes(v)
		_, isText := interp.AsText(v)
		if !doseq || isBytes || isText || starlark.Len(v) < 0 {
			q, err := quote(v)
			if err != nil {
				return true, err
			}
			return false, add(k, q)
		}
		return false, pyrt.ForEach(thread, v, func(elt starlark.Value) (bool, error) {
			q, err := quote(elt)
			if err != nil {
				return true, err
			}
			return false, add(k, q)
		})
	})
	if err != nil {
		return nil, err
	}
	return starlark.String(w.String()), nil
}

// quoteValue is quote_plus(v, safe, enc, errs), urlencode's default.
func quoteValue(thread *starlark.Thread, v, safe, enc, errs starlark.Value) (starlark.Value, error) {
	return quoteCall(thread, "quote_plus", starlark.Tuple{v, safe, enc, errs}, nil)
}

// ---- parse_qs ----

// parseQS is parse_qs and parse_qsl(qs, keep_blank_values=False,
// strict_parsing=False, encoding='utf-8', errors='replace',
// max_num_fields=None, separator='&').
func parseQS(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	var qsV, keepV, strictV, enc, errs starlark.Value
	maxFields := starlark.Value(starlark.None)
	sepV := starlark.Value(starlark.String("&"))
	params := webParams{fn: name, names: []string{"qs", "keep_blank_values", "strict_parsing", "encoding", "errors", "max_num_fields", "separator"}, required: 1, maxPos: 7}
	if err := params.unpack(args, kwargs, &qsV, &keepV, &strictV, &enc, &errs, &maxFields, &sepV); err != nil {
		return nil, err
	}
	keepBlank, strict := flagArg(keepV, false), flagArg(strictV, false)
	if err := checkUTF8(enc); err != nil {
		return nil, err
	}
	texts, err := urlTexts(name, qsV)
	if err != nil {
		return nil, err
	}
	qs := texts[0]
	handler, err := errorsArg(errs)
	if err != nil {
		return nil, err
	}
	sep, ok := interp.AsText(sepV)
	if !ok || sep == "" {
		return nil, pyrt.Errorf("ValueError", "Separator must be of type string or bytes.")
	}
	if maxFields != starlark.None {
		var max int
		if err := starlark.AsInt(maxFields, &max); err != nil {
			return nil, pyrt.Errorf("TypeError", "max_num_fields must be an int, not %s", pyrt.TypeName(maxFields))
		}
		n := 0
		if qs != "" {
			n = 1 + strings.Count(qs, sep)
		}
		if max < n {
			return nil, pyrt.Errorf("ValueError", "Max number of fields exceeded")
		}
	}
	bud := interp.BudgetOf(thread)
	if err := webGrow(thread, 2*len(qs)); err != nil {
		return nil, err
	}
	var pairs [][2]string
	if qs != "" {
		// The fields one at a time (a split would make a string header for
		// each: 1.6 GB for '&' * 10**8).
		for rest, more := qs, true; more; {
			var field string
			field, rest, more = strings.Cut(rest, sep)
			if err := bud.Charge(1 + uint64(len(field))/16); err != nil {
				return nil, err
			}
			if field == "" && !strict {
				continue
			}
			k, v, found := strings.Cut(field, "=")
			if !found {
				if strict {
					return nil, pyrt.Errorf("ValueError", "bad query field: %s", interp.QuoteString(field))
				}
				if !keepBlank {
					continue
				}
			}
			if v != "" || keepBlank {
				name, err := unquoteText(strings.ReplaceAll(k, "+", " "), handler)
				if err != nil {
					return nil, err
				}
				value, err := unquoteText(strings.ReplaceAll(v, "+", " "), handler)
				if err != nil {
					return nil, err
				}
				pairs = append(pairs, [2]string{name, value})
			}
		}
	}
	if err := bud.Alloc(int64(len(pairs)) * 64); err != nil {
		return nil, err
	}
	if name == "parse_qsl" {
		l := make([]starlark.Value, len(pairs))
		for i, p := range pairs {
			l[i] = starlark.Tuple{interp.MakeString(p[0]), interp.MakeString(p[1])}
		}
		return starlark.NewList(l), nil
	}
	d := starlark.NewDict(len(pairs))
	for _, p := range pairs {
		k := interp.MakeString(p[0])
		old, found, _ := d.Get(k)
		if found {
			if err := old.(*starlark.List).Append(interp.MakeString(p[1])); err != nil {
				return nil, err
			}
			continue
		}
		if err := d.SetKey(k, starlark.NewList([]starlark.Value{interp.MakeString(p[1])})); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// ---- urlparse, urlsplit ----

// urlKind is the class of a parse result.
type urlKind int

const (
	parseResult urlKind = iota
	splitResult
	defragResult
)

var urlKinds = [...]struct {
	name   string
	fields []string
}{
	{"ParseResult", []string{"scheme", "netloc", "path", "params", "query", "fragment"}},
	{"SplitResult", []string{"scheme", "netloc", "path", "query", "fragment"}},
	{"DefragResult", []string{"url", "fragment"}},
}

// urlClass is the class ParseResult, SplitResult or DefragResult:
// calling it makes a result of its fields, and isinstance knows them.
type urlClass struct {
	*starlark.Builtin
	kind urlKind
}

var _ pyrt.Class = urlClass{}

func (c urlClass) String() string { return "<class 'urllib.parse." + urlKinds[c.kind].name + "'>" }
func (c urlClass) Type() string   { return "type" }
func (c urlClass) HasInstance(v starlark.Value) bool {
	u, ok := v.(*urlResult)
	return ok && u.kind == c.kind
}

// urlClasses are the three classes, shared by every build of the module
// so that type(urlparse(u)) is urllib.parse.ParseResult.
var urlClasses = [...]urlClass{
	{Builtin: interp.NewBuiltin("ParseResult", newURLClassValue(parseResult)), kind: parseResult},
	{Builtin: interp.NewBuiltin("SplitResult", newURLClassValue(splitResult)), kind: splitResult},
	{Builtin: interp.NewBuiltin("DefragResult", newURLClassValue(defragResult)), kind: defragResult},
}

// PyClass is type(u): its class.
func (u *urlResult) PyClass() starlark.Value { return urlClasses[u.kind] }

func (c urlClass) AttrNames() []string { return []string{"__name__"} }
func (c urlClass) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(urlKinds[c.kind].name), nil
	}
	return nil, nil
}

// newURLClassValue is ParseResult(scheme, netloc, path, params, query,
// fragment) and the like, by position or name.
func newURLClassValue(kind urlKind) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		k := urlKinds[kind]
		n := len(k.fields)
		if len(args) > n {
			return nil, pyrt.Errorf("TypeError", "%s.__new__() takes %d positional arguments but %d were given", k.name, n+1, len(args)+1)
		}
		vals := make(starlark.Tuple, n)
		copy(vals, args)
		for _, kv := range kwargs {
			name, _ := starlark.AsString(kv[0])
			i := indexOf(k.fields, name)
			if i < 0 {
				return nil, pyrt.Errorf("TypeError", "%s.__new__() got an unexpected keyword argument '%s'", k.name, name)
			}
			if vals[i] != nil {
				return nil, pyrt.Errorf("TypeError", "%s.__new__() got multiple values for argument '%s'", k.name, name)
			}
			vals[i] = kv[1]
		}
		var missing []string
		for i, v := range vals {
			if v == nil {
				missing = append(missing, "'"+k.fields[i]+"'")
			}
		}
		if len(missing) > 0 {
			list := missing[len(missing)-1]
			if len(missing) == 2 {
				list = missing[0] + " and " + list
			} else if len(missing) > 2 {
				list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + list
			}
			s := "s"
			if len(missing) == 1 {
				s = ""
			}
			return nil, pyrt.Errorf("TypeError", "%s.__new__() missing %d required positional argument%s: %s", k.name, len(missing), s, list)
		}
		return &urlResult{kind: kind, vals: vals}, nil
	}
}

// urlResult is a ParseResult, SplitResult or DefragResult: a named tuple
// of str with the attributes of a URL's network location.
type urlResult struct {
	kind urlKind
	vals starlark.Tuple
}

var (
	_ starlark.Indexable  = (*urlResult)(nil)
	_ starlark.Sequence   = (*urlResult)(nil)
	_ starlark.HasAttrs   = (*urlResult)(nil)
	_ starlark.Comparable = (*urlResult)(nil)
	_ interp.TextValue    = (*urlResult)(nil)
	_ interp.GoValuer     = (*urlResult)(nil)
	_ interp.Holder       = (*urlResult)(nil)
)

// Held visits the fields, for the memory meter.
func (u *urlResult) Held(visit func(starlark.Value)) {
	for _, v := range u.vals {
		visit(v)
	}
}

func newURLResult(kind urlKind, parts ...string) *urlResult {
	vals := make(starlark.Tuple, len(parts))
	for i, p := range parts {
		vals[i] = interp.MakeString(p)
	}
	return &urlResult{kind: kind, vals: vals}
}

func (u *urlResult) String() string {
	s, err := interp.Repr(nil, u)
	if err != nil {
		return urlKinds[u.kind].name + "(...)"
	}
	return s
}
func (u *urlResult) Type() string                       { return urlKinds[u.kind].name }
func (u *urlResult) Freeze()                            { u.vals.Freeze() }
func (u *urlResult) Truth() starlark.Bool               { return true }
func (u *urlResult) Hash() (uint32, error)              { return u.vals.Hash() }
func (u *urlResult) Len() int                           { return len(u.vals) }
func (u *urlResult) Index(i int) starlark.Value         { return u.vals[i] }
func (u *urlResult) Iterate() starlark.Iterator         { return u.vals.Iterate() }
func (u *urlResult) Has(x starlark.Value) (bool, error) { return u.vals.Has(x) }
func (u *urlResult) Slice(start, end, step int) starlark.Value {
	return u.vals.Slice(start, end, step)
}
func (u *urlResult) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, u.vals, y.(*urlResult).vals, depth)
}

// GoValue is an object of the fields: a result shows as
// {"scheme":"https","netloc":"example.com",...}.
func (u *urlResult) GoValue() (any, error) {
	d := starlark.NewDict(len(u.vals))
	for i, f := range urlKinds[u.kind].fields {
		_ = d.SetKey(starlark.String(f), u.vals[i])
	}
	return interp.ToGo(d)
}

func (u *urlResult) WriteText(w *interp.TextWriter, _ bool, depth int) error {
	if err := w.WriteString(urlKinds[u.kind].name + "("); err != nil {
		return err
	}
	for i, f := range urlKinds[u.kind].fields {
		sep := ", "
		if i == 0 {
			sep = ""
		}
		if err := w.WriteString(sep + f + "="); err != nil {
			return err
		}
		if err := w.Nested(u.vals[i], depth+1); err != nil {
			return err
		}
	}
	return w.WriteString(")")
}

func (u *urlResult) field(name string) (string, bool) {
	i := slices.Index(urlKinds[u.kind].fields, name)
	if i < 0 {
		return "", false
	}
	return interp.AsText(u.vals[i])
}

func (u *urlResult) AttrNames() []string {
	names := append([]string{"_asdict", "_fields", "_replace", "geturl"}, urlKinds[u.kind].fields...)
	if u.kind != defragResult {
		names = append(names, "hostname", "password", "port", "username")
	}
	sort := slices.Clone(names)
	slices.Sort(sort)
	return sort
}

func (u *urlResult) Attr(name string) (starlark.Value, error) {
	if i := slices.Index(urlKinds[u.kind].fields, name); i >= 0 {
		return u.vals[i], nil
	}
	method := func(f func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) (starlark.Value, error) {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(thread, args, kwargs)
		}), nil
	}
	switch name {
	case "_fields":
		fields := urlKinds[u.kind].fields
		t := make(starlark.Tuple, len(fields))
		for i, f := range fields {
			t[i] = starlark.String(f)
		}
		return t, nil
	case "_asdict":
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			d := starlark.NewDict(len(u.vals))
			for i, f := range urlKinds[u.kind].fields {
				_ = d.SetKey(starlark.String(f), u.vals[i])
			}
			return d, nil
		})
	case "_replace":
		return method(func(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, pyrt.Errorf("TypeError", "%s._replace() takes 1 positional argument but %d were given", urlKinds[u.kind].name, len(args)+1)
			}
			vals := append(starlark.Tuple(nil), u.vals...)
			var bad []string
			for _, kv := range kwargs {
				k, _ := starlark.AsString(kv[0])
				i := slices.Index(urlKinds[u.kind].fields, k)
				if i < 0 {
					bad = append(bad, "'"+k+"'")
					continue
				}
				vals[i] = kv[1]
			}
			if len(bad) > 0 {
				return nil, pyrt.Errorf("ValueError", "Got unexpected field names: [%s]", strings.Join(bad, ", "))
			}
			return &urlResult{kind: u.kind, vals: vals}, nil
		})
	case "geturl":
		return method(func(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			parts, err := u.texts()
			if err != nil {
				return nil, err
			}
			switch u.kind {
			case parseResult:
				return interp.MakeString(unparse(parts)), nil
			case splitResult:
				return interp.MakeString(unsplit(parts)), nil
			}
			if parts[1] != "" {
				return interp.MakeString(parts[0] + "#" + parts[1]), nil
			}
			return interp.MakeString(parts[0]), nil
		})
	}
	if u.kind == defragResult {
		return nil, nil
	}
	netloc, _ := u.field("netloc")
	switch name {
	case "username", "password":
		userinfo, _, found := cutLastURL(netloc, "@")
		if !found {
			return starlark.None, nil
		}
		user, pass, hasPass := strings.Cut(userinfo, ":")
		if name == "username" {
			return interp.MakeString(user), nil
		}
		if !hasPass {
			return starlark.None, nil
		}
		return interp.MakeString(pass), nil
	case "hostname":
		host, _ := hostInfo(netloc)
		if host == "" {
			return starlark.None, nil
		}
		// A scoped IPv6 address keeps its zone's case.
		h, zone, hasZone := strings.Cut(host, "%")
		h = strings.ToLower(h)
		if hasZone {
			h += "%" + zone
		}
		return interp.MakeString(h), nil
	case "port":
		_, port := hostInfo(netloc)
		if port == "" {
			return starlark.None, nil
		}
		n := 0
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return nil, pyrt.Errorf("ValueError", "Port could not be cast to integer value as %s", interp.QuoteString(port))
			}
			if n <= 65535 {
				n = n*10 + int(port[i]-'0')
			}
		}
		if n > 65535 {
			return nil, pyrt.Errorf("ValueError", "Port out of range 0-65535")
		}
		return starlark.MakeInt(n), nil
	}
	return nil, nil
}

// texts are the fields as text, for geturl.
func (u *urlResult) texts() ([]string, error) {
	out := make([]string, len(u.vals))
	for i, v := range u.vals {
		s, ok := interp.AsText(v)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "%s.%s must be str, not %s", urlKinds[u.kind].name, urlKinds[u.kind].fields[i], pyrt.TypeName(v))
		}
		out[i] = s
	}
	return out, nil
}

// cutLastURL splits s around the last sep.
func cutLastURL(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

// hostInfo is the host and port of a netloc, as CPython splits them.
func hostInfo(netloc string) (host, port string) {
	_, hostinfo, _ := cutLastURL(netloc, "@")
	if _, bracketed, open := strings.Cut(hostinfo, "["); open {
		host, rest, _ := strings.Cut(bracketed, "]")
		_, port, _ = strings.Cut(rest, ":")
		return host, port
	}
	host, port, _ = strings.Cut(hostinfo, ":")
	return host, port
}

// isC0OrSpace reports whether c is stripped from the start of a URL.
func isC0OrSpace(r rune) bool { return r <= ' ' }

// splitURL is urlsplit: scheme, netloc, path, query, fragment.
func splitURL(url, scheme string, allowFragments bool) ([5]string, error) {
	url = strings.TrimLeftFunc(url, isC0OrSpace)
	scheme = strings.TrimFunc(scheme, isC0OrSpace)
	for _, c := range []string{"\t", "\r", "\n"} {
		url = strings.ReplaceAll(url, c, "")
		scheme = strings.ReplaceAll(scheme, c, "")
	}
	var netloc, query, fragment string
	if i := strings.IndexByte(url, ':'); i > 0 && isASCIILetter(url[0]) {
		ok := true
		for k := 0; k < i; k++ {
			if c := url[k]; !(isASCIILetter(c) || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
				ok = false
				break
			}
		}
		if ok {
			scheme, url = strings.ToLower(url[:i]), url[i+1:]
		}
	}
	if strings.HasPrefix(url, "//") {
		end := len(url)
		if i := strings.IndexAny(url[2:], "/?#"); i >= 0 {
			end = i + 2
		}
		netloc, url = url[2:end], url[end:]
		open, closed := strings.Contains(netloc, "["), strings.Contains(netloc, "]")
		if open != closed {
			return [5]string{}, pyrt.Errorf("ValueError", "Invalid IPv6 URL")
		}
		if open {
			_, rest, _ := strings.Cut(netloc, "[")
			host, _, _ := strings.Cut(rest, "]")
			if err := checkBracketedHost(host); err != nil {
				return [5]string{}, err
			}
		}
	}
	if allowFragments {
		url, fragment, _ = strings.Cut(url, "#")
	}
	url, query, _ = strings.Cut(url, "?")
	return [5]string{scheme, netloc, url, query, fragment}, nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// checkBracketedHost accepts what CPython accepts between [ and ]: an
// IPv6 address or an IPvFuture one.
func checkBracketedHost(host string) error {
	if strings.HasPrefix(host, "v") {
		dot := strings.IndexByte(host, '.')
		ok := dot > 1 && dot < len(host)-1
		for i := 1; ok && i < dot; i++ {
			ok = isDigitInBase(host[i], 16)
		}
		if !ok {
			return pyrt.Errorf("ValueError", "IPvFuture address is invalid")
		}
		return nil
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return pyrt.Errorf("ValueError", "%s does not appear to be an IPv4 or IPv6 address", interp.QuoteString(host))
	}
	if addr.Is4() {
		return pyrt.Errorf("ValueError", "An IPv4 address cannot be in brackets")
	}
	return nil
}

// parseURL is urlparse: split, then the path's params.
func parseURL(url, scheme string, allowFragments bool) ([6]string, error) {
	s, err := splitURL(url, scheme, allowFragments)
	if err != nil {
		return [6]string{}, err
	}
	path, params := s[2], ""
	if slices.Contains(usesParams, s[0]) && strings.Contains(path, ";") {
		path, params = splitParams(path)
	}
	return [6]string{s[0], s[1], path, params, s[3], s[4]}, nil
}

// splitParams splits the params (after ';') from the last segment of a
// path.
func splitParams(path string) (string, string) {
	from := 0
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		from = i
	}
	i := strings.IndexByte(path[from:], ';')
	if i < 0 {
		return path, ""
	}
	return path[:from+i], path[from+i+1:]
}

// urlParse is urlparse and urlsplit(url, scheme=”, allow_fragments=True).
func urlParse(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	var urlV, allowV starlark.Value
	schemeV := starlark.Value(starlark.String(""))
	if err := (webParams{fn: name, names: []string{"url", "scheme", "allow_fragments"}, required: 1, maxPos: 3}).unpack(args, kwargs, &urlV, &schemeV, &allowV); err != nil {
		return nil, err
	}
	allow := flagArg(allowV, true)
	texts, err := urlTexts(name, urlV, schemeV)
	if err != nil {
		return nil, err
	}
	url, scheme := texts[0], texts[1]
	if err := webGrow(thread, 2*len(url)); err != nil {
		return nil, err
	}
	if name == "urlsplit" {
		s, err := splitURL(url, scheme, allow)
		if err != nil {
			return nil, err
		}
		return newURLResult(splitResult, s[:]...), nil
	}
	p, err := parseURL(url, scheme, allow)
	if err != nil {
		return nil, err
	}
	return newURLResult(parseResult, p[:]...), nil
}

// unsplit is urlunsplit of scheme, netloc, path, query, fragment.
func unsplit(p []string) string {
	scheme, netloc, url, query, fragment := p[0], p[1], p[2], p[3], p[4]
	if netloc != "" || scheme != "" && slices.Contains(usesNetloc, scheme) && !strings.HasPrefix(url, "//") {
		if url != "" && url[0] != '/' {
			url = "/" + url
		}
		url = "//" + netloc + url
	}
	if scheme != "" {
		url = scheme + ":" + url
	}
	if query != "" {
		url += "?" + query
	}
	if fragment != "" {
		url += "#" + fragment
	}
	return url
}

// unparse is urlunparse of the six parts.
func unparse(p []string) string {
	path := p[2]
	if p[3] != "" {
		path += ";" + p[3]
	}
	return unsplit([]string{p[0], p[1], path, p[4], p[5]})
}

// urlUnparse is urlunparse(components) and urlunsplit(components).
func urlUnparse(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	var comps starlark.Value
	if err := (webParams{fn: name, names: []string{"components"}, required: 1, maxPos: 1}).unpack(args, kwargs, &comps); err != nil {
		return nil, err
	}
	want := 6
	if name == "urlunsplit" {
		want = 5
	}
	var parts []string
	if err := pyrt.ForEach(thread, comps, func(x starlark.Value) (bool, error) {
		if len(parts) == want {
			// CPython's count includes a value of its own.
			return true, pyrt.Errorf("ValueError", "too many values to unpack (expected %d)", want+1)
		}
		switch x := x.(type) {
		case starlark.NoneType:
			parts = append(parts, "")
		default:
			s, ok := interp.AsText(x)
			if !ok {
				return true, pyrt.Errorf("TypeError", "%s() takes str components, not %s", name, pyrt.TypeName(x))
			}
			parts = append(parts, s)
		}
		return false, nil
	}); err != nil {
		return nil, err
	}
	if len(parts) < want {
		return nil, pyrt.Errorf("ValueError", "not enough values to unpack (expected %d, got %d)", want+1, len(parts)+1)
	}
	total := 0
	for _, p := range parts {
		total += len(p) + 3
	}
	if err := webGrow(thread, total); err != nil {
		return nil, err
	}
	if name == "urlunsplit" {
		return interp.MakeString(unsplit(parts)), nil
	}
	return interp.MakeString(unparse(parts)), nil
}

// urlJoin is urljoin(base, url, allow_fragments=True).
func urlJoin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var baseV, urlV, allowV starlark.Value
	if err := (webParams{fn: "urljoin", names: []string{"base", "url", "allow_fragments"}, required: 2, maxPos: 3}).unpack(args, kwargs, &baseV, &urlV, &allowV); err != nil {
		return nil, err
	}
	allow := flagArg(allowV, true)
	if !baseV.Truth() {
		return urlV, nil
	}
	if !urlV.Truth() {
		return baseV, nil
	}
	texts, err := urlTexts("urljoin", baseV, urlV)
	if err != nil {
		return nil, err
	}
	base, url := texts[0], texts[1]
	if err := webGrow(thread, 2*(len(base)+len(url))); err != nil {
		return nil, err
	}
	out, err := joinURL(interp.BudgetOf(thread), base, url, allow)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(out), nil
}

// joinURL resolves url against base as CPython's urljoin does.
func joinURL(b *interp.Budget, base, url string, allow bool) (string, error) {
	bp, err := parseURL(base, "", allow)
	if err != nil {
		return "", err
	}
	p, err := parseURL(url, bp[0], allow)
	if err != nil {
		return "", err
	}
	scheme, netloc, path, params, query, fragment := p[0], p[1], p[2], p[3], p[4], p[5]
	if scheme != bp[0] || !slices.Contains(usesRelative, scheme) {
		return url, nil
	}
	if slices.Contains(usesNetloc, scheme) {
		if netloc != "" {
			return unparse(p[:]), nil
		}
		netloc = bp[1]
	}
	if path == "" && params == "" {
		path, params = bp[2], bp[3]
		if query == "" {
			query = bp[4]
		}
		return unparse([]string{scheme, netloc, path, params, query, fragment}), nil
	}
	baseParts := strings.Split(bp[2], "/")
	if baseParts[len(baseParts)-1] != "" {
		// The last segment is a file, not a directory: it plays no part.
		baseParts = baseParts[:len(baseParts)-1]
	}
	var segments []string
	if strings.HasPrefix(path, "/") {
		segments = strings.Split(path, "/")
	} else {
		segments = append(baseParts, strings.Split(path, "/")...)
		// Empty segments between the first and the last would make
		// doubled slashes.
		if len(segments) > 2 {
			inner := slices.DeleteFunc(slices.Clone(segments[1:len(segments)-1]), func(s string) bool { return s == "" })
			segments = append(append([]string{segments[0]}, inner...), segments[len(segments)-1])
		}
	}
	// Each segment is copied a few times over.
	if err := b.Charge(uint64(len(segments)) * 4); err != nil {
		return "", err
	}
	if err := b.Alloc(int64(len(segments)) * 48); err != nil {
		return "", err
	}
	var resolved []string
	for _, seg := range segments {
		switch seg {
		case "..":
			if len(resolved) > 0 {
				resolved = resolved[:len(resolved)-1]
			}
		case ".":
		default:
			resolved = append(resolved, seg)
		}
	}
	if last := segments[len(segments)-1]; last == "." || last == ".." {
		resolved = append(resolved, "")
	}
	joined := strings.Join(resolved, "/")
	if joined == "" {
		joined = "/"
	}
	return unparse([]string{scheme, netloc, joined, params, query, fragment}), nil
}

// urlDefrag is urldefrag(url).
func urlDefrag(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var urlV starlark.Value
	if err := (webParams{fn: "urldefrag", names: []string{"url"}, required: 1, maxPos: 1}).unpack(args, kwargs, &urlV); err != nil {
		return nil, err
	}
	texts, err := urlTexts("urldefrag", urlV)
	if err != nil {
		return nil, err
	}
	url := texts[0]
	if err := webGrow(thread, 2*len(url)); err != nil {
		return nil, err
	}
	if !strings.Contains(url, "#") {
		return newURLResult(defragResult, url, ""), nil
	}
	p, err := parseURL(url, "", true)
	if err != nil {
		return nil, err
	}
	frag := p[5]
	p[5] = ""
	return newURLResult(defragResult, unparse(p[:]), frag), nil
}
