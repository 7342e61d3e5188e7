package config

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/yamltree"
	"github.com/onetool-dev/onetool/runner/store"
)

// Effective renders the configuration as YAML, for `onetool config check`
// and ot.config(): includes resolved, paths absolute, durations and sizes
// in canonical form, keys of user-named mappings sorted. It shows what was
// set, not the built-in defaults. Leading comment lines name the files read
// and the secrets' names, so callers need not add a header of their own.
//
// Secrets never appear: a value built from ${NAME} of a secret, or of a
// variable of the environment where a value is a credential, shows
// [secret:NAME] in its place, and any secret value written out literally
// is replaced the same way. A server's URL shows no password and no query
// value (ShownURL). Literal ${ is written $${, so the output is a
// valid configuration that Load reads back to the same result (a secret
// used where a number or duration is expected is the exception: its mask
// is not a number).
func (c *Config) Effective() []byte {
	if c == nil {
		c = Default()
	}
	e := &emitter{masks: c.masks, secrets: c.Secrets}
	root := e.config(c)
	var comments []string
	switch {
	case len(c.Files) > 1:
		comments = append(comments, "Effective configuration of "+c.Path+", with:")
		for _, f := range c.Files[1:] {
			comments = append(comments, "  "+f)
		}
	case c.Path != "":
		comments = append(comments, "Effective configuration of "+c.Path)
	default:
		comments = append(comments, "No config file: built-in defaults.")
	}
	if names := c.Secrets.Names(); len(names) > 0 {
		comments = append(comments, "Secrets (values hidden) from "+c.Secrets.File()+": "+strings.Join(names, ", "))
	}
	if names := c.Secrets.EnvNames(); len(names) > 0 {
		comments = append(comments, "Secrets (values hidden) from the environment: "+strings.Join(names, ", "))
	}
	root.HeadComment = strings.Join(comments, "\n")

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		// Every node is built here from valid values; this cannot happen.
		return []byte("# cannot render the configuration: " + err.Error() + "\n{}\n")
	}
	_ = enc.Close()
	return buf.Bytes()
}

// emitter builds the yaml.Node tree of a Config. Paths given to its
// methods match the decoder's, so masks recorded there apply here.
type emitter struct {
	masks   map[string]string
	secrets *Secrets
}

// mapping is a YAML mapping under construction.
type mapping struct{ n *yaml.Node }

func newMapping() mapping { return mapping{&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}} }

// add appends key: v, skipping absent values.
func (m mapping) add(key string, v *yaml.Node) {
	if v == nil {
		return
	}
	m.n.Content = append(m.n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: yamltree.TagStr, Value: key}, v)
}

// node returns the mapping, or nil when it is empty (a section with
// nothing set is left out).
func (m mapping) node() *yaml.Node {
	if len(m.n.Content) == 0 {
		return nil
	}
	return m.n
}

