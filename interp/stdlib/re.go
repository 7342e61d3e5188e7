package stdlib

import (
	"container/list"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The re module: Python's API over Go's regexp (RE2), which runs every
// pattern in time linear in the text. Patterns are translated from
// Python's syntax (re_syntax.go); positions are characters, as in
// Python. Every search charges the run's budget for the text it reads,
// and long texts are read through a reader that stops when the budget is
// spent, so no call outlives its run's step, time or memory limits.

// reCacheSize bounds the compiled patterns kept per module value.
const reCacheSize = 256

// bigText is the length above which a search reads the text through a
// budget-checking reader rather than all at once.
const bigText = 1 << 16

type reModule struct {
	errClass *pyrt.ExcClass
	classes  charClasses

	mu    sync.Mutex // guards the cache, shared by concurrent runs
	cache map[cacheKey]*list.Element
	lru   list.List // of *Pattern, most recent first
}

type cacheKey struct {
	pattern string
	flags   int
}

// reErrorClass is re.error, which strptime raises too (a format that
// names a directive twice makes a pattern that defines a group twice).
var reErrorClass = pyrt.NewModuleClass("re.error", "Exception")

// RE is the re module. Its value is built once and shared: its state is
// the cache of compiled patterns, guarded by a mutex.
func RE() *starlarkstruct.Module {
	r := &reModule{errClass: reErrorClass, cache: map[cacheKey]*list.Element{}}
	fn := func(name string, f func(*reModule, *starlark.Thread, string, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return interp.NewBuiltin("re."+name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(r, thread, name, args, kwargs)
		})
	}
	members := starlark.StringDict{
		"compile":   fn("compile", (*reModule).compileFn),
		"search":    fn("search", (*reModule).call),
		"match":     fn("match", (*reModule).call),
		"fullmatch": fn("fullmatch", (*reModule).call),
		"findall":   fn("findall", (*reModule).call),
		"finditer":  fn("finditer", (*reModule).call),
		"split":     fn("split", (*reModule).call),
		"sub":       fn("sub", (*reModule).call),
		"subn":      fn("subn", (*reModule).call),
		"escape":    fn("escape", (*reModule).escapeFn),
		"purge":     fn("purge", (*reModule).purgeFn),
		"error":     r.errClass,
		"NOFLAG":    starlark.MakeInt(0),
		"Pattern":   patternClass,
		"Match":     matchClass,
	}
	for _, f := range []struct {
		short, long string
		v           int
	}{{"I", "IGNORECASE", flagIgnoreCase}, {"L", "LOCALE", flagLocale}, {"M", "MULTILINE", flagMultiline},
		{"S", "DOTALL", flagDotAll}, {"U", "UNICODE", flagUnicode}, {"X", "VERBOSE", flagVerbose},
		{"A", "ASCII", flagASCII}, {"T", "TEMPLATE", flagTemplate}, {"DEBUG", "DEBUG", flagDebug}} {
		members[f.short] = starlark.MakeInt(f.v)
		members[f.long] = starlark.MakeInt(f.v)
	}
	return &starlarkstruct.Module{Name: "re", Members: members}
}

// fail is a re.error raised to the program.
func (r *reModule) fail(msg string) error { return r.failIn(msg, starlark.None) }

// atPosition is the end of a message of re.error that names where in
// the pattern the error is.
var atPosition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` at position (\d+)$`) })

// failIn is a re.error for pattern, with CPython's attributes: msg (the
// message without its position), pattern, pos, lineno and colno (None
// when the message names no position).
func (r *reModule) failIn(msg string, pattern starlark.Value) error {
	attrs := starlark.StringDict{"msg": interp.MakeString(msg), "pattern": pattern,
		"pos": starlark.None, "lineno": starlark.None, "colno": starlark.None}
	if m := atPosition().FindStringSubmatchIndex(msg); m != nil {
		pos, _ := strconv.Atoi(msg[m[2]:m[3]])
		attrs["msg"] = interp.MakeString(msg[:m[0]])
		attrs["pos"] = starlark.MakeInt(pos)
		line, col := 1, pos+1
		if src, ok := interp.AsText(pattern); ok && pos <= len([]rune(src)) {
			before := string([]rune(src)[:pos])
			line = strings.Count(before, "\n") + 1
			col = len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1
		}
		attrs["lineno"], attrs["colno"] = starlark.MakeInt(line), starlark.MakeInt(col)
		if src, ok := interp.AsText(pattern); ok && strings.Contains(src, "\n") {
			msg += fmt.Sprintf(" (line %d, column %d)", line, col)
		}
	}
	return r.errClass.Raise(msg, attrs)
}

