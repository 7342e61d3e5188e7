package stdlib

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Python's regular expression syntax translated to Go's (RE2). Most of it
// is the same; what differs is rewritten here, so that Go's parser only
// ever sees what means the same in both: \d \w \s are Unicode-aware in a
// Python str pattern (ASCII in Go), $ also matches before a final
// newline, \Z is Go's \z, re.X comments and whitespace are stripped, and
// octal and \u escapes are spelled out. What RE2 cannot run in linear
// time (look-around, backreferences, atomic groups, possessive
// repeats, conditionals) is refused with an error that says how to
// rewrite it. Errors carry CPython's messages and positions.

// Python's flag values (re.I, re.M, …).
const (
	flagTemplate   = 1
	flagIgnoreCase = 2
	flagLocale     = 4
	flagMultiline  = 8
	flagDotAll     = 16
	flagUnicode    = 32
	flagVerbose    = 64
	flagDebug      = 128
	flagASCII      = 256
)

// translated is a pattern in Go's syntax and what the caller needs to
// know about it.
type translated struct {
	body   string   // Go syntax, without the global flags
	flags  int      // Python flags, inline global flags included
	groups int      // capturing groups
	names  []string // names[i] is group i's name, "" when unnamed
	// dollar: the pattern has $ outside multiline mode, which in Python
	// also matches before a newline that ends the text.
	dollar bool
	// endZ: the pattern has \Z, which must not match before that newline.
	endZ bool
	// context: the pattern looks at the character before where a search
	// starts (^, \A, \b, \B), so a search from pos > 0 must see it.
	context bool
	// wordBound: the pattern has \b or \B outside ASCII mode, which RE2
	// reads with ASCII word characters only (see re_vm.go).
	wordBound bool
	// backtrack: the pattern has look-around, backreferences or atomic
	// groups, which RE2 cannot run: it runs on re_backtrack.go's matcher,
	// which reads them from the Go syntax as named groups (btGroupName).
	backtrack bool
}

// reError is a pattern Python or RE2 rejects: re.error's message.
type reError struct{ msg string }

func (e *reError) Error() string { return e.msg }

func errAt(pos int, format string, args ...any) error {
	return &reError{fmt.Sprintf(format, args...) + fmt.Sprintf(" at position %d", pos)}
}

// unsupported is a construct RE2 cannot run: what it is and what to do.
func unsupported(pos int, what, instead string) error {
	return &reError{fmt.Sprintf("%s at position %d is not supported (RE2 runs in linear time): %s", what, pos, instead)}
}

type frame struct {
	pos   int // of the "("
	group int // the capturing group it opens, 0 for none
	out   int // where the group starts in the output
	// cond: a conditional group (?(id)yes|no); bar: its | was seen
	cond, bar bool
	// behind: a look-behind, opened when there were before groups
	behind            bool
	before            int
	verbose, ascii    bool
	multiline, dotAll bool
}

type translator struct {
	src   []rune
	i     int
	out   strings.Builder
	t     translated
	names map[string]int
	stack []frame
	nbt   int // special groups written for the backtracking matcher
	// forward: the first conditional group that refers to a group not yet
	// defined, and where: the group must exist by the end
	forward *[2]int
	// atomAt is where in the output the last item that can be repeated
	// starts, for a possessive repeat to wrap it in an atomic group.
	atomAt int
	// the current flags; i is left to Go, the rest is done here
	verbose, ascii, multiline, dotAll bool
	atom                              bool // the last item can be repeated
	start                             bool // nothing but global flags so far
	cls                               *charClasses
}

// translate reads a Python pattern with the given flags.
func translate(pattern string, flags int, cls *charClasses) (translated, error) {
	tr := &translator{src: []rune(pattern), names: map[string]int{}, start: true, cls: cls}
	tr.t.flags = flags
	tr.t.names = []string{""}
	tr.setFlags(flags)
	// (?x) at the start applies to the whole pattern: find the global
	// flags first, as CPython does.
	if err := tr.run(); err != nil {
		return translated{}, err
	}
	if f := tr.forward; f != nil && f[0] > tr.t.groups {
		return translated{}, errAt(f[1], "invalid group reference %d", f[0])
	}
	if tr.t.flags&flagASCII != 0 && tr.t.flags&flagUnicode != 0 {
		return translated{}, &reError{"ASCII and UNICODE flags are incompatible"}
	}
	if tr.t.flags&flagLocale != 0 {
		return translated{}, &reError{"cannot use LOCALE flag with a str pattern"}
	}
	if tr.t.flags&flagASCII == 0 {
		tr.t.flags |= flagUnicode
	}
	tr.t.body = tr.out.String()
	return tr.t, nil
}

