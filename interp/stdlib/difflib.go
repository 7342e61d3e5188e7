package stdlib

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// DiffLib is the difflib module: CPython's SequenceMatcher (the
// Ratcliff/Obershelp matching with its junk and "popular" heuristics, so
// ratios and opcodes are CPython's), unified_diff and get_close_matches.
func DiffLib() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "difflib", Members: starlark.StringDict{
		"SequenceMatcher":   seqMatcherClass,
		"Match":             diffMatchType,
		"unified_diff":      interp.NewBuiltin("unified_diff", diffUnified),
		"get_close_matches": interp.NewBuiltin("get_close_matches", diffCloseMatches),
		"ndiff":             interp.NewBuiltin("ndiff", diffNdiff),
		"IS_CHARACTER_JUNK": charJunkBuiltin,
		"IS_LINE_JUNK":      lineJunkBuiltin,
	}}
}

var (
	seqMatcherClass = &pyClass{module: "difflib", name: "SequenceMatcher", is: isOf[*seqMatcher], ctor: newSeqMatcher}
	diffMatchType   = &ntType{name: "Match", fields: []string{"a", "b", "size"}}
)

// diffSeq is one side of a comparison: its elements as keys (equal
// elements, equal keys) and as the values they are.
type diffSeq struct {
	keys []string
	vals []starlark.Value
	orig starlark.Value // the sequence given (SequenceMatcher.a and .b)
}

// diffElems reads a str (its characters) or any iterable of hashable
// values (lines, tokens).
func diffElems(b *interp.Budget, v starlark.Value) (diffSeq, error) {
	s := diffSeq{orig: v}
	if text, ok := interp.AsText(v); ok {
		return charSeq(b, v, text)
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return s, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(v))
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	// The elements are values of the program (shown to the meter while
	// they are read); a key is the element's own text, or a repr made
	// for it, which only goBytes counts.
	defer b.HoldValues(&s.vals)()
	var g goBytes
	for iter.Next(&x) {
		if err := b.Charge(1); err != nil {
			return s, err
		}
		key, made, err := diffKey(b, x)
		if err != nil {
			return s, err
		}
		if err := g.add(b, made+slotSize); err != nil {
			return s, err
		}
		if s.vals, err = appendValue(b, s.vals, x); err != nil {
			return s, err
		}
		s.keys = append(s.keys, key)
	}
	return s, b.Charge(0)
}

// charSeq is a text as the sequence of its characters, each a key and a
// value of its own: refused first when they would pass the memory
// budget, and charged.
func charSeq(b *interp.Budget, v starlark.Value, text string) (diffSeq, error) {
	n := utf8.RuneCountInString(text)
	if err := b.Alloc(int64(n)*56 + int64(len(text))); err != nil {
		return diffSeq{}, err
	}
	s := diffSeq{orig: v, keys: make([]string, 0, n), vals: make([]starlark.Value, 0, n)}
	for _, r := range text {
		c := string(r)
		s.keys = append(s.keys, c)
		s.vals = append(s.vals, interp.MakeString(c))
	}
	return s, nil
}

// diffKey is what identifies an element: its text for a str (shared,
// not copied), else its kind and repr after a byte no text holds (1 and
// 1.0 differ here, an accepted simplification); made is the bytes made
// for it.
func diffKey(b *interp.Budget, x starlark.Value) (key string, made int64, err error) {
	if t, ok := interp.AsText(x); ok {
		return t, 0, nil
	}
	if _, err := x.Hash(); err != nil {
		return "", 0, pyrt.Errorf("TypeError", "unhashable type: '%s'", pyrt.TypeName(x))
	}
	r, err := interp.Repr(b, x)
	if err != nil {
		return "", 0, fmt.Errorf("difflib: %w", err)
	}
	key = "\xff" + pyrt.TypeName(x) + ":" + r
	return key, int64(len(key)), nil
}

// seqMatcher is a difflib.SequenceMatcher.
type seqMatcher struct {
	isjunk   starlark.Value // None or a callable
	autojunk bool
	a, b     diffSeq
	b2j      map[string][]int
	bjunk    map[string]bool
	blocks   [][3]int // get_matching_blocks, once computed
}

