package precheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/precheck"
)

// The test binary is its own worker for the runs under isolation: process.
func TestMain(m *testing.M) {
	if runner.IsWorker() {
		os.Exit(runner.WorkerMain())
	}
	os.Exit(m.Run())
}

// A program whose tool calls do not fit their tools never starts: the
// calls before the bad one, which would have written files, do not run,
// and every mistake is named at once. In process and in a worker.
func TestNoToolRunsBeforeAMistake(t *testing.T) {
	for _, isolated := range []bool{false, true} {
		name := "in process"
		if isolated {
			name = "isolation: process"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "onetool.yaml")
			if err := os.WriteFile(path, []byte("packs:\n  file:\n    read_only: false\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(path, config.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			opts := []runner.Option{runner.WithConfig(cfg), runner.WithRoots(dir)}
			if isolated {
				opts = append(opts, runner.WithIsolation(runner.Isolation{Workers: 1}))
			}
			r, err := runner.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			program := "file.write(path='first.txt', content='x')\nfor i in range(3):\n    demo.foo(txt=str(i))\nfile.write(path='second.txt', contents='y')\n"
			res := r.Exec(context.Background(), program)
			want := "Error: line 3: demo.foo: unknown parameter 'txt'. Did you mean 'text'? Signature: demo.foo(text: str) -> str\n" +
				"line 4: file.write: unknown parameter 'contents'. Did you mean 'content'?"
			if !strings.HasPrefix(res.Text, want) || !strings.HasSuffix(res.Text, "(the program did not start: its tool calls were checked first, and no tool ran)") {
				t.Errorf("got\n%s\nwant it to start with\n%s", res.Text, want)
			}
			if !errors.Is(res.Err, packs.ErrArgs) {
				t.Errorf("error %v is not packs.ErrArgs", res.Err)
			}
			var pe *precheck.Error
			if !isolated && !errors.As(res.Err, &pe) {
				t.Errorf("error %T is not a *precheck.Error", res.Err)
			}
			if _, err := os.Stat(filepath.Join(dir, "first.txt")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("first.txt was written before the mistake was found (%v)", err)
			}
			// Fixed, the same program runs.
			fixed := strings.NewReplacer("txt=", "text=", "contents=", "content=").Replace(program)
			if res := r.Exec(context.Background(), fixed); res.Err != nil {
				t.Fatalf("fixed program: %s", res.Text)
			}
			if _, err := os.Stat(filepath.Join(dir, "second.txt")); err != nil {
				t.Errorf("the fixed program did not run: %v", err)
			}
		})
	}
}