// compile returns the pattern for text and flags, from the cache when
// it was compiled before.
func (r *reModule) compile(b *interp.Budget, pattern starlark.Value, flags int) (*Pattern, error) {
	if p, ok := pattern.(*Pattern); ok {
		if flags != 0 {
			return nil, pyrt.Errorf("ValueError", "cannot process flags argument with a compiled pattern")
		}
		return p, nil
	}
	src, ok := interp.AsText(pattern)
	if !ok {
		if _, isBytes := interp.AsBytes(pattern); isBytes {
			return nil, pyrt.Errorf("TypeError", "bytes patterns are not supported: decode the pattern and the text to str")
		}
		return nil, pyrt.Errorf("TypeError", "first argument must be string or compiled pattern")
	}
	key := cacheKey{src, flags}
	r.mu.Lock()
	if e, ok := r.cache[key]; ok {
		r.lru.MoveToFront(e)
		r.mu.Unlock()
		return e.Value.(*Pattern), nil
	}
	r.mu.Unlock()
	if err := b.Charge(uint64(len(src)) * 8); err != nil { // compiling is a few passes per character
		return nil, err
	}
	p, err := r.newPattern(src, pattern, flags)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.cache[key]; ok { // compiled meanwhile by another run
		return e.Value.(*Pattern), nil
	}
	r.cache[key] = r.lru.PushFront(p)
	if r.lru.Len() > reCacheSize {
		old := r.lru.Back()
		r.lru.Remove(old)
		op := old.Value.(*Pattern)
		delete(r.cache, cacheKey{op.src, op.given})
	}
	return p, nil
}

func (r *reModule) newPattern(src string, srcVal starlark.Value, flags int) (*Pattern, error) {
	t, err := translate(src, flags, &r.classes)
	if err != nil {
		var re *reError
		if errors.As(err, &re) {
			if strings.HasPrefix(re.msg, "ASCII and UNICODE") || strings.HasPrefix(re.msg, "cannot use LOCALE") {
				return nil, pyrt.Errorf("ValueError", "%s", re.msg)
			}
			return nil, r.failIn(re.msg, srcVal)
		}
		return nil, err
	}
	p := &Pattern{r: r, src: src, srcVal: srcVal, given: flags, t: t}
	p.prefix = ""
	if t.flags&flagIgnoreCase != 0 {
		p.prefix = "(?i)"
	}
	if t.backtrack {
		if _, err := p.btProgram(); err != nil {
			return nil, err
		}
		return p, nil
	}
	if _, err := p.form(formSearch, false); err != nil {
		return nil, err
	}
	return p, nil
}

// The ways a pattern is run.
const (
	formSearch = iota
	formMatch
	formFull
	nForms
)

// Pattern is a compiled pattern (re.Pattern). It is immutable once made,
// apart from its Go regexps, compiled once each on first use.
type Pattern struct {
	r      *reModule
	src    string
	srcVal starlark.Value
	given  int // flags as passed to compile, the cache key
	t      translated
	prefix string // Go flags

	once [nForms][2]sync.Once
	res  [nForms][2]*regexp.Regexp
	errs [nForms][2]error
	src2 [nForms][2]string // the Go pattern of each form, for the VM

	vmOnce [nForms][2]sync.Once
	progs  [nForms][2]*syntax.Prog
	ncaps  [nForms][2]int

	// the program of the backtracking matcher, for a pattern with
	// look-around or backreferences (re_backtrack.go)
	btOnce sync.Once
	bt     *btProg
	btErr  error
}

// vmProg is the RE2 program of a form, for the VM (re_vm.go).
func (p *Pattern) vmProg(kind, c int) (*syntax.Prog, int, error) {
	var err error
	p.vmOnce[kind][c].Do(func() {
		var re *syntax.Regexp
		if re, err = syntax.Parse(p.src2[kind][c], syntax.Perl); err != nil {
			return
		}
		n := 2 * (re.MaxCap() + 1)
		var prog *syntax.Prog
		if prog, err = syntax.Compile(re.Simplify()); err != nil {
			return
		}
		p.progs[kind][c], p.ncaps[kind][c] = prog, n
	})
	if err != nil {
		return nil, 0, p.r.goError(err)
	}
	return p.progs[kind][c], p.ncaps[kind][c], nil
}