var _ interp.Holder = (*seqMatcher)(nil)

// Held visits the sequences compared, for the memory meter (the keys
// and the index of b, Go's, are counted where they are made).
func (m *seqMatcher) Held(visit func(starlark.Value)) {
	for _, s := range [2]*diffSeq{&m.a, &m.b} {
		visit(heldTuple(s.vals))
		if s.orig != nil {
			visit(s.orig)
		}
	}
	if m.isjunk != nil {
		visit(m.isjunk)
	}
}

func (m *seqMatcher) String() string        { return "<difflib.SequenceMatcher object>" }
func (m *seqMatcher) Type() string          { return "SequenceMatcher" }
func (m *seqMatcher) Freeze()               {}
func (m *seqMatcher) Truth() starlark.Bool  { return true }
func (m *seqMatcher) Hash() (uint32, error) { return 0, nil }
func (m *seqMatcher) AttrNames() []string {
	return []string{"a", "b", "find_longest_match", "get_grouped_opcodes", "get_matching_blocks", "get_opcodes",
		"quick_ratio", "ratio", "real_quick_ratio", "set_seq1", "set_seq2", "set_seqs"}
}

func newSeqMatcher(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("SequenceMatcher", args, kwargs, []string{"isjunk", "a", "b", "autojunk"}, 0)
	if err != nil {
		return nil, err
	}
	m := &seqMatcher{isjunk: starlark.None, autojunk: true}
	if vals[0] != nil {
		m.isjunk = vals[0]
	}
	if vals[3] != nil {
		m.autojunk = bool(vals[3].Truth())
	}
	b := interp.BudgetOf(thread)
	defer b.Hold(m.Held)()
	for i, v := range []starlark.Value{vals[1], vals[2]} {
		if v == nil {
			v = starlark.String("")
		}
		s, err := diffElems(b, v)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			m.a = s
		} else {
			m.b = s
		}
	}
	return m, m.chainB(thread)
}

// chainB indexes b: where each element is, less the junk (isjunk says)
// and, with autojunk, the elements of a b of 200 or more that make more
// than 1% of it.
func (m *seqMatcher) chainB(thread *starlark.Thread) error {
	if err := interp.BudgetOf(thread).Charge(uint64(len(m.b.keys)) + 1); err != nil {
		return err
	}
	m.blocks = nil
	m.b2j = map[string][]int{}
	m.bjunk = map[string]bool{}
	// The index is Go's: an entry of a map for each element, counted
	// alone against the budget.
	b := interp.BudgetOf(thread)
	var g goBytes
	for j, k := range m.b.keys {
		idx, seen := m.b2j[k]
		n := int64(8)
		if !seen {
			n += 64
		}
		if err := g.add(b, n); err != nil {
			return err
		}
		m.b2j[k] = append(idx, j)
	}
	if m.isjunk != starlark.None {
		for j, k := range m.b.keys {
			if _, seen := m.b2j[k]; !seen || m.bjunk[k] {
				continue
			}
			r, err := starlark.Call(thread, m.isjunk, starlark.Tuple{m.b.vals[j]}, nil)
			if err != nil {
				return err
			}
			if r.Truth() {
				m.bjunk[k] = true
				delete(m.b2j, k)
			}
		}
	}
	if n := len(m.b.keys); m.autojunk && n >= 200 {
		ntest := n/100 + 1
		for k, idx := range m.b2j {
			if len(idx) > ntest {
				delete(m.b2j, k)
			}
		}
	}
	return nil
}