func (tr *translator) setFlags(f int) {
	tr.verbose = f&flagVerbose != 0
	tr.ascii = f&flagASCII != 0
	tr.multiline = f&flagMultiline != 0
	tr.dotAll = f&flagDotAll != 0
}

func (tr *translator) peek(k int) rune {
	if tr.i+k < len(tr.src) {
		return tr.src[tr.i+k]
	}
	return -1
}

func (tr *translator) run() error {
	for tr.i < len(tr.src) {
		c := tr.src[tr.i]
		if tr.verbose && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			tr.i++
			continue
		}
		if tr.verbose && c == '#' {
			for tr.i < len(tr.src) && tr.src[tr.i] != '\n' {
				tr.i++
			}
			continue
		}
		if c != '(' {
			tr.start = false
		}
		at := tr.out.Len()
		switch c {
		case '\\':
			if err := tr.escape(); err != nil {
				return err
			}
		case '[':
			if err := tr.class(); err != nil {
				return err
			}
			tr.atom = true
		case '(':
			if err := tr.group(); err != nil {
				return err
			}
		case ')':
			if len(tr.stack) == 0 {
				return errAt(tr.i, "unbalanced parenthesis")
			}
			f := tr.stack[len(tr.stack)-1]
			tr.stack = tr.stack[:len(tr.stack)-1]
			tr.verbose, tr.ascii, tr.multiline, tr.dotAll = f.verbose, f.ascii, f.multiline, f.dotAll
			if f.cond {
				tr.out.WriteByte(')') // the branch's group
			}
			tr.out.WriteByte(')')
			tr.i++
			tr.atom = true
			at = f.out
		case '|':
			if k := len(tr.stack) - 1; k >= 0 && tr.stack[k].cond {
				// the second branch of a conditional group, in a group of
				// its own that Go's parser cannot merge with the first
				if tr.stack[k].bar {
					return errAt(tr.i, "conditional backref with more than two branches")
				}
				tr.stack[k].bar = true
				tr.nbt++
				fmt.Fprintf(&tr.out, ")|(?P<%s>", btGroupName(btBranch, 0, tr.nbt))
			} else {
				tr.out.WriteByte('|')
			}
			tr.i++
			tr.atom = false
		case '.':
			if tr.dotAll {
				tr.out.WriteString(`(?s:.)`)
			} else {
				tr.out.WriteString(`(?-s:.)`)
			}
			tr.i++
			tr.atom = true
		case '^':
			if tr.multiline {
				tr.out.WriteString(`(?m:^)`)
			} else {
				tr.out.WriteString(`\A`)
			}
			tr.t.context = true
			tr.i++
			tr.atom = false
		case '$':
			if tr.multiline {
				tr.out.WriteString(`(?m:$)`)
			} else {
				// Go's $ outside multiline mode is \z; written as $, the
				// backtracking matcher sees it is Python's $ (WasDollar).
				tr.out.WriteString(`(?-m:$)`)
				tr.t.dollar = true
			}
			tr.i++
			tr.atom = false
		case '*', '+', '?':
			if err := tr.repeat(string(c)); err != nil {
				return err
			}
		case '{':
			if q, n, ok, err := tr.braces(); err != nil {
				return err
			} else if ok {
				if err := tr.repeatN(q, n); err != nil {
					return err
				}
				continue
			}
			tr.out.WriteString(`\{`)
			tr.i++
			tr.atom = true
		default:
			tr.literal(c, false)
			tr.i++
			tr.atom = true
		}
		if tr.atom {
			tr.atomAt = at
		}
	}
	if len(tr.stack) > 0 {
		return errAt(tr.stack[len(tr.stack)-1].pos, "missing ), unterminated subpattern")
	}
	return nil
}

// repeat writes a quantifier (of len n runes in the source) and what
// may follow it: ? for lazy; + (possessive) is refused.
func (tr *translator) repeat(q string) error {
	return tr.repeatN(q, 1)
}

