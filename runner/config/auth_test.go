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
