//go:build unix

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/config"
)

// A stdio server that writes the credential it was given (from the
// environment, through its env) to its stderr and dies: the stderr tail
// in its error, ot.servers()'s last_error and ot.health() reaches the
// program with the marker, never the token.
func TestUpstreamStderrEntersRedacted(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte(`servers:
  s:
    command: /bin/sh
    args: ["-c", "echo \"starting with key $KEY, base64 $(printf %s \"$KEY\" | base64)\" >&2; exit 3"]
    env: {KEY: "${API_TOKEN}"}
    timeout: 10s
`), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir,
		LookupEnv: func(name string) (string, bool) { return envToken, name == "API_TOKEN" }})
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, WithConfig(cfg), WithLimits(Limits{Timeout: 20 * time.Second}))
	defer r.Close()
	res := r.Exec(context.Background(), `
def xor(t):
    return bytes([b ^ 0x55 for b in t.encode()]).hex()
try:
    s.anything()
    e = "no error"
except Exception as x:
    e = str(x)
[xor(e), xor(ot.servers()[0]["last_error"]), xor(str(ot.health()))]`)
	if res.IsError() {
		t.Fatal(res.Text)
	}
	for i, held := range unxor(t, res.Text) {
		if strings.Contains(held, envToken) || strings.Contains(held, "Z2hwX2Zyb21UaGVFbnZpcm9ubWVudDAxMjM0") || !strings.Contains(held, "starting with key [secret:API_TOKEN]") {
			t.Errorf("%d: the program held %q", i, held)
		}
	}
}
