package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/file"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
)

// The file pack's variants end to end (issue 31): a module calls them
// through the runner's pyHost, in-process and from a worker of
// isolation: process. Each is counted as its public tool in stats (and
// against limits.max_io_ops, not max_tool_calls), bytes cross, a path
// outside the roots is PermissionError naming them, a policy without
// file.write refuses open(p, "w")'s operation, and a declined
// confirmation of an overwrite is PermissionError with nothing changed.
func TestPyOpsFileVariantsEndToEnd(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("keep\n"), 0o644)
	rr, err := roots.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := secretConfig(t, "security:\n  confirm_destructive: true\n")
	code := `demo_io.call('file.write@commit', path='out.txt', text='hi', first=True)
print(demo_io.call('file.read@chunk', path='out.txt')['text'])
print([e['name'] for e in demo_io.call('file.list@scan', path='.')['entries']])
try:
    demo_io.call('file.read@chunk', path='/etc/passwd')
except PermissionError as e:
    print('PermissionError', '` + dir + `' in str(e))
try:
    demo_io.call('file.write@open', path='keep.txt', mode='w')
except PermissionError as e:
    print('PermissionError', e)`
	want := "hi\n['keep.txt', 'out.txt']\nPermissionError True\n" +
		"PermissionError [Errno 13] overwrite keep.txt (5 bytes; a backup is kept): declined in the test"
	reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "file.read", "file.list", "file.info"}})
	for _, iso := range []bool{false, true} {
		name := map[bool]string{false: "in-process", true: "isolated"}[iso]
		t.Run(name, func(t *testing.T) {
			reg := packs.NewRegistry()
			if err := file.Register(reg, file.Options{Roots: rr, Backups: true}); err != nil {
				t.Fatal(err)
			}
			sink, audit := &sinkLog{}, &bytes.Buffer{}
			opts := []Option{WithRegistry(reg), WithConfig(cfg), withGlobals(ioTestGlobals()), WithStatsSink(sink), WithAudit(auth.NewAudit(audit))}
			var r *Runner
			if iso {
				r = isolated(t, Isolation{Workers: 1}, opts...)
			} else {
				r = newRunner(t, opts...)
				t.Cleanup(func() { r.Close() })
			}
			var asked []string
			decline := ConfirmWith(func(_ context.Context, c ConfirmRequest) error {
				asked = append(asked, c.Question())
				return errors.New("declined in the test")
			})
			os.Remove(filepath.Join(dir, "out.txt"))
			res := r.Exec(context.Background(), code, RunRoots(rr), decline)
			if res.Err != nil || res.Printed != want {
				t.Fatalf("printed\n%s\nwant\n%s\n(%v)", res.Printed, want, res.Err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "keep\n" {
				t.Errorf("keep.txt changed: %q", b)
			}
			if !slices.Equal(asked, []string{`In file.write(mode="w", path="keep.txt"), onetool wants to overwrite keep.txt (5 bytes; a backup is kept). Allow it?`}) {
				t.Errorf("asked %q", asked)
			}
			var ids []string
			for _, c := range sink.calls {
				ids = append(ids, c.Tool)
			}
			if !slices.Equal(ids, []string{"file.write", "file.read", "file.list", "file.read", "file.write"}) || res.ToolCalls != 0 {
				t.Errorf("stats %v, %d tool calls", ids, res.ToolCalls)
			}
			// A policy without file.write: open(p, "w") is refused by policy.
			res = r.Exec(context.Background(), "try:\n    demo_io.call('file.write@open', path='new.txt', mode='w')\nexcept PermissionError as e:\n    print(e)\nprint(demo_io.call('file.read@chunk', path='keep.txt')['text'])",
				RunRoots(rr), AsPrincipal(reader))
			if res.Err != nil || res.Printed != "[Errno 13] file.write is not allowed by policy 'reader'\nkeep\n" {
				t.Errorf("policy: %q %v", res.Printed, res.Err)
			}
			if !strings.Contains(audit.String(), `"file.write"`) {
				t.Errorf("audit: %s", audit)
			}
		})
	}
}
