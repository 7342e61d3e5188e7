package snippets

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invocation is a parsed `$name ...` command: the snippet's name and the
// arguments in the order given. Values are raw strings; typing them is the
// job of [Set.Expand], which knows the declared parameters.
type Invocation struct {
	Name string
	Args []Arg
}

// Arg is one key/value pair of an [Invocation], with quotes and escapes
// already removed from Value.
type Arg struct {
	Key, Value string
}

// String renders the invocation in the canonical one-line form, quoting
// values only where needed, such that ParseInvocation(inv.String()) gives inv
// back. Useful in logs and help texts.
func (inv Invocation) String() string {
	var b strings.Builder
	b.WriteString("$")
	b.WriteString(inv.Name)
	for _, a := range inv.Args {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteByte('=')
		b.WriteString(quoteValue(a.Value))
	}
	return b.String()
}

// ParseInvocation parses the text of a snippet command. The text starts with
// `$` and a name (a letter or '_', then letters, digits, '_' or '-'), and then
// comes in one of two forms.
//
// The one-line form puts key=value pairs after the name:
//
//	$search q=hello world limit=3 lang="en us" expr='a=b'
//
// An unquoted value runs to the next whitespace-separated `key=` or the end of
// its line, and is trimmed, so q above is "hello world". A value in single or
// double quotes may contain spaces, `=` and newlines; inside it, a backslash
// escapes the quote character, a backslash and `=` (`\"`, `\\`, `\=`), and any
// other backslash is kept as it is, so Windows paths survive. Outside quotes,
// `\=` is a literal `=` that never starts a new key (`q=a b\=c` gives q="a b=c").
// Pairs may continue on further lines.
//
// The block form has the name alone on the first line and one `key: value`
// per following line; blank lines are ignored and each value runs to the end
// of its line, trimmed, with the same quote and `\=` rules.
//
// A key given twice, a missing name, an unterminated quote, or text that is
// not a pair is an error that says which form was expected.
func ParseInvocation(text string) (Invocation, error) {
	text = strings.TrimSpace(normalizeNewlines(text))
	rest, ok := strings.CutPrefix(text, "$")
	if !ok {
		return Invocation{}, fmt.Errorf("snippet invocation: expected '$name' at the start, got '%s'", excerpt(text))
	}
	n := nameLen(rest)
	if n == 0 {
		if rest == "" {
			return Invocation{}, fmt.Errorf("snippet invocation: expected a snippet name after '$', as in '$name key=value'")
		}
		return Invocation{}, fmt.Errorf("snippet invocation: expected a snippet name right after '$' (a letter or '_', then letters, digits, '_' or '-'), got '%s'", excerpt(rest))
	}
	inv := Invocation{Name: rest[:n]}
	rest = rest[n:]
	if rest != "" && !isSpace(rest[0]) {
		r, _ := utf8.DecodeRuneInString(rest)
		return Invocation{}, fmt.Errorf("snippet invocation: unexpected '%c' after '$%s': a snippet name is letters, digits, '_' and '-', followed by a space and key=value pairs", r, inv.Name)
	}
	var err error
	if first, more, multiline := strings.Cut(rest, "\n"); multiline && strings.TrimSpace(first) == "" {
		inv.Args, err = parseBlock(inv.Name, more)
	} else {
		inv.Args, err = parseInline(inv.Name, rest)
	}
	if err != nil {
		return Invocation{}, err
	}
	return inv, nil
}

// parseInline parses the one-line form: key=value pairs separated by
// whitespace (newlines included, so long invocations may wrap).
func parseInline(name, s string) ([]Arg, error) {
	var args []Arg
	p := 0
	for {
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p == len(s) {
			return args, nil
		}
		k := keyLen(s[p:])
		if k == 0 || p+k == len(s) || s[p+k] != '=' {
			return nil, fmt.Errorf("snippet invocation: expected key=value after '$%s', got '%s'", name, excerpt(token(s[p:])))
		}
		key := s[p : p+k]
		p += k + 1

		var value string
		q := p
		for q < len(s) && isBlank(s[q]) {
			q++
		}
		if q < len(s) && isQuote(s[q]) {
			v, n, ok := readQuoted(s[q:])
			if !ok {
				return nil, fmt.Errorf("snippet invocation: unterminated %c quote in the value of '%s': add the closing %c", s[q], key, s[q])
			}
			p = q + n
			if p < len(s) && !isSpace(s[p]) {
				return nil, fmt.Errorf("snippet invocation: expected a space after the closing quote of '%s', got '%s'", key, excerpt(token(s[p:])))
			}
			value = v
		} else {
			end := unquotedEnd(s, p)
			value = unescapeEquals(strings.TrimSpace(s[p:end]))
			p = end
		}
		if err := checkDuplicate(args, key); err != nil {
			return nil, err
		}
		args = append(args, Arg{Key: key, Value: value})
	}
}

