package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
)

func principal(name, policy string, p config.Policy) *auth.Principal {
	return &auth.Principal{Name: name, Policy: auth.NewPolicy(policy, &p)}
}

// A principal's policy refuses, at the user's line, the calls outside it
// (SPEC §7.4), and only those.
func TestPolicyRefusesCalls(t *testing.T) {
	r := newRunner(t)
	reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "demo.foo", "file.read*"}})
	ro := principal("bob", "ro", config.Policy{Allow: []string{"*"}, ReadOnly: true})
	tests := []struct {
		name string
		who  *auth.Principal
		code string
		want string
	}{
		{"allowed", reader, `demo.foo(text="test")`, "orange"},
		{"outside allow", reader, "x = 1\nfile.write(path='x.txt', content='x')", "Error: line 2: file.write is not allowed by policy 'reader'"},
		{"outside allow, other pack", reader, `demo.bar(text="a")`, "Error: line 1: demo.bar is not allowed by policy 'reader'"},
		{"pack:name form in a deferred call", reader, `parallel([call("demo:bar", text="a")])`, "not allowed by policy 'reader'"},
		{"read-only refuses a write", ro, "x = 1\nfile.write(path='x.txt', content='x')", "Error: line 2: file.write is not allowed by policy 'ro' (read-only)"},
		{"read-only lets a read-only tool run", ro, `demo.bar(text="item1")`, "fox"},
		{"no principal: unchanged", nil, `demo.bar(text="item1")`, "fox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Exec(context.Background(), tt.code, AsPrincipal(tt.who))
			if !strings.Contains(res.Text, tt.want) || (strings.HasPrefix(tt.want, "Error") && res.Text != tt.want) {
				t.Errorf("Text = %q, want %q", res.Text, tt.want)
			}
			if strings.Contains(tt.want, "not allowed") && !errors.Is(res.Err, auth.ErrNotAllowed) {
				t.Errorf("errors.Is(%v, auth.ErrNotAllowed) is false", res.Err)
			}
		})
	}
}

// ot.help, ot.tools and ot.packs show a principal only what it may call.
func TestPolicyFiltersDiscovery(t *testing.T) {
	r := newRunner(t)
	reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "demo.foo"}})
	tools := r.Exec(context.Background(), `[t for t in ot.tools(info="min") if not t.startswith("ot.")]`, AsPrincipal(reader))
	if tools.Text != `["demo.foo"]` {
		t.Errorf("ot.tools for reader: %s", tools.Text)
	}
	packs := r.Exec(context.Background(), `[p["name"] for p in ot.packs()]`, AsPrincipal(reader))
	if packs.Text != `["demo","ot"]` {
		t.Errorf("ot.packs for reader: %s", packs.Text)
	}
	help := r.Exec(context.Background(), `ot.help(query="demo")`, AsPrincipal(reader))
	if !strings.Contains(help.Text, "\nfoo(") || strings.Contains(help.Text, "\nbar(") {
		t.Errorf("ot.help(demo) for reader:\n%s", help.Text)
	}
	overview := r.Exec(context.Background(), `ot.help()`, AsPrincipal(reader))
	if strings.Contains(overview.Text, "file —") {
		t.Errorf("ot.help() for reader mentions the file pack:\n%s", overview.Text)
	}
	all := r.Exec(context.Background(), `ot.help(query="demo")`)
	if !strings.Contains(all.Text, "\nbar(") {
		t.Errorf("ot.help(demo) without a principal lost demo.bar:\n%s", all.Text)
	}
}

// A policy's limits replace the run's for its principal.
func TestPolicyLimits(t *testing.T) {
	r := newRunner(t)
	two := 2
	capped := principal("ci", "capped", config.Policy{Allow: []string{"*"}, Limits: config.Limits{MaxToolCalls: &two}})
	code := `[demo.foo(text="a") for i in range(3)]`
	if res := r.Exec(context.Background(), code, AsPrincipal(capped)); !errors.Is(res.Err, ErrToolCallLimit) {
		t.Errorf("3 calls under a policy limit of 2: %s", res.Text)
	}
	if res := r.Exec(context.Background(), code); res.IsError() {
		t.Errorf("3 calls without a principal: %s", res.Text)
	}
}

