package shapes

import (
	"slices"
)

// kind is a set of what was seen at one place of a result.
type kind uint8

const (
	kNone kind = 1 << iota
	kBool
	kInt
	kFloat
	kStr
	kList
	kDict
	kAny // a value of a type this package does not describe
)

// Bounds of a shape, so that what is kept, stored and rendered stays small
// whatever the results hold.
const (
	// maxDepth is how many containers deep a shape looks; below, a list
	// is "list" and a dict "dict".
	maxDepth = 4
	// maxFields is the most keys a record may have: a dict with more is
	// keyed by data (dict[str, T]).
	maxFields = 48
	// maxNodes bounds the fields of a whole shape: beyond, the deepest
	// level is cut.
	maxNodes = 256
	// maxKeyLen: a longer key is a value (a URL, a sentence, a token).
	maxKeyLen = 40
	// varyingMin and varyingRatio: a dict whose keys, merged over
	// results, number at least varyingMin and more than varyingRatio
	// times the most keys one result had is keyed by data (ids, dates):
	// its keys differ between results.
	varyingMin   = 12
	varyingRatio = 3
	// sameRecordsMin: a dict of at least this many dicts that all have the
	// same keys is keyed by data ({"alice": {...}, "bob": {...}, ...}).
	sameRecordsMin = 4
)

// shape is what was seen at one place of a tool's results. It is a join
// semilattice: merge is commutative, associative and idempotent up to the
// order of fields (the first seen come first), which is what makes
// read-merge-write between replicas safe.
type shape struct {
	Kinds kind `json:"k"`
	// Elem is the merged shape of lists' elements; nil when only empty
	// lists (or lists below maxDepth) were seen.
	Elem *shape `json:"e,omitempty"`
	// Seen: a dict here was looked into, so its keys count.
	Seen bool `json:"i,omitempty"`
	// Keyed: the dicts here are keyed by data; Values is their values'
	// shape and Fields is empty.
	Keyed  bool    `json:"d,omitempty"`
	Values *shape  `json:"v,omitempty"`
	Fields []field `json:"f,omitempty"`
	// MaxKeys is the most keys one dict had (the varying-keys rule).
	MaxKeys int `json:"m,omitempty"`
	// Omitted: keys were left out (a value or a secret as a key).
	Omitted bool `json:"o,omitempty"`
	// Limit, at the root only: the depth the shape was cut to, to stay
	// within maxNodes; results are looked at no deeper.
	Limit int `json:"x,omitempty"`
}

// field is one key of a record.
type field struct {
	Name  string `json:"n"`
	Shape *shape `json:"s,omitempty"` // nil: present, type not yet known
	Opt   bool   `json:"o,omitempty"` // some dict here lacked it
}

// clone returns a deep copy of s.
func (s *shape) clone() *shape {
	if s == nil {
		return nil
	}
	c := *s
	c.Elem = s.Elem.clone()
	c.Values = s.Values.clone()
	if s.Fields != nil {
		c.Fields = make([]field, len(s.Fields))
		for i, f := range s.Fields {
			c.Fields[i] = field{Name: f.Name, Shape: f.Shape.clone(), Opt: f.Opt}
		}
	}
	return &c
}

