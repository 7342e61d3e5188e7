package config

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/onetool-dev/onetool/internal/yamltree"
	"github.com/onetool-dev/onetool/runner/store"
)

// The keys each place of the file accepts. They are functions, not
// package variables, so nothing global can be changed by accident.

func topKeys() []string {
	return []string{"version", "include", "packs", "toolpacks", "servers", "aliases", "snippets",
		"projects", "limits", "output", "serve", "security", "isolation", "store", "policies"}
}

func serverKeys() []string {
	return []string{"command", "args", "env", "cwd", "url", "headers", "timeout", "enabled", "tool_prefix", "description"}
}

func snippetKeys() []string { return []string{"description", "params", "body"} }
func paramKeys() []string   { return []string{"type", "description", "default"} }
func paramTypes() []string  { return []string{"string", "integer", "number", "boolean"} }
func limitKeys() []string {
	return []string{"max_steps", "timeout", "max_output", "max_tool_calls", "max_io_ops", "max_parallel", "max_memory", "max_int_digits"}
}
func outputKeys() []string { return []string{"max_inline", "stats_file"} }
func serveKeys() []string {
	return []string{"session_state", "session_idle", "max_sessions", "session_memory", "session_memory_total", "structured_content", "http", "stateless", "log_level", "auth", "drain_timeout", "rate_limit",
		"read_timeout", "idle_timeout", "max_body"}
}
func rateLimitKeys() []string { return []string{"runs_per_minute", "concurrent"} }
func authKeys() []string {
	return []string{"tokens", "oauth", "metrics_token", "audit_log", "audit_arguments"}
}
func oauthKeys() []string {
	return []string{"issuer", "audience", "scopes", "policy_claim", "default_policy"}
}
func tokenKeys() []string    { return []string{"name", "token", "policy"} }
func policyKeys() []string   { return []string{"allow", "read_only", "limits", "isolation"} }
func securityKeys() []string { return []string{"confirm_destructive", "environ"} }
func logLevels() []string    { return []string{"debug", "info", "warn", "error"} }

// config decodes the top level. include: was consumed while loading.
func (d *decoder) config(root *node) *Config {
	c := Default()
	c.masks = d.masks
	// Top-level keys starting with x- are ignored: a place to define YAML
	// anchors for reuse, as in Compose files.
	visible := &node{Pos: root.Pos, Kind: root.Kind, Tag: root.Tag, Value: root.Value, Bad: root.Bad}
	for _, pr := range root.Pairs {
		if !strings.HasPrefix(pr.Key, "x-") {
			visible.Pairs = append(visible.Pairs, pr)
		}
	}
	d.fields(visible, nil, topKeys(), func(key string, pr pair, kp keyPath) {
		v := pr.Val
		switch key {
		case "version":
			if i, ok := d.integer(v, kp); ok {
				if i != 1 {
					d.fail(v, kp, "unsupported version %d: this onetool reads version 1", i)
				} else {
					c.Version = 1
				}
			}
		case "packs":
			d.packs(v, kp, c)
		case "toolpacks":
			if l, ok := d.pathList(v, kp); ok {
				c.Toolpacks = l
			}
		case "servers":
			d.servers(v, kp, c)
		case "aliases":
			d.aliases(v, kp, c)
		case "snippets":
			d.snippets(v, kp, c)
		case "projects":
			d.projects(v, kp, c)
		case "limits":
			d.limits(v, kp, &c.Limits)
		case "output":
			d.output(v, kp, &c.Output)
		case "serve":
			d.serve(v, kp, &c.Serve)
		case "security":
			d.fields(v, kp, securityKeys(), func(key string, pr pair, kp keyPath) {
				switch key {
				case "confirm_destructive":
					if b, ok := d.boolean(pr.Val, kp); ok {
						c.Security.ConfirmDestructive = b
					}
				case "environ":
					d.environ(pr.Val, kp, &c.Security)
				}
			})
		case "isolation":
			if s, ok := d.isolation(v, kp, true); ok {
				c.Isolation = s
			}
		case "store":
			d.credential(v)
			if s, ok := d.str(v, kp); ok {
				if err := store.Validate(s); err != nil {
					d.fail(v, kp, "%v", err)
				} else {
					c.Store = s
					d.remember(v, kp)
				}
			}
		case "policies":
			d.policies(v, kp, c)
		}
	})
	d.checkPolicies(c)
	return c
}

