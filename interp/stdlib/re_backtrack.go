package stdlib

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Look-around, backreferences and atomic groups are what RE2 cannot run.
// A pattern that has any of them runs on this backtracking matcher, as
// CPython's own engine does: it walks the Go syntax tree the translated
// pattern parses to, in which the translator wrote each of them as a named
// group (btGroupName). Every step is charged to the run's budget, so a
// pattern that backtracks without end stops at the step limit instead of
// running for ever. Patterns without them keep running on RE2.

// The kinds of special groups.
const (
	btAhead     = 'A' // (?=...)
	btNotAhead  = 'N' // (?!...)
	btBehind    = 'B' // (?<=...)
	btNotBehind = 'C' // (?<!...)
	btAtomic    = 'T' // (?>...)
	btBackref   = 'R' // \g, (?P=name): g is the Python group
	btCond      = 'I' // (?(g)yes|no): its sub-pattern is one branch, or the two
	btBranch    = 'Y' // a branch of a conditional group
)

// btMaxDepth bounds the matcher's recursion (its Go stack), which grows
// with the text a repeat of a group covers.
const btMaxDepth = 100000

// btGroupName is the Go name of the n-th special group of a pattern.
func btGroupName(kind byte, g, n int) string { return fmt.Sprintf("OT%c%d_%d", kind, g, n) }

// btNode is a node of the syntax tree, prepared for matching.
type btNode struct {
	op       syntax.Op
	kind     byte // of a special group, 0 for a plain one
	runes    []rune
	fold     bool
	dollar   bool // an end of text that is Python's $ (also before a final \n)
	min, max int  // of a repeat; max -1 for no bound
	greedy   bool
	cap      int // Go's capture index
	ref      int // a backreference's Go capture index
	width    int // a look-behind's width in characters
	single   bool
	subs     []*btNode
}

// btProg is a pattern prepared for the matcher.
type btProg struct {
	root *btNode
	ncap int   // Go's captures, the whole match included
	goOf []int // goOf[g] is Python group g's Go capture index
	pyOf []int // pyOf[c] is the Python group of Go capture c, 0 for none
}

// btCompile prepares the pattern for the backtracking matcher.
func (p *Pattern) btCompile() (*btProg, error) {
	re, err := syntax.Parse(p.prefix+"(?:"+p.t.body+")", syntax.Perl)
	if err != nil {
		return nil, p.r.goError(err)
	}
	ncap := re.MaxCap() + 1
	special := make([]bool, ncap)
	var mark func(r *syntax.Regexp)
	mark = func(r *syntax.Regexp) {
		if r.Op == syntax.OpCapture && strings.HasPrefix(r.Name, "OT") {
			special[r.Cap] = true
		}
		for _, s := range r.Sub {
			mark(s)
		}
	}
	mark(re)
	goOf, pyOf := []int{0}, make([]int, ncap)
	for c := 1; c < ncap; c++ {
		if !special[c] {
			pyOf[c] = len(goOf)
			goOf = append(goOf, c)
		}
	}
	prog := &btProg{ncap: ncap, goOf: goOf, pyOf: pyOf}
	groups := map[int]*btNode{} // the plain groups built so far, by Go capture
	var build func(r *syntax.Regexp) (*btNode, error)
	build = func(r *syntax.Regexp) (*btNode, error) {
		n := &btNode{op: r.Op, runes: r.Rune, fold: r.Flags&syntax.FoldCase != 0,
			dollar: r.Op == syntax.OpEndText && r.Flags&syntax.WasDollar != 0,
			min:    r.Min, max: r.Max, greedy: r.Flags&syntax.NonGreedy == 0, cap: r.Cap}
		switch r.Op {
		case syntax.OpStar:
			n.min, n.max = 0, -1
		case syntax.OpPlus:
			n.min, n.max = 1, -1
		case syntax.OpQuest:
			n.min, n.max = 0, 1
		case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			n.single = true
		case syntax.OpLiteral:
			n.single = len(r.Rune) == 1
		case syntax.OpCapture:
			if strings.HasPrefix(r.Name, "OT") {
				n.kind = r.Name[2]
				if n.kind == btBackref || n.kind == btCond {
					g, _ := strconv.Atoi(r.Name[3:strings.IndexByte(r.Name, '_')])
					n.ref = goOf[g]
				}
			}
		}
		for _, s := range r.Sub {
			c, err := build(s)
			if err != nil {
				return nil, err
			}
			n.subs = append(n.subs, c)
		}
		if n.kind == btCond && n.subs[0].op == syntax.OpAlternate {
			n.subs = n.subs[0].subs // yes, no
		}
		if r.Op == syntax.OpCapture && n.kind == 0 {
			groups[r.Cap] = n
		}
		if n.kind == btBehind || n.kind == btNotBehind {
			w, ok := btWidth(n.subs[0], groups)
			if !ok {
				return nil, p.r.fail("look-behind requires fixed-width pattern")
			}
			n.width = w
		}
		return n, nil
	}
	if prog.root, err = build(re); err != nil {
		return nil, err
	}
	return prog, nil
}