// longest is find_longest_match: the longest block of a[alo:ahi] equal
// to one of b[blo:bhi] without junk, earliest in a then in b, extended
// by the junk equal on both sides.
func (m *seqMatcher) longest(bud *interp.Budget, alo, ahi, blo, bhi int) ([3]int, error) {
	a, b := m.a.keys, m.b.keys
	besti, bestj, bestsize := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		idx := m.b2j[a[i]]
		if err := bud.Charge(uint64(len(idx)) + 1); err != nil {
			return [3]int{}, err
		}
		next := make(map[int]int, len(idx))
		for _, j := range idx {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			next[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = next
	}
	for _, junk := range []bool{false, true} {
		for besti > alo && bestj > blo && m.bjunk[b[bestj-1]] == junk && a[besti-1] == b[bestj-1] {
			besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
		}
		for besti+bestsize < ahi && bestj+bestsize < bhi && m.bjunk[b[bestj+bestsize]] == junk && a[besti+bestsize] == b[bestj+bestsize] {
			bestsize++
		}
	}
	return [3]int{besti, bestj, bestsize}, nil
}

// matchingBlocks is get_matching_blocks: the blocks found by recursing
// on each side of the longest match, adjacent ones joined, and the
// (len(a), len(b), 0) sentinel.
func (m *seqMatcher) matchingBlocks(bud *interp.Budget) ([][3]int, error) {
	if m.blocks != nil {
		return m.blocks, nil
	}
	la, lb := len(m.a.keys), len(m.b.keys)
	queue := [][4]int{{0, la, 0, lb}}
	var found [][3]int
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x, err := m.longest(bud, q[0], q[1], q[2], q[3])
		if err != nil {
			return nil, err
		}
		i, j, k := x[0], x[1], x[2]
		if k == 0 {
			continue
		}
		found = append(found, x)
		if q[0] < i && q[2] < j {
			queue = append(queue, [4]int{q[0], i, q[2], j})
		}
		if i+k < q[1] && j+k < q[3] {
			queue = append(queue, [4]int{i + k, q[1], j + k, q[3]})
		}
	}
	slices.SortFunc(found, func(x, y [3]int) int {
		return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]), cmp.Compare(x[2], y[2]))
	})
	var blocks [][3]int
	var cur [3]int
	for _, x := range found {
		if cur[0]+cur[2] == x[0] && cur[1]+cur[2] == x[1] {
			cur[2] += x[2]
			continue
		}
		if cur[2] > 0 {
			blocks = append(blocks, cur)
		}
		cur = x
	}
	if cur[2] > 0 {
		blocks = append(blocks, cur)
	}
	m.blocks = append(blocks, [3]int{la, lb, 0})
	return m.blocks, nil
}

// diffOp is one of get_opcodes' 5-tuples.
type diffOp struct {
	tag            string
	i1, i2, j1, j2 int
}

func (o diffOp) tuple() starlark.Tuple {
	return starlark.Tuple{starlark.String(o.tag), starlark.MakeInt(o.i1), starlark.MakeInt(o.i2), starlark.MakeInt(o.j1), starlark.MakeInt(o.j2)}
}

func (m *seqMatcher) opcodes(bud *interp.Budget) ([]diffOp, error) {
	blocks, err := m.matchingBlocks(bud)
	if err != nil {
		return nil, err
	}
	var ops []diffOp
	i, j := 0, 0
	for _, x := range blocks {
		ai, bj, size := x[0], x[1], x[2]
		tag := ""
		switch {
		case i < ai && j < bj:
			tag = "replace"
		case i < ai:
			tag = "delete"
		case j < bj:
			tag = "insert"
		}
		if tag != "" {
			ops = append(ops, diffOp{tag, i, ai, j, bj})
		}
		i, j = ai+size, bj+size
		if size > 0 {
			ops = append(ops, diffOp{"equal", ai, i, bj, j})
		}
	}
	return ops, nil
}