// form returns the Go regexp for a way of running the pattern. With
// context, the regexp starts one character before where the search
// starts, so that ^, \b and \B see it; the user's groups then start at
// submatch 2.
func (p *Pattern) form(kind int, context bool) (*regexp.Regexp, error) {
	c := 0
	if context {
		c = 1
	}
	p.once[kind][c].Do(func() {
		body := "(?:" + p.t.body + ")"
		switch kind {
		case formMatch:
			body = `\A` + body
		case formFull:
			body = `\A` + body + `\z`
		}
		if context {
			switch kind {
			case formSearch:
				body = `\A(?s:.)(?s:.*?)(` + body + `)`
			default:
				body = `\A(?s:.)(` + strings.TrimPrefix(body, `\A`) + `)`
			}
		}
		re, err := regexp.Compile(p.prefix + body)
		if err != nil {
			err = p.r.goError(err)
		}
		p.res[kind][c], p.errs[kind][c] = re, err
		p.src2[kind][c] = p.prefix + body
	})
	return p.res[kind][c], p.errs[kind][c]
}

// goError is a pattern Go refused after translation: the limits of
// RE2, which Python does not have.
func (r *reModule) goError(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrInvalidRepeatSize:
			return r.fail("repeat count above 1000 is not supported (RE2 limit): use a smaller count, or check the length in code")
		case syntax.ErrNestingDepth, syntax.ErrLarge:
			return r.fail("pattern too large or deeply nested for RE2: split it into simpler patterns")
		}
		return r.fail(fmt.Sprintf("pattern not supported by RE2: %s", se.Code))
	}
	return r.fail(err.Error())
}

var (
	_ starlark.HasAttrs = (*Pattern)(nil)
	_ starlark.HasAttrs = (*Match)(nil)
	_ starlark.Mapping  = (*Match)(nil)
)

func (p *Pattern) String() string {
	s := "re.compile(" + interp.QuoteString(p.src)
	if f := p.t.flags &^ flagUnicode; f != 0 {
		s += ", " + flagNames(f)
	}
	return s + ")"
}

func flagNames(f int) string {
	var parts []string
	for _, n := range []struct {
		v    int
		name string
	}{{flagTemplate, "TEMPLATE"}, {flagIgnoreCase, "IGNORECASE"}, {flagLocale, "LOCALE"}, {flagMultiline, "MULTILINE"},
		{flagDotAll, "DOTALL"}, {flagUnicode, "UNICODE"}, {flagVerbose, "VERBOSE"}, {flagDebug, "DEBUG"}, {flagASCII, "ASCII"}} {
		if f&n.v != 0 {
			parts = append(parts, "re."+n.name)
			f &^= n.v
		}
	}
	if f != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", f))
	}
	return strings.Join(parts, "|")
}

func (p *Pattern) Type() string          { return "re.Pattern" }
func (p *Pattern) Freeze()               {}
func (p *Pattern) Truth() starlark.Bool  { return true }
func (p *Pattern) Hash() (uint32, error) { return starlark.String(p.src).Hash() }

var patternMethods = []string{"findall", "finditer", "fullmatch", "match", "search", "split", "sub", "subn"}

func (p *Pattern) AttrNames() []string {
	return append([]string{"flags", "groupindex", "groups", "pattern"}, patternMethods...)
}

func (p *Pattern) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pattern":
		return p.srcVal, nil
	case "flags":
		return starlark.MakeInt(p.t.flags), nil
	case "groups":
		return starlark.MakeInt(p.t.groups), nil
	case "groupindex":
		d := starlark.NewDict(len(p.t.names))
		for i, n := range p.t.names {
			if n != "" {
				_ = d.SetKey(interp.MakeString(n), starlark.MakeInt(i))
			}
		}
		d.Freeze()
		return d, nil
	}
	for _, m := range patternMethods {
		if m == name {
			return interp.NewBuiltin("re.Pattern."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				return p.method(thread, name, args, kwargs)
			}), nil
		}
	}
	return nil, noAttr(p, name)
}

// call is re.search(pattern, string, flags=0) and the other module
// functions: the pattern's method with the pattern compiled first.
func (r *reModule) call(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pattern, a, b, c, flags starlark.Value
	var err error
	switch name {
	case "sub", "subn":
		err = unpack(name, args, kwargs, "pattern", &pattern, "repl", &a, "string", &b, "count?", &c, "flags?", &flags)
	case "split":
		err = unpack(name, args, kwargs, "pattern", &pattern, "string", &a, "maxsplit?", &b, "flags?", &flags)
	default:
		err = unpack(name, args, kwargs, "pattern", &pattern, "string", &a, "flags?", &flags)
	}
	if err != nil {
		return nil, err
	}
	f, err := flagsArg(flags)
	if err != nil {
		return nil, err
	}
	p, err := r.compile(interp.BudgetOf(thread), pattern, f)
	if err != nil {
		return nil, err
	}
	rest := starlark.Tuple{a}
	for _, v := range []starlark.Value{b, c} {
		if v != nil {
			rest = append(rest, v)
		}
	}
	if name == "split" && b == nil {
		rest = starlark.Tuple{a}
	}
	return p.method(thread, name, rest, nil)
}

