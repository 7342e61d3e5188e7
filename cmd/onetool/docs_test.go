package main

import (
	"bytes"
	"os"
	"testing"
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
