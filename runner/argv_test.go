package runner

import (
	"context"
	"testing"
)

// ProgramArgs is the run's sys.argv (onetool run FILE ARG…), in process
// and in a worker; the next run without it, and every other
// run at the same time, sees ['<string>'] as before.
func TestProgramArgs(t *testing.T) {
	const code = "import sys\nfrom sys import argv\n[sys.argv, argv[1:], sys.orig_argv]"
	const want = `[["prog.py","a","--flag"],["a","--flag"],["onetool","run","prog.py","a","--flag"]]`
	args := ProgramArgs([]string{"prog.py", "a", "--flag"}, []string{"onetool", "run", "prog.py", "a", "--flag"})
	ctx := context.Background()
	for name, r := range map[string]*Runner{
		"in-process": newRunner(t),
		"worker":     isolated(t, Isolation{Workers: 1}),
	} {
		if res := r.Exec(ctx, code, args); res.IsError() || res.Text != want {
			t.Errorf("%s: %q (%v), want %s", name, res.Text, res.Err, want)
		}
		if res := r.Exec(ctx, "import sys\nsys.argv"); res.Text != `["<string>"]` {
			t.Errorf("%s: a run without ProgramArgs sees %q, want [\"<string>\"]", name, res.Text)
		}
	}
}