// grouped is get_grouped_opcodes(n): the changes with n elements of
// context each side, split where more than 2n equal ones lie between.
func (m *seqMatcher) grouped(bud *interp.Budget, n int) ([][]diffOp, error) {
	codes, err := m.opcodes(bud)
	if err != nil {
		return nil, err
	}
	if len(codes) == 0 {
		codes = []diffOp{{"equal", 0, 1, 0, 1}}
	}
	if c := &codes[0]; c.tag == "equal" {
		c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
	}
	if c := &codes[len(codes)-1]; c.tag == "equal" {
		c.i2, c.j2 = min(c.i2, c.i1+n), min(c.j2, c.j1+n)
	}
	var groups [][]diffOp
	var group []diffOp
	for _, c := range codes {
		if c.tag == "equal" && c.i2-c.i1 > 2*n {
			group = append(group, diffOp{c.tag, c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == "equal") {
		groups = append(groups, group)
	}
	return groups, nil
}

func (m *seqMatcher) ratio(bud *interp.Budget) (float64, error) {
	blocks, err := m.matchingBlocks(bud)
	if err != nil {
		return 0, err
	}
	matches := 0
	for _, x := range blocks {
		matches += x[2]
	}
	return diffRatio(matches, len(m.a.keys)+len(m.b.keys)), nil
}

func diffRatio(matches, length int) float64 {
	if length == 0 {
		return 1
	}
	return 2 * float64(matches) / float64(length)
}

// quickRatio bounds ratio from above by the elements a and b share,
// wherever they are.
func (m *seqMatcher) quickRatio(bud *interp.Budget) (float64, error) {
	if err := bud.Charge(uint64(len(m.a.keys) + len(m.b.keys))); err != nil {
		return 0, err
	}
	avail := map[string]int{}
	for _, k := range m.b.keys {
		avail[k]++
	}
	matches := 0
	for _, k := range m.a.keys {
		if avail[k] > 0 {
			matches++
		}
		avail[k]--
	}
	return diffRatio(matches, len(m.a.keys)+len(m.b.keys)), nil
}

func (m *seqMatcher) realQuickRatio() float64 {
	la, lb := len(m.a.keys), len(m.b.keys)
	return diffRatio(min(la, lb), la+lb)
}

func (m *seqMatcher) Attr(name string) (starlark.Value, error) {
	switch name {
	case "a", "b":
		if name == "b" {
			return m.b.orig, nil
		}
		return m.a.orig, nil
	}
	method := func(params []string, required int, f func(thread *starlark.Thread, bud *interp.Budget, vals []starlark.Value) (starlark.Value, error)) starlark.Value {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			vals, err := bindArgs(name, args, kwargs, params, required)
			if err != nil {
				return nil, err
			}
			return f(thread, interp.BudgetOf(thread), vals)
		})
	}
	setSeq := func(which int) func(thread *starlark.Thread, bud *interp.Budget, vals []starlark.Value) (starlark.Value, error) {
		return func(thread *starlark.Thread, bud *interp.Budget, vals []starlark.Value) (starlark.Value, error) {
			for i, v := range vals {
				s, err := diffElems(bud, v)
				if err != nil {
					return nil, err
				}
				if which == 1 || which == 0 && i == 0 {
					m.a, m.blocks = s, nil
				} else {
					m.b = s
					if err := m.chainB(thread); err != nil {
						return nil, err
					}
				}
			}
			return starlark.None, nil
		}
	}
	switch name {
	case "set_seqs":
		return method([]string{"a", "b"}, 2, setSeq(0)), nil
	case "set_seq1":
		return method([]string{"a"}, 1, setSeq(1)), nil
	case "set_seq2":
		return method([]string{"b"}, 1, setSeq(2)), nil
	case "find_longest_match":
		return method([]string{"alo", "ahi", "blo", "bhi"}, 0, func(_ *starlark.Thread, bud *interp.Budget, vals []starlark.Value) (starlark.Value, error) {
			bounds := []int{0, len(m.a.keys), 0, len(m.b.keys)}
			for i, v := range vals {
				if v == nil || v == starlark.None {
					continue
				}
				if err := starlark.AsInt(v, &bounds[i]); err != nil {
					return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
				}
			}
			if bounds[0] < 0 || bounds[1] > len(m.a.keys) || bounds[2] < 0 || bounds[3] > len(m.b.keys) || bounds[0] > bounds[1] || bounds[2] > bounds[3] {
				return nil, pyrt.Errorf("IndexError", "list index out of range")
			}
			x, err := m.longest(bud, bounds[0], bounds[1], bounds[2], bounds[3])
			if err != nil {
				return nil, err
			}
			return diffMatch(x), nil
		}), nil
	case "get_matching_blocks":
		return method(nil, 0, func(_ *starlark.Thread, bud *interp.Budget, _ []starlark.Value) (starlark.Value, error) {
			blocks, err := m.matchingBlocks(bud)
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(blocks))
			for i, x := range blocks {
				out[i] = diffMatch(x)
			}
			return starlark.NewList(out), nil
		}), nil
	case "get_opcodes":
		return method(nil, 0, func(_ *starlark.Thread, bud *interp.Budget, _ []starlark.Value) (starlark.Value, error) {
			ops, err := m.opcodes(bud)
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(ops))
			for i, o := range ops {
				out[i] = o.tuple()
			}
			return starlark.NewList(out), nil
		}), nil
	case "get_grouped_opcodes":
		return method([]string{"n"}, 0, func(_ *starlark.Thread, bud *interp.Budget, vals []starlark.Value) (starlark.Value, error) {
			n := 3
			if vals[0] != nil {
				if err := starlark.AsInt(vals[0], &n); err != nil {
					return nil, err
				}
			}
			groups, err := m.grouped(bud, n)
			if err != nil {
				return nil, err
			}
			out := make([]starlark.Value, len(groups))
			for i, g := range groups {
				ops := make([]starlark.Value, len(g))
				for k, o := range g {
					ops[k] = o.tuple()
				}
				out[i] = starlark.NewList(ops)
			}
			return starlark.NewList(out), nil
		}), nil
	case "ratio":
		return method(nil, 0, func(_ *starlark.Thread, bud *interp.Budget, _ []starlark.Value) (starlark.Value, error) {
			r, err := m.ratio(bud)
			return starlark.Float(r), err
		}), nil
	case "quick_ratio":
		return method(nil, 0, func(_ *starlark.Thread, bud *interp.Budget, _ []starlark.Value) (starlark.Value, error) {
			r, err := m.quickRatio(bud)
			return starlark.Float(r), err
		}), nil
	case "real_quick_ratio":
		return method(nil, 0, func(*starlark.Thread, *interp.Budget, []starlark.Value) (starlark.Value, error) {
			return starlark.Float(m.realQuickRatio()), nil
		}), nil
	}
	return nil, pyrt.Errorf("AttributeError", "'SequenceMatcher' object has no attribute '%s'", name)
}

