package shapes

import (
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/packs"
)

// Rendering bounds.
const (
	// DefaultMaxChars is the longest type rendered for a stub line.
	DefaultMaxChars = 120
	// renderDepth is how many containers deep a rendered type goes.
	renderDepth = 3
	// maxUnion is the most alternatives a rendered union has (None not
	// counted); with more, the type is "any".
	maxUnion = 3
)

// render returns s as a compact Python-ish type of at most maxChars
// characters: `list[{id: int, name?: str | None}]`, `dict[str, int]`,
// `int | str`. It gives up depth first, then trailing keys ("..."), then
// says "any". secret reports key names to leave out (checked again here:
// the secrets may have changed since the shape was learned, elsewhere).
func render(s *shape, maxChars int, secret func(string) bool) string {
	if s == nil {
		return ""
	}
	if maxChars <= 0 {
		maxChars = DefaultMaxChars
	}
	r := renderer{secret: secret}
	for d := renderDepth; d >= 1; d-- {
		if out := r.typ(s, d); len(out) <= maxChars {
			return out
		}
	}
	// Too long even one level deep (a record of many long keys): keep
	// the keys that fit, then give up depth.
	r.budget = maxChars
	for d := renderDepth - 1; d >= 0; d-- {
		if out := r.typ(s, d); len(out) <= maxChars {
			return out
		}
	}
	return "any"
}

type renderer struct {
	secret func(string) bool
	budget int // > 0: records keep only the keys that fit in it
}

// typ renders s, looking depth containers deep.
func (r *renderer) typ(s *shape, depth int) string {
	if s == nil || s.Kinds&kAny != 0 || s.Kinds == 0 {
		return "any"
	}
	var alts []string
	if s.Kinds&kBool != 0 {
		alts = append(alts, "bool")
	}
	switch {
	case s.Kinds&kFloat != 0: // an int where a float is expected is fine
		alts = append(alts, "float")
	case s.Kinds&kInt != 0:
		alts = append(alts, "int")
	}
	if s.Kinds&kStr != 0 {
		alts = append(alts, "str")
	}
	if s.Kinds&kList != 0 {
		alts = append(alts, r.list(s, depth))
	}
	if s.Kinds&kDict != 0 {
		alts = append(alts, r.dict(s, depth))
	}
	if len(alts) > maxUnion {
		return "any"
	}
	if s.Kinds&kNone != 0 {
		alts = append(alts, "None")
	}
	return strings.Join(alts, " | ")
}

// list renders the list part of s: `list[T]`, or `list` when nothing is
// known of its elements.
func (r *renderer) list(s *shape, depth int) string {
	if s.Elem == nil || depth <= 0 {
		return "list"
	}
	if e := r.typ(s.Elem, depth-1); e != "any" {
		return "list[" + e + "]"
	}
	return "list"
}

// dict renders the dict part of s: `{id: int, name?: str}`, or
// `dict[str, T]` for one keyed by data, or `dict`.
func (r *renderer) dict(s *shape, depth int) string {
	if depth <= 0 || !s.Seen {
		return "dict"
	}
	if s.Keyed {
		if s.Values == nil {
			return "dict"
		}
		v := r.typ(s.Values, depth-1)
		if v == "any" {
			return "dict"
		}
		return "dict[str, " + v + "]"
	}
	var b strings.Builder
	b.WriteByte('{')
	omitted := s.Omitted
	n := 0
	for _, f := range s.Fields {
		if dataKey(f.Name) || r.secret(f.Name) {
			omitted = true
			continue
		}
		var part strings.Builder
		if n > 0 {
			part.WriteString(", ")
		}
		if packs.IsIdentifier(f.Name) { // a key that can be written bare
			part.WriteString(f.Name)
		} else {
			part.WriteString(strconv.Quote(f.Name))
		}
		if f.Opt {
			part.WriteByte('?')
		}
		part.WriteString(": ")
		part.WriteString(r.typ(f.Shape, depth-1))
		if r.budget > 0 && b.Len()+part.Len()+len(", ...}") > r.budget {
			omitted = true
			break
		}
		b.WriteString(part.String())
		n++
	}
	if n == 0 && !omitted {
		return "dict" // only empty dicts seen
	}
	if omitted {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteByte('}')
	return b.String()
}
