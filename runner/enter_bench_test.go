package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// benchSecretsRunner is a runner whose configuration has a secret of
// secrets.yaml and one from the environment (an upstream header), as a
// deployment does: every tool result a program gets is checked for them.
func benchSecretsRunner(b *testing.B) *Runner {
	b.Helper()
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("DB_PASS: \"correct horse <battery> & staple\"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("servers:\n  gh:\n    url: https://example.invalid/mcp\n"+
		"    headers: {Authorization: \"Bearer ${GH_TOKEN}\"}\n    enabled: false\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir,
		LookupEnv: func(n string) (string, bool) { return "ghp_0123456789abcdefghijklmnopqrstuvwxyz", n == "GH_TOKEN" }})
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(WithConfig(cfg))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return r
}

// BenchmarkToolCallsWithSecrets is BenchmarkToolCalls with secrets
// configured: the cost a tool call pays for the check of its result on
// the way into the program (ns/call), for a number, a short string, a
// dict of a few fields, and a 4 KiB text.
func BenchmarkToolCallsWithSecrets(b *testing.B) {
	r := benchSecretsRunner(b)
	for _, bc := range []struct{ name, code string }{
		{"int", "t = 0\nfor i in range(1000):\n    t += demo.add(a=i, b=1)\nt"},
		{"string", "t = 0\nfor i in range(1000):\n    t += len(demo.foo(text='test'))\nt"},
		{"dict", "v = {'id': 1, 'name': 'item number one', 'tags': ['alpha', 'beta'], 'url': 'https://example.com/a?b=c'}\n" +
			"t = 0\nfor i in range(1000):\n    t += len(demo.echo(value=v))\nt"},
		{"4KiB", "v = 'Some ordinary words of a fetched page, https://example.com/a?b=c and 12345.\\n' * 52\n" +
			"t = 0\nfor i in range(1000):\n    t += len(demo.echo(value=v))\nt"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchExec(b, r, bc.code)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
		})
	}
}
