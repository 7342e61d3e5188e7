package config

import (
	"encoding/json"
	"fmt"
	"io"
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
	red    *redactor // nil when no value is long enough to redact
}

// newSecrets makes the Secrets of file, with what Redact searches for
// computed once, here, rather than on every call.
func newSecrets(file string, values map[string]string) *Secrets {
	return &Secrets{file: file, values: values, red: newRedactor(values)}
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
// characters in text with [secret:NAME], in each form the value can take
// there: as it is; escaped (backslash escapes of JSON, Go, Starlark and
// Python strings and Markdown, percent-encoding, HTML and XML character
// references; up to two layers, alike or mixed); reversed; in base64
// (redact.go says how). Where occurrences of two secrets
// overlap, both are hidden entirely; at one position the longer one wins.
// Markers already in text are left as they are, so redacting twice is
// redacting once. Safe on a nil Secrets.
func (s *Secrets) Redact(text string) string {
	if s == nil || text == "" {
		return text
	}
	return s.red.redact(text)
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
	values := map[string]string{}
	if root.IsNull() {
		return newSecrets(file, values)
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
			values[p.Key] = v.Value
			continue
		}
		bad = true
	}
	if bad {
		return nil
	}
	return newSecrets(file, values)
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
