package stdlib

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Match is a match object (re.Match): spans in characters, texts made
// when asked for.
type Match struct {
	p          *Pattern
	sub        *subject
	spans      []int // character positions, 2 per group, -1 when not taking part
	loc        []int // byte offsets, likewise
	pos, epos  int
	lastindex  int // 0 when no group took part
	frozenText bool
}

func (p *Pattern) newMatch(sub *subject, loc []int, pos, endpos int) *Match {
	lastindex := -1
	if len(loc) == 2*(p.t.groups+1)+1 { // from the backtracking matcher, which knows it
		lastindex, loc = loc[len(loc)-1], loc[:len(loc)-1]
	}
	m := &Match{p: p, sub: sub, loc: loc, pos: pos, epos: endpos, spans: make([]int, len(loc))}
	for i, off := range loc {
		if off < 0 {
			m.spans[i] = -1
		} else {
			m.spans[i] = sub.char(off)
		}
	}
	// lastindex: the group that closed last, the outer one of those that
	// end at the same place.
	if lastindex >= 0 {
		m.lastindex = lastindex
		return m
	}
	bestEnd := -1
	for g := 1; g <= p.t.groups; g++ {
		if loc[2*g] >= 0 && loc[2*g+1] > bestEnd {
			m.lastindex, bestEnd = g, loc[2*g+1]
		}
	}
	return m
}

func (m *Match) String() string {
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", m.spans[0], m.spans[1],
		interp.QuoteString(m.sub.s[m.loc[0]:m.loc[1]]))
}
func (m *Match) Type() string          { return "re.Match" }
func (m *Match) Freeze()               {}
func (m *Match) Truth() starlark.Bool  { return true }
func (m *Match) Hash() (uint32, error) { return starlark.String("re.Match").Hash() } // equal only to itself

// Get is m[g].
func (m *Match) Get(k starlark.Value) (starlark.Value, bool, error) {
	g, err := m.index(k)
	if err != nil {
		return nil, false, err
	}
	return m.group(g), true, nil
}

// index is the group number k names (an int or a group's name).
func (m *Match) index(k starlark.Value) (int, error) {
	switch x := k.(type) {
	case starlark.Int:
		if i, ok := x.Int64(); ok && i >= 0 && int(i) <= m.p.t.groups {
			return int(i), nil
		}
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	default:
		if name, ok := interp.AsText(k); ok {
			for i, n := range m.p.t.names {
				if n != "" && n == name {
					return i, nil
				}
			}
		}
	}
	return 0, pyrt.Errorf("IndexError", "no such group")
}

func (m *Match) group(g int) starlark.Value {
	if m.loc[2*g] < 0 {
		return starlark.None
	}
	return m.sub.text(m.loc[2*g], m.loc[2*g+1])
}

var matchAttrs = []string{"end", "endpos", "expand", "group", "groupdict", "groups", "lastgroup", "lastindex",
	"pos", "re", "regs", "span", "start", "string"}

func (m *Match) AttrNames() []string { return matchAttrs }

func (m *Match) Attr(name string) (starlark.Value, error) {
	switch name {
	case "string":
		return m.sub.v, nil
	case "re":
		return m.p, nil
	case "pos":
		return starlark.MakeInt(m.pos), nil
	case "endpos":
		return starlark.MakeInt(m.epos), nil
	case "lastindex":
		if m.lastindex == 0 {
			return starlark.None, nil
		}
		return starlark.MakeInt(m.lastindex), nil
	case "lastgroup":
		if m.lastindex == 0 || m.p.t.names[m.lastindex] == "" {
			return starlark.None, nil
		}
		return interp.MakeString(m.p.t.names[m.lastindex]), nil
	case "regs":
		t := make(starlark.Tuple, m.p.t.groups+1)
		for g := range t {
			t[g] = starlark.Tuple{starlark.MakeInt(m.spans[2*g]), starlark.MakeInt(m.spans[2*g+1])}
		}
		return t, nil
	}
	for _, a := range matchAttrs {
		if a == name {
			return interp.NewBuiltin("re.Match."+name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				return m.method(thread, name, args, kwargs)
			}), nil
		}
	}
	return nil, noAttr(m, name)
}

func (m *Match) method(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "group":
		if len(kwargs) > 0 {
			return nil, pyrt.Errorf("TypeError", "group() takes no keyword arguments")
		}
		if len(args) == 0 {
			return m.group(0), nil
		}
		out := make(starlark.Tuple, len(args))
		for i, a := range args {
			g, err := m.index(a)
			if err != nil {
				return nil, err
			}
			out[i] = m.group(g)
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return out, nil
	case "groups", "groupdict":
		var dflt starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "default?", &dflt); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		val := func(g int) starlark.Value {
			if m.loc[2*g] < 0 {
				return dflt
			}
			return m.group(g)
		}
		if name == "groups" {
			t := make(starlark.Tuple, m.p.t.groups)
			for i := range t {
				t[i] = val(i + 1)
			}
			return t, nil
		}
		d := starlark.NewDict(m.p.t.groups)
		for g, n := range m.p.t.names {
			if n != "" {
				if err := d.SetKey(interp.MakeString(n), val(g)); err != nil {
					return nil, err
				}
			}
		}
		return d, nil
	case "start", "end", "span":
		var k starlark.Value = starlark.MakeInt(0)
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &k); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		g, err := m.index(k)
		if err != nil {
			return nil, err
		}
		s, e := m.spans[2*g], m.spans[2*g+1]
		switch name {
		case "start":
			return starlark.MakeInt(s), nil
		case "end":
			return starlark.MakeInt(e), nil
		}
		return starlark.Tuple{starlark.MakeInt(s), starlark.MakeInt(e)}, nil
	case "expand":
		var t starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &t); err != nil {
			return nil, pyrt.Errorf("TypeError", "%s", err.Error())
		}
		text, ok := interp.AsText(t)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected str instance, %s found", t.Type())
		}
		tmpl, err := m.p.parseTemplate(text)
		if err != nil {
			return nil, err
		}
		w := textBuf{b: interp.BudgetOf(thread)}
		defer w.done()
		if err := expand(&w, tmpl, m.sub.s, m.loc); err != nil {
			return nil, err
		}
		return w.value()
	}
	return nil, pyrt.Errorf("AttributeError", "'re.Match' object has no attribute '%s'", strings.TrimSpace(name))
}