// text renders a string. A value recorded as holding a secret shows its
// mask; anything else is scrubbed of secret values anyway. Unless it is a
// template (a snippet body, never expanded), ${ is escaped.
func (e *emitter) text(p keyPath, v string, template bool) *yaml.Node {
	if m, ok := e.masks[keyID(p)]; ok {
		v = m
	} else {
		v = e.secrets.Redact(v)
	}
	if !template {
		v = escapeDollar(v)
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: yamltree.TagStr, Value: v}
	if strings.Contains(v, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// literal renders a string that is shown as it is, masks and all.
func (e *emitter) literal(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yamltree.TagStr, Value: escapeDollar(v)}
}

// optText renders a string, nil when empty.
func (e *emitter) optText(p keyPath, v string) *yaml.Node {
	if v == "" {
		return nil
	}
	return e.text(p, v, false)
}

// typed renders a non-string scalar, or its mask when it came from a secret.
func (e *emitter) typed(p keyPath, tag, v string) *yaml.Node {
	if m, ok := e.masks[keyID(p)]; ok {
		return e.text(p, m, false)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}
}

func (e *emitter) boolean(p keyPath, b bool) *yaml.Node {
	return e.typed(p, yamltree.TagBool, strconv.FormatBool(b))
}

func (e *emitter) optBool(p keyPath, b *bool) *yaml.Node {
	if b == nil {
		return nil
	}
	return e.boolean(p, *b)
}

// trueOnly renders a switch that is off by default only when it is on.
func (e *emitter) trueOnly(p keyPath, b bool) *yaml.Node {
	if !b {
		return nil
	}
	return e.boolean(p, b)
}

func (e *emitter) integer(p keyPath, i int64) *yaml.Node {
	return e.typed(p, yamltree.TagInt, strconv.FormatInt(i, 10))
}

// float renders so that YAML reads a float back (5 is written 5.0).
func (e *emitter) float(p keyPath, f float64) *yaml.Node {
	var s string
	switch {
	case math.IsInf(f, 1):
		s = ".inf"
	case math.IsInf(f, -1):
		s = "-.inf"
	case math.IsNaN(f):
		s = ".nan"
	default:
		s = strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
	}
	return e.typed(p, yamltree.TagFloat, s)
}

func (e *emitter) strList(p keyPath, l []string) *yaml.Node {
	if len(l) == 0 {
		return nil
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, s := range l {
		n.Content = append(n.Content, e.text(p.Index(i), s, false))
	}
	return n
}

func (e *emitter) strMap(p keyPath, m map[string]string) *yaml.Node {
	out := newMapping()
	for _, k := range sortedKeys(m) {
		out.add(k, e.text(p.With(k), m[k], false))
	}
	return out.node()
}

// anyValue renders a pack setting.
func (e *emitter) anyValue(p keyPath, v any) *yaml.Node {
	switch v := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: yamltree.TagNull, Value: "null"}
	case string:
		return e.text(p, v, false)
	case bool:
		return e.boolean(p, v)
	case int64:
		return e.integer(p, v)
	case int:
		return e.integer(p, int64(v))
	case float64:
		return e.float(p, v)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, it := range v {
			n.Content = append(n.Content, e.anyValue(p.Index(i), it))
		}
		return n
	case map[string]any:
		m := newMapping()
		for _, k := range sortedKeys(v) {
			m.add(k, e.anyValue(p.With(k), v[k]))
		}
		return m.n // even when empty: here {} is a value, not an absent section
	}
	// Settings are only ever the types above; anything else (set by a
	// program) is shown as text rather than dropped.
	return e.text(p, "<unsupported value>", false)
}

