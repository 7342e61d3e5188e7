package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// docs/packs.md is generated; it must match what the binary says.
// Regenerate with: go run ./cmd/onetool packs --markdown > docs/packs.md
func TestPacksMarkdownIsCurrent(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"packs", "--markdown"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("packs --markdown exited %d: %s", code, errOut.String())
	}
	committed, err := os.ReadFile("../../docs/packs.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, out.Bytes()) {
		t.Error("docs/packs.md is stale: run `go run ./cmd/onetool packs --markdown > docs/packs.md`")
	}
}

// The onetool.yaml examples of docs/deploy.md load: an operator copies
// them as they are.
func TestDeployConfigsLoad(t *testing.T) {
	doc, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range strings.Split(string(doc), "```yaml\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if !strings.HasPrefix(block, "# onetool.yaml\n") && !strings.HasPrefix(block, "serve:\n") {
			continue // compose, Kubernetes and HAProxy files
		}
		n++
		dir := t.TempDir()
		path := filepath.Join(dir, "onetool.yaml")
		if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
			t.Fatal(err)
		}
		anyToken := func(name string) (string, bool) { return "value-of-" + name, true }
		if _, err := config.Load(path, config.LoadOptions{WorkDir: dir, HomeDir: dir, LookupEnv: anyToken}); err != nil {
			t.Errorf("docs/deploy.md example %d does not load: %v\n%s", n, err, block)
		}
	}
	if n < 2 {
		t.Errorf("found %d onetool.yaml examples in docs/deploy.md, want the compose one and the OAuth one", n)
	}
}
