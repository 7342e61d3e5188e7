package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// With a shared store (store: redis://…), run --json keeps a result longer
// than output.max_inline under a handle, as the server does: the text is
// the preview, the value still the whole, and a later onetool run (or any
// server sharing the store) pages through it with ot.result. Without
// --json, or with the memory store, where a handle would die with the
// process, the whole text is printed and the handle is null.
func TestRunJSONHandleInSharedStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server")
	}
	redis := storetest.StartRedis(t)
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared.yaml")
	if err := writeFile(shared, "store: redis://"+redis.Addr+"/0\noutput:\n  max_inline: 200\n"); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, "local.yaml")
	if err := writeFile(local, "output:\n  max_inline: 200\n"); err != nil {
		t.Fatal(err)
	}
	const program = `"\n".join([("line %d " % i) + "x" * 20 for i in range(50)])`
	run := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := Main(append([]string{"run"}, args...), strings.NewReader(""), &out, &errOut)
		if errOut.Len() > 0 {
			t.Errorf("onetool run %v wrote to stderr: %s", args, errOut.String())
		}
		return code, out.String()
	}
	decode := func(out string) runJSON {
		var res runJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("not one JSON object: %v\n%s", err, out)
		}
		return res
	}

	code, out := run("--json", "--config", shared, "-e", program)
	res := decode(out)
	if code != 0 || !res.OK || res.Handle == nil || *res.Handle == "" {
		t.Fatalf("exit %d, handle %v: %s", code, res.Handle, out)
	}
	if !strings.Contains(res.Text, "ot.result(handle=") || len(res.Text) > 2000 {
		t.Errorf("text is not the preview of a kept result: %q", res.Text)
	}
	var whole string
	if err := json.Unmarshal(res.Value, &whole); err != nil || strings.Count(whole, "\n") != 49 {
		t.Errorf("value is not the whole result: %v, %q", err, whole)
	}
	code, page := run("--config", shared, "-e", `ot.result(handle="`+*res.Handle+`", search="line 49 ")`)
	if code != 0 || !strings.Contains(page, "line 49 xxxx") {
		t.Errorf("a later run reading the handle: exit %d: %s", code, page)
	}

	for _, args := range [][]string{{"--config", shared, "-e", program}, {"--json", "--config", local, "-e", program}} {
		code, out := run(args...)
		if code != 0 || strings.Contains(out, "ot.result(handle=") || !strings.Contains(out, "line 49 ") {
			t.Errorf("onetool run %v: exit %d, not the whole text: %s", args, code, out)
		}
		if args[0] == "--json" {
			if res := decode(out); res.Handle != nil {
				t.Errorf("handle %q with the memory store", *res.Handle)
			}
		}
	}
}