// config renders every section in the order of the documentation.
func (e *emitter) config(c *Config) *yaml.Node {
	root := newMapping()
	if c.Version != 0 {
		root.add("version", e.integer(keyPath{"version"}, int64(c.Version)))
	}
	root.add("isolation", e.optText(keyPath{"isolation"}, c.Isolation))
	if c.Store != "" {
		root.add("store", e.text(keyPath{"store"}, store.Redact(c.Store), false)) // a password in the URL is never shown
	}
	root.add("packs", e.packs(c))
	root.add("toolpacks", e.strList(keyPath{"toolpacks"}, c.Toolpacks))
	root.add("servers", e.servers(c))
	if len(c.Aliases) > 0 {
		root.add("aliases", e.strMap(keyPath{"aliases"}, c.Aliases))
	}
	root.add("snippets", e.snippets(c))
	if len(c.Projects) > 0 {
		root.add("projects", e.strMap(keyPath{"projects"}, c.Projects))
	}
	root.add("limits", e.limits(c.Limits))
	out := newMapping()
	if c.Output.MaxInline != nil {
		out.add("max_inline", e.integer(keyPath{"output", "max_inline"}, int64(*c.Output.MaxInline)))
	}
	out.add("stats_file", e.optText(keyPath{"output", "stats_file"}, c.Output.StatsFile))
	root.add("output", out.node())
	sv, sp := newMapping(), keyPath{"serve"}
	sv.add("session_state", e.trueOnly(sp.With("session_state"), c.Serve.SessionState))
	if c.Serve.SessionIdle != nil {
		sv.add("session_idle", e.typed(sp.With("session_idle"), yamltree.TagStr, c.Serve.SessionIdle.String()))
	}
	if c.Serve.MaxSessions != nil {
		sv.add("max_sessions", e.integer(sp.With("max_sessions"), int64(*c.Serve.MaxSessions)))
	}
	if c.Serve.SessionMemory != nil {
		sv.add("session_memory", e.typed(sp.With("session_memory"), yamltree.TagStr, c.Serve.SessionMemory.String()))
	}
	if c.Serve.SessionMemoryTotal != nil {
		sv.add("session_memory_total", e.typed(sp.With("session_memory_total"), yamltree.TagStr, c.Serve.SessionMemoryTotal.String()))
	}
	sv.add("structured_content", e.trueOnly(sp.With("structured_content"), c.Serve.StructuredContent))
	sv.add("http", e.optText(sp.With("http"), c.Serve.HTTP))
	sv.add("stateless", e.trueOnly(sp.With("stateless"), c.Serve.Stateless))
	sv.add("log_level", e.optText(sp.With("log_level"), c.Serve.LogLevel))
	if c.Serve.DrainTimeout != nil {
		sv.add("drain_timeout", e.typed(sp.With("drain_timeout"), yamltree.TagStr, c.Serve.DrainTimeout.String()))
	}
	if c.Serve.ReadTimeout != nil {
		sv.add("read_timeout", e.typed(sp.With("read_timeout"), yamltree.TagStr, c.Serve.ReadTimeout.String()))
	}
	if c.Serve.IdleTimeout != nil {
		sv.add("idle_timeout", e.typed(sp.With("idle_timeout"), yamltree.TagStr, c.Serve.IdleTimeout.String()))
	}
	if c.Serve.MaxBody != nil {
		sv.add("max_body", e.typed(sp.With("max_body"), yamltree.TagStr, c.Serve.MaxBody.String()))
	}
	sv.add("auth", e.auth(c.Serve.Auth))
	if rl := c.Serve.RateLimit; rl != nil {
		m, rp := newMapping(), sp.With("rate_limit")
		if rl.RunsPerMinute > 0 {
			m.add("runs_per_minute", e.integer(rp.With("runs_per_minute"), int64(rl.RunsPerMinute)))
		}
		if rl.Concurrent > 0 {
			m.add("concurrent", e.integer(rp.With("concurrent"), int64(rl.Concurrent)))
		}
		sv.add("rate_limit", m.node())
	}
	root.add("serve", sv.node())
	root.add("policies", e.policies(c))
	sec := newMapping()
	sec.add("confirm_destructive", e.trueOnly(keyPath{"security", "confirm_destructive"}, c.Security.ConfirmDestructive))
	sec.add("environ", e.strList(keyPath{"security", "environ"}, c.Security.Environ))
	root.add("security", sec.node())
	if root.node() == nil {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
	}
	return root.n
}

func (e *emitter) packs(c *Config) *yaml.Node {
	out := newMapping()
	for _, name := range sortedKeys(c.Packs) {
		pk, p := c.Packs[name], keyPath{"packs", name}
		m := newMapping()
		if pk != nil {
			m.add("enabled", e.optBool(p.With("enabled"), pk.Enabled))
			m.add("allowed_dirs", e.strList(p.With("allowed_dirs"), pk.AllowedDirs))
			m.add("read_only", e.optBool(p.With("read_only"), pk.ReadOnly))
			m.add("backups", e.optBool(p.With("backups"), pk.Backups))
			for _, k := range sortedKeys(pk.Settings) {
				m.add(k, e.anyValue(p.With(k), pk.Settings[k]))
			}
		}
		out.add(name, m.n) // an empty entry still names the pack
	}
	return out.node()
}