func flagsArg(v starlark.Value) (int, error) {
	if v == nil || v == starlark.None {
		return 0, nil
	}
	i, ok := v.(starlark.Int)
	if !ok {
		if bv, isBool := v.(starlark.Bool); isBool {
			if bv {
				return 1, nil
			}
			return 0, nil
		}
		return 0, pyrt.Errorf("TypeError", "flags must be an int, not %s", v.Type())
	}
	n, ok := i.Int64()
	if !ok {
		return 0, pyrt.Errorf("OverflowError", "flags too large")
	}
	return int(n), nil
}

func (r *reModule) compileFn(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pattern, flags starlark.Value
	if err := unpack(name, args, kwargs, "pattern", &pattern, "flags?", &flags); err != nil {
		return nil, err
	}
	f, err := flagsArg(flags)
	if err != nil {
		return nil, err
	}
	return r.compile(interp.BudgetOf(thread), pattern, f)
}

func (r *reModule) purgeFn(_ *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "purge() takes 0 positional arguments but %d were given", len(args))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cache = map[cacheKey]*list.Element{}
	r.lru.Init()
	return starlark.None, nil
}

// escapeFn is re.escape: a backslash before each character that has a
// meaning in a pattern (CPython 3.7+'s set).
func (r *reModule) escapeFn(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := unpack(name, args, kwargs, "pattern", &v); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "escape() argument must be str, not %s", v.Type())
	}
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(s)) * 2); err != nil {
		return nil, err
	}
	var sb strings.Builder
	for i, c := range s {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		if c < 0x80 && strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", c) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(c)
	}
	return interp.MakeString(sb.String()), nil
}

// subject is the text a pattern runs over, with conversions between
// character positions (what programs see) and byte offsets (what Go
// uses). For non-ASCII text, a mark every 64 characters is made as far as
// needed.
type subject struct {
	v     starlark.Value
	s     string
	ascii bool
	n     int   // characters
	marks []int // marks[k] is the byte offset of character 64*k
	done  int   // bytes covered by marks
}

func newSubject(v starlark.Value, fn string) (*subject, error) {
	s, ok := interp.AsText(v)
	if !ok {
		if _, isBytes := interp.AsBytes(v); isBytes {
			return nil, pyrt.Errorf("TypeError", "cannot use a string pattern on a bytes-like object")
		}
		return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", v.Type())
	}
	sub := &subject{v: v, s: s}
	if u, ok := v.(*interp.Unicode); ok {
		sub.n = u.Len()
	} else {
		sub.ascii, sub.n = true, len(s)
	}
	return sub, nil
}

func (t *subject) mark(upTo int) {
	if t.marks == nil {
		t.marks = []int{0}
	}
	for t.done < len(t.s) && t.done <= upTo {
		i, k := t.done, 0
		for k < 64 && i < len(t.s) {
			_, w := utf8.DecodeRuneInString(t.s[i:])
			i += w
			k++
		}
		t.done = i
		if k == 64 {
			t.marks = append(t.marks, i)
		}
	}
}

// char is the character position of byte offset off.
func (t *subject) char(off int) int {
	if t.ascii || off <= 0 {
		return off
	}
	if off >= len(t.s) {
		return t.n
	}
	t.mark(off)
	k := sort.SearchInts(t.marks, off+1) - 1
	return 64*k + utf8.RuneCountInString(t.s[t.marks[k]:off])
}

// byteOf is the byte offset of character position c (0 <= c <= n).
func (t *subject) byteOf(c int) int {
	if t.ascii {
		return c
	}
	if c >= t.n {
		return len(t.s)
	}
	for len(t.marks) <= c/64 && t.done < len(t.s) {
		t.mark(t.done)
	}
	i := t.marks[c/64]
	for k := c % 64; k > 0; k-- {
		_, w := utf8.DecodeRuneInString(t.s[i:])
		i += w
	}
	return i
}

// text is the program's value for the bytes [i, j).
func (t *subject) text(i, j int) starlark.Value {
	if t.ascii {
		return starlark.String(t.s[i:j])
	}
	return interp.MakeString(t.s[i:j])
}

// span clamps pos and endpos as Python does.
func (t *subject) span(pos, endpos int) (int, int) {
	pos = max(0, min(pos, t.n))
	endpos = max(0, min(endpos, t.n))
	return pos, max(pos, endpos)
}

