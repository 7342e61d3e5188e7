package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadAuthAndPolicies(t *testing.T) {
	c, dir, err := loadYAML(t, `serve:
  auth:
    tokens:
      - {name: alice, token: "${ALICE_TOKEN}", policy: dev}
      - {name: ci, token: literal-ci-token, policy: reader}
    metrics_token: "${METRICS_TOKEN}"
    audit_log: logs/audit.jsonl
    audit_arguments: true
policies:
  dev: {allow: ["*"]}
  reader: {allow: ["ot.*", "file.read"], read_only: true, limits: {max_tool_calls: 100}}
`, map[string]string{"secrets.yaml": "ALICE_TOKEN: alice-secret-1\nMETRICS_TOKEN: metrics-secret-2\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := c.Serve.Auth
	if a == nil || len(a.Tokens) != 2 {
		t.Fatalf("serve.auth = %+v", a)
	}
	if got := a.Tokens[0]; got != (Token{Name: "alice", Token: "alice-secret-1", Policy: "dev"}) {
		t.Errorf("tokens[0] = %+v", got)
	}
	if a.AuditLog != filepath.Join(dir, "logs", "audit.jsonl") {
		t.Errorf("audit_log = %q, want it beside the config file", a.AuditLog)
	}
	if !a.AuditArguments {
		t.Error("audit_arguments: true was not read")
	}
	if a.MetricsToken != "metrics-secret-2" {
		t.Errorf("metrics_token = %q", a.MetricsToken)
	}
	r := c.Policies["reader"]
	if r == nil || !r.ReadOnly || len(r.Allow) != 2 || r.Limits.MaxToolCalls == nil || *r.Limits.MaxToolCalls != 100 {
		t.Errorf("policies.reader = %+v", r)
	}
	// No token value is ever printed, whether it came from secrets.yaml
	// or was written in the file.
	eff := string(c.Effective())
	for _, secret := range []string{"alice-secret-1", "metrics-secret-2", "literal-ci-token"} {
		if strings.Contains(eff, secret) {
			t.Errorf("effective config shows %q:\n%s", secret, eff)
		}
	}
	for _, want := range []string{"name: alice", "policy: reader", "max_tool_calls: 100", "read_only: true", "audit_arguments: true"} {
		if !strings.Contains(eff, want) {
			t.Errorf("effective config lacks %q:\n%s", want, eff)
		}
	}
	// What is printed loads again.
	if _, _, err := loadYAML(t, eff, nil, env{"ALICE_TOKEN": "x", "METRICS_TOKEN": "y"}); err != nil {
		t.Errorf("effective config does not load again: %v\n%s", err, eff)
	}
}

func TestAuthProblems(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown policy", "serve:\n  auth:\n    tokens:\n      - {name: a, token: t1, policy: dev}\npolicies:\n  reader: {allow: [\"ot.*\"]}\n",
			[]string{`onetool.yaml:4: serve.auth.tokens[0].policy: unknown policy "dev"; the policies are: reader`}},
		{"no policies at all", "serve:\n  auth:\n    tokens:\n      - {name: a, token: t1, policy: dev}\n",
			[]string{`onetool.yaml:4: serve.auth.tokens[0].policy: unknown policy "dev": define it under policies: at the top level`}},
		{"duplicate name", "serve:\n  auth:\n    tokens:\n      - {name: a, token: t1, policy: p}\n      - {name: a, token: t2, policy: p}\npolicies:\n  p: {allow: [\"*\"]}\n",
			[]string{`onetool.yaml:5: serve.auth.tokens[1].name: name "a" is already used by serve.auth.tokens[0]: give each token its own name`}},
		{"duplicate token value, not shown", "serve:\n  auth:\n    tokens:\n      - {name: a, token: t1, policy: p}\n      - {name: b, token: t1, policy: p}\npolicies:\n  p: {allow: [\"*\"]}\n",
			[]string{`onetool.yaml:5: serve.auth.tokens[1].token: the same token as serve.auth.tokens[0]: give each principal a token of its own`}},
		{"empty token", "serve:\n  auth:\n    tokens:\n      - {name: a, token: \"\", policy: p}\npolicies:\n  p: {allow: [\"*\"]}\n",
			[]string{`onetool.yaml:4: serve.auth.tokens[0].token: must not be empty: set it from secrets.yaml, e.g. token: ${ALICE_TOKEN}`}},
		{"missing token", "serve:\n  auth:\n    tokens:\n      - {name: a, policy: p}\npolicies:\n  p: {allow: [\"*\"]}\n",
			[]string{`onetool.yaml:4: serve.auth.tokens[0]: needs token: each token is {name, token, policy}`}},
		{"unknown auth key", "serve:\n  auth:\n    tokenz: []\n",
			[]string{`onetool.yaml:3: serve.auth.tokenz: unknown key; did you mean 'tokens'?`}},
		{"bad pattern", "policies:\n  p: {allow: [\"file.[\"]}\n",
			[]string{`onetool.yaml:2: policies.p.allow[0]: want a glob over tool ids such as "*", "ot.*" or "file.read*", got "file.["`}},
		{"unknown policy key", "policies:\n  p: {alow: [\"*\"]}\n",
			[]string{`onetool.yaml:2: policies.p.alow: unknown key; did you mean 'allow'?`}},
		{"policy limits checked", "policies:\n  p: {limits: {max_tool_calls: 0}}\n",
			[]string{`onetool.yaml:2: policies.p.limits.max_tool_calls: must be at least 1, got 0`}},
		{"policy isolation needs workers", "policies:\n  p: {isolation: process}\n",
			[]string{`onetool.yaml:2: policies.p.isolation: needs worker processes: set isolation: process at the top level too`}},
		{"policy isolation needs workers, not none", "isolation: none\npolicies:\n  p: {isolation: process}\n",
			[]string{`onetool.yaml:3: policies.p.isolation: needs worker processes: set isolation: process at the top level too`}},
		{"policy isolation none", "isolation: process\npolicies:\n  p: {isolation: none}\n",
			[]string{`onetool.yaml:3: policies.p.isolation: want "process" (workers with a hard memory limit) or nothing, got "none"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadYAML(t, tt.yaml, nil, nil)
			wantProblems(t, err, tt.want...)
			if err != nil && strings.Contains(err.Error(), "t1") {
				t.Errorf("the error shows a token: %v", err)
			}
		})
	}
}

func TestLoadOAuth(t *testing.T) {
	c, _, err := loadYAML(t, `serve:
  auth:
    oauth:
      issuer: https://auth.example.com
      audience: https://onetool.example.com/mcp
      scopes: [onetool.run]
      policy_claim: onetool_policy
      default_policy: reader
policies:
  reader: {allow: ["ot.*"]}
`, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := OAuth{Issuer: "https://auth.example.com", Audience: "https://onetool.example.com/mcp", Scopes: []string{"onetool.run"}, PolicyClaim: "onetool_policy", DefaultPolicy: "reader"}
	o := c.Serve.Auth.OAuth
	if o == nil || o.Issuer != want.Issuer || o.Audience != want.Audience || strings.Join(o.Scopes, " ") != "onetool.run" || o.PolicyClaim != want.PolicyClaim || o.DefaultPolicy != want.DefaultPolicy {
		t.Fatalf("serve.auth.oauth = %+v", o)
	}
	eff := string(c.Effective())
	for _, w := range []string{"issuer: https://auth.example.com", "audience: https://onetool.example.com/mcp", "- onetool.run", "policy_claim: onetool_policy", "default_policy: reader"} {
		if !strings.Contains(eff, w) {
			t.Errorf("effective config lacks %q:\n%s", w, eff)
		}
	}
	if _, _, err := loadYAML(t, eff, nil, nil); err != nil {
		t.Errorf("effective config does not load again: %v\n%s", err, eff)
	}
	// http is fine on a loopback issuer (tests, a local server).
	if _, _, err := loadYAML(t, "serve:\n  auth:\n    oauth: {issuer: \"http://127.0.0.1:9000\", audience: \"http://localhost:8080/mcp\", policy_claim: p}\n", nil, nil); err != nil {
		t.Errorf("loopback http: %v", err)
	}
}

func TestOAuthProblems(t *testing.T) {
	const pol = "policies:\n  reader: {allow: [\"ot.*\"]}\n"
	oauth := func(body string) string { return "serve:\n  auth:\n    oauth:\n" + body + pol }
	const ok = "      issuer: https://auth.example.com\n      audience: https://onetool.example.com/mcp\n"
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"http issuer", oauth("      issuer: http://auth.example.com\n      audience: https://onetool.example.com/mcp\n      default_policy: reader\n"),
			[]string{`onetool.yaml:4: serve.auth.oauth.issuer: want https (http only for localhost), got "http://auth.example.com": the issuer URL of your authorization server, e.g. https://auth.example.com`}},
		{"relative issuer", oauth("      issuer: auth.example.com\n      audience: https://onetool.example.com/mcp\n      default_policy: reader\n"),
			[]string{`onetool.yaml:4: serve.auth.oauth.issuer: want an absolute https URL, got "auth.example.com": the issuer URL of your authorization server, e.g. https://auth.example.com`}},
		{"issuer with a query", oauth("      issuer: https://auth.example.com/?x=1\n      audience: https://onetool.example.com/mcp\n      default_policy: reader\n"),
			[]string{`onetool.yaml:4: serve.auth.oauth.issuer: want a URL without query or fragment, got "https://auth.example.com/?x=1": the issuer URL of your authorization server, e.g. https://auth.example.com`}},
		{"no audience", oauth("      issuer: https://auth.example.com\n      default_policy: reader\n"),
			[]string{`onetool.yaml:4: serve.auth.oauth: needs audience: oauth is {issuer, audience, scopes, policy_claim, default_policy}`}},
		{"no issuer", oauth("      audience: https://onetool.example.com/mcp\n      default_policy: reader\n"),
			[]string{`onetool.yaml:4: serve.auth.oauth: needs issuer: oauth is {issuer, audience, scopes, policy_claim, default_policy}`}},
		{"audience not a URL", oauth("      issuer: https://auth.example.com\n      audience: onetool\n      default_policy: reader\n"),
			[]string{`onetool.yaml:5: serve.auth.oauth.audience: want an absolute https URL, got "onetool": the public URL of this server's /mcp as tokens name it in aud, e.g. https://onetool.example.com/mcp`}},
		{"unknown default policy", oauth(ok + "      default_policy: admin\n"),
			[]string{`onetool.yaml:6: serve.auth.oauth.default_policy: unknown policy "admin"; the policies are: reader`}},
		{"no policy at all", oauth(ok),
			[]string{`onetool.yaml:4: serve.auth.oauth: needs default_policy or policy_claim (or both): without either no token has a policy`}},
		{"scope with a space", oauth(ok + "      scopes: [\"onetool run\"]\n      default_policy: reader\n"),
			[]string{`onetool.yaml:6: serve.auth.oauth.scopes[0]: a scope is printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3), got "onetool run"`}},
		{"unknown key", oauth(ok + "      scope: [a]\n      default_policy: reader\n"),
			[]string{`onetool.yaml:6: serve.auth.oauth.scope: unknown key; did you mean 'scopes'?`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadYAML(t, tt.yaml, nil, nil)
			wantProblems(t, err, tt.want...)
		})
	}
}
