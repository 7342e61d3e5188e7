package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

func TestPolicyCheck(t *testing.T) {
	tool := func(id string, readOnly bool) *packs.Tool {
		pack, name, _ := packs.ParseID(id)
		return &packs.Tool{Pack: pack, Name: name, Annotations: packs.Annotations{ReadOnly: readOnly}}
	}
	tests := []struct {
		allow    []string
		readOnly bool
		tool     *packs.Tool
		want     string // "" when allowed
	}{
		{[]string{"*"}, false, tool("file.write", false), ""},
		{[]string{"ot.*"}, false, tool("ot.help", true), ""},
		{[]string{"ot.*"}, false, tool("file.read", true), "file.read is not allowed by policy 'p'"},
		{[]string{"file.read*"}, false, tool("file.read", true), ""},
		{[]string{"file.read*"}, false, tool("file.read_lines", true), ""},
		{[]string{"file.read"}, false, tool("file.write", false), "file.write is not allowed by policy 'p'"},
		{[]string{"github.*"}, false, tool("github.create_issue", false), ""},
		{[]string{"github.*"}, false, tool("githubx.list", true), "githubx.list is not allowed by policy 'p'"},
		{[]string{"file:read"}, false, tool("file.read", true), ""},
		{nil, false, tool("ot.help", true), "ot.help is not allowed by policy 'p'"},
		{[]string{"*"}, true, tool("file.read", true), ""},
		{[]string{"*"}, true, tool("file.write", false), "file.write is not allowed by policy 'p' (read-only)"},
	}
	for _, tt := range tests {
		p := NewPolicy("p", &config.Policy{Allow: tt.allow, ReadOnly: tt.readOnly})
		err := (&Principal{Name: "x", Policy: p}).Check(tt.tool)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("allow %q read_only %v: %s refused: %v", tt.allow, tt.readOnly, tt.tool.ID(), err)
		case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.Is(err, ErrNotAllowed)):
			t.Errorf("allow %q read_only %v: %s: got %v, want %q", tt.allow, tt.readOnly, tt.tool.ID(), err, tt.want)
		}
	}
	var nobody *Principal
	if err := nobody.Check(tool("file.write", false)); err != nil {
		t.Errorf("no principal: %v", err)
	}
}

func testConfig() *config.Config {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Policies["reader"] = &config.Policy{Allow: []string{"ot.*"}, ReadOnly: true}
	cfg.Serve.Auth = &config.Auth{
		Tokens: []config.Token{
			{Name: "alice", Token: "alice-token", Policy: "dev"},
			{Name: "ci", Token: "ci-token", Policy: "reader"},
		},
		MetricsToken: "metrics-token",
	}
	return cfg
}

func TestLookup(t *testing.T) {
	a, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ token, name, policy string }{
		{"alice-token", "alice", "dev"},
		{"ci-token", "ci", "reader"},
		{"ci-token ", "", ""},
		{"alice", "", ""},
		{"", "", ""},
		{"metrics-token", "", ""}, // the metrics token is not a principal
	} {
		p := a.Lookup(tt.token)
		switch {
		case tt.name == "" && p != nil:
			t.Errorf("Lookup(%q) = %s, want nobody", tt.token, p.Name)
		case tt.name != "" && (p == nil || p.Name != tt.name || p.Policy.Name != tt.policy):
			t.Errorf("Lookup(%q) = %+v, want %s with policy %s", tt.token, p, tt.name, tt.policy)
		}
	}
	if got := a.Names(); len(got) != 2 || got[0] != "alice" || got[1] != "ci" {
		t.Errorf("Names() = %q", got)
	}
}

func TestNew(t *testing.T) {
	if a, err := New(config.Default()); a != nil || err != nil {
		t.Errorf("without serve.auth: %v, %v; want nil, nil", a, err)
	}
	cfg := testConfig()
	cfg.Serve.Auth.Tokens[1].Policy = "nope"
	if _, err := New(cfg); err == nil {
		t.Error("a token with an unknown policy was accepted")
	}
}

// Protect and ProtectMetrics, as a client meets them.
func TestHTTP(t *testing.T) {
	a, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	var seen *Principal
	mcp := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// What go-sdk does with the request's TokenInfo.
		seen = PrincipalOf(sdkauth.TokenInfoFromContext(r.Context()))
		w.WriteHeader(http.StatusOK)
	}))
	metrics := a.ProtectMetrics(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	for _, tt := range []struct {
		name    string
		h       http.Handler
		header  string
		code    int
		who     string
		challng bool
	}{
		{"mcp without a token", mcp, "", 401, "", true},
		{"mcp with an unknown token", mcp, "Bearer nope", 401, "", true},
		{"mcp with another scheme", mcp, "Basic YWxpY2U6eA==", 401, "", true},
		{"mcp with a token", mcp, "Bearer alice-token", 200, "alice", false},
		{"mcp, scheme in lower case", mcp, "bearer ci-token", 200, "ci", false},
		{"mcp with the metrics token", mcp, "Bearer metrics-token", 401, "", true},
		{"metrics without a token", metrics, "", 401, "", true},
		{"metrics with a principal's token", metrics, "Bearer alice-token", 401, "", true},
		{"metrics with its token", metrics, "Bearer metrics-token", 200, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			req := httptest.NewRequest("POST", "/mcp", nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			rec := httptest.NewRecorder()
			tt.h.ServeHTTP(rec, req)
			if rec.Code != tt.code {
				t.Errorf("status %d, want %d (%s)", rec.Code, tt.code, rec.Body)
			}
			if got := rec.Header().Get("WWW-Authenticate"); (got == "Bearer") != tt.challng {
				t.Errorf("WWW-Authenticate: %q", got)
			}
			if tt.code == 401 && rec.Body.Len() == 0 {
				t.Error("a 401 without a body")
			}
			if (seen == nil && tt.who != "") || (seen != nil && seen.Name != tt.who) {
				t.Errorf("principal %+v, want %q", seen, tt.who)
			}
		})
	}
}