// isolation decodes an isolation setting: "process", or at the top level
// (top) also "none", the explicit in-process choice (SPEC §8.5: process
// isolation is the default of an HTTP server with several principals).
func (d *decoder) isolation(v *node, kp keyPath, top bool) (string, bool) {
	d.shown(v)
	s, ok := d.str(v, kp)
	if !ok || s == "" || s == "process" || top && s == "none" {
		return s, ok
	}
	if top {
		d.fail(v, kp, `want "process" (workers with a hard memory limit), "none" (in the server's process) or nothing (the default: process for an HTTP server with more than one principal, else none), got %s`, yamltree.Describe(v))
	} else {
		d.fail(v, kp, `want "process" (workers with a hard memory limit) or nothing, got %s`, yamltree.Describe(v))
	}
	return "", false
}

// policies decodes policies.<name> (SPEC §7.4).
func (d *decoder) policies(n *node, p keyPath, c *Config) {
	d.entries(n, p, "a mapping of policy names to {allow, read_only, limits, isolation}", func(name string, pr pair, kp keyPath) {
		if !isName(name) {
			d.errs.at(pr.At, kp, "a policy name is letters, digits, _ and -, starting with a letter or _")
			return
		}
		pol := &Policy{}
		d.fields(pr.Val, kp, policyKeys(), func(key string, f pair, fp keyPath) {
			switch key {
			case "allow":
				d.shown(f.Val)
				if l, ok := d.strList(f.Val, fp); ok {
					for i, pat := range l {
						if _, err := path.Match(pat, ""); err != nil || pat == "" {
							d.fail(f.Val.Items[i], fp.Index(i), `want a glob over tool ids such as "*", "ot.*" or "file.read*", got %q`, pat)
						}
					}
					pol.Allow = l
				}
			case "read_only":
				if b, ok := d.boolean(f.Val, fp); ok {
					pol.ReadOnly = b
				}
			case "limits":
				d.limits(f.Val, fp, &pol.Limits)
			case "isolation":
				if s, ok := d.isolation(f.Val, fp, false); ok {
					pol.Isolation = s
					d.policyIsolation = append(d.policyIsolation, placed{f.Val.Pos, fp, name})
				}
			}
		})
		c.Policies[name] = pol
	})
}

// placed is a value whose check needs the whole file (a token's policy
// may be written before the policies section).
type placed struct {
	at   pos
	kp   keyPath
	name string
}

// checkPolicies makes the checks that need every section decoded.
func (d *decoder) checkPolicies(c *Config) {
	for _, t := range d.tokenPolicies {
		if _, ok := c.Policies[t.name]; !ok {
			if names := sortedKeys(c.Policies); len(names) > 0 {
				d.errs.at(t.at, t.kp, "unknown policy %q; the policies are: %s", t.name, strings.Join(names, ", "))
			} else {
				d.errs.at(t.at, t.kp, "unknown policy %q: define it under policies: at the top level", t.name)
			}
		}
	}
	for _, pi := range d.policyIsolation {
		if c.Policies[pi.name].Isolation == "process" && c.Isolation != "process" {
			d.errs.at(pi.at, pi.kp, "needs worker processes: set isolation: process at the top level too")
		}
	}
}

// packs decodes packs.<name>: a mapping of settings, or true/false as a
// short form of enabled.
func (d *decoder) packs(n *node, p keyPath, c *Config) {
	d.entries(n, p, "a mapping of pack names to settings", func(name string, pr pair, kp keyPath) {
		if !isIdent(name) {
			d.errs.at(pr.At, kp, "a pack name is letters, digits and _, not starting with a digit")
			return
		}
		pk := &Pack{}
		v := pr.Val
		switch {
		case skip(v):
		case v.Kind == yamltree.ScalarNode && v.Tag == yamltree.TagBool:
			if b, ok := d.boolean(v, kp); ok {
				pk.Enabled = &b
			}
		case v.Kind != yamltree.MappingNode:
			d.fail(v, kp, "want a mapping of settings (or true/false), got %s", yamltree.Describe(v))
		default:
			for _, f := range v.Pairs {
				fp := kp.With(f.Key)
				d.keys[fp.String()] = f.At // for the problems the pack finds in its settings
				switch f.Key {
				case "enabled":
					if b, ok := d.boolean(f.Val, fp); ok {
						pk.Enabled = &b
					}
				case "allowed_dirs":
					if l, ok := d.pathList(f.Val, fp); ok {
						pk.AllowedDirs = l
					}
				case "read_only":
					if b, ok := d.boolean(f.Val, fp); ok {
						pk.ReadOnly = &b
					}
				case "backups":
					if b, ok := d.boolean(f.Val, fp); ok {
						pk.Backups = &b
					}
				default:
					if pk.Settings == nil {
						pk.Settings = map[string]any{}
					}
					pk.Settings[f.Key] = d.anyValue(f.Val, fp)
				}
			}
		}
		c.Packs[name] = pk
	})
}

