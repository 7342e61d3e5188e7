package config

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// decoder turns the merged, expanded node tree into a Config. Its helpers
// share one convention: they return ok=false for a null value (not set,
// nothing reported) and for a wrong one (reported); the caller only sets a
// field when ok is true.
type decoder struct {
	errs  *errList
	home  string
	masks map[string]string // see Config.masks
	keys  map[string]pos    // see Config.keys
	// env says which nodes hold values from the environment (see
	// expander); plain the ones of those read where a value is not a
	// credential, which are shown.
	env   map[*node]envUse
	plain map[*node]bool
	// credentials are the nodes read where a value is nothing but a
	// credential (headers, tokens, the store), whose variables are
	// redacted however short (see Secrets.withEnv).
	credentials map[*node]bool

	tokenPolicies   []placed // serve.auth.tokens[i].policy, checked once policies are known
	policyIsolation []placed // policies.x.isolation, checked against the top-level isolation
}

func (d *decoder) fail(n *node, p keyPath, format string, args ...any) {
	d.errs.at(n.Pos, p, format, args...)
}

// remember records the masked form of a value built from a secret, so that
// Effective can show it in place of the value.
func (d *decoder) remember(n *node, p keyPath) {
	if n.Masked != "" {
		d.masks[keyID(p)] = n.Masked
	}
}

// shown marks n, and what it holds, as read where a value is not a
// credential: a path, a number, a switch, a duration, a size, a choice
// among fixed words, a name, an address, a description. A value it took
// from the environment is shown there (it stays masked in messages, see
// Load), and the variable is not a secret for this use. Everywhere else —
// a server's url, headers, env and args, the store, a pack's settings,
// tokens — it is.
func (d *decoder) shown(n *node) {
	if u, ok := d.env[n]; ok {
		n.Masked = u.shown
		if d.plain == nil {
			d.plain = map[*node]bool{}
		}
		d.plain[n] = true
	}
	for _, it := range n.Items {
		d.shown(it)
	}
	for _, pr := range n.Pairs {
		d.shown(pr.Val)
	}
}

// credential marks n, and what it holds, as read where a value is
// nothing but a credential.
func (d *decoder) credential(n *node) {
	if d.credentials == nil {
		d.credentials = map[*node]bool{}
	}
	d.credentials[n] = true
	for _, it := range n.Items {
		d.credential(it)
	}
	for _, pr := range n.Pairs {
		d.credential(pr.Val)
	}
}

// secretEnv returns the variables of the environment used where their
// values are secrets, with their values, and the names of those used
// where a value is nothing but a credential.
func (d *decoder) secretEnv(x *expander) (map[string]string, map[string]bool) {
	out, credentials := map[string]string{}, map[string]bool{}
	for n, u := range d.env {
		if d.plain[n] {
			continue
		}
		for _, name := range u.names {
			out[name] = x.env[name]
			if d.credentials[n] {
				credentials[name] = true
			}
		}
	}
	return out, credentials
}

// skip reports whether n is null or was already reported as broken.
func skip(n *node) bool { return n.IsNull() || n.Bad }

// fields walks the mapping n whose valid keys are known, calling visit for
// each known key in written order and reporting unknown ones with a
// did-you-mean.
func (d *decoder) fields(n *node, p keyPath, keys []string, visit func(key string, pr pair, kp keyPath)) {
	if skip(n) {
		return
	}
	if n.Kind != yamltree.MappingNode {
		d.fail(n, p, "want a mapping, got %s", yamltree.Describe(n))
		return
	}
	for _, pr := range n.Pairs {
		kp := p.With(pr.Key)
		d.keys[kp.String()] = pr.At
		if !slices.Contains(keys, pr.Key) {
			d.unknownKey(pr, kp, keys)
			continue
		}
		visit(pr.Key, pr, kp)
	}
}