// parseBlock parses the lines after a lone `$name`: one `key: value` per
// line. Line numbers in errors count the `$name` line as line 1.
func parseBlock(name, s string) ([]Arg, error) {
	var args []Arg
	for i, line := range strings.Split(s, "\n") {
		lineNo := i + 2
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		key, value, ok := strings.Cut(t, ":")
		key = strings.TrimSpace(key)
		if !ok || keyLen(key) != len(key) || key == "" {
			hint := ""
			if strings.Contains(t, "=") {
				hint = " (below '$" + name + "' each line is 'key: value'; key=value pairs go on the first line, after the name)"
			}
			return nil, fmt.Errorf("snippet invocation: expected 'key: value' on line %d of '$%s', got '%s'%s", lineNo, name, excerpt(t), hint)
		}
		value = strings.TrimSpace(value)
		if value != "" && isQuote(value[0]) {
			v, n, ok := readQuoted(value)
			if !ok {
				return nil, fmt.Errorf("snippet invocation: unterminated %c quote in the value of '%s' on line %d: add the closing %c", value[0], key, lineNo, value[0])
			}
			if n != len(value) {
				return nil, fmt.Errorf("snippet invocation: unexpected '%s' after the closing quote of '%s' on line %d", excerpt(value[n:]), key, lineNo)
			}
			value = v
		} else {
			value = unescapeEquals(value)
		}
		if err := checkDuplicate(args, key); err != nil {
			return nil, err
		}
		args = append(args, Arg{Key: key, Value: value})
	}
	return args, nil
}

func checkDuplicate(args []Arg, key string) error {
	for _, a := range args {
		if a.Key == key {
			return fmt.Errorf("snippet invocation: parameter '%s' is given twice", key)
		}
	}
	return nil
}

// unquotedEnd returns where an unquoted value starting at p ends: at the end
// of its line, or at the whitespace before the next `key=`. An escaped `\=`
// never ends a key, because '\' is not a key character.
func unquotedEnd(s string, p int) int {
	for i := p; i < len(s); {
		switch c := s[i]; {
		case c == '\n':
			return i
		case isBlank(c):
			j := i
			for j < len(s) && isBlank(s[j]) {
				j++
			}
			if k := keyLen(s[j:]); k > 0 && j+k < len(s) && s[j+k] == '=' {
				return i
			}
			i = j
		default:
			i++
		}
	}
	return len(s)
}

// readQuoted reads a quoted value at the start of s (s[0] is the quote). It
// returns the unescaped value and the number of bytes consumed, quotes
// included; ok is false when the closing quote is missing.
func readQuoted(s string) (value string, n int, ok bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (s[i+1] == q || s[i+1] == '\\' || s[i+1] == '=') {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == q {
			return b.String(), i + 1, true
		}
		b.WriteByte(c)
	}
	return "", 0, false
}

// quoteValue is the inverse of value parsing: bare when that reads back
// unchanged, double-quoted with `\"` and `\\` escapes otherwise.
func quoteValue(v string) string {
	bare := v != ""
	for _, r := range v {
		if unicode.IsSpace(r) || r == '"' || r == '\'' || r == '\\' || r == '=' {
			bare = false
			break
		}
	}
	if bare {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(v) + `"`
}

func unescapeEquals(s string) string {
	if !strings.Contains(s, `\=`) {
		return s
	}
	return strings.ReplaceAll(s, `\=`, "=")
}

// nameLen returns the length of the snippet name at the start of s:
// [A-Za-z_][A-Za-z0-9_-]*.
func nameLen(s string) int {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return 0
	}
	i := 1
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i]) || s[i] == '_' || s[i] == '-') {
		i++
	}
	return i
}

// keyLen is nameLen for parameter keys. Keys may contain '-' (declared names
// cannot) so that `max-results=3` reaches the unknown-parameter error and its
// did-you-mean instead of a parse error.
func keyLen(s string) int { return nameLen(s) }

// isValidName reports whether s is a whole snippet name.
func isValidName(s string) bool { return s != "" && nameLen(s) == len(s) }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isQuote(c byte) bool  { return c == '"' || c == '\'' }
func isBlank(c byte) bool  { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }
func isSpace(c byte) bool  { return isBlank(c) || c == '\n' || c == '\r' }

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// token returns s up to its first whitespace: the "got" part of an error.
func token(s string) string {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// excerpt shortens s to its first line and at most 40 characters, so that an
// error quoting user text stays one readable line.
func excerpt(s string) string {
	const limit = 40
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + "…"
	}
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return s
}
