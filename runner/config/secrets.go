package config

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// minRedactLen is the shortest secret value Redact replaces: shorter ones
// ("1", "yes") would shred ordinary text and hide nothing worth hiding.
const minRedactLen = 4

// Secrets holds the values of secrets.yaml. It never prints them: fmt
// verbs, JSON and YAML show the names only. A nil *Secrets is empty.
type Secrets struct {
	file   string
	values map[string]string
}

// File is the secrets file read; "" for a nil Secrets.
func (s *Secrets) File() string {
	if s == nil {
		return ""
	}
	return s.file
}

// Names returns the secret names, sorted.
func (s *Secrets) Names() []string {
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.values))
	for n := range s.values {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the value of the secret called name.
func (s *Secrets) Lookup(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	v, ok := s.values[name]
	return v, ok
}

// String lists the names, never the values.
func (s *Secrets) String() string { return "secrets(" + strings.Join(s.Names(), ", ") + ")" }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q) print String, so a
// stray log line cannot leak a value.
func (s *Secrets) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// MarshalJSON gives the names only.
func (s *Secrets) MarshalJSON() ([]byte, error) { return json.Marshal(s.Names()) }

// MarshalYAML gives the names only.
func (s *Secrets) MarshalYAML() (any, error) { return s.Names(), nil }

// Redact replaces every occurrence of every secret value of at least four
// characters in text with [secret:NAME]. Where occurrences of two secrets
// overlap, both are hidden entirely; at one position the longer value wins.
// Safe on a nil Secrets.
func (s *Secrets) Redact(text string) string {
	if s == nil || len(s.values) == 0 || text == "" {
		return text
	}
	type hit struct {
		start, end int
		name       string
	}
	var hits []hit
	for name, v := range s.values {
		if len(v) < minRedactLen {
			continue
		}
		for from := 0; ; {
			i := strings.Index(text[from:], v)
			if i < 0 {
				break
			}
			hits = append(hits, hit{from + i, from + i + len(v), name})
			from += i + 1 // overlapping occurrences too: "aaaaa" holds "aaaa" twice
		}
	}
	if len(hits) == 0 {
		return text
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end // longer first
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	covered, last := 0, "" // text before covered is written or hidden; last is the marker just written
	for _, h := range hits {
		switch {
		case h.end <= covered:
			continue // inside what is already hidden
		case h.start < covered && h.name == last:
			covered = h.end // the same secret again, overlapping: one marker hides both
			continue
		case h.start > covered:
			b.WriteString(text[covered:h.start])
		}
		b.WriteString("[secret:" + h.name + "]")
		covered, last = h.end, h.name
	}
	b.WriteString(text[covered:])
	return b.String()
}

// loadSecrets reads a secrets file: a flat mapping of NAME: value. Values
// are taken as written (`PIN: 0042` is "0042"); nested values and nulls are
// errors. Messages never show a value.
func loadSecrets(file string, errs *errList) *Secrets {
	data, err := readLimited(file)
	if err != nil {
		errs.add(&Error{File: file, Msg: "cannot read the secrets file", Err: err})
		return nil
	}
	root, ok := parseFile(data, file, yamltree.NewBudget(maxNodes), errs)
	if !ok {
		return nil
	}
	s := &Secrets{file: file, values: map[string]string{}}
	if root.IsNull() {
		return s
	}
	if root.Kind != yamltree.MappingNode {
		errs.at(root.Pos, nil, "a secrets file is a mapping of NAME: value, got %s", kindName(root))
		return nil
	}
	bad := false
	for _, p := range root.Pairs {
		key := keyPath{p.Key}
		switch v := p.Val; {
		case !isVarName(p.Key):
			errs.at(p.At, key, "a secret name is letters, digits and _, not starting with a digit, so that ${%s} can name it", p.Key)
		case v.Kind != yamltree.ScalarNode || v.Tag == yamltree.TagNull || v.Bad:
			errs.at(v.Pos, key, "want a string value, got %s", kindName(v))
		default:
			s.values[p.Key] = v.Value
			continue
		}
		bad = true
	}
	if bad {
		return nil
	}
	return s
}

// kindName describes a value without showing it, for secrets.
func kindName(n *node) string {
	switch {
	case n.Kind == yamltree.MappingNode:
		return "a mapping"
	case n.Kind == yamltree.ListNode:
		return "a list"
	case n.Tag == yamltree.TagNull:
		return "null"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!!")
}