func diffMatch(x [3]int) starlark.Value {
	return &ntValue{typ: diffMatchType, vals: starlark.Tuple{starlark.MakeInt(x[0]), starlark.MakeInt(x[1]), starlark.MakeInt(x[2])}}
}

// diffCloseMatches is get_close_matches(word, possibilities, n=3,
// cutoff=0.6): the best n possibilities of a ratio of at least cutoff,
// best first.
func diffCloseMatches(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("get_close_matches", args, kwargs, []string{"word", "possibilities", "n", "cutoff"}, 2)
	if err != nil {
		return nil, err
	}
	n, cutoff := 3, 0.6
	if vals[2] != nil {
		if err := starlark.AsInt(vals[2], &n); err != nil {
			return nil, err
		}
	}
	if n <= 0 {
		return nil, pyrt.Errorf("ValueError", "n must be > 0: %d", n)
	}
	if vals[3] != nil {
		f, ok := starlark.AsFloat(vals[3])
		if !ok {
			return nil, pyrt.Errorf("TypeError", "cutoff must be a number")
		}
		cutoff = f
	}
	if !(cutoff >= 0 && cutoff <= 1) {
		r, _ := interp.Repr(nil, vals[3])
		return nil, pyrt.Errorf("ValueError", "cutoff must be in [0.0, 1.0]: %s", r)
	}
	bud := interp.BudgetOf(thread)
	m := &seqMatcher{isjunk: starlark.None, autojunk: true}
	defer bud.Hold(m.Held)()
	if m.b, err = diffElems(bud, vals[0]); err != nil {
		return nil, err
	}
	if err := m.chainB(thread); err != nil {
		return nil, err
	}
	type scored struct {
		score float64
		key   string
		val   starlark.Value
	}
	var found []scored
	defer bud.Hold(func(visit func(starlark.Value)) {
		for _, s := range found {
			visit(s.val)
		}
	})()
	iter := starlark.Iterate(vals[1])
	if iter == nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(vals[1]))
	}
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if m.a, err = diffElems(bud, x); err != nil {
			return nil, err
		}
		m.blocks = nil
		if m.realQuickRatio() < cutoff {
			continue
		}
		if q, err := m.quickRatio(bud); err != nil || q < cutoff {
			if err != nil {
				return nil, err
			}
			continue
		}
		r, err := m.ratio(bud)
		if err != nil {
			return nil, err
		}
		if r >= cutoff {
			key, _ := interp.AsText(x)
			found = append(found, scored{r, key, x})
		}
	}
	// heapq.nlargest of (score, word): best score first, then the greater word.
	slices.SortStableFunc(found, func(p, q scored) int {
		return cmp.Or(cmp.Compare(q.score, p.score), cmp.Compare(q.key, p.key))
	})
	out := make([]starlark.Value, 0, min(n, len(found)))
	for _, s := range found[:min(n, len(found))] {
		out = append(out, s.val)
	}
	return starlark.NewList(out), nil
}

