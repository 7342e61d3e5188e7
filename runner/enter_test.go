package runner

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// envToken is a credential the configuration takes from the environment,
// as docs/deploy.md recommends for containers.
const envToken = "ghp_fromTheEnvironment0123456789"

// enterConfig loads a configuration with hardSecret in secrets.yaml (HARD)
// and envToken in the environment (API_TOKEN), used as an upstream
// server's Authorization header, and a server whose URL holds HARD in its
// path and cannot be reached (so its last error shows the URL).
func enterConfig(t *testing.T) *config.Config {
	t.Helper()
	dir := t.TempDir()
	yamlValue, _ := json.Marshal(hardSecret)
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("HARD: "+string(yamlValue)+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte(`version: 1
servers:
  up:
    url: "http://127.0.0.1:1/mcp/${HARD}?key=${API_TOKEN}"
    headers: {Authorization: "Bearer ${API_TOKEN}"}
    timeout: 5s
`), 0o644)
	lookup := func(name string) (string, bool) {
		if name == "API_TOKEN" {
			return envToken, true
		}
		return "", false
	}
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, LookupEnv: lookup})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// leakRegistry has a pack whose tools hand out both secrets, as a tool
// that reads a credentials file or echoes its environment would: in a
// result, in bytes, in a typed value, in an error and in a panic.
func leakRegistry(t *testing.T) *packs.Registry {
	t.Helper()
	reg := packs.NewRegistry()
	type creds struct {
		User  string `json:"user"`
		Token string `json:"token"`
	}
	for _, tool := range []*packs.Tool{
		{Pack: "leak", Name: "value", Handler: func(context.Context, map[string]any) (any, error) {
			return map[string]any{
				"auth":  "Bearer " + hardSecret,
				"env":   "token=" + envToken,
				"raw":   []byte(hardSecret),
				"list":  []string{envToken},
				"typed": creds{User: "ann", Token: hardSecret},
			}, nil
		}},
		{Pack: "leak", Name: "fail", Handler: func(context.Context, map[string]any) (any, error) {
			return nil, fmt.Errorf("denied for %s and %s", hardSecret, envToken)
		}},
		{Pack: "leak", Name: "panic", Handler: func(context.Context, map[string]any) (any, error) {
			panic("bad key " + envToken)
		}},
	} {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// enterProgram collects what the program holds of each source, XORed
// with 0x55 and written in hex: a form that redaction on the way out does
// not know, so that the test sees what entered the program, not what
// left the run.
const enterProgram = `
import json
def xor(t):
    return bytes([b ^ 0x55 for b in t.encode()]).hex()
out = {}
v = leak.value()
out["value"] = xor(json.dumps(v))
out["marker"] = "[secret:HARD]" in v["auth"] and "[secret:API_TOKEN]" in v["env"]
for name, f in [("fail", leak.fail), ("panic", leak.panic)] + UPSTREAM:
    try:
        f()
        out[name] = "no error"
    except Exception as e:
        out[name] = xor(str(e))
out["config"] = xor(ot.config())
out["servers"] = xor(json.dumps(ot.servers()))
out["health"] = xor(json.dumps(ot.health()))
out["results"] = xor(json.dumps(parallel([call(leak.value), call(leak.value)])))
import base64, urllib.parse
t = json.dumps(v) + str(out)
b = t.encode()
out["encodings"] = [b.hex(), b.hex(":"), base64.b64encode(b).decode(), base64.encodebytes(b).decode(),
    ascii(t), repr(b), urllib.parse.quote(t), "".join(["%%%02x" % c for c in b]), "".join(["&#%d" % ord(c) for c in t]),
    "".join(["\\x%02x" % c for c in b]), base64.b64encode(base64.b64encode(b)).decode(), t[::-1]]
out
`

// SPEC §8.3: a secret never enters a program. Every value a program is
// handed — a tool's result (strings, bytes, typed values), its error as
// except ToolError sees it, a panic, an upstream server's connection
// error, ot.config(), ot.servers() (last_error holding the URL with a
// secret in its path), ot.health(), results of parallel — holds the
// marker, never the secret of secrets.yaml nor the one from the
// environment: so no encoding the program applies can carry them out, and
// the answer, every encoding of it included, never holds them.
func TestSecretsNeverEnterAProgram(t *testing.T) {
	cfg := enterConfig(t)
	for _, mode := range []string{"in-process", "isolated"} {
		t.Run(mode, func(t *testing.T) {
			opts := []Option{WithRegistry(leakRegistry(t)), WithConfig(cfg), WithLimits(Limits{Timeout: 30 * time.Second}), WithMaxInline(1 << 20)}
			var r *Runner
			if mode == "isolated" {
				r = isolated(t, Isolation{Workers: 1, MaxWorkers: 1}, opts...)
			} else {
				r = newRunner(t, opts...)
				t.Cleanup(func() { r.Close() })
			}
			// A worker has the tools of servers that connected; this one
			// never does, so only the server process can call it.
			upstream := `[("upstream", up.anything)]`
			if mode == "isolated" {
				upstream = "[]"
			}
			res := r.Exec(context.Background(), strings.Replace(enterProgram, "UPSTREAM", upstream, 1))
			if res.IsError() {
				t.Fatal(res.Text)
			}
			var out map[string]any
			if err := json.Unmarshal([]byte(res.Text), &out); err != nil {
				t.Fatalf("%v: %s", err, res.Text)
			}
			if out["marker"] != true {
				t.Errorf("the program did not see the markers: %s", res.Text)
			}
			probe := probeSecrets(t)
			if got := probe.Redact(res.Text); strings.Contains(got, "[secret:P") {
				t.Errorf("the answer holds a secret: %.2000s", got)
			}
			for name, v := range out {
				x, ok := v.(string)
				if !ok || name == "marker" {
					continue
				}
				b, err := hex.DecodeString(x)
				if err != nil {
					t.Errorf("%s: %q", name, x)
					continue
				}
				for i := range b {
					b[i] ^= 0x55
				}
				held := string(b)
				if got := probe.Redact(held); strings.Contains(got, "[secret:P") {
					t.Errorf("%s: the program held a secret: %s", name, got)
				}
				if want := wantMarkers[name]; !strings.Contains(held, want) {
					t.Errorf("%s: no %s in what the program held: %s", name, want, held)
				}
			}
		})
	}
}

// unxor reads a JSON list of what enterProgram's xor wrote.
func unxor(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	for i, x := range out {
		b, err := hex.DecodeString(x)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		for j := range b {
			b[j] ^= 0x55
		}
		out[i] = string(b)
	}
	return out
}

// wantMarkers is a marker each source shows in place of a secret.
var wantMarkers = map[string]string{
	"value":    "[secret:HARD]",
	"fail":     "[secret:API_TOKEN]",
	"panic":    "[secret:API_TOKEN]",
	"upstream": "/mcp/[secret:HARD]?key=xxxxx",
	"config":   "Authorization: Bearer [secret:API_TOKEN]",
	"servers":  "/mcp/[secret:HARD]?key=xxxxx",
	"health":   "/mcp/[secret:HARD]?key=xxxxx",
	"results":  "[secret:API_TOKEN]",
}

// probeSecrets finds both secrets in every form redaction knows, under
// names of its own.
func probeSecrets(t *testing.T) *config.Secrets {
	t.Helper()
	dir := t.TempDir()
	h, _ := json.Marshal(hardSecret)
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("P1: "+string(h)+"\nP2: "+envToken+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Secrets
}

// A program that gets a secret through a path entry redaction missed
// (here: one it builds itself) and applies every encoding a Python
// program can to it finds each hidden on the way out: the answer never
// holds the secret.
func TestEveryEncodingHiddenOnTheWayOut(t *testing.T) {
	cfg := enterConfig(t)
	program := `
import base64, json, urllib.parse
s = "p\"a\\ss <w" + "örd> & /x'"
b = s.encode()
forms = [
    b.hex(), b.hex().upper(), b.hex(":"), b.hex(" ", 2), base64.b16encode(b).decode(),
    base64.b64encode(b).decode(), base64.urlsafe_b64encode(b).decode(), base64.encodebytes(b * 3).decode(),
    base64.b64encode(base64.b64encode(b)).decode(), base64.b64encode(json.dumps(s).encode()).decode(),
    urllib.parse.quote(base64.b64encode(b).decode()), urllib.parse.quote(s), urllib.parse.quote_plus(s),
    "".join(["%%%02X" % c for c in b]), "".join(["%%%02x" % c for c in b]),
    "".join(["&#%d;" % ord(c) for c in s]), "".join(["&#%d" % ord(c) for c in s]),
    "".join(["&#x%x;" % ord(c) for c in s]), "".join(["&#%05d;" % ord(c) for c in s]),
    ascii(s), repr(s), repr(b), "".join(["\\x%02x" % c for c in b]), "".join(["\\u%04x" % ord(c) for c in s]),
    "".join(["\\U%08x" % ord(c) for c in s]), "".join(["\\%03o" % c for c in b]),
    s[::-1], base64.b64encode(b).decode()[::-1], b.hex()[::-1], json.dumps(s), json.dumps(s, ensure_ascii=False),
]
print(forms)
forms
`
	for _, mode := range []string{"in-process", "isolated"} {
		t.Run(mode, func(t *testing.T) {
			var r *Runner
			if mode == "isolated" {
				r = isolated(t, Isolation{Workers: 1, MaxWorkers: 1}, WithConfig(cfg))
			} else {
				r = newRunner(t, WithConfig(cfg))
			}
			res := r.Exec(context.Background(), program)
			if res.IsError() {
				t.Fatal(res.Text)
			}
			probe := probeSecrets(t)
			for what, s := range map[string]string{"text": res.Text, "printed": res.Printed} {
				if got := probe.Redact(s); strings.Contains(got, "[secret:P") {
					t.Errorf("%s holds the secret: %s", what, got)
				}
				if n := strings.Count(s, "[secret:HARD]"); n < 30 {
					t.Errorf("%s: %d markers, want one per form: %s", what, n, s)
				}
			}
		})
	}
}

// The error a program catches keeps what it matches (the sentinels that
// decide a run's error kind) when its text held a secret.
func TestEnteredErrorsKeepTheirKind(t *testing.T) {
	r := newRunner(t, WithRegistry(leakRegistry(t)), WithConfig(enterConfig(t)))
	defer r.Close()
	res := r.Exec(context.Background(), "leak.fail()")
	if !errors.Is(res.Err, ErrExecution) || !strings.Contains(res.Text, "denied for [secret:HARD] and [secret:API_TOKEN]") {
		t.Errorf("err %v, text %s", res.Err, res.Text)
	}
	res = r.Exec(context.Background(), "try:\n    leak.fail()\nexcept ToolError as e:\n    r = str(e)\nr")
	if res.Text != "leak.fail failed: denied for [secret:HARD] and [secret:API_TOKEN]" {
		t.Errorf("caught: %s", res.Text)
	}
}

// An upstream MCP server that hands back the credential it was given (its
// Authorization header, from the environment) and names it in a tool's
// description: the program sees the marker in the result and the tool's
// doc, and isError text, never the token.
func TestUpstreamResultsEnterRedacted(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo-auth", Version: "1"}, nil)
	var seen atomic.Value
	srv.AddTool(&mcp.Tool{Name: "whoami", Description: "Answers with your header, e.g. Bearer " + envToken,
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			h, _ := seen.Load().(string)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"authorization": "` + h + `"}`}}}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "refuse", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			h, _ := seen.Load().(string)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused " + h}}}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("servers:\n  up:\n    url: "+ts.URL+"\n    headers: {Authorization: \"Bearer ${API_TOKEN}\"}\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir,
		LookupEnv: func(name string) (string, bool) { return envToken, name == "API_TOKEN" }})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg))
	defer r.Close()
	res := r.Exec(context.Background(), `
def xor(t):
    return bytes([b ^ 0x55 for b in t.encode()]).hex()
v = up.whoami()
try:
    up.refuse()
    e = "no error"
except ToolError as x:
    e = str(x)
[xor(v["authorization"]), xor(up.whoami.doc), xor(e), xor(ot.help(query="up.whoami"))]`)
	if res.IsError() {
		t.Fatal(res.Text)
	}
	var out []string
	if err := json.Unmarshal([]byte(res.Text), &out); err != nil {
		t.Fatalf("%v: %s", err, res.Text)
	}
	for i, x := range out {
		b, _ := hex.DecodeString(x)
		for j := range b {
			b[j] ^= 0x55
		}
		if held := string(b); strings.Contains(held, envToken) || !strings.Contains(held, "[secret:API_TOKEN]") {
			t.Errorf("%d: the program held %q", i, held)
		}
	}
}
