package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/auth/authtest"
	"github.com/onetool-dev/onetool/runner/config"
)

// With serve.auth.oauth, a JWT of the issuer is a principal whose policy
// binds its runs, the protected resource metadata is served without a
// token (behind the same Host and Origin guard as every path), and a 401
// says where that metadata is.
func TestHTTPOAuth(t *testing.T) {
	is := authtest.NewIssuer(t)
	// The audience is the public URL, which need not be the listener's.
	const audience = "https://onetool.example.com/mcp"
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Policies["reader"] = &config.Policy{Allow: []string{"ot.*", "file.read"}, ReadOnly: true}
	cfg.Serve.Auth = &config.Auth{
		Tokens: []config.Token{{Name: "ci", Token: "ci-token", Policy: "dev"}},
		OAuth:  &config.OAuth{Issuer: is.URL, Audience: audience, Scopes: []string{"onetool.run"}, PolicyClaim: "onetool_policy", DefaultPolicy: "reader"},
	}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(HTTPHandler(New(r, Options{}), HTTPOptions{Auth: a}))
	defer srv.Close()

	run := func(token, code string) string {
		client := mcp.NewClient(&mcp.Implementation{Name: "oauth", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
			Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: bearerTransport{token}},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		return text(t, callRun(t, cs, code))
	}
	reader := is.Sign(t, "k1", is.Claims(audience, "onetool.run"))
	if got := run(reader, "x = 1\nfile.write(path='x.txt', content='x')"); got != "Error: line 2: file.write is not allowed by policy 'reader'" {
		t.Errorf("a JWT without policy claim (default_policy reader): %q", got)
	}
	c := is.Claims(audience, "onetool.run")
	c["onetool_policy"] = "dev"
	if got := run(is.Sign(t, "k1", c), `demo.bar(text="item1")`); got != "fox" {
		t.Errorf("a JWT with policy dev: %q", got)
	}
	if got := run("ci-token", `demo.bar(text="item1")`); got != "fox" {
		t.Errorf("the static token beside OAuth: %q", got)
	}

	do := func(method, path string, header map[string]string) (*http.Response, string) {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		if path == "/mcp" {
			req, _ = http.NewRequest(method, srv.URL+path, strings.NewReader(initializeBody))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	// A session opened with the static token "ci" is not open to a JWT
	// whose sub is "ci": they are different principals.
	res, _ := do("POST", "/mcp", map[string]string{"Authorization": "Bearer ci-token"})
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize with the static token: %d, session %q", res.StatusCode, sid)
	}
	ci := is.Claims(audience, "onetool.run")
	ci["sub"] = "ci"
	res, body := do("POST", "/mcp", map[string]string{"Authorization": "Bearer " + is.Sign(t, "k1", ci), "Mcp-Session-Id": sid})
	if res.StatusCode != 403 {
		t.Errorf("a JWT with sub ci in the static ci's session: %d %s", res.StatusCode, body)
	}

	const prm = `Bearer resource_metadata="https://onetool.example.com/.well-known/oauth-protected-resource"`
	for _, tt := range []struct {
		name, method, path string
		header             map[string]string
		code               int
		chal               string
	}{
		{"no token", "POST", "/mcp", nil, 401, prm},
		{"a bad token", "POST", "/mcp", map[string]string{"Authorization": "Bearer x.y.z"}, 401, prm},
		{"missing scope", "POST", "/mcp", map[string]string{"Authorization": "Bearer " + is.Sign(t, "k1", is.Claims(audience, "other"))}, 403,
			`Bearer error="insufficient_scope", scope="onetool.run", resource_metadata="https://onetool.example.com/.well-known/oauth-protected-resource"`},
		{"healthz is open", "GET", "/healthz", nil, 200, ""},
		{"metadata is open", "GET", "/.well-known/oauth-protected-resource", nil, 200, ""},
		{"path-aware metadata", "GET", "/.well-known/oauth-protected-resource/mcp", nil, 200, ""},
		{"metadata from a web page is refused like /mcp", "GET", "/.well-known/oauth-protected-resource", map[string]string{"Origin": "https://evil.example.com"}, 403, ""},
	} {
		res, body := do(tt.method, tt.path, tt.header)
		if res.StatusCode != tt.code || res.Header.Get("WWW-Authenticate") != tt.chal {
			t.Errorf("%s: %d %q WWW-Authenticate %q, want %d %q", tt.name, res.StatusCode, body, res.Header.Get("WWW-Authenticate"), tt.code, tt.chal)
		}
		if strings.HasPrefix(tt.path, "/.well-known") && tt.code == 200 {
			var m struct {
				Resource string   `json:"resource"`
				AS       []string `json:"authorization_servers"`
			}
			if err := json.Unmarshal([]byte(body), &m); err != nil || m.Resource != audience || len(m.AS) != 1 || m.AS[0] != is.URL {
				t.Errorf("%s: %s", tt.name, body)
			}
		}
	}
}
