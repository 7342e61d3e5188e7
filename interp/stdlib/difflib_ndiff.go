package stdlib

import (
	"strings"
	"unicode"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// differ is CPython's Differ: lines that changed are paired with the most
// similar line of the other side and marked character by character ("?"
// lines), the others are added or removed whole.
type differ struct {
	thread             *starlark.Thread
	bud                *interp.Budget
	linejunk, charjunk starlark.Value   // None, a callable, or a builtin's name (Go's own test)
	out                []starlark.Value // the lines made, shown to the meter (HoldValues)
}

func (d *differ) emit(s string) error {
	if err := d.bud.Alloc(int64(len(s))); err != nil {
		return err
	}
	out, err := appendValue(d.bud, d.out, interp.MakeString(s))
	if err != nil {
		return err
	}
	d.out = out
	return nil
}

func (d *differ) dump(tag string, x diffSeq, lo, hi int) error {
	for i := lo; i < hi; i++ {
		t, _ := interp.AsText(x.vals[i])
		if err := d.emit(tag + " " + t); err != nil {
			return err
		}
	}
	return nil
}

func (d *differ) compare(a, b diffSeq) error {
	m := &seqMatcher{isjunk: d.linejunk, autojunk: true, a: a, b: b}
	if err := m.chainB(d.thread); err != nil {
		return err
	}
	ops, err := m.opcodes(d.bud)
	if err != nil {
		return err
	}
	for _, o := range ops {
		switch o.tag {
		case "replace":
			err = d.fancyReplace(a, o.i1, o.i2, b, o.j1, o.j2)
		case "delete":
			err = d.dump("-", a, o.i1, o.i2)
		case "insert":
			err = d.dump("+", b, o.j1, o.j2)
		default:
			err = d.dump(" ", a, o.i1, o.i2)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// lineChars is a line as a sequence of its characters, charged: ndiff
// makes one for each pair of lines it compares.
func lineChars(b *interp.Budget, v starlark.Value) (diffSeq, error) {
	t, _ := interp.AsText(v)
	return charSeq(b, v, t)
}

// fancyReplace pairs the most similar lines of a[alo:ahi] and
// b[blo:bhi] (a ratio above 0.75), or an identical pair, and recurses on
// each side of them; with neither, the lines are replaced whole.
func (d *differ) fancyReplace(a diffSeq, alo, ahi int, b diffSeq, blo, bhi int) error {
	bestRatio, cutoff := 0.74, 0.75
	besti, bestj, eqi, eqj := -1, -1, -1, -1
	m := &seqMatcher{isjunk: d.charjunk, autojunk: true}
	for j := blo; j < bhi; j++ {
		var err error
		if m.b, err = lineChars(d.bud, b.vals[j]); err != nil {
			return err
		}
		if err := m.chainB(d.thread); err != nil {
			return err
		}
		for i := alo; i < ahi; i++ {
			if err := d.bud.Charge(1); err != nil {
				return err
			}
			if a.keys[i] == b.keys[j] {
				if eqi < 0 {
					eqi, eqj = i, j
				}
				continue
			}
			if m.a, err = lineChars(d.bud, a.vals[i]); err != nil {
				return err
			}
			m.blocks = nil
			if m.realQuickRatio() <= bestRatio {
				continue
			}
			if q, err := m.quickRatio(d.bud); err != nil || q <= bestRatio {
				if err != nil {
					return err
				}
				continue
			}
			r, err := m.ratio(d.bud)
			if err != nil {
				return err
			}
			if r > bestRatio {
				bestRatio, besti, bestj = r, i, j
			}
		}
	}
	if bestRatio < cutoff {
		if eqi < 0 {
			return d.plainReplace(a, alo, ahi, b, blo, bhi)
		}
		besti, bestj = eqi, eqj
	} else {
		eqi = -1
	}
	if err := d.fancyHelper(a, alo, besti, b, blo, bestj); err != nil {
		return err
	}
	if eqi < 0 {
		var err error
		if m.a, err = lineChars(d.bud, a.vals[besti]); err != nil {
			return err
		}
		if m.b, err = lineChars(d.bud, b.vals[bestj]); err != nil {
			return err
		}
		if err := m.chainB(d.thread); err != nil {
			return err
		}
		ops, err := m.opcodes(d.bud)
		if err != nil {
			return err
		}
		var atags, btags strings.Builder
		for _, o := range ops {
			la, lb := o.i2-o.i1, o.j2-o.j1
			switch o.tag {
			case "replace":
				atags.WriteString(strings.Repeat("^", la))
				btags.WriteString(strings.Repeat("^", lb))
			case "delete":
				atags.WriteString(strings.Repeat("-", la))
			case "insert":
				btags.WriteString(strings.Repeat("+", lb))
			default:
				atags.WriteString(strings.Repeat(" ", la))
				btags.WriteString(strings.Repeat(" ", lb))
			}
		}
		at, _ := interp.AsText(a.vals[besti])
		bt, _ := interp.AsText(b.vals[bestj])
		if err := d.qformat(at, bt, atags.String(), btags.String()); err != nil {
			return err
		}
	} else {
		t, _ := interp.AsText(a.vals[besti])
		if err := d.emit("  " + t); err != nil {
			return err
		}
	}
	return d.fancyHelper(a, besti+1, ahi, b, bestj+1, bhi)
}

func (d *differ) fancyHelper(a diffSeq, alo, ahi int, b diffSeq, blo, bhi int) error {
	switch {
	case alo < ahi && blo < bhi:
		return d.fancyReplace(a, alo, ahi, b, blo, bhi)
	case alo < ahi:
		return d.dump("-", a, alo, ahi)
	case blo < bhi:
		return d.dump("+", b, blo, bhi)
	}
	return nil
}

// plainReplace removes and adds the lines whole: the shorter side first.
func (d *differ) plainReplace(a diffSeq, alo, ahi int, b diffSeq, blo, bhi int) error {
	if bhi-blo < ahi-alo {
		if err := d.dump("+", b, blo, bhi); err != nil {
			return err
		}
		return d.dump("-", a, alo, ahi)
	}
	if err := d.dump("-", a, alo, ahi); err != nil {
		return err
	}
	return d.dump("+", b, blo, bhi)
}

// qformat is a changed pair of lines with their "?" guide lines, whose
// markers keep the tabs and spaces of the line they mark.
func (d *differ) qformat(aline, bline, atags, btags string) error {
	keep := func(s, tags string) string {
		t := []rune(tags)
		var out strings.Builder
		for i, c := range []rune(s) {
			if i >= len(t) {
				break
			}
			if t[i] == ' ' && unicode.IsSpace(c) {
				out.WriteRune(c)
			} else {
				out.WriteRune(t[i])
			}
		}
		return strings.TrimRightFunc(out.String(), unicode.IsSpace)
	}
	atags, btags = keep(aline, atags), keep(bline, btags)
	if err := d.emit("- " + aline); err != nil {
		return err
	}
	if atags != "" {
		if err := d.emit("? " + atags + "\n"); err != nil {
			return err
		}
	}
	if err := d.emit("+ " + bline); err != nil {
		return err
	}
	if btags != "" {
		return d.emit("? " + btags + "\n")
	}
	return nil
}

// isCharJunk is IS_CHARACTER_JUNK(ch, ws=' \t').
func isCharJunk(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var ch, ws starlark.Value = nil, starlark.String(" \t")
	if err := starlark.UnpackPositionalArgs("IS_CHARACTER_JUNK", args, kwargs, 1, &ch, &ws); err != nil {
		return nil, err
	}
	c, ok1 := interp.AsText(ch)
	w, ok2 := interp.AsText(ws)
	if !ok1 || !ok2 {
		return nil, pyrt.Errorf("TypeError", "'in <string>' requires string as left operand, not %s", pyrt.TypeName(ch))
	}
	return starlark.Bool(strings.Contains(w, c)), nil
}

// isLineJunk is IS_LINE_JUNK(line): blank, or only a "#", with spaces.
func isLineJunk(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var line starlark.Value
	if err := starlark.UnpackPositionalArgs("IS_LINE_JUNK", args, kwargs, 1, &line); err != nil {
		return nil, err
	}
	t, ok := interp.AsText(line)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(line))
	}
	t = strings.TrimLeftFunc(t, unicode.IsSpace)
	t = strings.TrimPrefix(t, "#")
	return starlark.Bool(strings.TrimFunc(t, unicode.IsSpace) == ""), nil
}

// diffNdiff is ndiff(a, b, linejunk=None, charjunk=IS_CHARACTER_JUNK):
// Differ's lines, as a list (CPython returns a generator of them).
func diffNdiff(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("ndiff", args, kwargs, []string{"a", "b", "linejunk", "charjunk"}, 2)
	if err != nil {
		return nil, err
	}
	d := &differ{thread: thread, bud: interp.BudgetOf(thread), linejunk: starlark.None, charjunk: charJunkBuiltin}
	if vals[2] != nil {
		d.linejunk = vals[2]
	}
	if vals[3] != nil {
		d.charjunk = vals[3]
	}
	a, err := diffLines(d.bud, vals[0])
	if err != nil {
		return nil, err
	}
	b, err := diffLines(d.bud, vals[1])
	if err != nil {
		return nil, err
	}
	defer d.bud.Hold(func(visit func(starlark.Value)) {
		visit(heldTuple(a.vals))
		visit(heldTuple(b.vals))
		visit(heldTuple(d.out))
	})()
	if err := d.compare(a, b); err != nil {
		return nil, err
	}
	return starlark.NewList(d.out), nil
}

// diffLines reads ndiff's sequences: lists of str.
func diffLines(b *interp.Budget, v starlark.Value) (diffSeq, error) {
	s, err := diffElems(b, v)
	if err != nil {
		return s, err
	}
	for _, x := range s.vals {
		if _, ok := interp.AsText(x); !ok {
			return s, pyrt.Errorf("TypeError", "expected str, got %s", pyrt.TypeName(x))
		}
	}
	return s, nil
}

var (
	charJunkBuiltin = interp.NewBuiltin("IS_CHARACTER_JUNK", isCharJunk)
	lineJunkBuiltin = interp.NewBuiltin("IS_LINE_JUNK", isLineJunk)
)