func (d *decoder) unknownKey(pr pair, kp keyPath, valid []string) {
	if s := suggest.Closest(pr.Key, valid); s != "" {
		d.errs.at(pr.At, kp, "unknown key; did you mean '%s'?", s)
		return
	}
	sorted := slices.Sorted(slices.Values(valid))
	d.errs.at(pr.At, kp, "unknown key; valid keys here: %s", strings.Join(sorted, ", "))
}

// entries walks a mapping whose keys are names chosen by the user (servers,
// aliases, …). what describes the expected mapping for the type error.
func (d *decoder) entries(n *node, p keyPath, what string, visit func(name string, pr pair, kp keyPath)) {
	if skip(n) {
		return
	}
	if n.Kind != yamltree.MappingNode {
		d.fail(n, p, "want %s, got %s", what, yamltree.Describe(n))
		return
	}
	for _, pr := range n.Pairs {
		kp := p.With(pr.Key)
		d.keys[kp.String()] = pr.At
		visit(pr.Key, pr, kp)
	}
}

// str reads a string. Any scalar is taken as written, so `version: 1.10`
// or `PORT: 8080` keep their text; mappings and lists are errors.
func (d *decoder) str(n *node, p keyPath) (string, bool) {
	if skip(n) {
		return "", false
	}
	if n.Kind != yamltree.ScalarNode {
		d.fail(n, p, "want a string, got %s", yamltree.Describe(n))
		return "", false
	}
	d.remember(n, p)
	return n.Value, true
}

// item reads a string that must be there: an element of a list or a value
// of a string mapping, where null is a mistake rather than "unset".
func (d *decoder) item(n *node, p keyPath) (string, bool) {
	if n.Bad {
		return "", false
	}
	if n.IsNull() {
		d.fail(n, p, "want a string, got null")
		return "", false
	}
	return d.str(n, p)
}

func (d *decoder) boolean(n *node, p keyPath) (bool, bool) {
	d.shown(n)
	if skip(n) {
		return false, false
	}
	var b bool
	if n.Kind != yamltree.ScalarNode || n.Tag != yamltree.TagBool || decodeScalar(n, &b) != nil {
		d.fail(n, p, "want true or false, got %s", yamltree.Describe(n))
		return false, false
	}
	d.remember(n, p)
	return b, true
}

// integer reads an integer; a float with no fractional part (1e6) counts.
func (d *decoder) integer(n *node, p keyPath) (int64, bool) {
	d.shown(n)
	if skip(n) {
		return 0, false
	}
	if n.Kind == yamltree.ScalarNode {
		switch n.Tag {
		case yamltree.TagInt:
			var i int64
			if decodeScalar(n, &i) == nil {
				d.remember(n, p)
				return i, true
			}
		case yamltree.TagFloat:
			var f float64
			if decodeScalar(n, &f) == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
				d.remember(n, p)
				return int64(f), true
			}
		}
	}
	d.fail(n, p, "want an integer, got %s", yamltree.Describe(n))
	return 0, false
}

// positive reads an integer that must be at least 1.
func (d *decoder) positive(n *node, p keyPath) (int64, bool) {
	i, ok := d.integer(n, p)
	if ok && i < 1 {
		d.fail(n, p, "must be at least 1, got %d", i)
		return 0, false
	}
	return i, ok
}

// smallPositive reads a positive integer that fits an int on every platform.
func (d *decoder) smallPositive(n *node, p keyPath) (int, bool) {
	i, ok := d.positive(n, p)
	if ok && i > math.MaxInt32 {
		d.fail(n, p, "must be at most %d, got %d", math.MaxInt32, i)
		return 0, false
	}
	return int(i), ok
}

// duration reads "30s", "1m30s" or a number of seconds.
func (d *decoder) duration(n *node, p keyPath) (Duration, bool) {
	d.shown(n)
	if skip(n) {
		return 0, false
	}
	var v Duration
	var err error = errDurationSyntax
	if n.Kind == yamltree.ScalarNode {
		switch n.Tag {
		case yamltree.TagStr:
			v, err = ParseDuration(n.Value)
		case yamltree.TagInt, yamltree.TagFloat:
			var f float64
			if decodeScalar(n, &f) == nil && f >= 0 && f*float64(time.Second) < math.MaxInt64 {
				v, err = Duration(f*float64(time.Second)), nil
			} else if f < 0 {
				err = errNegativeDuration
			}
		}
	}
	if err != nil {
		d.fail(n, p, "%v, got %s", err, yamltree.Describe(n))
		return 0, false
	}
	d.remember(n, p)
	return v, true
}

