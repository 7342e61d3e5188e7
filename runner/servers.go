package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"slices"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/proxy"
)

// startServers connects the enabled upstream servers of the configuration
// in the background (SPEC §4.5): each becomes a pack named after it, whose
// tools are registered when the server connects and refreshed when it
// reconnects or its tool list changes. A local pack of the same name wins.
func (r *Runner) startServers() {
	names := make([]string, 0, len(r.cfg.Servers))
	for n := range r.cfg.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	var specs []mcpclient.Spec
	for _, n := range names {
		s := r.cfg.Servers[n]
		if !s.IsEnabled() {
			continue
		}
		pack := mcpclient.PackName(n)
		if _, local := r.reg.Pack(pack); local {
			r.log.Warn("a local pack has the name of a server; the local pack wins", "server", n, "pack", pack)
			r.shadowed = append(r.shadowed, n)
			continue
		}
		specs = append(specs, mcpclient.Spec{
			Name: n, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, ShownURL: r.cfg.ShownURL(n), Timeout: time.Duration(s.Timeout),
			ToolPrefix: s.ToolPrefix, Description: s.Description,
		})
	}
	if len(specs) == 0 {
		return
	}
	r.servers = mcpclient.NewManager(specs, mcpclient.Options{Logger: r.log, OnChange: r.registerServerTools, Tracer: r.tracer})
	for _, spec := range specs {
		desc := spec.Description
		if desc == "" {
			desc = fmt.Sprintf("Tools of the MCP server %s", spec.Name)
		}
		r.reg.SetPackDescription(mcpclient.PackName(spec.Name), desc)
	}
	r.servers.Start()
}

// Close stops the upstream servers (their processes are gone within about
// two seconds). A Runner without servers has nothing to close.
func (r *Runner) Close() error {
	r.executor.Close()
	if r.pool != nil {
		r.pool.Close()
	}
	if r.statsFile != nil {
		r.statsFile.Close()
	}
	if r.db != nil {
		r.db.Close()
	}
	r.shapes.Close() // writes what it learned, before the store goes
	if r.ownsShared {
		r.shared.Close()
	}
	if r.servers == nil {
		return nil
	}
	return r.servers.Close()
}

// PackSummary is one line of the pack overview.
type PackSummary struct{ Name, Description string }

// ModuleNames are the Python modules a program may use, sorted, by the
// names it imports them by ("urllib.parse").
func (r *Runner) ModuleNames() []string { return ot.ModuleNames(r.modules) }

