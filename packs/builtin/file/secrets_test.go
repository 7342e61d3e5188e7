package file

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// testSecret is the secret of these tests, hidden as the runner's
// redaction hides it.
const testSecret = "sk-SuperSecretValue1234"

func hideSecret(_ context.Context, text string) (string, error) {
	return strings.ReplaceAll(text, testSecret, "[secret:API_KEY]"), nil
}

// TestSearchesSeeSecretsHidden: what file.grep, file.read and file.edit
// match, count or cut is the file's text with its secrets hidden, so no
// answer depends on a secret's characters. The red team's oracle
// (finding F3: file.grep(re.escape(known + c)) for each next character c)
// recovered API_KEY=sk-SuperSecretValue1234 in under a second; here every
// prefix of the secret finds nothing, by every option, while grep still
// finds the ordinary text around it, on the same line too.
func TestSearchesSeeSecretsHidden(t *testing.T) {
	e := newEnv(t, Options{Redact: hideSecret})
	long := strings.Repeat("x", MaxLineLen-5) + testSecret + "\n" // the cut at MaxLineLen falls inside the secret
	e.files(map[string]string{
		".envfile":   "line1\nAPI_KEY=" + testSecret + " # the key\nline3\n",
		"long.txt":   long,
		"plain.txt":  "nothing secret here\n",
		"sub/b.yaml": "key: " + testSecret + "\n",
	})
	// The oracle: each prefix of the secret, as the red team tried it.
	for i := 1; i <= len(testSecret); i++ {
		prefix := testSecret[:i]
		for _, args := range []map[string]any{
			{"pattern": regexp.QuoteMeta("API_KEY=" + prefix), "path": ".envfile"},
			{"pattern": "=" + prefix, "literal": true},
			{"pattern": "KEY: " + strings.ToUpper(prefix), "ignore_case": true, "files_only": true},
			{"pattern": "x" + regexp.QuoteMeta(prefix), "context": 2},
		} {
			if got := strs(t, e.must("grep", args)); len(got) != 0 {
				t.Fatalf("grep %v found %q: a pattern inside the secret matched", args, got)
			}
		}
	}
	// Ordinary text is found, on the secret's line too, which shows
	// the secret hidden.
	for _, tt := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"pattern": "line", "path": ".envfile"}, []string{".envfile:1: line1", ".envfile:3: line3"}},
		{map[string]any{"pattern": "the key", "path": ".envfile"}, []string{".envfile:2: API_KEY=[secret:API_KEY] # the key"}},
		{map[string]any{"pattern": "API_KEY=", "path": ".envfile", "context": 1}, []string{".envfile:1- line1", ".envfile:2: API_KEY=[secret:API_KEY] # the key", ".envfile:3- line3"}},
		{map[string]any{"pattern": "secret", "files_only": true}, []string{".envfile", "long.txt", "plain.txt", "sub/b.yaml"}}, // "[secret:API_KEY]" is what they hold
		{map[string]any{"pattern": "^key: \\[secret:API_KEY\\]$"}, []string{"sub/b.yaml:1: key: [secret:API_KEY]"}},
	} {
		if got := strs(t, e.must("grep", tt.args)); !slices.Equal(got, tt.want) {
			t.Errorf("grep %v: %q, want %q", tt.args, got, tt.want)
		}
	}
	// file.read cuts long lines in the text as the program may see it:
	// the cut does not show the secret's first characters.
	got := e.must("read", map[string]any{"path": "long.txt"}).(string)
	if strings.Contains(got, "xs") || !strings.Contains(got, "x[secr") {
		t.Errorf("read of a cut line: …%q", got[max(0, len(got)-80):])
	}
	// file.edit would tell by finding 'old' or not: a file holding a
	// secret is refused alike, whatever 'old' is, dry run or not.
	for _, args := range []map[string]any{
		{"path": ".envfile", "old": "sk-S", "new": "x", "dry_run": true},
		{"path": ".envfile", "old": "zz-Q", "new": "x", "dry_run": true},
		{"path": ".envfile", "old": "line1", "new": "x"},
		{"path": ".envfile", "old": "API_KEY=" + testSecret, "new": "x", "replace_all": true},
	} {
		e.fails("edit", args, ".envfile holds the value of a configured secret", "file.write")
	}
	if got := e.read(".envfile"); !strings.Contains(got, testSecret) {
		t.Errorf("the file changed: %q", got)
	}
	// A file without secrets is edited as before.
	e.must("edit", map[string]any{"path": "plain.txt", "old": "nothing", "new": "something"})
}

// BenchmarkGrepSecrets measures grep over 4 MB of source-like text
// without secrets configured and with the runner's redaction of two
// secrets (what each searched file now costs first).
func BenchmarkGrepSecrets(b *testing.B) {
	dir := b.TempDir()
	cfgFile := filepath.Join(dir, "onetool.yaml")
	if err := os.WriteFile(cfgFile, []byte("{}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("API_KEY: "+testSecret+"\nDB_PASS: correct-horse-battery\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(cfgFile, config.LoadOptions{WorkDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	var line strings.Builder
	for i := range 64 << 10 {
		fmt.Fprintf(&line, "\tif err := call%d(ctx, \"value\", 0x%x); err != nil { return err }\n", i, i*7919)
	}
	for _, tt := range []struct {
		name   string
		redact func(context.Context, string) (string, error)
	}{{"no secrets", nil}, {"secrets", cfg.Secrets.RedactContext}} {
		b.Run(tt.name, func(b *testing.B) {
			t := &testing.T{}
			e := newEnv(t, Options{Redact: tt.redact})
			e.t = t
			e.files(map[string]string{"src/big.go": line.String()})
			b.SetBytes(int64(line.Len()))
			for b.Loop() {
				if _, err := e.call("grep", map[string]any{"pattern": "call65000\\(", "path": "src"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