// diffUnified is unified_diff(a, b, fromfile=”, tofile=”,
// fromfiledate=”, tofiledate=”, n=3, lineterm='\n'): the lines of a
// unified diff, as a list (CPython returns a generator of them).
func diffUnified(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	names := []string{"a", "b", "fromfile", "tofile", "fromfiledate", "tofiledate", "n", "lineterm"}
	vals, err := bindArgs("unified_diff", args, kwargs, names, 2)
	if err != nil {
		return nil, err
	}
	texts := []string{"", "", "", "", "\n"}
	for i, k := range []int{2, 3, 4, 5, 7} {
		if vals[k] == nil {
			continue
		}
		t, ok := interp.AsText(vals[k])
		if !ok {
			return nil, pyrt.Errorf("TypeError", "all arguments must be str, not %s", pyrt.TypeName(vals[k]))
		}
		texts[i] = t
	}
	fromfile, tofile, fromdate, todate, lineterm := texts[0], texts[1], texts[2], texts[3], texts[4]
	n := 3
	if vals[6] != nil {
		if err := starlark.AsInt(vals[6], &n); err != nil {
			return nil, err
		}
	}
	bud := interp.BudgetOf(thread)
	m := &seqMatcher{isjunk: starlark.None, autojunk: true}
	defer bud.Hold(m.Held)()
	if m.a, err = diffElems(bud, vals[0]); err != nil {
		return nil, err
	}
	if m.b, err = diffElems(bud, vals[1]); err != nil {
		return nil, err
	}
	if err := m.chainB(thread); err != nil {
		return nil, err
	}
	groups, err := m.grouped(bud, n)
	if err != nil {
		return nil, err
	}
	var out []starlark.Value // the lines written, shown to the meter
	defer bud.HoldValues(&out)()
	line := func(prefix string, v starlark.Value) error {
		t, ok := interp.AsText(v)
		if !ok {
			return pyrt.Errorf("TypeError", "can only concatenate str (not \"%s\") to str", pyrt.TypeName(v))
		}
		if err := bud.Alloc(int64(len(t) + 1)); err != nil {
			return err
		}
		out, err = appendValue(bud, out, interp.MakeString(prefix+t))
		return err
	}
	for gi, g := range groups {
		if gi == 0 {
			if fromdate != "" {
				fromdate = "\t" + fromdate
			}
			if todate != "" {
				todate = "\t" + todate
			}
			out = append(out, interp.MakeString("--- "+fromfile+fromdate+lineterm), interp.MakeString("+++ "+tofile+todate+lineterm))
		}
		first, last := g[0], g[len(g)-1]
		out = append(out, interp.MakeString(fmt.Sprintf("@@ -%s +%s @@%s", unifiedRange(first.i1, last.i2), unifiedRange(first.j1, last.j2), lineterm)))
		for _, o := range g {
			if o.tag == "equal" {
				for _, v := range m.a.vals[o.i1:o.i2] {
					if err := line(" ", v); err != nil {
						return nil, err
					}
				}
				continue
			}
			if o.tag == "replace" || o.tag == "delete" {
				for _, v := range m.a.vals[o.i1:o.i2] {
					if err := line("-", v); err != nil {
						return nil, err
					}
				}
			}
			if o.tag == "replace" || o.tag == "insert" {
				for _, v := range m.b.vals[o.j1:o.j2] {
					if err := line("+", v); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return starlark.NewList(out), nil
}

// unifiedRange is a hunk's range: "start,length", 1-based; "start"
// alone for one line; an empty range names the line before it.
func unifiedRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return fmt.Sprint(begin)
	}
	if length == 0 {
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, length)
}