// servers decodes servers.<name>.
func (d *decoder) servers(n *node, p keyPath, c *Config) {
	packNames := map[string]string{} // pack name → server name, to catch my-x and my_x
	d.entries(n, p, "a mapping of server names to settings", func(name string, pr pair, kp keyPath) {
		if !isName(name) {
			d.errs.at(pr.At, kp, "a server name is letters, digits, _ and -, starting with a letter or _")
			return
		}
		pack := strings.ReplaceAll(name, "-", "_")
		if other, dup := packNames[pack]; dup {
			d.errs.at(pr.At, kp, "becomes pack %q, like server %q: rename one", pack, other)
			return
		}
		packNames[pack] = name
		if skip(pr.Val) || pr.Val.Kind != yamltree.MappingNode {
			if !pr.Val.Bad {
				d.fail(pr.Val, kp, "want a mapping with command (stdio) or url (HTTP), got %s", yamltree.Describe(pr.Val))
			}
			return
		}
		s := &Server{}
		written := map[string]pair{}
		d.fields(pr.Val, kp, serverKeys(), func(key string, f pair, fp keyPath) {
			if !f.Val.IsNull() {
				written[key] = f // null means not set
			}
			v := f.Val
			switch key {
			case "command":
				d.shown(v)
				if str, ok := d.str(v, fp); ok {
					if strings.TrimSpace(str) == "" {
						d.fail(v, fp, "must not be empty")
					}
					s.Command = str
				}
			case "args":
				if l, ok := d.strList(v, fp); ok {
					s.Args = l
				}
			case "env":
				if m, ok := d.strMap(v, fp); ok {
					s.Env = m
				}
			case "cwd":
				if str, ok := d.path(v, fp); ok {
					s.Cwd = str
				}
			case "url":
				if str, ok := d.str(v, fp); ok {
					if err := checkURL(str); err != nil {
						if v.Masked != "" {
							d.fail(v, fp, "want an http:// or https:// URL")
						} else {
							d.fail(v, fp, "%v", err)
						}
					}
					s.URL = str
				}
			case "headers":
				d.credential(v)
				if m, ok := d.strMap(v, fp); ok {
					s.Headers = m
				}
			case "timeout":
				if t, ok := d.positiveDuration(v, fp); ok {
					s.Timeout = t
				}
			case "enabled":
				if b, ok := d.boolean(v, fp); ok {
					s.Enabled = &b
				}
			case "tool_prefix":
				d.shown(v)
				if str, ok := d.str(v, fp); ok {
					s.ToolPrefix = str
				}
			case "description":
				d.shown(v)
				if str, ok := d.str(v, fp); ok {
					s.Description = str
				}
			}
		})
		_, hasCmd := written["command"]
		_, hasURL := written["url"]
		switch {
		case hasCmd && hasURL:
			d.errs.at(pr.At, kp, "has both command and url: give command for a stdio server or url for an HTTP server, not both")
		case !hasCmd && !hasURL:
			d.errs.at(pr.At, kp, "needs command (a stdio server) or url (an HTTP server)")
		case hasURL:
			for _, k := range []string{"args", "env", "cwd"} {
				if f, ok := written[k]; ok {
					d.errs.at(f.At, kp.With(k), "applies to stdio servers (command), but this server has a url")
				}
			}
		case hasCmd:
			if f, ok := written["headers"]; ok {
				d.errs.at(f.At, kp.With("headers"), "applies to HTTP servers (url), but this server has a command")
			}
		}
		c.Servers[name] = s
	})
}

// checkURL accepts absolute http and https URLs with a host.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an http:// or https:// URL, got %q", s)
	}
	return nil
}