// A policy that needs worker processes refuses to run in-process.
func TestPolicyNeedsIsolation(t *testing.T) {
	r := newRunner(t)
	iso := principal("ci", "sandboxed", config.Policy{Allow: []string{"*"}, Isolation: "process"})
	res := r.Exec(context.Background(), `demo.foo(text="a")`, AsPrincipal(iso))
	if !errors.Is(res.Err, ErrNeedsIsolation) || !strings.Contains(res.Text, "policy 'sandboxed'") {
		t.Errorf("Text = %q", res.Text)
	}
}

// In worker processes a policy applies the same way: the tool calls come
// back to the server, which checks them.
func TestPolicyInWorkers(t *testing.T) {
	r := isolated(t, Isolation{Workers: 1})
	iso := principal("ci", "sandboxed", config.Policy{Allow: []string{"ot.*", "demo.foo"}, Isolation: "process"})
	if res := r.Exec(context.Background(), `demo.foo(text="test")`, AsPrincipal(iso)); res.Text != "orange" {
		t.Errorf("allowed call: %q", res.Text)
	}
	res := r.Exec(context.Background(), "x = 1\ndemo.bar(text='a')", AsPrincipal(iso))
	if res.Text != "Error: line 2: demo.bar is not allowed by policy 'sandboxed'" || !errors.Is(res.Err, auth.ErrNotAllowed) {
		t.Errorf("refused call: %q (%v)", res.Text, res.Err)
	}
	if res := r.Exec(context.Background(), `ot.tools(pattern="demo.*", info="min")`, AsPrincipal(iso)); res.Text != `["demo.foo"]` {
		t.Errorf("ot.tools: %q", res.Text)
	}
}

// serve.auth.audit_log: one JSON line per run of a principal, naming the
// tools but holding no argument value; runs without one are not logged.
func TestAuditLog(t *testing.T) {
	var buf bytes.Buffer
	r := newRunner(t, WithAudit(auth.NewAudit(&buf)))
	reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "demo.foo"}})
	r.Exec(context.Background(), `demo.foo(text="secret-argument")`, AsPrincipal(reader))
	r.Exec(context.Background(), "demo.foo(text='a')\ndemo.bar(text='b')", AsPrincipal(reader))
	r.Exec(context.Background(), "1 // 0", AsPrincipal(reader))
	r.Exec(context.Background(), `demo.bar(text="nobody")`)
	if strings.Contains(buf.String(), "secret-argument") || strings.Contains(buf.String(), "nobody") {
		t.Errorf("the audit log shows an argument value or a run without a principal:\n%s", buf.String())
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), buf.String())
	}
	want := []struct {
		tools   []string
		outcome string
		calls   int
	}{
		{[]string{"demo.foo"}, "ok", 1},
		{[]string{"demo.foo", "demo.bar"}, "denied", 1},
		{[]string{}, "error", 0},
	}
	for i, line := range lines {
		var e auth.AuditEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		w := want[i]
		if e.Principal != "ci" || e.Policy != "reader" || e.Outcome != w.outcome || !slices.Equal(e.Tools, w.tools) ||
			e.ToolCalls != w.calls || e.Time.IsZero() || e.Duration <= 0 {
			t.Errorf("line %d: %s\nwant tools %q, outcome %s, %d calls", i+1, line, w.tools, w.outcome, w.calls)
		}
	}
}