func (tr *translator) repeatN(q string, n int) error {
	if !tr.atom {
		if tr.i == 0 || !tr.afterQuantifier() {
			return errAt(tr.i, "nothing to repeat")
		}
		return errAt(tr.i, "multiple repeat")
	}
	tr.out.WriteString(q)
	tr.i += n
	switch tr.peek(0) {
	case '?':
		tr.out.WriteByte('?')
		tr.i++
	case '+':
		// possessive: the repeat in an atomic group
		tr.i++
		tr.t.backtrack = true
		tr.nbt++
		s := tr.out.String()
		tr.out.Reset()
		tr.out.WriteString(s[:tr.atomAt] + "(?P<" + btGroupName(btAtomic, 0, tr.nbt) + ">" + s[tr.atomAt:] + ")")
	}
	tr.atom = false
	return nil
}

// afterQuantifier reports whether the item before i is a quantifier.
func (tr *translator) afterQuantifier() bool {
	p := tr.src[tr.i-1]
	return p == '*' || p == '+' || p == '?' || p == '}'
}

// braces reads {m}, {m,}, {,n}, {m,n} at i; ok is false when the brace
// is a literal, as in Python.
func (tr *translator) braces() (q string, n int, ok bool, err error) {
	j := tr.i + 1
	lo, hi := "", ""
	for j < len(tr.src) && tr.src[j] >= '0' && tr.src[j] <= '9' {
		lo += string(tr.src[j])
		j++
	}
	comma := false
	if j < len(tr.src) && tr.src[j] == ',' {
		comma = true
		j++
		for j < len(tr.src) && tr.src[j] >= '0' && tr.src[j] <= '9' {
			hi += string(tr.src[j])
			j++
		}
	}
	if j >= len(tr.src) || tr.src[j] != '}' || (lo == "" && hi == "" && !comma) || (lo == "" && !comma) {
		return "", 0, false, nil
	}
	if lo == "" {
		lo = "0"
	}
	m, _ := strconv.Atoi(lo)
	switch {
	case !comma:
		q = "{" + lo + "}"
	case hi == "":
		q = "{" + lo + ",}"
	default:
		x, _ := strconv.Atoi(hi)
		if x < m {
			return "", 0, false, errAt(tr.i+1, "min repeat greater than max repeat")
		}
		q = "{" + lo + "," + hi + "}"
	}
	return q, j + 1 - tr.i, true, nil
}

// literal writes one character so that Go reads it as itself.
func (tr *translator) literal(c rune, inClass bool) {
	switch {
	case c < 0x80 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_'):
		tr.out.WriteRune(c)
	case c >= 0x80 && unicode.IsPrint(c) && !inClass:
		tr.out.WriteRune(c)
	default:
		fmt.Fprintf(&tr.out, `\x{%x}`, c)
	}
}

