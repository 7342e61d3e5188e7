package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
