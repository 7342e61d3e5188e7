package results

import "strings"

// A compact JSON value is one line, which pages only by characters and
// which search can only show in windows. Before it is stored, a value
// longer than layoutWidth is laid out one member per line, down to
// layoutDepth levels: a list of records becomes a record per line, so
// that ot.result pages it by items and search shows the records that
// match. Members that fit in layoutWidth stay on one line, compact.
const (
	layoutWidth = 1000
	layoutDepth = 4
	// layoutGrowth bounds what the layout may add (indents and line
	// breaks), as a fraction of the text: a list of many tiny members
	// (numbers) would otherwise grow several times; it stays one line.
	layoutGrowth = 4 // a quarter
)

// layoutJSON lays out the last line of text when it is a JSON (or
// Starlark) object or array longer than layoutWidth; ok is false, and
// text is returned as it is, for any other line, an unbalanced one, or
// one that would grow too much.
func layoutJSON(text string) (string, bool) {
	i := strings.LastIndexByte(text, '\n') + 1
	v := text[i:]
	if len(v) <= layoutWidth || (v[0] != '[' && v[0] != '{') {
		return text, false
	}
	l := layouter{max: len(text) + len(text)/layoutGrowth}
	l.b.Grow(len(text) + min(len(text)/layoutGrowth, 1<<20))
	l.b.WriteString(text[:i])
	if !l.value(v, 0) || l.b.Len() > l.max {
		return text, false
	}
	return l.b.String(), true
}

type layouter struct {
	b   strings.Builder
	max int
}

// value writes v (a JSON value, spaces trimmed) at depth, breaking it
// into lines when it is a long container; false for an unbalanced one.
func (l *layouter) value(v string, depth int) bool {
	if len(v) <= layoutWidth || depth >= layoutDepth || (v[0] != '[' && v[0] != '{') {
		l.b.WriteString(v)
		return true
	}
	open, close := v[0], v[len(v)-1]
	if (open == '[' && close != ']') || (open == '{' && close != '}') {
		return false
	}
	body := v[1 : len(v)-1]
	if end, ok := member(body, 0); !ok || (end == len(body) && strings.TrimSpace(body) == "") {
		return ok // unbalanced, or empty (not long then)
	}
	indent := strings.Repeat("  ", depth+1)
	l.b.WriteByte(open)
	for first := true; ; first = false {
		end, ok := member(body, 0)
		if !ok {
			return false
		}
		if l.b.Len() > l.max {
			return true // the caller sees the growth
		}
		if !first {
			l.b.WriteByte(',')
		}
		l.b.WriteByte('\n')
		l.b.WriteString(indent)
		m := strings.TrimSpace(body[:end])
		if m == "" {
			return false
		}
		if open == '{' { // "key":value: the value may break in turn
			k, ok := member(m, ':')
			if !ok || k == len(m) {
				return false
			}
			l.b.WriteString(strings.TrimSpace(m[:k]))
			l.b.WriteByte(':')
			m = strings.TrimSpace(m[k+1:])
		}
		if m == "" || !l.value(m, depth+1) {
			return false
		}
		if end == len(body) {
			break
		}
		body = body[end+1:]
	}
	l.b.WriteByte('\n')
	l.b.WriteString(indent[:2*depth])
	l.b.WriteByte(close)
	return true
}

// member is the index in s of the first stop (',' or ':') outside
// strings and brackets, or len(s); ok is false when brackets do not
// balance, a string does not end before it, or a byte outside strings
// could not be JSON: a Python repr ('a', True) or flow YAML (plain
// words) is left as it is, since a comma in it may be inside a string.
func member(s string, stop byte) (int, bool) {
	if stop == 0 {
		stop = ','
	}
	depth, inString := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth < 0 {
				return 0, false
			}
		case c == stop && depth == 0:
			return i, true
		case !jsonByte(c):
			return 0, false
		}
	}
	return len(s), depth == 0 && !inString
}

// jsonByte reports whether JSON may have c outside strings.
func jsonByte(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '[', ']', '{', '}', '-', '+', '.', 'e', 'E', 't', 'r', 'u', 'f', 'a', 'l', 's', 'n':
		return true
	}
	return '0' <= c && c <= '9'
}