// PackSummaries lists every pack a program can use, sorted: the
// registered ones and those of upstream servers still connecting.
func (r *Runner) PackSummaries() []PackSummary {
	seen := map[string]bool{}
	var out []PackSummary
	for _, p := range r.reg.Packs() {
		seen[p.Name] = true
		out = append(out, PackSummary{p.Name, p.Description})
	}
	for _, srv := range r.Servers() {
		pack := mcpclient.PackName(srv.Name())
		if seen[pack] {
			continue
		}
		desc := srv.Spec().Description
		if desc == "" {
			desc = "Tools of the MCP server " + srv.Name()
		}
		out = append(out, PackSummary{pack, desc})
	}
	slices.SortFunc(out, func(a, b PackSummary) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// waitServers waits until every upstream server has connected or failed
// (each bounded by its timeout and by ctx), so that discovery shows their
// tools.
func (r *Runner) waitServers(ctx context.Context) {
	for _, srv := range r.Servers() {
		srv.Tools(ctx) // the error is the server's state, which ot.servers() shows
	}
}

// Servers returns the upstream servers, sorted by name.
func (r *Runner) Servers() []*mcpclient.Server {
	if r.servers == nil {
		return nil
	}
	return r.servers.Servers()
}

// serverGlobals are the pack values of the upstream servers.
func (r *Runner) serverGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	if r.servers == nil {
		return g
	}
	for _, srv := range r.servers.Servers() {
		pack := mcpclient.PackName(srv.Name())
		g[pack] = proxy.NewUpstreamPack(pack, &upstream{r: r, srv: srv, pack: pack}, r)
	}
	return g
}

// registerServerTools (re)registers the pack of a server from the tool
// list it has now.
func (r *Runner) registerServerTools(name string) {
	srv, ok := r.servers.Server(name)
	if !ok {
		return
	}
	pack := mcpclient.PackName(name)
	var tools []*packs.Tool
	seen := map[string]bool{}
	for _, ut := range srv.ToolsNow() {
		// What a server says of its tools reaches programs (ot.help, a
		// tool's .doc): with secrets hidden, as its results are.
		ut.Description = r.cfg.Secrets.Redact(ut.Description)
		ut.InputSchema = json.RawMessage(r.cfg.Secrets.Redact(string(ut.InputSchema)))
		t := upstreamTool(srv, pack, ut)
		if seen[t.Name] {
			continue // two upstream names with one canonical form: MatchTool reports the ambiguity
		}
		if err := t.Compile(); err != nil {
			// A schema we cannot compile still gets a callable tool:
			// arguments go unchecked, the server checks them.
			r.log.Warn("upstream tool schema does not compile; arguments will not be validated", "server", name, "tool", ut.Name, "error", err)
			t = upstreamTool(srv, pack, mcpclient.Tool{Name: ut.Name, Description: ut.Description, InputSchema: json.RawMessage(`{"type":"object","additionalProperties":true}`)})
		}
		seen[t.Name] = true
		tools = append(tools, t)
	}
	if err := r.reg.ReplacePack(pack, tools...); err != nil {
		r.log.Error("registering the tools of a server failed", "server", name, "error", err)
	}
}

// upstreamTool is the registry entry of one upstream tool: named by the
// canonical (snake_case) form of its name, with canonical forms of its
// parameter names accepted as synonyms, and one backend calling the server.
func upstreamTool(srv *mcpclient.Server, pack string, ut mcpclient.Tool) *packs.Tool {
	raw := ut.Name
	t := &packs.Tool{
		Pack:        pack,
		Name:        mcpclient.Canonical(raw),
		Description: ut.Description,
		InputSchema: string(ut.InputSchema),
		Annotations: packs.Annotations{ReadOnly: ut.ReadOnly, Destructive: ut.Destructive, OpenWorld: ut.OpenWorld},
		Synonyms:    paramSynonyms(ut.InputSchema),
		Backends: []packs.Backend{{
			Kind: packs.BackendMCP,
			Name: "mcp:" + srv.Name() + "/" + raw,
			Handler: func(ctx context.Context, args map[string]any) (any, error) {
				return srv.Call(ctx, raw, args)
			},
		}},
	}
	if t.Name == "" || !isIdent(t.Name) {
		t.Name = "tool_" + strings.Trim(t.Name, "_")
	}
	return t
}

// paramSynonyms lets programs write the snake_case form of camelCase or
// kebab-case parameter names.
func paramSynonyms(schema json.RawMessage) map[string][]string {
	v, err := ordered.Decode(schema)
	if err != nil {
		return nil
	}
	root, _ := v.(*ordered.Map)
	props, _ := root.Get("properties")
	pm, _ := props.(*ordered.Map)
	var syn map[string][]string
	pm.Range(func(name string, _ any) bool {
		if c := mcpclient.Canonical(name); c != name && c != "" {
			if _, clash := pm.Get(c); !clash {
				if syn == nil {
					syn = map[string][]string{}
				}
				syn[name] = []string{c}
			}
		}
		return true
	})
	return syn
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// upstream resolves the tools of one server's pack for proxy.UpstreamPack.
type upstream struct {
	r    *Runner
	srv  *mcpclient.Server
	pack string
}

func (u *upstream) Names() []string {
	var names []string
	for _, t := range u.srv.ToolsNow() {
		names = append(names, mcpclient.Canonical(t.Name))
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ResolveNow is Resolve without waiting: known is false unless the
// server is connected, when its tool list is the one it has now.
func (u *upstream) ResolveNow(name string) (t *packs.Tool, known bool, err error) {
	if u.srv.Status().State != mcpclient.StateConnected {
		return nil, false, nil
	}
	// Connected, the list is at hand; should the server go away in
	// between, the call will say so, not the check.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t, err = u.Resolve(ctx, name)
	if err != nil && ctx.Err() != nil {
		return nil, false, nil
	}
	return t, true, err
}

// Resolve is how a program's call of an upstream server's tool finds it:
// its errors (the server's state, its last error, the end of its stderr)
// enter the program with secrets hidden, as a tool call's do.
func (u *upstream) Resolve(ctx context.Context, name string) (*packs.Tool, error) {
	t, err := u.resolve(ctx, name)
	return t, u.r.enterError(err)
}

func (u *upstream) resolve(ctx context.Context, name string) (*packs.Tool, error) {
	tools, err := u.srv.Tools(ctx)
	if err != nil {
		return nil, err
	}
	ut, err := mcpclient.MatchTool(tools, name, u.srv.Spec().ToolPrefix)
	if errors.Is(err, mcpclient.ErrUnknownTool) {
		// The same words as for a local pack, with the names programs use.
		names := u.Names()
		msg := fmt.Sprintf("pack '%s' has no function '%s'.", u.pack, name)
		if s := suggest.Closest(mcpclient.Canonical(name), names); s != "" {
			msg += fmt.Sprintf(" Did you mean '%s'?", s)
		}
		return nil, &phrased{msg: msg + " Available: " + strings.Join(names, ", "), err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("pack '%s': %w", u.pack, err)
	}
	id := u.pack + "." + mcpclient.Canonical(ut.Name)
	if t, ok := u.r.reg.Tool(id); ok {
		return t, nil
	}
	// Connected, but the registration has not run yet: do it now.
	u.r.registerServerTools(u.srv.Name())
	if t, ok := u.r.reg.Tool(id); ok {
		return t, nil
	}
	return nil, fmt.Errorf("pack '%s': tool %s is not available", u.pack, ut.Name)
}

// serverStatus is what ot.servers() shows.
func (r *Runner) serverStatus() any {
	out := []any{}
	if r.servers != nil {
		for _, srv := range r.servers.Servers() {
			st := srv.Status()
			m := ordered.NewMap(7)
			m.Set("name", st.Name)
			m.Set("pack", mcpclient.PackName(st.Name))
			m.Set("transport", st.Transport)
			m.Set("state", string(st.State))
			m.Set("tools", st.Tools)
			m.Set("restarts", st.Restarts)
			m.Set("last_error", st.LastError)
			out = append(out, m)
		}
	}
	for _, n := range r.shadowed {
		m := ordered.NewMap(3)
		m.Set("name", n)
		m.Set("pack", mcpclient.PackName(n))
		m.Set("state", "shadowed by a local pack")
		out = append(out, m)
	}
	return out
}

// phrased is an error with its own text that still matches its cause.
type phrased struct {
	msg string
	err error
}

func (p *phrased) Error() string { return p.msg }
func (p *phrased) Unwrap() error { return p.err }