func (e *emitter) servers(c *Config) *yaml.Node {
	out := newMapping()
	for _, name := range sortedKeys(c.Servers) {
		s, p := c.Servers[name], keyPath{"servers", name}
		if s == nil {
			continue
		}
		m := newMapping()
		m.add("description", e.optText(p.With("description"), s.Description))
		m.add("command", e.optText(p.With("command"), s.Command))
		m.add("args", e.strList(p.With("args"), s.Args))
		m.add("env", e.strMap(p.With("env"), s.Env))
		m.add("cwd", e.optText(p.With("cwd"), s.Cwd))
		if s.URL != "" {
			m.add("url", e.literal(c.ShownURL(name))) // masked already
		}
		m.add("headers", e.strMap(p.With("headers"), s.Headers))
		if s.Timeout != 0 {
			m.add("timeout", e.typed(p.With("timeout"), yamltree.TagStr, s.Timeout.String()))
		}
		m.add("enabled", e.optBool(p.With("enabled"), s.Enabled))
		m.add("tool_prefix", e.optText(p.With("tool_prefix"), s.ToolPrefix))
		out.add(name, m.n)
	}
	return out.node()
}

func (e *emitter) snippets(c *Config) *yaml.Node {
	out := newMapping()
	for _, name := range sortedKeys(c.Snippets) {
		s, p := c.Snippets[name], keyPath{"snippets", name}
		if s == nil {
			continue
		}
		m := newMapping()
		m.add("description", e.optText(p.With("description"), s.Description))
		if len(s.Params) > 0 {
			params := newMapping() // written order: it is the order of positional use
			for _, sp := range s.Params {
				pp := p.With("params").With(sp.Name)
				pm := newMapping()
				pm.add("type", e.text(pp.With("type"), sp.Type, false))
				pm.add("description", e.optText(pp.With("description"), sp.Description))
				if sp.HasDefault {
					pm.add("default", e.paramDefault(pp.With("default"), sp))
				}
				params.add(sp.Name, pm.n)
			}
			m.add("params", params.n)
		}
		m.add("body", e.text(p.With("body"), s.Body, true))
		out.add(name, m.n)
	}
	return out.node()
}

func (e *emitter) paramDefault(p keyPath, sp SnippetParam) *yaml.Node {
	switch v := sp.Default.(type) {
	case string:
		return e.text(p, v, false)
	case float64:
		return e.float(p, v)
	}
	return e.anyValue(p, sp.Default)
}

// auth renders serve.auth. Tokens are secrets whatever they were written
// as (a literal, an environment variable): each shows its mask, or stars.
func (e *emitter) auth(a *Auth) *yaml.Node {
	if a == nil {
		return nil
	}
	p := keyPath{"serve", "auth"}
	m := newMapping()
	if len(a.Tokens) > 0 {
		l := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, t := range a.Tokens {
			tp := p.With("tokens").Index(i)
			tm := newMapping()
			tm.add("name", e.text(tp.With("name"), t.Name, false))
			tm.add("token", e.secret(tp.With("token")))
			tm.add("policy", e.text(tp.With("policy"), t.Policy, false))
			l.Content = append(l.Content, tm.n)
		}
		m.add("tokens", l)
	}
	if o := a.OAuth; o != nil {
		op := p.With("oauth")
		om := newMapping()
		om.add("issuer", e.text(op.With("issuer"), o.Issuer, false))
		om.add("audience", e.text(op.With("audience"), o.Audience, false))
		om.add("scopes", e.strList(op.With("scopes"), o.Scopes))
		om.add("policy_claim", e.optText(op.With("policy_claim"), o.PolicyClaim))
		om.add("default_policy", e.optText(op.With("default_policy"), o.DefaultPolicy))
		m.add("oauth", om.n)
	}
	if a.MetricsToken != "" {
		m.add("metrics_token", e.secret(p.With("metrics_token")))
	}
	m.add("audit_log", e.optText(p.With("audit_log"), a.AuditLog))
	m.add("audit_arguments", e.trueOnly(p.With("audit_arguments"), a.AuditArguments))
	if m.node() == nil {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
	}
	return m.n
}

// secret renders a value that is never shown: the mask of the secret it
// came from, or stars when it was not read from secrets.yaml.
func (e *emitter) secret(p keyPath) *yaml.Node {
	if m, ok := e.masks[keyID(p)]; ok {
		return e.text(p, m, false)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yamltree.TagStr, Value: "********"}
}

