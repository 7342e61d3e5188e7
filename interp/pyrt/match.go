package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// The match statement at run time. The lowering (lower_match.go) turns
// each case's pattern into a description built of tuples, whose values
// (a literal, Color.RED, a class) it evaluates where the program wrote
// them, and calls __ot_match(subject, description, n): the n values the
// pattern captures, in slot order, or None when the subject does not
// match. The rules are PEP 634's: sequences are lists, tuples, ranges and
// the like but never str or bytes, mappings match by key with extra keys
// allowed, class patterns check isinstance and then read attributes.

// selfMatching are the builtin classes whose one positional sub-pattern
// matches the subject itself: case int(n) binds the int.
func selfMatching(name string) bool {
	switch name {
	case "bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple":
		return true
	}
	return false
}

func matchHelper(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 || len(kwargs) != 0 {
		return nil, fmt.Errorf("__ot_match: want 3 arguments")
	}
	n, err := starlark.AsInt32(args[2])
	if err != nil {
		return nil, err
	}
	m := &matcher{b: interp.BudgetOf(thread), slots: make([]starlark.Value, n)}
	ok, err := m.match(args[0], args[1], 0)
	if err != nil || !ok {
		return starlark.None, err
	}
	for i, v := range m.slots {
		if v == nil {
			m.slots[i] = starlark.None // a slot of an alternative not taken
		}
	}
	return starlark.NewList(m.slots), nil
}

type matcher struct {
	b     *interp.Budget
	slots []starlark.Value
}

func (m *matcher) bind(slot starlark.Value, v starlark.Value) error {
	i, err := starlark.AsInt32(slot)
	if err != nil || i < 0 || i >= len(m.slots) {
		return fmt.Errorf("__ot_match: bad slot %v", slot)
	}
	m.slots[i] = v
	return nil
}