func (tr *translator) group() error {
	open := tr.i
	wasAtom := tr.atom
	tr.atom = false
	f := frame{pos: open, out: tr.out.Len(), verbose: tr.verbose, ascii: tr.ascii, multiline: tr.multiline, dotAll: tr.dotAll}
	if tr.peek(1) != '?' {
		tr.t.groups++
		tr.t.names = append(tr.t.names, "")
		tr.out.WriteByte('(')
		f.group = tr.t.groups
		tr.stack = append(tr.stack, f)
		tr.i++
		tr.start = false
		return nil
	}
	tr.i += 2
	c := tr.peek(0)
	switch {
	case c == 'P' && tr.peek(1) == '<':
		tr.i += 2
		end := tr.i
		for end < len(tr.src) && tr.src[end] != '>' {
			end++
		}
		if end >= len(tr.src) {
			if end == tr.i {
				return errAt(tr.i, "missing group name")
			}
			return errAt(tr.i, "missing >, unterminated name")
		}
		name := string(tr.src[tr.i:end])
		if name == "" {
			return errAt(tr.i, "missing group name")
		}
		if !isIdentifier(name) {
			return errAt(tr.i, "bad character in group name %s", pyQuote(name))
		}
		if was, dup := tr.names[name]; dup {
			return errAt(tr.i, "redefinition of group name %s as group %d; was group %d", pyQuote(name), tr.t.groups+1, was)
		}
		tr.t.groups++
		tr.names[name] = tr.t.groups
		tr.t.names = append(tr.t.names, name)
		f.group = tr.t.groups
		// Go accepts only ASCII word characters in names: the name is
		// kept here, Go gets an unnamed group.
		tr.out.WriteByte('(')
		tr.i = end + 1
	case c == 'P' && tr.peek(1) == '=':
		tr.i += 2
		end := tr.i
		for end < len(tr.src) && tr.src[end] != ')' {
			end++
		}
		name := string(tr.src[tr.i:end])
		if name == "" {
			return errAt(tr.i, "missing group name")
		}
		if end >= len(tr.src) {
			return errAt(tr.i, "missing ), unterminated name")
		}
		if !isIdentifier(name) {
			return errAt(tr.i, "bad character in group name %s", pyQuote(name))
		}
		g, ok := tr.names[name]
		if !ok {
			return errAt(tr.i, "unknown group name %s", pyQuote(name))
		}
		if tr.open(g) {
			return errAt(tr.i, "cannot refer to an open group")
		}
		if err := tr.checkBehind(g, end+1); err != nil {
			return err
		}
		tr.backref(g)
		tr.i = end + 1
		tr.atom = true
		return nil
	case c == 'P':
		if c2 := tr.peek(1); c2 >= 0 {
			return errAt(open+1, "unknown extension ?P%c", c2)
		}
		return errAt(tr.i, "unexpected end of pattern")
	case c == ':':
		tr.out.WriteString("(?:")
		tr.i++
	case c == '#':
		for tr.i < len(tr.src) && tr.src[tr.i] != ')' {
			tr.i++
		}
		if tr.i >= len(tr.src) {
			return errAt(open, "missing ), unterminated comment")
		}
		tr.i++
		tr.atom = wasAtom // a comment is nothing: x(?#c){2} repeats x
		return nil
	case c == '=':
		tr.special(btAhead, 1)
	case c == '!':
		tr.special(btNotAhead, 1)
	case c == '<' && tr.peek(1) == '=':
		tr.special(btBehind, 2)
		f.behind, f.before = true, tr.t.groups
	case c == '<' && tr.peek(1) == '!':
		tr.special(btNotBehind, 2)
		f.behind, f.before = true, tr.t.groups
	case c == '>':
		tr.special(btAtomic, 1)
	case c == '(':
		tr.i++
		end := tr.i
		for end < len(tr.src) && tr.src[end] != ')' {
			end++
		}
		if end >= len(tr.src) {
			return errAt(tr.i, "missing ), unterminated name")
		}
		id := string(tr.src[tr.i:end])
		var g int
		switch {
		case id == "":
			return errAt(tr.i, "missing group name")
		case isDigits(id):
			g, _ = strconv.Atoi(id)
			if g == 0 {
				return errAt(tr.i, "bad group number")
			}
			if err := tr.checkBehind(g, end+1); err != nil {
				return err
			}
			if g > tr.t.groups && tr.forward == nil {
				// a group defined later is allowed: checked at the end
				tr.forward = &[2]int{g, tr.i}
			}
		case !isIdentifier(id):
			return errAt(tr.i, "bad character in group name %s", pyQuote(id))
		default:
			var ok bool
			if g, ok = tr.names[id]; !ok {
				return errAt(tr.i, "unknown group name %s", pyQuote(id))
			}
			if err := tr.checkBehind(g, end+1); err != nil {
				return err
			}
		}
		tr.t.backtrack = true
		tr.nbt += 2
		fmt.Fprintf(&tr.out, "(?P<%s>(?P<%s>", btGroupName(btCond, g, tr.nbt-1), btGroupName(btBranch, 0, tr.nbt))
		tr.i = end + 1
		f.cond = true
	case strings.ContainsRune("aiLmsux-", c):
		return tr.flagGroup(open, f)
	case c < 0:
		return errAt(tr.i, "unexpected end of pattern")
	default:
		if c == '<' {
			return errAt(open+1, "unknown extension ?<%c", tr.peek(1))
		}
		return errAt(open+1, "unknown extension ?%c", c)
	}
	tr.stack = append(tr.stack, f)
	tr.start = false
	return nil
}