// positiveDuration reads a duration that must be more than zero.
func (d *decoder) positiveDuration(n *node, p keyPath) (Duration, bool) {
	v, ok := d.duration(n, p)
	if ok && v <= 0 {
		d.fail(n, p, "must be more than 0s, got %s", yamltree.Describe(n))
		return 0, false
	}
	return v, ok
}

// size reads a positive byte size: 1048576, "512KiB", "1.5MB".
func (d *decoder) size(n *node, p keyPath) (ByteSize, bool) {
	d.shown(n)
	if skip(n) {
		return 0, false
	}
	var v ByteSize
	var err error = errSizeSyntax
	if n.Kind == yamltree.ScalarNode {
		switch n.Tag {
		case yamltree.TagStr:
			v, err = ParseByteSize(n.Value)
		case yamltree.TagInt, yamltree.TagFloat:
			var f float64
			if decodeScalar(n, &f) == nil && f >= 0 && f < math.MaxInt64 {
				v, err = ByteSize(f), nil
			}
		}
	}
	switch {
	case err != nil:
		d.fail(n, p, "%v, got %s", err, yamltree.Describe(n))
	case v <= 0:
		d.fail(n, p, "must be more than 0 bytes, got %s", yamltree.Describe(n))
	default:
		d.remember(n, p)
		return v, true
	}
	return 0, false
}

