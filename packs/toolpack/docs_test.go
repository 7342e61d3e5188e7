package toolpack

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
)

// TestDocs loads every complete toolpack shown in docs/toolpacks.md, so
// that the page cannot drift from the format.
func TestDocs(t *testing.T) {
	skipWithoutSh(t)
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "toolpacks.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(yaml|json)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	ex := testExecutors()
	ex.Go["text:Slugify"] = upper
	loaded := 0
	for i, b := range blocks {
		lang, text := b[1], b[2]
		if !strings.Contains(text, "id:") && !strings.Contains(text, `"id":`) {
			continue // a fragment, or onetool.yaml
		}
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"slugify.star": "def slugify(title):\n    pass\n",
			"uptime.sh":    "#!/bin/sh\n",
		})
		name := filepath.Join(dir, "block"+strconv.Itoa(i)+"."+lang)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tools, err := LoadFile(name, ex)
		if err != nil {
			t.Errorf("block %d:\n%s\n%v", i, text, err)
			continue
		}
		loaded += len(tools)
		for _, tool := range tools {
			if tool.ID() != "sys.now" {
				continue
			}
			got, err := packs.Call(context.Background(), tool, nil, nil)
			if err != nil {
				t.Errorf("sys.now: %v", err)
			} else if s := encode(t, got); !regexp.MustCompile(`^\{"now":"\d{4}-\d\d-\d\dT`).MatchString(s) {
				t.Errorf("sys.now = %s", s)
			}
		}
	}
	if loaded < 6 {
		t.Errorf("only %d toolpacks found in the docs", loaded)
	}
}