// btWidth is the number of characters n always matches, if it is fixed;
// groups are the plain groups a backreference may name.
func btWidth(n *btNode, groups map[int]*btNode) (int, bool) {
	switch n.op {
	case syntax.OpLiteral:
		return len(n.runes), true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, true
	case syntax.OpEmptyMatch, syntax.OpNoMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, true
	case syntax.OpCapture:
		switch n.kind {
		case btAhead, btNotAhead, btBehind, btNotBehind:
			return 0, true
		case btBackref:
			if g := groups[n.ref]; g != nil {
				return btWidth(g.subs[0], groups)
			}
			return 0, false
		case btCond:
			yes, ok := btWidth(n.subs[0], groups)
			no := 0
			if len(n.subs) > 1 {
				no, ok = btWidth(n.subs[1], groups)
			}
			return yes, ok && yes == no
		}
		return btWidth(n.subs[0], groups)
	case syntax.OpConcat:
		sum := 0
		for _, s := range n.subs {
			w, ok := btWidth(s, groups)
			if !ok {
				return 0, false
			}
			sum += w
		}
		return sum, true
	case syntax.OpAlternate:
		w0 := -1
		for _, s := range n.subs {
			w, ok := btWidth(s, groups)
			if !ok || (w0 >= 0 && w != w0) {
				return 0, false
			}
			w0 = w
		}
		return max(w0, 0), true
	case syntax.OpRepeat:
		if n.min == n.max {
			w, ok := btWidth(n.subs[0], groups)
			return w * n.min, ok
		}
	}
	return 0, false
}

// btProgram is the pattern's prepared program, made once.
func (p *Pattern) btProgram() (*btProg, error) {
	p.btOnce.Do(func() { p.bt, p.btErr = p.btCompile() })
	return p.bt, p.btErr
}

// btExec is exec for a pattern that needs the backtracking matcher: the
// byte offsets of the groups of the first match in [pos, end) of s, or
// nil; one more element follows them, the match's lastindex (the group
// that closed last, which the offsets alone do not tell when look-ahead
// took part: newMatch reads it). The text before pos is seen by look-behind, ^ and \b, as in
// CPython; the text from end on is not. With nonEmpty, the match must
// start at pos and not be empty.
func (p *Pattern) btExec(b *interp.Budget, s string, pos, end, kind int, nonEmpty bool) ([]int, error) {
	prog, err := p.btProgram()
	if err != nil {
		return nil, err
	}
	m := &btMatcher{text: s[:end], b: b, caps: make([]int, 2*prog.ncap), asciiWord: !p.t.wordBound,
		fold: p.t.flags&flagIgnoreCase != 0}
	for i := range m.caps {
		m.caps[i] = -1
	}
	for start := pos; ; {
		found := m.match(prog.root, start, func(j int) bool {
			if (kind == formFull && j != end) || (nonEmpty && j <= pos) {
				return false
			}
			m.caps[0], m.caps[1] = start, j
			return true
		})
		if m.err != nil {
			return nil, m.err
		}
		if found {
			loc := make([]int, 2*len(prog.goOf)+1)
			for g, c := range prog.goOf {
				loc[2*g], loc[2*g+1] = m.caps[2*c], m.caps[2*c+1]
			}
			loc[len(loc)-1] = prog.pyOf[m.last]
			return loc, nil
		}
		if kind != formSearch || nonEmpty || start >= end {
			return nil, nil
		}
		_, w := utf8.DecodeRuneInString(s[start:end])
		start += w
	}
}

// btMatcher is one run of the matcher over a text.
type btMatcher struct {
	text      string
	caps      []int
	last      int // the Go capture that closed last, 0 for none
	b         *interp.Budget
	steps     uint64
	depth     int
	err       error
	asciiWord bool
	fold      bool // backreferences ignore case
}