func (m *matcher) match(subject, pattern starlark.Value, depth int) (bool, error) {
	if depth > interp.MaxDepth {
		return false, interp.ErrTooDeep
	}
	if err := m.b.Charge(1); err != nil {
		return false, err
	}
	p, ok := pattern.(starlark.Tuple)
	if !ok || len(p) == 0 {
		return false, fmt.Errorf("__ot_match: bad pattern %v", pattern)
	}
	kind, err := starlark.AsInt32(p[0])
	if err != nil {
		return false, err
	}
	switch kind {
	case lowered.PatWild:
		return true, nil
	case lowered.PatCapture:
		return true, m.bind(p[1], subject)
	case lowered.PatAs:
		ok, err := m.match(subject, p[1], depth+1)
		if err != nil || !ok {
			return false, err
		}
		return true, m.bind(p[2], subject)
	case lowered.PatValue:
		return pyEqual(m.b, subject, p[1])
	case lowered.PatSingle:
		switch want := p[1].(type) {
		case starlark.NoneType:
			return subject == starlark.None, nil
		case starlark.Bool:
			got, ok := subject.(starlark.Bool)
			return ok && got == want, nil
		}
		return false, nil
	case lowered.PatSeq:
		return m.sequence(subject, p, depth)
	case lowered.PatMap:
		return m.mapping(subject, p, depth)
	case lowered.PatClass:
		return m.class(subject, p, depth)
	case lowered.PatOr:
		for _, alt := range p[1].(starlark.Tuple) {
			ok, err := m.match(subject, alt, depth+1)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return false, fmt.Errorf("__ot_match: unknown pattern kind %d", kind)
}

// matchSequence reports a subject a sequence pattern can match: not a str,
// bytes or bytearray, nor a mapping, though they are indexable.
func matchSequence(v starlark.Value) (starlark.Indexable, bool) {
	switch pyTypeName(v) {
	case "str", "bytes", "bytearray":
		return nil, false
	}
	if _, ok := v.(starlark.Mapping); ok {
		return nil, false
	}
	x, ok := v.(starlark.Indexable)
	return x, ok
}

func (m *matcher) sequence(subject starlark.Value, p starlark.Tuple, depth int) (bool, error) {
	seq, ok := matchSequence(subject)
	if !ok {
		return false, nil
	}
	subs := p[1].(starlark.Tuple)
	star, _ := starlark.AsInt32(p[2])
	n := seq.Len()
	var err error
	if star < 0 && n != len(subs) || star >= 0 && n < len(subs)-1 {
		return false, nil
	}
	for i, sub := range subs {
		switch {
		case i == star:
			if slot, _ := starlark.AsInt32(p[3]); slot >= 0 {
				rest := make([]starlark.Value, 0, n-len(subs)+1)
				if err := m.b.Alloc(int64(cap(rest)) * 16); err != nil {
					return false, err
				}
				for j := i; j < i+n-len(subs)+1; j++ {
					rest = append(rest, seq.Index(j))
				}
				if err := m.bind(p[3], starlark.NewList(rest)); err != nil {
					return false, err
				}
			}
			continue
		case star >= 0 && i > star:
			ok, err = m.match(seq.Index(n-(len(subs)-i)), sub, depth+1)
		default:
			ok, err = m.match(seq.Index(i), sub, depth+1)
		}
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func (m *matcher) mapping(subject starlark.Value, p starlark.Tuple, depth int) (bool, error) {
	d, ok := subject.(starlark.Mapping)
	if !ok {
		return false, nil
	}
	keys, subs := p[1].(starlark.Tuple), p[2].(starlark.Tuple)
	for i, k := range keys {
		for _, earlier := range keys[:i] {
			if eq, err := pyEqual(m.b, k, earlier); err != nil {
				return false, err
			} else if eq {
				r, err := interp.Repr(m.b, k)
				if err != nil {
					return false, err
				}
				return false, exception("ValueError", "mapping pattern checks duplicate key (%s)", r)
			}
		}
		v, found, err := d.Get(k)
		if err != nil || !found {
			return false, nil // an unhashable key is not there either
		}
		if ok, err := m.match(v, subs[i], depth+1); err != nil || !ok {
			return false, err
		}
	}
	if slot, _ := starlark.AsInt32(p[3]); slot >= 0 {
		it, ok := subject.(starlark.IterableMapping)
		if !ok {
			return false, typeError("%s object is not iterable", pyTypeName(subject))
		}
		rest := starlark.NewDict(0)
		for _, kv := range it.Items() {
			if err := m.b.Charge(1); err != nil {
				return false, err
			}
			skip := false
			for _, k := range keys {
				if eq, _ := pyEqual(m.b, kv[0], k); eq {
					skip = true
					break
				}
			}
			if !skip {
				if err := rest.SetKey(kv[0], kv[1]); err != nil {
					return false, err
				}
			}
		}
		if err := m.b.Alloc(int64(rest.Len()) * 48); err != nil {
			return false, err
		}
		if err := m.bind(p[3], rest); err != nil {
			return false, err
		}
	}
	return true, nil
}

func (m *matcher) class(subject starlark.Value, p starlark.Tuple, depth int) (bool, error) {
	cls := p[1]
	var is bool
	switch c := cls.(type) {
	case classInfo:
		is = c.hasInstance(subject)
	case Class:
		is = c.HasInstance(subject)
	default:
		return false, typeError("called match pattern must be a class")
	}
	if !is {
		return false, nil
	}
	subs, names, kwsubs := p[2].(starlark.Tuple), p[3].(starlark.Tuple), p[4].(starlark.Tuple)
	clsName := className(cls)
	if len(subs) > 0 {
		if t, ok := cls.(*TypeObj); ok && selfMatching(t.name) {
			if len(subs) > 1 {
				return false, typeError("%s() accepts 1 positional sub-pattern (%d given)", clsName, len(subs))
			}
			return m.match(subject, subs[0], depth+1)
		}
		args := matchArgs(cls)
		if len(subs) > len(args) {
			plural := "s"
			if len(args) == 1 {
				plural = ""
			}
			return false, typeError("%s() accepts %d positional sub-pattern%s (%d given)", clsName, len(args), plural, len(subs))
		}
		for i, sub := range subs {
			ok, err := m.attr(subject, args[i], sub, depth)
			if err != nil || !ok {
				return false, err
			}
		}
	}
	for i, name := range names {
		s, _ := starlark.AsString(name)
		ok, err := m.attr(subject, s, kwsubs[i], depth)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// attr matches the attribute name of subject; a missing one does not match.
func (m *matcher) attr(subject starlark.Value, name string, sub starlark.Value, depth int) (bool, error) {
	x, ok := subject.(starlark.HasAttrs)
	if !ok {
		return false, nil
	}
	v, err := x.Attr(name)
	if err != nil || v == nil {
		return false, nil
	}
	return m.match(v, sub, depth+1)
}

// matchArgs is a class's __match_args__: a namedtuple's fields.
func matchArgs(cls starlark.Value) []string {
	x, ok := cls.(starlark.HasAttrs)
	if !ok {
		return nil
	}
	for _, name := range []string{"__match_args__", "_fields"} {
		v, err := x.Attr(name)
		if err != nil || v == nil {
			continue
		}
		seq, ok := v.(starlark.Indexable)
		if !ok {
			continue
		}
		out := make([]string, 0, seq.Len())
		for i := 0; i < seq.Len(); i++ {
			if s, ok := starlark.AsString(seq.Index(i)); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// className is the __name__ of a class, for messages.
func className(cls starlark.Value) string {
	if x, ok := cls.(starlark.HasAttrs); ok {
		if v, err := x.Attr("__name__"); err == nil && v != nil {
			if s, ok := starlark.AsString(v); ok {
				return s
			}
		}
	}
	return cls.String()
}