// special writes the start of a look-around or atomic group (of n
// runes after the "(?") as a named Go group the backtracking matcher
// knows.
func (tr *translator) special(kind byte, n int) {
	tr.t.backtrack = true
	tr.nbt++
	fmt.Fprintf(&tr.out, "(?P<%s>", btGroupName(kind, 0, tr.nbt))
	tr.i += n
}

// backref writes a backreference to group g: an empty named Go group.
func (tr *translator) backref(g int) {
	tr.t.backtrack = true
	tr.nbt++
	fmt.Fprintf(&tr.out, "(?P<%s>)", btGroupName(btBackref, g, tr.nbt))
}

// checkBehind is CPython's check of a reference to group g (ending at
// source position end) inside a look-behind: the group must be closed
// and defined before the look-behind.
func (tr *translator) checkBehind(g, end int) error {
	for k := len(tr.stack) - 1; k >= 0; k-- {
		if f := tr.stack[k]; f.behind {
			if g > tr.t.groups || tr.open(g) {
				return errAt(end, "cannot refer to an open group")
			}
			if g > f.before {
				return errAt(end, "cannot refer to group defined in the same lookbehind subpattern")
			}
			return nil
		}
	}
	return nil
}

// open reports whether group g is still open (a reference to it is an
// error in Python).
func (tr *translator) open(g int) bool {
	for _, f := range tr.stack {
		if f.group == g {
			return true
		}
	}
	return false
}

var flagLetters = map[rune]int{'a': flagASCII, 'i': flagIgnoreCase, 'L': flagLocale, 'm': flagMultiline,
	's': flagDotAll, 'u': flagUnicode, 'x': flagVerbose}