// aliases decodes aliases and refuses cycles among them. Whether a target
// names a real tool is for the code that binds aliases to decide.
func (d *decoder) aliases(n *node, p keyPath, c *Config) {
	at := map[string]pos{}
	d.entries(n, p, "a mapping of alias names to tool ids", func(name string, pr pair, kp keyPath) {
		if !isIdent(name) {
			d.errs.at(pr.At, kp, "an alias name must be an identifier (letters, digits and _, not starting with a digit, not a keyword)")
			return
		}
		d.shown(pr.Val)
		t, ok := d.item(pr.Val, kp)
		if !ok {
			return
		}
		if t == "" || strings.ContainsAny(t, " \t\n\r") {
			d.fail(pr.Val, kp, "want a tool id such as web.search, got %s", yamltree.Describe(pr.Val))
			return
		}
		c.Aliases[name] = t
		at[name] = pr.At
	})
	// Follow each chain once (done marks names already walked), so the
	// check stays linear however long the chains are.
	done := map[string]bool{}
	for _, start := range sortedKeys(c.Aliases) {
		onPath := map[string]int{} // name → index in chain
		var chain []string
		for cur := start; !done[cur]; {
			if i, seen := onPath[cur]; seen {
				reportCycle(d, p, at, chain[i:])
				break
			}
			onPath[cur] = len(chain)
			chain = append(chain, cur)
			next := c.Aliases[cur]
			if _, isAlias := c.Aliases[next]; !isAlias {
				break
			}
			cur = next
		}
		for _, a := range chain {
			done[a] = true
		}
	}
}

// reportCycle reports an alias cycle once, starting from its smallest name
// so that the message does not depend on where the walk began.
func reportCycle(d *decoder, p keyPath, at map[string]pos, cycle []string) {
	first := slices.Min(cycle)
	j := slices.Index(cycle, first)
	rot := append(slices.Clone(cycle[j:]), cycle[:j]...)
	d.errs.at(at[first], p.With(first), "alias cycle: %s → %s", strings.Join(rot, " → "), first)
}

// snippets decodes snippets.<name>.
func (d *decoder) snippets(n *node, p keyPath, c *Config) {
	d.entries(n, p, "a mapping of snippet names to snippets", func(name string, pr pair, kp keyPath) {
		if !isName(name) {
			d.errs.at(pr.At, kp, "a snippet name is letters, digits, _ and -, starting with a letter or _ (it is invoked as $name)")
			return
		}
		if skip(pr.Val) || pr.Val.Kind != yamltree.MappingNode {
			if !pr.Val.Bad {
				d.fail(pr.Val, kp, "want a mapping with body (and description, params), got %s", yamltree.Describe(pr.Val))
			}
			return
		}
		s := &Snippet{}
		hasBody := false
		d.fields(pr.Val, kp, snippetKeys(), func(key string, f pair, fp keyPath) {
			switch key {
			case "description":
				d.shown(f.Val)
				if str, ok := d.str(f.Val, fp); ok {
					s.Description = str
				}
			case "body":
				if str, ok := d.str(f.Val, fp); ok {
					hasBody = true
					if strings.TrimSpace(str) == "" {
						d.fail(f.Val, fp, "must not be empty")
					}
					s.Body = str
				} else if f.Val.IsNull() {
					hasBody = true
					d.fail(f.Val, fp, "must not be empty")
				}
			case "params":
				s.Params = d.params(f.Val, fp)
			}
		})
		if !hasBody {
			d.errs.at(pr.At, kp, "needs a body: the template that produces the code")
		}
		c.Snippets[name] = s
	})
}

// params decodes a snippet's parameters, keeping their written order.
func (d *decoder) params(n *node, p keyPath) []SnippetParam {
	var out []SnippetParam
	d.entries(n, p, "a mapping of parameter names to {type, description, default}", func(name string, pr pair, kp keyPath) {
		if !isIdent(name) {
			d.errs.at(pr.At, kp, "a parameter name must be an identifier (letters, digits and _, not starting with a digit)")
			return
		}
		sp := SnippetParam{Name: name, Type: "string"}
		var def *pair
		d.fields(pr.Val, kp, paramKeys(), func(key string, f pair, fp keyPath) {
			switch key {
			case "type":
				if t, ok := d.oneOf(f.Val, fp, paramTypes()...); ok {
					sp.Type = t
				}
			case "description":
				d.shown(f.Val)
				if str, ok := d.str(f.Val, fp); ok {
					sp.Description = str
				}
			case "default":
				def = &f
			}
		})
		if def != nil && !def.Val.Bad {
			sp.Default, sp.HasDefault = d.paramDefault(def.Val, kp.With("default"), sp.Type)
		}
		out = append(out, sp)
	})
	return out
}