// budgetReader feeds a long text to Go's regexp a character at a time,
// charging the budget as it goes; when the budget is spent it ends the
// text early and keeps the error, which the search then returns.
type budgetReader struct {
	s    string
	i    int
	b    *interp.Budget
	owed uint64
	err  error
}

func (br *budgetReader) ReadRune() (rune, int, error) {
	if br.err != nil || br.i >= len(br.s) {
		return 0, 0, io.EOF
	}
	r, w := utf8.DecodeRuneInString(br.s[br.i:])
	br.i += w
	if br.owed += uint64(w); br.owed >= 4096 {
		br.err, br.owed = br.b.Charge(br.owed), 0
		if br.err != nil {
			return 0, 0, io.EOF
		}
	}
	return r, w, nil
}

// exec runs the pattern over the bytes [pos, end) of s: the byte
// offsets in s of each group's span (-1 when it did not take part), or
// nil.
func (p *Pattern) exec(b *interp.Budget, s string, ascii bool, pos, end, kind int) ([]int, error) {
	if p.t.backtrack {
		return p.btExec(b, s, pos, end, kind, false)
	}
	loc, err := p.exec1(b, s, ascii, pos, end, kind)
	if err != nil {
		return nil, err
	}
	// Python's $ (not multiline) also matches before a newline that ends
	// the text; Go's only at the end. Try once more without that newline
	// and keep the match that starts first.
	if p.t.dollar && !p.t.endZ && kind != formFull && end > pos && s[end-1] == '\n' {
		loc2, err := p.exec1(b, s, ascii, pos, end-1, kind)
		if err != nil {
			return nil, err
		}
		if loc2 != nil && (loc == nil || loc2[0] < loc[0]) {
			loc = loc2
		}
	}
	return loc, nil
}

func (p *Pattern) exec1(b *interp.Budget, s string, ascii bool, pos, end, kind int) ([]int, error) {
	start, shift := pos, 0
	context := pos > 0 && p.t.context
	if context {
		_, w := utf8.DecodeLastRuneInString(s[:pos])
		start, shift = pos-w, 2
	}
	re, err := p.form(kind, context)
	if err != nil {
		return nil, err
	}
	text := s[start:end]
	var loc []int
	if p.t.wordBound && !ascii {
		// \b or \B over text that is not all ASCII: Python's word
		// characters, on the VM.
		c := 0
		if context {
			c = 1
		}
		prog, ncap, err := p.vmProg(kind, c)
		if err != nil {
			return nil, err
		}
		loc, err = (&vm{prog: prog, text: text, ncap: ncap}).run(b)
		if err != nil {
			return nil, err
		}
	} else if len(text) <= bigText {
		loc = re.FindStringSubmatchIndex(text)
		scanned := len(text)
		if loc != nil {
			scanned = loc[1]
		}
		if err := b.Charge(uint64(scanned) + 1); err != nil {
			return nil, err
		}
	} else {
		br := &budgetReader{s: text, b: b}
		loc = re.FindReaderSubmatchIndex(br)
		if br.err == nil {
			br.err = b.Charge(br.owed + 1)
		}
		if br.err != nil {
			return nil, br.err
		}
	}
	if loc == nil {
		return nil, nil
	}
	loc = loc[shift:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += start
		}
	}
	return loc, nil
}

// posArgs reads pos and endpos (characters) as Python does.
func posArgs(pos, endpos starlark.Value, n int) (int, int, error) {
	get := func(v starlark.Value, dflt int) (int, error) {
		if v == nil || v == starlark.None && dflt == n {
			return dflt, nil
		}
		i, ok := v.(starlark.Int)
		if !ok {
			return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", v.Type())
		}
		x, ok := i.Int64()
		if !ok {
			if i.Sign() < 0 {
				return 0, nil
			}
			return n, nil
		}
		if x < 0 {
			x += int64(n)
		}
		return int(max(0, min(x, int64(n)))), nil
	}
	a, err := get(pos, 0)
	if err != nil {
		return 0, 0, err
	}
	e, err := get(endpos, n)
	return a, max(a, e), err
}