// strList reads a list of strings.
func (d *decoder) strList(n *node, p keyPath) ([]string, bool) {
	if skip(n) {
		return nil, false
	}
	if n.Kind != yamltree.ListNode {
		d.fail(n, p, "want a list of strings, got %s", yamltree.Describe(n))
		return nil, false
	}
	out := make([]string, 0, len(n.Items))
	ok := true
	for i, it := range n.Items {
		s, good := d.item(it, p.Index(i))
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// strMap reads a mapping of strings, such as env or headers.
func (d *decoder) strMap(n *node, p keyPath) (map[string]string, bool) {
	if skip(n) {
		return nil, false
	}
	if n.Kind != yamltree.MappingNode {
		d.fail(n, p, "want a mapping of strings, got %s", yamltree.Describe(n))
		return nil, false
	}
	out := make(map[string]string, len(n.Pairs))
	ok := true
	for _, pr := range n.Pairs {
		s, good := d.item(pr.Val, p.With(pr.Key))
		ok = ok && good
		out[pr.Key] = s
	}
	return out, ok
}

// path reads a path: ~ expanded, relative to the directory of the file the
// value was written in (an included file's paths are relative to it).
func (d *decoder) path(n *node, p keyPath) (string, bool) {
	d.shown(n)
	s, ok := d.item(n, p)
	if !ok {
		return "", false
	}
	abs, err := resolvePath(s, filepath.Dir(n.File), d.home)
	if err != nil {
		if n.Masked != "" {
			d.fail(n, p, "bad path %s", yamltree.Describe(n)) // the message would show the secret
		} else {
			d.fail(n, p, "%v", err)
		}
		return "", false
	}
	if n.Masked != "" {
		// Show the mask resolved like the path, so that the effective
		// configuration reads back the same wherever it is written — unless
		// the whole path is a secret, which stays just the mask.
		m := n.Masked
		if !strings.HasPrefix(m, "[secret:") {
			if r, err := resolvePath(m, filepath.Dir(n.File), d.home); err == nil {
				m = r
			}
		}
		d.masks[keyID(p)] = m
	}
	return abs, true
}

// pathList reads a list of paths.
func (d *decoder) pathList(n *node, p keyPath) ([]string, bool) {
	if skip(n) {
		return nil, false
	}
	if n.Kind != yamltree.ListNode {
		d.fail(n, p, "want a list of paths, got %s", yamltree.Describe(n))
		return nil, false
	}
	out := make([]string, 0, len(n.Items))
	ok := true
	for i, it := range n.Items {
		s, good := d.path(it, p.Index(i))
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// oneOf reads a string that must be one of allowed.
func (d *decoder) oneOf(n *node, p keyPath, allowed ...string) (string, bool) {
	d.shown(n)
	s, ok := d.str(n, p)
	if !ok || slices.Contains(allowed, s) {
		return s, ok
	}
	msg := fmt.Sprintf("want one of %s, got %s", strings.Join(allowed, ", "), yamltree.Describe(n))
	if sug := suggest.Closest(s, allowed); sug != "" {
		msg += fmt.Sprintf("; did you mean '%s'?", sug)
	}
	d.fail(n, p, "%s", msg)
	return "", false
}

// anyValue decodes a value whose shape only its consumer knows (a pack's
// own settings) into string, int64, float64, bool, nil, []any and
// map[string]any.
func (d *decoder) anyValue(n *node, p keyPath) any {
	switch n.Kind {
	case yamltree.MappingNode:
		m := make(map[string]any, len(n.Pairs))
		for _, pr := range n.Pairs {
			kp := p.With(pr.Key)
			d.keys[kp.String()] = pr.At // a pack's problem with one entry ("packs.db.databases.main") has its line
			m[pr.Key] = d.anyValue(pr.Val, kp)
		}
		return m
	case yamltree.ListNode:
		l := make([]any, len(n.Items))
		for i, it := range n.Items {
			d.keys[p.Index(i).String()] = it.Pos
			l[i] = d.anyValue(it, p.Index(i))
		}
		return l
	}
	d.remember(n, p)
	return scalarValue(n)
}

// scalarValue is the Go value of a scalar.
func scalarValue(n *node) any {
	switch n.Tag {
	case yamltree.TagNull:
		return nil
	case yamltree.TagBool:
		var b bool
		if decodeScalar(n, &b) == nil {
			return b
		}
	case yamltree.TagInt:
		var i int64
		if decodeScalar(n, &i) == nil {
			return i
		}
		var f float64 // beyond int64: keep the magnitude
		if decodeScalar(&node{Kind: yamltree.ScalarNode, Tag: yamltree.TagFloat, Value: n.Value}, &f) == nil {
			return f
		}
	case yamltree.TagFloat:
		var f float64
		if decodeScalar(n, &f) == nil {
			return f
		}
	}
	return n.Value
}

// decodeScalar reads a typed scalar with yaml.v3's own rules, so that
// 0x1F, 1_000, .inf and True mean here what they mean in YAML.
func decodeScalar(n *node, out any) error {
	return (&yaml.Node{Kind: yaml.ScalarNode, Tag: n.Tag, Value: n.Value}).Decode(out)
}

// isIdent reports whether s can be a Starlark name: letters, digits and _,
// not starting with a digit, and not a keyword.
func isIdent(s string) bool {
	return isVarName(s) && !isKeyword(s)
}

// isKeyword covers Starlark's keywords and the Python ones it reserves.
func isKeyword(s string) bool {
	switch s {
	case "and", "break", "continue", "def", "elif", "else", "for", "if", "in",
		"lambda", "load", "not", "or", "pass", "return", "while",
		"as", "assert", "async", "await", "class", "del", "except", "finally",
		"from", "global", "import", "is", "nonlocal", "raise", "try", "with", "yield",
		"None", "True", "False":
		return true
	}
	return false
}

// isName reports whether s is a name that may also hold dashes, such as a
// server ("my-server") or a snippet name: [A-Za-z_][A-Za-z0-9_-]*.
func isName(s string) bool {
	return isVarName(strings.ReplaceAll(s, "-", "_")) && !strings.HasPrefix(s, "-")
}
