package config

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// minRedactLen is the shortest secret value Redact replaces: shorter ones
// ("1", "yes") would shred ordinary text and hide nothing worth hiding.
const minRedactLen = 4

// minEnvRedactLen is the shortest value from the environment that Redact
// replaces, unless it is used where a value is nothing but a credential
// (a header, a token, the store: there minRedactLen applies). Such values
// are secrets because of where the configuration uses them, not because
// anyone said so; in a URL, an argument, a server's env or a pack's
// setting, a value under 8 characters is a port, a flag, a region or a
// user name ("8080", "true", "eu-west") far more often than a credential,
// and replacing every "8080" of every result would help no one. It is
// masked in the configuration all the same; a short secret belongs in
// secrets.yaml.
const minEnvRedactLen = 8

// Secrets holds the values of secrets.yaml, and the values that the
// configuration takes from the environment where a value is a secret
// (see decoder.shown). It never prints them: fmt verbs, JSON and YAML show
// the names only. A nil *Secrets is empty.
type Secrets struct {
	file   string
	values map[string]string
	env    map[string]string
	creds  map[string]bool // names in env used where a value is nothing but a credential
	red    *redactor       // nil when no value is long enough to redact
}

// newSecrets makes the Secrets of file, with what Redact searches for
// computed once, here, rather than on every call.
func newSecrets(file string, values map[string]string) *Secrets {
	return &Secrets{file: file, values: values, red: newRedactor(values, nil)}
}

// withEnv returns s with the secrets env taken from the environment,
// those named in credentials used where a value is nothing but a
// credential.
func (s *Secrets) withEnv(env map[string]string, credentials map[string]bool) *Secrets {
	if len(env) == 0 {
		return s
	}
	out := &Secrets{file: s.File(), env: env, creds: credentials}
	if s != nil {
		out.values = s.values
	}
	needles := maps.Clone(out.values)
	if needles == nil {
		needles = map[string]string{}
	}
	var short []string
	for name, v := range env {
		if _, dup := needles[name]; dup {
			continue
		}
		if len(v) < minEnvRedactLen && !credentials[name] {
			short = append(short, name)
			continue
		}
		needles[name] = v
	}
	out.red = newRedactor(needles, short)
	return out
}

// WithCredentials returns s with more values from the environment that
// are credentials wherever they go, as the variables a command toolpack
// passes through (env:): redacted, like values of secrets.yaml, from four
// characters. s itself is not changed.
func (s *Secrets) WithCredentials(env map[string]string) *Secrets {
	if len(env) == 0 {
		return s
	}
	all, creds := map[string]string{}, map[string]bool{}
	if s != nil {
		maps.Copy(all, s.env)
		maps.Copy(creds, s.creds)
	}
	for name, v := range env {
		if s != nil {
			if _, dup := s.values[name]; dup {
				continue // secrets.yaml's value is the one ${NAME} takes
			}
		}
		all[name], creds[name] = v, true
	}
	return s.withEnv(all, creds)
}

// EnvNames returns the names of the secrets taken from the environment,
// sorted.
func (s *Secrets) EnvNames() []string {
	if s == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(s.env))
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

// Values calls fn with each secret's name and value, those of
// secrets.yaml first, then those from the environment (env true), for
// redaction that must know the values themselves
// (runner/redaction.Fragments). Never show what it gives.
func (s *Secrets) Values(fn func(name, value string, env bool)) {
	if s == nil {
		return
	}
	for _, name := range s.Names() {
		fn(name, s.values[name], false)
	}
	for _, name := range s.EnvNames() {
		if _, dup := s.values[name]; !dup {
			fn(name, s.env[name], true)
		}
	}
}

// String lists the names, never the values.
func (s *Secrets) String() string {
	out := "secrets(" + strings.Join(s.Names(), ", ")
	if env := s.EnvNames(); len(env) > 0 {
		out += "; from the environment: " + strings.Join(env, ", ")
	}
	return out + ")"
}

// Format makes every fmt verb (%v, %+v, %#v, %s, %q) print String, so a
// stray log line cannot leak a value.
func (s *Secrets) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// MarshalJSON gives the names only.
func (s *Secrets) MarshalJSON() ([]byte, error) { return json.Marshal(s.allNames()) }

// MarshalYAML gives the names only.
func (s *Secrets) MarshalYAML() (any, error) { return s.allNames(), nil }

func (s *Secrets) allNames() []string { return append(s.Names(), s.EnvNames()...) }

// Redact replaces every occurrence of every secret value of at least four
// characters (eight for those from the environment) in text with
// [secret:NAME], in each form the value can take there: as it is;
// escaped (backslash escapes of JSON, Go, Starlark and Python strings,
// ascii() and Markdown, percent-encoding, HTML and XML character
// references, of any characters); reversed; in hex or base64; in up to
// three layers of these, alike or mixed (redact.go says how). Where occurrences of two secrets
// overlap, both are hidden entirely; at one position the longer one wins.
// Markers already in text are left as they are, so redacting twice is
// redacting once. Safe on a nil Secrets.
func (s *Secrets) Redact(text string) string {
	if s == nil || text == "" {
		return text
	}
	return s.red.redact(text)
}

// RedactContext is Redact that stops with ctx's error when ctx ends
// first: a text of hundreds of megabytes takes seconds to search, and the
// caller, which must not hand it on unsearched, withholds it instead.
func (s *Secrets) RedactContext(ctx context.Context, text string) (string, error) {
	if s == nil || text == "" {
		return text, nil
	}
	return s.red.redactContext(ctx, text)
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