// paramDefault checks that a default matches its parameter's type. An
// explicit null is a valid default of any type: the parameter is optional
// and its value None.
func (d *decoder) paramDefault(n *node, p keyPath, typ string) (any, bool) {
	if n.IsNull() {
		return nil, true
	}
	var want string
	if n.Kind == yamltree.ScalarNode {
		switch typ {
		case "string":
			d.remember(n, p)
			return n.Value, true
		case "integer":
			if n.Tag == yamltree.TagInt {
				if i, ok := d.integer(n, p); ok {
					return i, true
				}
				return nil, false
			}
			want = "an integer"
		case "number":
			d.shown(n)
			if n.Tag == yamltree.TagInt || n.Tag == yamltree.TagFloat {
				var f float64
				if decodeScalar(&node{Kind: yamltree.ScalarNode, Tag: yamltree.TagFloat, Value: n.Value}, &f) == nil || decodeScalar(n, &f) == nil {
					d.remember(n, p)
					return f, true
				}
			}
			want = "a number"
		case "boolean":
			if b, ok := d.boolean(n, p); ok {
				return b, true
			}
			return nil, false
		}
	}
	if want == "" {
		want = "a " + typ
	}
	d.fail(n, p, "the parameter's type is %s: want %s, got %s", typ, want, yamltree.Describe(n))
	return nil, false
}

// projects decodes projects.<name>: path.
func (d *decoder) projects(n *node, p keyPath, c *Config) {
	d.entries(n, p, "a mapping of project names to directories", func(name string, pr pair, kp keyPath) {
		if !isIdent(name) {
			d.errs.at(pr.At, kp, "a project name must be an identifier (it is used as proj.%s)", name)
			return
		}
		if dir, ok := d.path(pr.Val, kp); ok {
			c.Projects[name] = dir
		}
	})
}

func (d *decoder) limits(n *node, p keyPath, l *Limits) {
	d.fields(n, p, limitKeys(), func(key string, f pair, fp keyPath) {
		v := f.Val
		switch key {
		case "max_steps":
			if i, ok := d.positive(v, fp); ok {
				u := uint64(i)
				l.MaxSteps = &u
			}
		case "timeout":
			if t, ok := d.positiveDuration(v, fp); ok {
				l.Timeout = &t
			}
		case "max_output":
			if s, ok := d.size(v, fp); ok {
				l.MaxOutput = &s
			}
		case "max_tool_calls":
			if i, ok := d.smallPositive(v, fp); ok {
				l.MaxToolCalls = &i
			}
		case "max_io_ops":
			if i, ok := d.smallPositive(v, fp); ok {
				l.MaxIOOps = &i
			}
		case "max_parallel":
			if i, ok := d.smallPositive(v, fp); ok {
				l.MaxParallel = &i
			}
		case "max_memory":
			if s, ok := d.size(v, fp); ok {
				l.MaxMemory = &s
			}
		case "max_int_digits":
			if i, ok := d.smallPositive(v, fp); ok {
				l.MaxIntDigits = &i
			}
		}
	})
}

func (d *decoder) output(n *node, p keyPath, o *Output) {
	d.fields(n, p, outputKeys(), func(key string, f pair, fp keyPath) {
		switch key {
		case "max_inline":
			if i, ok := d.smallPositive(f.Val, fp); ok {
				o.MaxInline = &i
			}
		case "stats_file":
			if s, ok := d.path(f.Val, fp); ok {
				o.StatsFile = s
			}
		}
	})
}