// method is a Pattern method (also what the module functions call).
func (p *Pattern) method(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	b := interp.BudgetOf(thread)
	var str, pos, endpos, repl, count, maxsplit starlark.Value
	var err error
	switch name {
	case "sub", "subn":
		err = starlark.UnpackArgs(name, args, kwargs, "repl", &repl, "string", &str, "count?", &count)
	case "split":
		err = starlark.UnpackArgs(name, args, kwargs, "string", &str, "maxsplit?", &maxsplit)
	default:
		err = starlark.UnpackArgs(name, args, kwargs, "string", &str, "pos?", &pos, "endpos?", &endpos)
	}
	if err != nil {
		return nil, pyrt.Errorf("TypeError", "%s", err.Error())
	}
	sub, err := newSubject(str, name)
	if err != nil {
		return nil, err
	}
	switch name {
	case "search", "match", "fullmatch":
		kind := map[string]int{"search": formSearch, "match": formMatch, "fullmatch": formFull}[name]
		cp, ce, err := posArgs(pos, endpos, sub.n)
		if err != nil {
			return nil, err
		}
		loc, err := p.exec(b, sub.s, sub.ascii, sub.byteOf(cp), sub.byteOf(ce), kind)
		if err != nil || loc == nil {
			return starlark.None, err
		}
		return p.newMatch(sub, loc, cp, ce), nil
	case "finditer":
		// An iterator, consumed once, as CPython's: each match is found
		// when it is asked for.
		cp, ce, err := posArgs(pos, endpos, sub.n)
		if err != nil {
			return nil, err
		}
		ms := p.matches(sub, cp, ce)
		return pyrt.NewIterator(thread, "callable_iterator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
			loc, err := ms.next(interp.BudgetOf(thread))
			if err != nil || loc == nil {
				return nil, false, err
			}
			return p.newMatch(sub, loc, cp, ce), true, nil
		}, sub.v), nil
	case "findall":
		cp, ce, err := posArgs(pos, endpos, sub.n)
		if err != nil {
			return nil, err
		}
		// The matches found (findall('', huge) makes one per character),
		// shown to the meter.
		var out []starlark.Value
		defer b.HoldValues(&out)()
		err = p.each(b, sub, cp, ce, -1, func(loc []int) error {
			var err error
			out, err = appendValue(b, out, p.findallItem(sub, loc))
			return err
		})
		if err != nil {
			return nil, err
		}
		return starlark.NewList(out), nil
	case "sub", "subn":
		n, err := intArg(count, "count")
		if err != nil {
			return nil, err
		}
		text, k, err := p.sub(thread, b, repl, sub, n)
		if err != nil {
			return nil, err
		}
		if name == "subn" {
			return starlark.Tuple{text, starlark.MakeInt(k)}, nil
		}
		return text, nil
	case "split":
		n, err := intArg(maxsplit, "maxsplit")
		if err != nil {
			return nil, err
		}
		return p.split(b, sub, n)
	}
	return nil, fmt.Errorf("re: unknown method %s", name)
}

func intArg(v starlark.Value, name string) (int, error) {
	if v == nil {
		return 0, nil
	}
	i, ok := v.(starlark.Int)
	if !ok {
		return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", v.Type())
	}
	x, ok := i.Int64()
	if !ok {
		x = 1 << 62
		if i.Sign() < 0 {
			x = -1
		}
	}
	return int(x), nil
}

// each calls fn with every match in [cp, ce) (characters), at most limit
// of them when limit >= 0, as Python 3.7+ finds them: an empty match is
// allowed right after a non-empty one, and after an empty match the next
// one is the first non-empty match at the same place, or else the first
// match (empty or not) from one character later. The retry is what
// makes re.findall(r".*?", "ab") give [”, 'a', ”, 'b', ”].
func (p *Pattern) each(b *interp.Budget, sub *subject, cp, ce, limit int, fn func(loc []int) error) error {
	ms := p.matches(sub, cp, ce)
	for n := 0; limit < 0 || n < limit; n++ {
		loc, err := ms.next(b)
		if err != nil || loc == nil {
			return err
		}
		if err := fn(loc); err != nil {
			return err
		}
	}
	return nil
}

// matchState walks the matches of a pattern one at a time (each,
// finditer).
type matchState struct {
	p          *Pattern
	sub        *subject
	pos, end   int // bytes
	afterEmpty bool
	done       bool
}

func (p *Pattern) matches(sub *subject, cp, ce int) *matchState {
	return &matchState{p: p, sub: sub, pos: sub.byteOf(cp), end: sub.byteOf(ce)}
}

// next is the next match, nil after the last.
func (ms *matchState) next(b *interp.Budget) ([]int, error) {
	if ms.done || ms.pos > ms.end {
		ms.done = true
		return nil, nil
	}
	p, sub := ms.p, ms.sub
	var loc []int
	var err error
	if ms.afterEmpty {
		if loc, err = p.execNonEmpty(b, sub.s, ms.pos, ms.end); err != nil {
			return nil, err
		}
		if loc == nil {
			if ms.pos >= ms.end {
				ms.done = true
				return nil, nil
			}
			_, w := utf8.DecodeRuneInString(sub.s[ms.pos:])
			ms.pos += w
		}
	}
	if loc == nil {
		if loc, err = p.exec(b, sub.s, sub.ascii, ms.pos, ms.end, formSearch); err != nil {
			return nil, err
		}
	}
	if loc == nil {
		ms.done = true
		return nil, nil
	}
	ms.pos = loc[1]
	ms.afterEmpty = loc[0] == loc[1]
	return loc, nil
}

