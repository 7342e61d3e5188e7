package runner

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/quiet"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/runner/config"
)

const secretValue = "sk-live-0123456789abcdef"

// secretConfig loads an onetool.yaml with secrets.yaml beside it; extra
// is appended to the file.
func secretConfig(t *testing.T, extra string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("API_TOKEN: "+secretValue+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"+extra), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// SPEC §8.3, path by path: a secret's value that reaches a tool result,
// printed text, an error or the value handed to Go callers comes out as
// [secret:NAME]. The program builds the value from pieces, as a tool that
// echoes its environment would return it.
func TestSecretsRedactedFromEveryOutput(t *testing.T) {
	r := newRunner(t, WithConfig(secretConfig(t, "")))
	build := `tok = "sk-live-" + "0123456789abcdef"` + "\n"
	for _, tt := range []struct {
		name, code string
		isError    bool
	}{
		{"tool result", build + `demo.echo(value={"auth": "Bearer " + tok, tok: [tok]})`, false},
		{"printed text", build + `print("using", tok)`, false},
		{"printed then value", build + `print(tok)` + "\n" + `tok`, false},
		{"error from fail", build + `fail("bad token " + tok)`, true},
		{"tool failure", build + `demo.fail(message="denied for " + tok)`, true},
		{"runtime error", build + `{"a": 1}[tok]`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Exec(context.Background(), tt.code)
			if res.IsError() != tt.isError {
				t.Fatalf("isError = %v: %s", res.IsError(), res.Text)
			}
			value, _ := json.Marshal(res.Value)
			for what, s := range map[string]string{"text": res.Text, "printed": res.Printed, "value": string(value)} {
				if strings.Contains(s, secretValue) || strings.Contains(s, "0123456789abcdef") {
					t.Errorf("%s leaks the secret: %s", what, s)
				}
			}
			if !strings.Contains(res.Text, "[secret:API_TOKEN]") {
				t.Errorf("text has no marker: %s", res.Text)
			}
			if res.Err != nil && strings.Contains(res.Err.Error(), secretValue) {
				t.Errorf("Err leaks the secret: %v", res.Err)
			}
		})
	}
	// The error keeps its causes for errors.Is and errors.As.
	res := r.Exec(context.Background(), build+`demo.fail(message="denied for " + tok)`)
	var ie *interp.Error
	if !errors.As(res.Err, &ie) || ie.Line != 2 || ie.Kind != interp.KindRuntime {
		t.Errorf("redacted error lost its causes: %#v", res.Err)
	}
}

// syncBuffer is a bytes.Buffer safe for the logger's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A log line that would carry a secret (here: an upstream server that
// cannot start, logged with its command line) shows the marker instead,
// whatever handler the embedding program gave the runner.
func TestSecretsRedactedFromLogs(t *testing.T) {
	cfg := secretConfig(t, "servers:\n  broken:\n    command: /nonexistent/onetool-test-server\n    args: [\"--token\", \"${API_TOKEN}\"]\n")
	var buf syncBuffer
	r := newRunner(t, WithConfig(cfg), WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	defer r.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), "failed to connect") {
		if time.Now().After(deadline) {
			t.Fatalf("no log line about the server; log:\n%s", buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	log := buf.String()
	if strings.Contains(log, secretValue) || !strings.Contains(log, "[secret:API_TOKEN]") {
		t.Errorf("log:\n%s", log)
	}
}

// hardSecret has a character of each kind that some format escapes:
// quotes, a backslash, <>&, a slash, spaces and non-ASCII text.
const hardSecret = `p"a\ss <wörd> & /x'`

// hardSecretConfig loads a configuration whose secrets.yaml holds
// hardSecret as HARD; extra is appended to onetool.yaml.
func hardSecretConfig(t *testing.T, extra string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	yamlValue, _ := json.Marshal(hardSecret) // a JSON string is a YAML double-quoted scalar
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("HARD: "+string(yamlValue)+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"+strings.ReplaceAll(extra, "$DIR", dir)), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg.Secrets.Lookup("HARD"); v != hardSecret {
		t.Fatalf("HARD = %q", v)
	}
	return cfg
}

// leaks lists the forms of hardSecret found in s: as it is, escaped in
// each way a format escapes it, or a telling piece of those.
func leaks(s string) []string {
	var found []string
	for _, form := range []string{
		hardSecret, "wörd", `w\u00f6rd`, "w%C3%B6rd", "w&ouml;rd", `a\\ss`, `p\"a`, "&lt;w", `\u003cw`,
		"dr\xb6\xc3w", "dröw", base64.StdEncoding.EncodeToString([]byte(hardSecret))[4:16],
	} {
		if strings.Contains(s, form) {
			found = append(found, form)
		}
	}
	return found
}

// SPEC §8.3, form by form: a secret reaches the user as [secret:HARD]
// however the run's result, printed text or error carries it. Values are
// redacted before they are formatted, so each format's quoting then
// writes the marker.
func TestSecretRedactedInEveryForm(t *testing.T) {
	cfg := hardSecretConfig(t, "projects:\n  p: $DIR\n")
	build := `s = "p\"a\\ss <w" + "örd> & /x'"` + "\n"
	basic := base64.StdEncoding.EncodeToString([]byte("user:" + hardSecret))
	for _, tt := range []struct {
		name, code string
		want       string // the text, or with isError its "Error: …" line
		isError    bool
	}{
		{"raw", build + `s`, `[secret:HARD]`, false},
		{"JSON-escaped in a list result", build + `[s, {"k": s, s: (s, 1)}, set([s]), struct(token = s)]`,
			`["[secret:HARD]",{"k":"[secret:HARD]","[secret:HARD]":["[secret:HARD]",1]},["[secret:HARD]"],{"token":"[secret:HARD]"}]`, false},
		{"JSON from a tool", build + `demo.echo(value = {"auth": "Bearer " + s})`, `{"auth":"Bearer [secret:HARD]"}`, false},
		{"json.encode in the program", build + `json.encode({"k": s})`, `{"k":"[secret:HARD]"}`, false},
		{"JSON inside JSON", build + `json.encode([json.encode([s])])`, `["[\"[secret:HARD]\"]"]`, false},
		{"YAML", build + "__format__ = 'yaml'\n{'k': s}", `k: '[secret:HARD]'`, false}, // isolated: the secret was plain, so is the marker
		{"repr", build + "__format__ = 'raw'\n[s]", `['[secret:HARD]']`, false},
		{"HTML-escaped", build + `s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")`,
			`[secret:HARD]`, false},
		{"reversed bytes", build + `s[::-1]`, `[secret:HARD]`, false},
		{"reversed characters", build + `"".join(reversed(s.codepoints()))`, `[secret:HARD]`, false},
		{"base64", build + `"Authorization: Basic ` + basic + `"`, "", false},
		{"a path", build + `[proj.p / s]`, "", false},
		{"printed JSON", build + `print(json.encode([s]))`, `["[secret:HARD]"]`, false},
		{"error with JSON", build + `fail(json.encode({"k": s}))`, `Error: line 2: fail: {"k":"[secret:HARD]"}`, true},
		{"error with repr", build + `{"a": 1}[s]`, `Error: line 2: KeyError: '[secret:HARD]'`, true},
	} {
		for _, mode := range []string{"in-process", "isolated"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				r := newRunner(t, WithConfig(cfg))
				if mode == "isolated" {
					r = isolated(t, Isolation{Workers: 1, MaxWorkers: 1}, WithConfig(cfg))
				}
				res := r.Exec(context.Background(), tt.code)
				if res.IsError() != tt.isError {
					t.Fatalf("isError = %v: %s", res.IsError(), res.Text)
				}
				value, _ := json.Marshal(res.Value)
				for what, s := range map[string]string{"text": res.Text, "printed": res.Printed, "value": string(value)} {
					if l := leaks(s); l != nil {
						t.Errorf("%s leaks %q: %s", what, l, s)
					}
				}
				if res.Err != nil && leaks(res.Err.Error()) != nil {
					t.Errorf("Err leaks: %v", res.Err)
				}
				if !strings.Contains(res.Text, "[secret:HARD]") {
					t.Errorf("text has no marker: %s", res.Text)
				}
				if tt.want != "" && res.Text != tt.want && !(mode == "isolated" && tt.name == "YAML") {
					t.Errorf("text = %s\nwant   %s", res.Text, tt.want)
				}
			})
		}
	}
}

// A secret in an upstream server's URL comes back percent-encoded in the
// connection error (Go's HTTP client escapes the path): the server list
// and a call to the server's tools show the marker instead.
func TestSecretRedactedInUpstreamURLError(t *testing.T) {
	cfg := hardSecretConfig(t, "servers:\n  up:\n    url: \"http://127.0.0.1:1/mcp/${HARD}\"\n")
	r := newRunner(t, WithConfig(cfg))
	defer r.Close()
	deadline := time.Now().Add(10 * time.Second)
	var servers *ExecResult
	for {
		servers = r.Exec(context.Background(), `[s["last_error"] for s in ot.servers()]`)
		if strings.Contains(servers.Text, "connection refused") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	call := r.Exec(context.Background(), `up.anything()`)
	for _, res := range []*ExecResult{servers, call} {
		if !strings.Contains(res.Text, `/mcp/[secret:HARD]`) || leaks(res.Text) != nil || strings.Contains(res.Text, "%22") {
			t.Errorf("text: %s", res.Text)
		}
	}
}

// A value nested deeper than any format takes is left to redaction of the
// text, which hides the secret all the same.
func TestSecretRedactionOfDeepValues(t *testing.T) {
	r := newRunner(t, WithConfig(hardSecretConfig(t, "")), WithLimits(Limits{Timeout: 20 * time.Second}))
	build := `s = "p\"a\\ss <w" + "örd> & /x'"` + "\n"
	for _, code := range []string{
		build + "a = [s]\nfor i in range(1100):\n    a = [a]\na",
	} {
		start := time.Now()
		res := r.Exec(context.Background(), code)
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("took %v", d)
		}
		if l := leaks(res.Text); l != nil {
			t.Errorf("text leaks %q: %.200s", l, res.Text)
		}
	}
}

// What a run reports while it goes on (the MCP server turns it into
// progress notifications) is redacted too: a plan step's ID, which the
// program chooses, and a tool's error.
func TestSecretRedactedFromRunReports(t *testing.T) {
	r := newRunner(t, WithConfig(hardSecretConfig(t, "")))
	var mu sync.Mutex
	var reports []string
	report := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, s)
	}
	code := `s = "p\"a\\ss <w" + "örd> & /x'"` + "\n" +
		`r = plan([{"id": json.encode([s]), "tool": "demo.fail", "args": {"message": json.encode({"k": s})}}])` + "\n" +
		`r["steps"][0]["status"]`
	res := r.Exec(context.Background(), code,
		OnPlanStep(func(p PlanStep) { report("step " + p.ID) }),
		OnToolCall(func(c ToolCall) {
			if c.Err != nil {
				report("call " + c.Err.Error())
			}
		}))
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 2 {
		t.Fatalf("reports %q (run: %s)", reports, res.Text)
	}
	for _, s := range reports {
		if leaks(s) != nil || !strings.Contains(s, "[secret:HARD]") {
			t.Errorf("report %q", s)
		}
	}
}

