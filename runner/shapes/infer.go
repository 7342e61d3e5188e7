package shapes

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Bounds on the work of looking at one result, so that a tool call never
// waits long for it: a result of a million records costs what one of a
// few dozen does.
const (
	// maxVisits is how many values one observation looks at; past it,
	// the rest is unknown (which merges as nothing, not as absent).
	maxVisits = 1024
	// sampleElems is how many elements of a list are looked at: the first
	// few and some spread over the rest.
	sampleElems = 8
	// sampleValues is how many values of a dict keyed by data are looked at.
	sampleValues = 8
)

// walker infers the shape of one result.
type walker struct {
	visits int
	limit  int                   // containers deep it looks
	secret func(key string) bool // reports a key that holds a secret
	slab   []shape               // shapes are cut from it: one allocation for many
}

// node returns a new shape of kinds k.
func (w *walker) node(k kind) *shape {
	if len(w.slab) == 0 {
		w.slab = make([]shape, 16)
	}
	s := &w.slab[0]
	w.slab = w.slab[1:]
	s.Kinds = k
	return s
}

// infer returns the shape of v, found depth containers deep; nil when the
// visit budget is spent (unknown).
func (w *walker) infer(v any, depth int) *shape {
	if w.visits >= maxVisits {
		return nil
	}
	w.visits++
	switch x := v.(type) {
	case nil:
		return w.node(kNone)
	case bool:
		return w.node(kBool)
	case string, []byte, time.Time:
		return w.node(kStr)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		return w.node(kInt)
	case float32, float64:
		return w.node(kFloat)
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return w.node(kFloat)
		}
		return w.node(kInt)
	case []any:
		return w.list(len(x), func(i int) any { return x[i] }, depth)
	case []string:
		s := w.node(kList)
		if len(x) > 0 && depth < w.limit {
			s.Elem = w.node(kStr)
		}
		return s
	case []map[string]any:
		return w.list(len(x), func(i int) any { return x[i] }, depth)
	case *ordered.Map:
		if x == nil {
			return w.node(kNone)
		}
		return w.dict(x.Len(), x.Range, depth)
	case map[string]any:
		return w.dict(len(x), func(f func(string, any) bool) {
			if len(x) > maxFields { // keyed by data: any few values do
				for k, e := range x {
					if !f(k, e) {
						return
					}
				}
				return
			}
			// Sorted, so that the fields of a Go map come in the same
			// order in every process.
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if !f(k, x[k]) {
					return
				}
			}
		}, depth)
	}
	return w.node(kAny)
}

// list infers the shape of a list of n elements, from a sample of them.
func (w *walker) list(n int, at func(int) any, depth int) *shape {
	s := w.node(kList)
	if n == 0 || depth >= w.limit {
		return s
	}
	for _, i := range sample(n, sampleElems) {
		s.Elem, _ = join(s.Elem, w.infer(at(i), depth+1))
	}
	return s
}

// sample returns up to k indices of n: the first k/2, then the rest spread
// evenly up to the last, so that a list whose later records differ (more
// keys, a None) is seen to.
func sample(n, k int) []int {
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, k)
	head := k / 2
	for i := range head {
		out = append(out, i)
	}
	rest := k - head
	for j := 1; j <= rest; j++ {
		out = append(out, head+(n-1-head)*j/rest)
	}
	return out
}

// dict infers the shape of a dict of n keys, walked by rangeFn: a record
// ({key: type}) unless its keys look like data, then dict[str, T].
func (w *walker) dict(n int, rangeFn func(func(string, any) bool), depth int) *shape {
	s := w.node(kDict)
	if depth >= w.limit {
		return s
	}
	s.Seen, s.MaxKeys = true, n
	if n > maxFields {
		return w.keyed(s, rangeFn, depth)
	}
	var bad [maxFields]bool // keys that look like data or hold a secret
	dataLike, i := 0, 0
	rangeFn(func(k string, _ any) bool {
		if dataKey(k) || w.secret(k) {
			bad[i] = true
			dataLike++
		}
		i++
		return i < n
	})
	if n > 0 && 2*dataLike >= n {
		return w.keyed(s, rangeFn, depth)
	}
	s.Fields = make([]field, 0, n-dataLike)
	i = 0
	rangeFn(func(k string, v any) bool {
		if bad[i] {
			s.Omitted = true
		} else {
			s.Fields = append(s.Fields, field{Name: k, Shape: w.infer(v, depth+1)})
		}
		i++
		return i < n
	})
	if sameRecords(s.Fields) {
		s.toKeyed()
	}
	return s
}

// keyed fills s as a dict keyed by data, from a sample of its values.
func (w *walker) keyed(s *shape, rangeFn func(func(string, any) bool), depth int) *shape {
	s.Keyed = true
	seen := 0
	rangeFn(func(_ string, v any) bool {
		s.Values, _ = join(s.Values, w.infer(v, depth+1))
		seen++
		return seen < sampleValues
	})
	return s
}

// sameRecords reports whether fields are at least sameRecordsMin records
// that all have the same keys: the values of a dict keyed by names.
func sameRecords(fields []field) bool {
	if len(fields) < sameRecordsMin {
		return false
	}
	first := fields[0].Shape
	for _, f := range fields {
		s := f.Shape
		if s == nil || s.Kinds != kDict || !s.Seen || s.Keyed || len(s.Fields) == 0 || len(s.Fields) != len(first.Fields) {
			return false
		}
		for i, g := range s.Fields {
			if g.Name != first.Fields[i].Name {
				return false
			}
		}
	}
	return true
}

// dataKey reports whether a key looks like a value rather than a name:
// a number, a date, an email, a UUID or hash, a URL, a path, a host, a
// sentence, a token. Such a key is never kept; a dict with many of them
// is keyed by data.
func dataKey(k string) bool {
	if k == "" || len(k) > maxKeyLen {
		return true
	}
	digits, hex, upper, lower := 0, 0, 0, 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case '0' <= c && c <= '9':
			digits++
			hex++
		case 'a' <= c && c <= 'z':
			lower++
			if c <= 'f' {
				hex++
			}
		case 'A' <= c && c <= 'Z':
			upper++
			if c <= 'F' {
				hex++
			}
		case c == '_':
		case c == '-' && i > 0:
			hex++ // UUIDs
		case (c == '@' || c == '$') && i == 0: // "@type", "$ref"
		default:
			// spaces, '@' of an email, '/', ':', '.', other punctuation,
			// and any non-ASCII byte
			return true
		}
	}
	switch {
	case 2*digits > len(k): // numbers, dates, phone numbers, numeric ids
		return true
	case len(k) >= 16 && hex == len(k) && digits > 0: // hashes, UUIDs, hex ids
		return true
	case len(k) >= 20 && digits >= 3 && upper > 0 && lower > 0: // tokens, base64 ids
		return true
	}
	return false
}