// execNonEmpty is the first match, in Python's order of preference,
// that starts at byte pos and is not empty, or nil: on the VM, whose
// matches ending where they start are passed over.
func (p *Pattern) execNonEmpty(b *interp.Budget, s string, pos, end int) ([]int, error) {
	if p.t.backtrack {
		return p.btExec(b, s, pos, end, formMatch, true)
	}
	start, shift, c := pos, 0, 0
	if pos > 0 && p.t.context {
		_, w := utf8.DecodeLastRuneInString(s[:pos])
		start, shift, c = pos-w, 2, 1
	}
	if _, err := p.form(formMatch, c == 1); err != nil {
		return nil, err
	}
	prog, ncap, err := p.vmProg(formMatch, c)
	if err != nil {
		return nil, err
	}
	run := func(end int) ([]int, error) {
		return (&vm{prog: prog, text: s[start:end], ncap: ncap,
			nonEmpty: true, minEnd: pos - start, asciiWord: !p.t.wordBound}).run(b)
	}
	loc, err := run(end)
	if err == nil && loc == nil && p.t.dollar && !p.t.endZ && end > pos && s[end-1] == '\n' {
		// Python's $ before a newline that ends the text, as exec.
		loc, err = run(end - 1)
	}
	if err != nil || loc == nil {
		return nil, err
	}
	loc = loc[shift:]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += start
		}
	}
	return loc, nil
}

// findallItem is one element of findall's result: the whole match, the
// one group, or a tuple of the groups ("" for a group that did not take
// part).
func (p *Pattern) findallItem(sub *subject, loc []int) starlark.Value {
	g := func(i int) starlark.Value {
		if loc[2*i] < 0 {
			return starlark.String("")
		}
		return sub.text(loc[2*i], loc[2*i+1])
	}
	switch p.t.groups {
	case 0:
		return g(0)
	case 1:
		return g(1)
	}
	t := make(starlark.Tuple, p.t.groups)
	for i := range t {
		t[i] = g(i + 1)
	}
	return t
}

func (p *Pattern) split(b *interp.Budget, sub *subject, maxsplit int) (starlark.Value, error) {
	if maxsplit < 0 {
		return starlark.NewList([]starlark.Value{sub.v}), nil
	}
	limit := -1
	if maxsplit > 0 {
		limit = maxsplit
	}
	// The pieces (split('', huge) makes one per character), shown to
	// the meter.
	var out []starlark.Value
	defer b.HoldValues(&out)()
	last := 0
	err := p.each(b, sub, 0, sub.n, limit, func(loc []int) error {
		var err error
		if out, err = appendValue(b, out, sub.text(last, loc[0])); err != nil {
			return err
		}
		for i := 1; i <= p.t.groups; i++ {
			var g starlark.Value = starlark.None
			if loc[2*i] >= 0 {
				g = sub.text(loc[2*i], loc[2*i+1])
			}
			if out, err = appendValue(b, out, g); err != nil {
				return err
			}
		}
		last = loc[1]
		return nil
	})
	if err != nil {
		return nil, err
	}
	out = append(out, sub.text(last, len(sub.s)))
	return starlark.NewList(out), nil
}