func (e *emitter) policies(c *Config) *yaml.Node {
	out := newMapping()
	for _, name := range sortedKeys(c.Policies) {
		pol, p := c.Policies[name], keyPath{"policies", name}
		if pol == nil {
			continue
		}
		m := newMapping()
		allow := e.strList(p.With("allow"), pol.Allow)
		if allow == nil {
			allow = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		}
		m.add("allow", allow)
		m.add("read_only", e.trueOnly(p.With("read_only"), pol.ReadOnly))
		m.add("limits", e.limitsAt(p.With("limits"), pol.Limits))
		m.add("isolation", e.optText(p.With("isolation"), pol.Isolation))
		out.add(name, m.n)
	}
	return out.node()
}

func (e *emitter) limits(l Limits) *yaml.Node { return e.limitsAt(keyPath{"limits"}, l) }

func (e *emitter) limitsAt(p keyPath, l Limits) *yaml.Node {
	m := newMapping()
	if l.MaxSteps != nil {
		m.add("max_steps", e.typed(p.With("max_steps"), yamltree.TagInt, strconv.FormatUint(*l.MaxSteps, 10)))
	}
	if l.Timeout != nil {
		m.add("timeout", e.typed(p.With("timeout"), yamltree.TagStr, l.Timeout.String()))
	}
	if l.MaxOutput != nil {
		m.add("max_output", e.typed(p.With("max_output"), yamltree.TagStr, l.MaxOutput.String()))
	}
	if l.MaxToolCalls != nil {
		m.add("max_tool_calls", e.integer(p.With("max_tool_calls"), int64(*l.MaxToolCalls)))
	}
	if l.MaxIOOps != nil {
		m.add("max_io_ops", e.integer(p.With("max_io_ops"), int64(*l.MaxIOOps)))
	}
	if l.MaxParallel != nil {
		m.add("max_parallel", e.integer(p.With("max_parallel"), int64(*l.MaxParallel)))
	}
	if l.MaxMemory != nil {
		m.add("max_memory", e.typed(p.With("max_memory"), yamltree.TagStr, l.MaxMemory.String()))
	}
	if l.MaxIntDigits != nil {
		m.add("max_int_digits", e.integer(p.With("max_int_digits"), int64(*l.MaxIntDigits)))
	}
	return m.node()
}

// ShownURL is the URL of the server called name as it may be shown — in
// the effective configuration, and in place of the URL in the server's
// errors: each secret in it masked, as the configuration shows it, and the
// password of its user and the value of each query parameter as xxxxx,
// since a URL that carries a credential carries it there (unless in its
// path, where writing it as ${NAME} masks it). "" when there is none.
func (c *Config) ShownURL(name string) string {
	s := c.Servers[name]
	if s == nil || s.URL == "" {
		return ""
	}
	shown := s.URL
	if m, ok := c.masks[keyID(keyPath{"servers", name, "url"})]; ok {
		shown = m
	} else {
		shown = c.Secrets.Redact(shown)
	}
	return maskURL(shown)
}

// maskURL replaces the password and the query values of the URL u with
// xxxxx, by hand: u may hold masks that a URL parser would escape.
func maskURL(u string) string {
	const hidden = "xxxxx"
	rest, frag, hasFrag := strings.Cut(u, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	if i := strings.Index(rest, "://"); i >= 0 {
		auth := rest[i+3:]
		path := ""
		if j := strings.IndexByte(auth, '/'); j >= 0 {
			auth, path = auth[:j], auth[j:]
		}
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			if user, _, ok := strings.Cut(auth[:at], ":"); ok {
				auth = user + ":" + hidden + auth[at:]
			}
		}
		rest = rest[:i+3] + auth + path
	}
	if hasQuery {
		params := strings.Split(query, "&")
		for i, p := range params {
			if k, v, ok := strings.Cut(p, "="); ok && v != "" {
				params[i] = k + "=" + hidden
			}
		}
		rest += "?" + strings.Join(params, "&")
	}
	if hasFrag {
		rest += "#" + frag
	}
	return rest
}
