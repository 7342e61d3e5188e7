package redaction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// fragmentSecrets loads secrets.yaml with API_KEY (23 bytes) and SHORT
// (4 bytes), and ENV_TOKEN from the environment in a header.
func fragmentSecrets(t testing.TB) *config.Secrets {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("API_KEY: sk-SuperSecretValue1234\nSHORT: abcd\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("servers:\n  s:\n    url: https://example.invalid/mcp\n    headers: {Authorization: \"Bearer ${ENV_TOKEN}\"}\n    enabled: false\n"), 0o644)
	env := map[string]string{"ENV_TOKEN": "hdrTokenSecret88"}
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Secrets
}

// TestFragmentsHidden: what SQL makes of a stored secret — a piece of
// MinFragment bytes or more, its upper or lower case, the pieces between
// inserted characters — is hidden; shorter pieces and ordinary text are
// not (the limit docs/security.md states).
func TestFragmentsHidden(t *testing.T) {
	f := NewFragments(fragmentSecrets(t))
	tests := []struct{ in, want string }{
		{"sk-SuperSecretValue1234", "[secret:API_KEY]"},
		{"sk-supersecretvalue1234", "[secret:API_KEY]"},                            // lower()
		{"SK-SUPERSECRETVALUE1234", "[secret:API_KEY]"},                            // upper()
		{"sk-SuperSe|cretValue1234", "[secret:API_KEY]|[secret:API_KEY]"},          // substr(v,1,10), substr(v,11)
		{"x sk-SuperS y", "x [secret:API_KEY] y"},                                  // 8 bytes
		{"sk-Super", "[secret:API_KEY]"},                                           // the first 8
		{"alue1234", "[secret:API_KEY]"},                                           // the last 8
		{"sk-Supe", "sk-Supe"},                                                     // 7: not hidden (the limit)
		{"sk-S uperS ecretValue1234", "sk-S uperS [secret:API_KEY]"},               // replace(v,'S','S '): the long run only
		{"ABCD and abcd", "[secret:SHORT] and [secret:SHORT]"},                     // a short secret, whole, any case
		{"Bearer HDRTOKENSECRET88", "Bearer [secret:ENV_TOKEN]"},                   // from the environment
		{"the quick brown fox jumps over it", "the quick brown fox jumps over it"}, // ordinary text
		{"", ""},
		{"[secret:API_KEY]", "[secret:API_KEY]"},
	}
	for _, tt := range tests {
		if got := f.Hide(tt.in); got != tt.want {
			t.Errorf("Hide(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Every window of MinFragment bytes of the secret, in any case, alone
	// and inside text.
	const v = "sk-SuperSecretValue1234"
	for i := 0; i+MinFragment <= len(v); i++ {
		for _, piece := range []string{v[i : i+MinFragment], strings.ToUpper(v[i : i+MinFragment])} {
			if got := f.Hide("<" + piece + ">"); got != "<[secret:API_KEY]>" {
				t.Errorf("Hide(%q) = %q", piece, got)
			}
		}
	}
	if NewFragments(nil) != nil || NewFragments(nil).Hide("sk-SuperSecretValue1234") != "sk-SuperSecretValue1234" {
		t.Error("no secrets: nothing hidden")
	}
}

// BenchmarkFragments: a pass over text without secrets, as most db
// results are, next to Redact's pass over the same text (which every
// tool result pays at the boundary).
func BenchmarkFragments(b *testing.B) {
	s := fragmentSecrets(b)
	f := NewFragments(s)
	text := strings.Repeat("Ada Lovelace, ada@example.com, 2024-01-02, note: first order shipped; ", 1<<14)
	b.Run("Fragments", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if f.Hide(text) != text {
				b.Fatal("changed")
			}
		}
	})
	b.Run("Redact", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if s.Redact(text) != text {
				b.Fatal("changed")
			}
		}
	})
}