func (d *decoder) serve(n *node, p keyPath, s *Serve) {
	d.fields(n, p, serveKeys(), func(key string, f pair, fp keyPath) {
		v := f.Val
		switch key {
		case "session_state":
			if b, ok := d.boolean(v, fp); ok {
				s.SessionState = b
			}
		case "session_idle":
			if t, ok := d.positiveDuration(v, fp); ok {
				s.SessionIdle = &t
			}
		case "max_sessions":
			if i, ok := d.smallPositive(v, fp); ok {
				s.MaxSessions = &i
			}
		case "drain_timeout":
			if t, ok := d.positiveDuration(v, fp); ok {
				s.DrainTimeout = &t
			}
		case "read_timeout":
			if t, ok := d.positiveDuration(v, fp); ok {
				s.ReadTimeout = &t
			}
		case "idle_timeout":
			if t, ok := d.positiveDuration(v, fp); ok {
				s.IdleTimeout = &t
			}
		case "max_body":
			if z, ok := d.size(v, fp); ok {
				s.MaxBody = &z
			}
		case "session_memory":
			if z, ok := d.size(v, fp); ok {
				s.SessionMemory = &z
			}
		case "session_memory_total":
			if z, ok := d.size(v, fp); ok {
				s.SessionMemoryTotal = &z
			}
		case "structured_content":
			if b, ok := d.boolean(v, fp); ok {
				s.StructuredContent = b
			}
		case "stateless":
			if b, ok := d.boolean(v, fp); ok {
				s.Stateless = b
			}
		case "log_level":
			if l, ok := d.oneOf(v, fp, logLevels()...); ok {
				s.LogLevel = l
			}
		case "auth":
			d.auth(v, fp, s)
		case "rate_limit":
			d.rateLimit(v, fp, s)
		case "http":
			d.shown(v)
			if a, ok := d.str(v, fp); ok {
				if err := checkAddr(a); err != nil {
					d.fail(v, fp, "%v, got %s", err, yamltree.Describe(v))
				} else {
					s.HTTP = a
				}
			}
		}
	})
}

// rateLimit decodes serve.rate_limit (SPEC §7.4).
func (d *decoder) rateLimit(n *node, p keyPath, s *Serve) {
	if skip(n) {
		return
	}
	rl := &RateLimit{}
	d.fields(n, p, rateLimitKeys(), func(key string, f pair, fp keyPath) {
		i, ok := d.smallPositive(f.Val, fp)
		if !ok {
			return
		}
		switch key {
		case "runs_per_minute":
			rl.RunsPerMinute = i
		case "concurrent":
			rl.Concurrent = i
		}
	})
	s.RateLimit = rl
}

// auth decodes serve.auth (SPEC §7.4). Token values are secrets: no
// message here quotes one.
func (d *decoder) auth(n *node, p keyPath, s *Serve) {
	if skip(n) {
		return
	}
	a := &Auth{}
	d.fields(n, p, authKeys(), func(key string, f pair, fp keyPath) {
		switch key {
		case "metrics_token":
			d.credential(f.Val)
			if t, ok := d.str(f.Val, fp); ok {
				if t == "" {
					d.fail(f.Val, fp, "must not be empty: leave metrics_token out to serve /metrics without a token")
				}
				a.MetricsToken = t
			}
		case "tokens":
			a.Tokens = d.tokens(f.Val, fp)
		case "audit_arguments":
			if b, ok := d.boolean(f.Val, fp); ok {
				a.AuditArguments = b
			}
		case "oauth":
			a.OAuth = d.oauth(f.Val, fp)
		case "audit_log":
			if s, ok := d.path(f.Val, fp); ok {
				a.AuditLog = s
			}
		}
	})
	s.Auth = a
}

// oauth decodes serve.auth.oauth (SPEC §7.4): where tokens come from,
// whom they must be for, and how they map to policies.
func (d *decoder) oauth(n *node, p keyPath) *OAuth {
	if skip(n) {
		return nil
	}
	o := &OAuth{}
	d.fields(n, p, oauthKeys(), func(key string, f pair, fp keyPath) {
		d.shown(f.Val) // public facts, served as the protected resource metadata
		if key == "scopes" {
			l, ok := d.strList(f.Val, fp)
			if !ok {
				return
			}
			for i, sc := range l {
				if !isScopeToken(sc) {
					d.fail(f.Val.Items[i], fp.Index(i), "a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3), got %q", sc)
				}
			}
			o.Scopes = l
			return
		}
		str, ok := d.str(f.Val, fp)
		if !ok {
			return
		}
		switch key {
		case "issuer":
			if err := checkOAuthURL(str); err != nil {
				d.fail(f.Val, fp, "%v: the issuer URL of your authorization server, e.g. https://auth.example.com", err)
			}
			o.Issuer = str
		case "audience":
			if err := checkOAuthURL(str); err != nil {
				d.fail(f.Val, fp, "%v: the public URL of this server's /mcp as tokens name it in aud, e.g. https://onetool.example.com/mcp", err)
			}
			o.Audience = str
		case "policy_claim":
			if str == "" {
				d.fail(f.Val, fp, "must not be empty: leave policy_claim out to give every token default_policy")
			}
			o.PolicyClaim = str
		case "default_policy":
			o.DefaultPolicy = str
			d.tokenPolicies = append(d.tokenPolicies, placed{f.Val.Pos, fp, str})
		}
	})
	if o.Issuer == "" {
		d.fail(n, p, "needs issuer: oauth is {issuer, audience, scopes, policy_claim, default_policy}")
	}
	if o.Audience == "" {
		d.fail(n, p, "needs audience: oauth is {issuer, audience, scopes, policy_claim, default_policy}")
	}
	if o.PolicyClaim == "" && o.DefaultPolicy == "" {
		d.fail(n, p, "needs default_policy or policy_claim (or both): without either no token has a policy")
	}
	return o
}