// step counts a step, charging the budget every 1024; false when the
// run must stop.
func (m *btMatcher) step() bool {
	if m.err != nil {
		return false
	}
	if m.steps++; m.steps >= 1024 {
		m.err, m.steps = m.b.Charge(m.steps), 0
	}
	return m.err == nil
}

// one is the width of the character at i when the single-character node
// n matches it, else 0.
func (m *btMatcher) one(n *btNode, i int) int {
	if i >= len(m.text) {
		return 0
	}
	c, w := utf8.DecodeRuneInString(m.text[i:])
	switch n.op {
	case syntax.OpAnyChar:
	case syntax.OpAnyCharNotNL:
		if c == '\n' {
			return 0
		}
	case syntax.OpLiteral:
		if !runeEq(c, n.runes[0], n.fold) {
			return 0
		}
	default:
		if !inClass(n.runes, c) {
			return 0
		}
	}
	return w
}

func runeEq(a, b rune, fold bool) bool {
	if a == b {
		return true
	}
	if !fold {
		return false
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// inClass reports whether c is in the sorted ranges of a class.
func inClass(ranges []rune, c rune) bool {
	lo, hi := 0, len(ranges)/2
	for lo < hi {
		k := (lo + hi) / 2
		switch {
		case c < ranges[2*k]:
			hi = k
		case c > ranges[2*k+1]:
			lo = k + 1
		default:
			return true
		}
	}
	return false
}

func (m *btMatcher) isWord(i int, before bool) bool {
	var c rune
	if before {
		if i <= 0 {
			return false
		}
		c, _ = utf8.DecodeLastRuneInString(m.text[:i])
	} else {
		if i >= len(m.text) {
			return false
		}
		c, _ = utf8.DecodeRuneInString(m.text[i:])
	}
	if m.asciiWord {
		return c < 0x80 && syntax.IsWordChar(c)
	}
	return isWordRune(c)
}

// save is the captures and the last group closed, for restore.
func (m *btMatcher) save() []int { return append(append([]int(nil), m.caps...), m.last) }

func (m *btMatcher) restore(saved []int) {
	copy(m.caps, saved)
	m.last = saved[len(saved)-1]
}

func accept(int) bool { return true }

// match reports whether n matches at byte offset i followed by what k
// accepts from where n's match ends, trying n's matches in Python's
// order. Captures set on the way are undone when it fails.
func (m *btMatcher) match(n *btNode, i int, k func(int) bool) bool {
	if !m.step() {
		return false
	}
	if m.depth++; m.depth > btMaxDepth {
		m.err = pyrt.Errorf("RecursionError", "maximum recursion depth exceeded while matching a regular expression")
		return false
	}
	ok := m.match1(n, i, k)
	m.depth--
	return ok
}

func (m *btMatcher) match1(n *btNode, i int, k func(int) bool) bool {
	t := m.text
	switch n.op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch:
		return k(i)
	case syntax.OpLiteral:
		j := i
		for _, r := range n.runes {
			if j >= len(t) {
				return false
			}
			c, w := utf8.DecodeRuneInString(t[j:])
			if !runeEq(c, r, n.fold) {
				return false
			}
			j += w
		}
		return k(j)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		if w := m.one(n, i); w > 0 {
			return k(i + w)
		}
		return false
	case syntax.OpBeginLine:
		return (i == 0 || t[i-1] == '\n') && k(i)
	case syntax.OpEndLine:
		return (i == len(t) || t[i] == '\n') && k(i)
	case syntax.OpBeginText:
		return i == 0 && k(i)
	case syntax.OpEndText:
		return (i == len(t) || n.dollar && i == len(t)-1 && t[i] == '\n') && k(i)
	case syntax.OpWordBoundary:
		return m.isWord(i, true) != m.isWord(i, false) && k(i)
	case syntax.OpNoWordBoundary:
		return m.isWord(i, true) == m.isWord(i, false) && k(i)
	case syntax.OpConcat:
		return m.seq(n.subs, i, k)
	case syntax.OpAlternate:
		for _, s := range n.subs {
			if m.match(s, i, k) {
				return true
			}
			if m.err != nil {
				return false
			}
		}
		return false
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if n.subs[0].single {
			return m.repeatOne(n, i, k)
		}
		return m.repeat(n, i, 0, false, k)
	case syntax.OpCapture:
		return m.capture(n, i, k)
	}
	m.err = fmt.Errorf("re: unexpected %v in pattern", n.op)
	return false
}

func (m *btMatcher) seq(subs []*btNode, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	if len(subs) == 1 {
		return m.match(subs[0], i, k)
	}
	return m.match(subs[0], i, func(j int) bool { return m.seq(subs[1:], j, k) })
}

// repeat matches the count-th and later repetitions of n's sub-pattern.
// As in CPython, a repetition may match the empty text, but no
// repetition follows an empty one that began after the minimum was
// reached (lastEmpty).
func (m *btMatcher) repeat(n *btNode, i, count int, lastEmpty bool, k func(int) bool) bool {
	more := func() bool {
		if (n.max >= 0 && count >= n.max) || (lastEmpty && count >= n.min) {
			return false
		}
		return m.match(n.subs[0], i, func(j int) bool {
			return m.repeat(n, j, count+1, j == i && count >= n.min, k)
		})
	}
	if n.greedy {
		if more() {
			return true
		}
		return m.err == nil && count >= n.min && k(i)
	}
	if count >= n.min && k(i) {
		return true
	}
	return m.err == nil && more()
}

// repeatOne is repeat for a sub-pattern of one character, without
// recursion: a greedy repeat takes all it can and gives back one
// character at a time.
func (m *btMatcher) repeatOne(n *btNode, i int, k func(int) bool) bool {
	sub := n.subs[0]
	j, count := i, 0
	for count < n.min {
		w := m.one(sub, j)
		if w == 0 || !m.step() {
			return false
		}
		j += w
		count++
	}
	if !n.greedy {
		for {
			if k(j) {
				return true
			}
			if m.err != nil || (n.max >= 0 && count >= n.max) {
				return false
			}
			w := m.one(sub, j)
			if w == 0 || !m.step() {
				return false
			}
			j += w
			count++
		}
	}
	for n.max < 0 || count < n.max {
		w := m.one(sub, j)
		if w == 0 {
			break
		}
		if !m.step() {
			return false
		}
		j += w
		count++
	}
	for {
		if k(j) {
			return true
		}
		if m.err != nil || count == n.min || !m.step() {
			return false
		}
		_, w := utf8.DecodeLastRuneInString(m.text[:j])
		j -= w
		count--
	}
}

// capture matches a group: a plain one records its span; the special
// ones are look-around, atomic groups and backreferences.
func (m *btMatcher) capture(n *btNode, i int, k func(int) bool) bool {
	switch n.kind {
	case 0:
		c := n.cap
		return m.match(n.subs[0], i, func(j int) bool {
			s0, s1, last := m.caps[2*c], m.caps[2*c+1], m.last
			m.caps[2*c], m.caps[2*c+1], m.last = i, j, c
			if k(j) {
				return true
			}
			m.caps[2*c], m.caps[2*c+1], m.last = s0, s1, last
			return false
		})
	case btAhead, btBehind, btNotAhead, btNotBehind:
		saved := m.save()
		var found bool
		if n.kind == btAhead || n.kind == btNotAhead {
			found = m.match(n.subs[0], i, accept)
		} else if from := m.back(i, n.width); from >= 0 {
			found = m.match(n.subs[0], from, func(j int) bool { return j == i })
		}
		if m.err != nil {
			return false
		}
		if n.kind == btNotAhead || n.kind == btNotBehind {
			m.restore(saved)
			return !found && k(i)
		}
		if found && k(i) {
			return true
		}
		m.restore(saved)
		return false
	case btAtomic:
		saved := m.save()
		end := -1
		if m.match(n.subs[0], i, func(j int) bool { end = j; return true }) && k(end) {
			return true
		}
		m.restore(saved)
		return false
	case btBranch:
		return m.match(n.subs[0], i, k)
	case btCond:
		if m.caps[2*n.ref] >= 0 {
			return m.match(n.subs[0], i, k)
		}
		if len(n.subs) > 1 {
			return m.match(n.subs[1], i, k)
		}
		return k(i)
	case btBackref:
		s0, s1 := m.caps[2*n.ref], m.caps[2*n.ref+1]
		if s0 < 0 {
			return false
		}
		j := i
		for _, r := range m.text[s0:s1] {
			if j >= len(m.text) {
				return false
			}
			c, w := utf8.DecodeRuneInString(m.text[j:])
			if !runeEq(c, r, m.fold) {
				return false
			}
			j += w
		}
		return k(j)
	}
	m.err = fmt.Errorf("re: unknown group kind %q", n.kind)
	return false
}

// back is the byte offset w characters before i, or -1.
func (m *btMatcher) back(i, w int) int {
	for ; w > 0; w-- {
		if i <= 0 {
			return -1
		}
		_, sz := utf8.DecodeLastRuneInString(m.text[:i])
		i -= sz
	}
	return i
}