// Redaction on the way out is bounded too (red-team finding F2): a result
// of hundreds of megabytes that looks like base64, hex or
// percent-encoding, everything a decoder must try, is searched a window
// at a time by the run's deadline (or a short grace after it), with the
// memory of a window; it is answered in time, the secret hidden wherever
// it lies, or withheld with a timeout that says why. Before, the server
// answered 8 to 17 s past the deadline at 2.3 GB, or died of 5.8 GB.
func TestLargeResultsRedactedInTime(t *testing.T) {
	// No result store: a large result it kept would be live heap after the
	// answer, which the quiet check below would take for work left running.
	r := newRunner(t, WithConfig(secretConfig(t, "")), WithLimits(Limits{Timeout: 3 * time.Second, MaxMemory: 512 << 20}), WithMaxInline(0))
	for _, code := range []string{
		`'QUJD' * (5 * 10**7) + "sk-live-" + "0123456789abcdef"`,
		`'6162' * (5 * 10**7)`,
		`'%61%62' * (3 * 10**7)`,
	} {
		t.Run(code[:8], func(t *testing.T) {
			base := quiet.Self(t)
			start := time.Now()
			res := r.Exec(context.Background(), code)
			took := time.Since(start)
			if took > 3*time.Second+redactGrace+time.Second {
				t.Errorf("answered after %v", took)
			}
			if strings.Contains(res.Text, secretValue) {
				t.Error("the secret left in the result")
			}
			if res.Err != nil && !errors.Is(res.Err, interp.ErrTimeout) {
				t.Errorf("failed otherwise: %.200s", res.Text)
			}
			t.Logf("%v, %d bytes, err %v", took, len(res.Text), res.Err)
			res = nil
			quiet.Wait(t, base, time.Second)
		})
	}
}