// checkOAuthURL accepts an absolute https URL, or http on a loopback host
// (for tests and a local authorization server), without query or fragment.
func checkOAuthURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.User != nil {
		return fmt.Errorf("want an absolute https URL, got %q", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("want a URL without query or fragment, got %q", s)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if ip := net.ParseIP(h); h == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
		return fmt.Errorf("want https (http only for localhost), got %q", s)
	}
	return fmt.Errorf("want an absolute https URL, got %q", s)
}

// isScopeToken reports whether s is a scope-token of RFC 6749 §3.3.
func isScopeToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// tokens decodes serve.auth.tokens: a list of {name, token, policy}.
func (d *decoder) tokens(n *node, p keyPath) []Token {
	if skip(n) {
		return nil
	}
	if n.Kind != yamltree.ListNode {
		d.fail(n, p, "want a list of {name, token, policy}, got %s", yamltree.Describe(n))
		return nil
	}
	var out []Token
	names, values := map[string]int{}, map[string]int{}
	for i, it := range n.Items {
		ip := p.Index(i)
		if skip(it) || it.Kind != yamltree.MappingNode {
			if !it.Bad {
				d.fail(it, ip, "want a mapping {name, token, policy}, got %s", yamltree.Describe(it))
			}
			continue
		}
		var t Token
		written := map[string]bool{}
		d.fields(it, ip, tokenKeys(), func(key string, f pair, fp keyPath) {
			if key == "token" {
				d.credential(f.Val)
			} else {
				d.shown(f.Val)
			}
			str, ok := d.str(f.Val, fp)
			if !ok {
				return
			}
			written[key] = true
			switch key {
			case "name":
				if !isName(str) {
					d.fail(f.Val, fp, "a token's name is letters, digits, _ and -, starting with a letter or _ (it names the principal in logs and stats), got %q", str)
				} else if j, dup := names[str]; dup {
					d.fail(f.Val, fp, "name %q is already used by %s: give each token its own name", str, p.Index(j))
				}
				names[str] = i
				t.Name = str
			case "token":
				if str == "" {
					d.fail(f.Val, fp, "must not be empty: set it from secrets.yaml, e.g. token: ${ALICE_TOKEN}")
				} else if j, dup := values[str]; dup {
					d.fail(f.Val, fp, "the same token as %s: give each principal a token of its own", p.Index(j))
				}
				values[str] = i
				t.Token = str
			case "policy":
				t.Policy = str
				d.tokenPolicies = append(d.tokenPolicies, placed{f.Val.Pos, fp, str})
			}
		})
		for _, k := range tokenKeys() {
			if !written[k] {
				d.fail(it, ip, "needs %s: each token is {name, token, policy}", k)
			}
		}
		out = append(out, t)
	}
	return out
}

// checkAddr accepts host:port listen addresses such as 127.0.0.1:8080,
// :8080 and [::1]:8080.
func checkAddr(a string) error {
	bad := fmt.Errorf(`want a listen address such as "127.0.0.1:8080" or ":8080"`)
	_, port, err := net.SplitHostPort(a)
	if err != nil {
		return bad
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return bad
	}
	return nil
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// environ decodes security.environ: the names of the environment
// variables programs may read (os.environ, os.getenv), each a variable
// name (letters, digits, _; not starting with a digit).
func (d *decoder) environ(n *node, p keyPath, s *Security) {
	l, ok := d.strList(n, p)
	if !ok {
		return
	}
	for i, name := range l {
		if !envName(name) {
			d.fail(n.Items[i], p.Index(i), "%q is not an environment variable name: want letters, digits and _, not starting with a digit", name)
			return
		}
	}
	s.Environ = l
}

// envName reports whether name is a portable environment variable name.
func envName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