// sub is Pattern.sub: the text with matches replaced, and how many.
func (p *Pattern) sub(thread *starlark.Thread, b *interp.Budget, repl starlark.Value, sub *subject, count int) (starlark.Value, int, error) {
	var tmpl []tmplPart
	fn, isFn := repl.(starlark.Callable)
	if !isFn {
		text, ok := interp.AsText(repl)
		if !ok {
			return nil, 0, pyrt.Errorf("TypeError", "decoding to str: need a bytes-like object, %s found", repl.Type())
		}
		var err error
		if tmpl, err = p.parseTemplate(text); err != nil {
			return nil, 0, err
		}
	}
	if count < 0 {
		return sub.v, 0, nil
	}
	limit := -1
	if count > 0 {
		limit = count
	}
	w := textBuf{b: b}
	defer w.done()
	last, n := 0, 0
	err := p.each(b, sub, 0, sub.n, limit, func(loc []int) error {
		if err := w.WriteString(sub.s[last:loc[0]]); err != nil {
			return err
		}
		if isFn {
			m := p.newMatch(sub, loc, 0, sub.n)
			v, err := starlark.Call(thread, fn, starlark.Tuple{m}, nil)
			if err != nil {
				return err
			}
			s, ok := interp.AsText(v)
			if !ok {
				return pyrt.Errorf("TypeError", "expected str instance, %s found", v.Type())
			}
			if err := w.WriteString(s); err != nil {
				return err
			}
		} else if err := expand(&w, tmpl, sub.s, loc); err != nil {
			return err
		}
		last = loc[1]
		n++
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if err := w.WriteString(sub.s[last:]); err != nil {
		return nil, 0, err
	}
	v, err := w.value()
	return v, n, err
}

// tmplPart is a piece of a replacement template: literal text, or a
// group (group >= 0).
type tmplPart struct {
	lit   string
	group int
}

// parseTemplate reads a replacement: \1, \g<1>, \g<name>, and the
// escapes \n \t … ; other escapes of letters are errors, as in CPython.
func (p *Pattern) parseTemplate(s string) ([]tmplPart, error) {
	if !strings.Contains(s, `\`) {
		return []tmplPart{{lit: s, group: -1}}, nil
	}
	var parts []tmplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, tmplPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	src := []rune(s)
	ref := func(g int, at int) error {
		if g > p.t.groups {
			return p.r.fail(fmt.Sprintf("invalid group reference %d at position %d", g, at))
		}
		flush()
		parts = append(parts, tmplPart{group: g})
		return nil
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' {
			lit.WriteRune(c)
			continue
		}
		if i+1 >= len(src) {
			return nil, p.r.fail(fmt.Sprintf("bad escape (end of pattern) at position %d", i))
		}
		at := i
		i++
		e := src[i]
		switch {
		case e == 'g':
			if i+1 >= len(src) || src[i+1] != '<' {
				return nil, p.r.fail(fmt.Sprintf("missing < at position %d", i+1))
			}
			j := i + 2
			for j < len(src) && src[j] != '>' {
				j++
			}
			if j >= len(src) {
				return nil, p.r.fail(fmt.Sprintf("missing >, unterminated name at position %d", i+2))
			}
			name := string(src[i+2 : j])
			if name == "" {
				return nil, p.r.fail(fmt.Sprintf("missing group name at position %d", i+2))
			}
			g := -1
			if isDigits(name) {
				fmt.Sscan(name, &g)
				if err := ref(g, i+2); err != nil {
					return nil, err
				}
			} else {
				for k, n := range p.t.names {
					if n == name {
						g = k
					}
				}
				if g < 0 {
					if !isIdentifier(name) {
						return nil, p.r.fail(fmt.Sprintf("bad character in group name %s at position %d", pyQuote(name), i+2))
					}
					return nil, pyrt.Errorf("IndexError", "unknown group name %s", pyQuote(name))
				}
				flush()
				parts = append(parts, tmplPart{group: g})
			}
			i = j
		case e == '0':
			v := 0
			for k := 0; k < 2 && i+1 < len(src) && isOct(src[i+1]); k++ {
				i++
				v = v*8 + int(src[i]-'0')
			}
			lit.WriteRune(rune(v))
		case e >= '1' && e <= '9':
			if i+2 < len(src) && isOct(e) && isOct(src[i+1]) && isOct(src[i+2]) {
				v := int(e-'0')*64 + int(src[i+1]-'0')*8 + int(src[i+2]-'0')
				if v > 0o377 {
					return nil, p.r.fail(fmt.Sprintf("octal escape value \\%s outside of range 0-0o377 at position %d", string(src[i:i+3]), at))
				}
				lit.WriteRune(rune(v))
				i += 2
				continue
			}
			g := int(e - '0')
			if i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' {
				g = g*10 + int(src[i+1]-'0')
				i++
			}
			if err := ref(g, at+1); err != nil {
				return nil, err
			}
		default:
			if r, ok := map[rune]rune{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}[e]; ok {
				lit.WriteRune(r)
			} else if e < 0x80 && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z') {
				return nil, p.r.fail(fmt.Sprintf("bad escape \\%c at position %d", e, at))
			} else {
				lit.WriteRune('\\')
				lit.WriteRune(e)
			}
		}
	}
	flush()
	return parts, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func expand(w *textBuf, tmpl []tmplPart, s string, loc []int) error {
	for _, t := range tmpl {
		if t.group < 0 {
			if err := w.WriteString(t.lit); err != nil {
				return err
			}
		} else if loc[2*t.group] >= 0 {
			if err := w.WriteString(s[loc[2*t.group]:loc[2*t.group+1]]); err != nil {
				return err
			}
		}
	}
	return nil
}