// flagGroup reads (?aiLmsux) and (?aiLmsux-imsx:...).
func (tr *translator) flagGroup(open int, f frame) error {
	on, off := 0, 0
	for {
		c := tr.peek(0)
		v, ok := flagLetters[c]
		if !ok {
			break
		}
		on |= v
		tr.i++
	}
	if tr.peek(0) == '-' {
		tr.i++
		for {
			c := tr.peek(0)
			v, ok := flagLetters[c]
			if !ok {
				break
			}
			if v&(flagASCII|flagLocale|flagUnicode) != 0 {
				return errAt(tr.i+1, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
			}
			off |= v
			tr.i++
		}
		if off == 0 {
			if unicode.IsLetter(tr.peek(0)) {
				return errAt(tr.i, "unknown flag")
			}
			return errAt(tr.i, "missing flag")
		}
	}
	switch tr.peek(0) {
	case ')':
		if off != 0 {
			return errAt(tr.i, "missing :")
		}
		if !tr.start || len(tr.stack) > 0 {
			return errAt(open, "global flags not at the start of the expression")
		}
		tr.i++
		tr.t.flags |= on
		tr.setFlags(tr.t.flags)
		return nil
	case ':':
	case -1:
		return errAt(tr.i, "missing -, : or )")
	default:
		if !unicode.IsLetter(tr.peek(0)) {
			return errAt(tr.i, "missing -, : or )")
		}
		return errAt(tr.i, "unknown flag")
	}
	tr.i++
	tr.stack = append(tr.stack, f)
	tr.start = false
	goFlags := ""
	if on&flagIgnoreCase != 0 {
		goFlags += "i"
	}
	if off&flagIgnoreCase != 0 {
		goFlags += "-i"
	}
	if goFlags != "" {
		tr.out.WriteString("(?" + goFlags + ":")
	} else {
		tr.out.WriteString("(?:")
	}
	apply := func(v int, set *bool) {
		if on&v != 0 {
			*set = true
		}
		if off&v != 0 {
			*set = false
		}
	}
	apply(flagVerbose, &tr.verbose)
	apply(flagMultiline, &tr.multiline)
	apply(flagDotAll, &tr.dotAll)
	apply(flagASCII, &tr.ascii)
	if on&flagUnicode != 0 {
		tr.ascii = false
	}
	return nil
}

// escape translates a backslash sequence outside a character class.
func (tr *translator) escape() error {
	at := tr.i
	if tr.i+1 >= len(tr.src) {
		return errAt(at, "bad escape (end of pattern)")
	}
	c := tr.src[tr.i+1]
	tr.i += 2
	tr.atom = true
	switch c {
	case 'd', 'D', 'w', 'W', 's', 'S':
		tr.out.WriteString(tr.cls.perl(c, tr.ascii, false))
		return nil
	case 'b', 'B':
		tr.out.WriteString(`\` + string(c))
		tr.t.context = true
		tr.t.wordBound = tr.t.wordBound || !tr.ascii
		tr.atom = false
		return nil
	case 'A':
		tr.out.WriteString(`\A`)
		tr.t.context = true
		tr.atom = false
		return nil
	case 'Z':
		tr.out.WriteString(`\z`)
		tr.t.endZ = true
		tr.atom = false
		return nil
	}
	if c >= '1' && c <= '9' {
		if isOct(c) && isOct(tr.peek(0)) && isOct(tr.peek(1)) {
			return tr.octal(at, c)
		}
		j := tr.i
		for j < len(tr.src) && j < tr.i+1 && tr.src[j] >= '0' && tr.src[j] <= '9' {
			j++
		}
		g, _ := strconv.Atoi(string(tr.src[at+1 : j]))
		tr.i = j
		if g > tr.t.groups {
			return errAt(at+1, "invalid group reference %d", g)
		}
		if tr.open(g) {
			return errAt(at, "cannot refer to an open group")
		}
		if err := tr.checkBehind(g, j); err != nil {
			return err
		}
		tr.backref(g)
		return nil
	}
	r, err := tr.charEscape(at, c)
	if err != nil {
		return err
	}
	tr.literal(r, false)
	return nil
}

func isOct(c rune) bool { return c >= '0' && c <= '7' }

// octal reads \ooo (the first digit already read) or \0, \0o, \0oo.
func (tr *translator) octal(at int, first rune) error {
	v := int(first - '0')
	for k := 0; k < 2 && isOct(tr.peek(0)); k++ {
		v = v*8 + int(tr.src[tr.i]-'0')
		tr.i++
	}
	if v > 0o377 {
		return errAt(at, "octal escape value \\%s outside of range 0-0o377", string(tr.src[at+1:tr.i]))
	}
	tr.literal(rune(v), false)
	return nil
}

// charEscape reads the character a simple escape stands for (c, already
// consumed, follows the backslash at at).
func (tr *translator) charEscape(at int, c rune) (rune, error) {
	switch c {
	case 'a':
		return '\a', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'v':
		return '\v', nil
	case '0':
		v := 0
		for k := 0; k < 2 && isOct(tr.peek(0)); k++ {
			v = v*8 + int(tr.src[tr.i]-'0')
			tr.i++
		}
		return rune(v), nil
	case 'x', 'u', 'U':
		n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[c]
		digits := ""
		for k := 0; k < n && isHex(tr.peek(0)); k++ {
			digits += string(tr.src[tr.i])
			tr.i++
		}
		if len(digits) < n {
			return 0, errAt(at, "incomplete escape \\%c%s", c, digits)
		}
		v, _ := strconv.ParseUint(digits, 16, 32)
		if v > unicode.MaxRune {
			return 0, errAt(at, "bad escape \\%c%s", c, digits)
		}
		return rune(v), nil
	case 'N':
		return 0, &reError{fmt.Sprintf("named character \\N{...} at position %d is not supported: write the character itself", at)}
	}
	if c < 0x80 && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
		return 0, errAt(at, "bad escape \\%c", c)
	}
	return c, nil
}

func isHex(c rune) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// class translates [...] starting at i.
func (tr *translator) class() error {
	open := tr.i
	tr.i++
	var b strings.Builder
	b.WriteByte('[')
	if tr.peek(0) == '^' {
		b.WriteByte('^')
		tr.i++
	}
	first := true
	for {
		if tr.i >= len(tr.src) {
			return errAt(open, "unterminated character set")
		}
		c := tr.src[tr.i]
		if c == ']' && !first {
			tr.i++
			break
		}
		first = false
		itemAt := tr.i
		lo, set, err := tr.classItem()
		if err != nil {
			return err
		}
		if tr.peek(0) == '-' && tr.peek(1) != ']' && tr.peek(1) >= 0 {
			tr.i++
			hiAt := tr.i
			hi, hiSet, err := tr.classItem()
			if err != nil {
				return err
			}
			if set != "" || hiSet != "" {
				return errAt(itemAt, "bad character range %s", string(tr.src[itemAt:tr.i]))
			}
			if hi < lo {
				return errAt(itemAt, "bad character range %s", string(tr.src[itemAt:tr.i]))
			}
			_ = hiAt
			fmt.Fprintf(&b, `\x{%x}-\x{%x}`, lo, hi)
			continue
		}
		if set != "" {
			b.WriteString(set)
		} else {
			fmt.Fprintf(&b, `\x{%x}`, lo)
		}
	}
	b.WriteByte(']')
	tr.out.WriteString(b.String())
	return nil
}

// classItem reads one character of a class, or a class escape (set).
func (tr *translator) classItem() (rune, string, error) {
	c := tr.src[tr.i]
	if c != '\\' {
		tr.i++
		return c, "", nil
	}
	at := tr.i
	if tr.i+1 >= len(tr.src) {
		return 0, "", errAt(at, "bad escape (end of pattern)")
	}
	e := tr.src[tr.i+1]
	tr.i += 2
	switch e {
	case 'd', 'D', 'w', 'W', 's', 'S':
		return 0, tr.cls.perl(e, tr.ascii, true), nil
	case 'b':
		return '\b', "", nil
	}
	if isOct(e) {
		v := int(e - '0')
		for k := 0; k < 2 && isOct(tr.peek(0)); k++ {
			v = v*8 + int(tr.src[tr.i]-'0')
			tr.i++
		}
		if v > 0o377 {
			return 0, "", errAt(at, "octal escape value \\%s outside of range 0-0o377", string(tr.src[at+1:tr.i]))
		}
		return rune(v), "", nil
	}
	if e == '8' || e == '9' {
		return 0, "", errAt(at, "bad escape \\%c", e)
	}
	r, err := tr.charEscape(at, e)
	return r, "", err
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r))) {
			return false
		}
	}
	return s != ""
}

// pyQuote is Python's repr of a short text.
func pyQuote(s string) string {
	if !strings.Contains(s, "'") || strings.Contains(s, `"`) {
		return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
	}
	return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"`
}

// charClasses are Go spellings of Python's \d \w \s and their
// complements, made once per module.
type charClasses struct {
	once       sync.Once
	notW, notS string // complements, spelled as ranges for use inside [...]
}

const (
	uniW = `\p{L}\p{N}_`
	uniS = `\t-\r\x1c-\x20\x85\p{Z}`
)

func (cc *charClasses) perl(c rune, ascii, inClass bool) string {
	var in string // the class's members, spelled for inside [...]
	neg := false
	switch c {
	case 'd', 'D':
		if ascii {
			in = `0-9`
		} else {
			in = `\p{Nd}`
		}
		neg = c == 'D'
	case 'w', 'W':
		if ascii {
			in = `0-9A-Za-z_`
		} else {
			in = uniW
		}
		neg = c == 'W'
	case 's', 'S':
		if ascii {
			in = `\t-\r `
		} else {
			in = uniS
		}
		neg = c == 'S'
	}
	if !inClass {
		if neg {
			return "[^" + in + "]"
		}
		return "[" + in + "]"
	}
	if !neg {
		return in
	}
	switch {
	case c == 'D' && !ascii:
		return `\P{Nd}`
	case c == 'D':
		return `\x00-/:-\x{10ffff}`
	case c == 'W' && ascii:
		return `\x00-/:-@\[-\x5e\x60\{-\x{10ffff}`
	case c == 'S' && ascii:
		return `\x00-\x08\x0e-\x1f!-\x{10ffff}`
	}
	cc.once.Do(cc.build)
	if c == 'W' {
		return cc.notW
	}
	return cc.notS
}

// build spells the complements of Unicode \w and \s as ranges.
func (cc *charClasses) build() {
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.In(r, unicode.N) }
	space := func(r rune) bool {
		return r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x20 || r == 0x85 || unicode.In(r, unicode.Z)
	}
	cc.notW = complement(word)
	cc.notS = complement(space)
}

func complement(in func(rune) bool) string {
	var b strings.Builder
	start := rune(-1)
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		out := r <= unicode.MaxRune && !in(r) && !(r >= 0xd800 && r <= 0xdfff)
		switch {
		case out && start < 0:
			start = r
		case !out && start >= 0:
			fmt.Fprintf(&b, `\x{%x}-\x{%x}`, start, r-1)
			start = -1
		}
	}
	return b.String()
}

// runeLen is the length in characters of s's first n bytes.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