// With serve.auth.audit_arguments, each audit line lists the run's calls
// with their arguments, secrets redacted and long ones cut.
func TestAuditArguments(t *testing.T) {
	var buf bytes.Buffer
	cfg := secretConfig(t, "serve:\n  auth:\n    audit_arguments: true\n    tokens: [{name: ci, token: t0k3n-value, policy: dev}]\npolicies:\n  dev: {allow: ['*']}\n")
	r := newRunner(t, WithConfig(cfg), WithAudit(auth.NewAudit(&buf)))
	dev := principal("ci", "dev", config.Policy{Allow: []string{"*"}})
	code := `tok = "sk-live-" + "0123456789abcdef"
demo.foo(text="key=" + tok)
demo.foo(text="x" * 5000)
demo.add(a=1, b=2)`
	if res := r.Exec(context.Background(), code, AsPrincipal(dev)); res.Err != nil {
		t.Fatal(res.Text)
	}
	if strings.Contains(buf.String(), secretValue) {
		t.Fatalf("the audit log shows a secret:\n%s", buf.String())
	}
	var e struct {
		Calls []struct {
			Tool string
			Args json.RawMessage
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if len(e.Calls) != 3 {
		t.Fatalf("calls: %s", buf.String())
	}
	if got := string(e.Calls[0].Args); got != `{"text":"key=[secret:API_TOKEN]"}` {
		t.Errorf("first call's args: %s", got)
	}
	var cut string
	if err := json.Unmarshal(e.Calls[1].Args, &cut); err != nil || len(cut) > maxAuditArgs+len("…") || !strings.HasSuffix(cut, "…") {
		t.Errorf("5000-character argument: want a string cut at %d bytes ending in …, got %.80s", maxAuditArgs, e.Calls[1].Args)
	}
	if e.Calls[2].Tool != "demo.add" || string(e.Calls[2].Args) != `{"a":1,"b":2}` {
		t.Errorf("third call: %s %s", e.Calls[2].Tool, e.Calls[2].Args)
	}

	// Off (the default), no argument is written.
	buf.Reset()
	plain := newRunner(t, WithAudit(auth.NewAudit(&buf)))
	plain.Exec(context.Background(), `demo.add(a=1, b=2)`, AsPrincipal(dev))
	if strings.Contains(buf.String(), `"calls"`) || strings.Contains(buf.String(), `"args"`) {
		t.Errorf("arguments logged without audit_arguments: %s", buf.String())
	}
}

// A call the policy refused keeps its run "denied" in the audit log
// whatever the program does with the refusal: caught by try/except, lost
// in a parallel call, followed by another error; in the server's process
// and in a worker alike. (On main a caught refusal was audited "ok".)
func TestAuditDeniedWhenCaught(t *testing.T) {
	reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "demo.foo"}})
	tests := []struct {
		name, code, text, outcome, kind string
	}{
		{"caught", "try:\n    demo.bar(text='a')\nexcept Exception as e:\n    pass\n'fine'", "fine", "denied", ""},
		{"caught in a helper", "def safe(f, **kw):\n    try:\n        return f(**kw)\n    except RuntimeError:\n        return None\n[safe(demo.foo, text='a'), safe(demo.bar, text='b')]", `["orange",null]`, "denied", ""},
		{"caught around a parallel call", "try:\n    parallel([call('demo:foo', text='a'), call('demo:bar', text='b')])\nexcept Exception:\n    pass\n'done'", "done", "denied", ""},
		{"then another error", "try:\n    demo.bar(text='a')\nexcept Exception:\n    pass\n1 // 0", "", "denied", "runtime"},
		{"allowed only", "demo.foo(text='a')", "", "ok", ""},
	}
	for _, mode := range []struct {
		name string
		r    func(t *testing.T, a *auth.Audit) *Runner
	}{
		{"in process", func(t *testing.T, a *auth.Audit) *Runner { return newRunner(t, WithAudit(a)) }},
		{"isolated", func(t *testing.T, a *auth.Audit) *Runner { return isolated(t, Isolation{Workers: 1}, WithAudit(a)) }},
	} {
		t.Run(mode.name, func(t *testing.T) {
			var buf bytes.Buffer
			r := mode.r(t, auth.NewAudit(&buf))
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					buf.Reset()
					res := r.Exec(context.Background(), tt.code, AsPrincipal(reader))
					if tt.text != "" && res.Text != tt.text {
						t.Errorf("run: %q, want %q", res.Text, tt.text)
					}
					var e auth.AuditEntry
					if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
						t.Fatalf("%v: %q", err, buf.String())
					}
					if e.Outcome != tt.outcome || e.ErrorKind != tt.kind {
						t.Errorf("audit outcome %q, error_kind %q; want %q, %q: %s", e.Outcome, e.ErrorKind, tt.outcome, tt.kind, buf.String())
					}
				})
			}
		})
	}
}