// merge adds what b knows to a and returns the result and whether it
// differs from a. a is changed in place (it must be the caller's own);
// b is not changed, and nothing of b is shared with the result.
func merge(a, b *shape) (*shape, bool) {
	if b == nil {
		return a, false
	}
	if a == nil {
		return b.clone(), true
	}
	changed := false
	if a.Kinds|b.Kinds != a.Kinds {
		a.Kinds |= b.Kinds
		changed = true
	}
	var c bool
	if a.Elem, c = merge(a.Elem, b.Elem); c {
		changed = true
	}
	if b.Limit > 0 && (a.Limit == 0 || b.Limit < a.Limit) {
		a.Limit, changed = b.Limit, true
	}
	if b.Kinds&kDict == 0 {
		return a, changed
	}
	if b.MaxKeys > a.MaxKeys {
		a.MaxKeys, changed = b.MaxKeys, true
	}
	if b.Omitted && !a.Omitted {
		a.Omitted, changed = true, true
	}
	if !b.Seen {
		return a, changed
	}
	switch {
	case a.Keyed || b.Keyed:
		if !a.Keyed {
			a.toKeyed()
			changed = true
		}
		if a.Values, c = merge(a.Values, b.Values); c {
			changed = true
		}
		for _, f := range b.Fields {
			if a.Values, c = merge(a.Values, f.Shape); c {
				changed = true
			}
		}
		a.Seen = true
	case !a.Seen:
		a.Seen = true
		a.Fields = b.clone().Fields
		changed = true
	default:
		if mergeFields(a, b) {
			changed = true
		}
	}
	if !a.Keyed && (len(a.Fields) > maxFields || len(a.Fields) >= varyingMin && len(a.Fields) > varyingRatio*a.MaxKeys) {
		a.toKeyed()
		changed = true
	}
	return a, changed
}

// mergeFields unites the keys of two records that were both looked into:
// a key that one lacks is optional.
func mergeFields(a, b *shape) bool {
	changed := false
	for i := range a.Fields {
		if !a.Fields[i].Opt && !slices.ContainsFunc(b.Fields, func(f field) bool { return f.Name == a.Fields[i].Name }) {
			a.Fields[i].Opt, changed = true, true
		}
	}
	for _, f := range b.Fields {
		i := slices.IndexFunc(a.Fields, func(g field) bool { return g.Name == f.Name })
		if i < 0 {
			a.Fields = append(a.Fields, field{Name: f.Name, Shape: f.Shape.clone(), Opt: true})
			changed = true
			continue
		}
		var c bool
		if a.Fields[i].Shape, c = merge(a.Fields[i].Shape, f.Shape); c {
			changed = true
		}
		if f.Opt && !a.Fields[i].Opt {
			a.Fields[i].Opt, changed = true, true
		}
	}
	return changed
}

// toKeyed turns a record into a dict keyed by data: its keys are
// forgotten, their values' shapes merged.
func (s *shape) toKeyed() {
	s.Keyed = true
	for _, f := range s.Fields {
		s.Values, _ = join(s.Values, f.Shape) // the fields go: their shapes can be taken
	}
	s.Fields = nil
}

// nodes counts the fields and elements of s: its size.
func (s *shape) nodes() int {
	if s == nil {
		return 0
	}
	n := 1 + s.Elem.nodes() + s.Values.nodes()
	for _, f := range s.Fields {
		n += 1 + f.Shape.nodes()
	}
	return n
}

// cut forgets everything of s below depth containers: a list there is
// "list", a dict "dict".
func (s *shape) cut(depth int) {
	if s == nil {
		return
	}
	if depth <= 0 {
		s.Elem, s.Values, s.Fields = nil, nil, nil
		s.Seen, s.Keyed, s.Omitted, s.MaxKeys = false, false, false, 0
		return
	}
	s.Elem.cut(depth - 1)
	s.Values.cut(depth - 1)
	for _, f := range s.Fields {
		f.Shape.cut(depth - 1)
	}
}

// bound keeps a root shape within maxNodes by cutting its deepest level
// until it fits, and remembers the depth in Limit so that later results
// are looked at no deeper (and the shape does not grow back).
func (s *shape) bound() {
	if s == nil {
		return
	}
	if s.Limit > 0 {
		s.cut(s.Limit)
	}
	for d := maxDepth; s.nodes() > maxNodes && d > 0; d-- {
		s.cut(d)
		s.Limit = d
	}
}

// depth returns how deep s goes, in shapes.
func (s *shape) depth() int {
	if s == nil {
		return 0
	}
	d := max(s.Elem.depth(), s.Values.depth())
	for _, f := range s.Fields {
		d = max(d, f.Shape.depth())
	}
	return d + 1
}
