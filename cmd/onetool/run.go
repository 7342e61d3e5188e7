package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
)

func newRunCmd(g *globalFlags) *cobra.Command {
	var (
		code     string
		timeout  time.Duration
		maxSteps uint64
		maxMem   string
		rootDirs rootFlags
	)
	cmd := &cobra.Command{
		Use:   "run [--root DIR]... [-e CODE | FILE | -]",
		Short: "Run a Python program and print its result",
		Long: `Run a Python program once and print what the run tool would return.

The program comes from -e, from FILE, or from standard input when FILE is -.
Exit status: 0 on success, 1 when the program fails (the error is printed
on standard output, exactly as an agent would see it), 2 on usage errors.
Files: the program reaches the directories of --root (repeatable), or else
the working directory — never / or your home directory unless named —
plus configured projects and packs.file.allowed_dirs.`,
		Example: `  onetool run -e 'demo.foo(text="hi")'
  onetool run script.py
  echo 'ot.help()' | onetool run -
  onetool run --root ~/notes -e 'file.list(".")'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := programSource(cmd, code, args)
			if err != nil {
				return err
			}
			traces, flush, err := startTracing(cmd)
			if err != nil {
				return err
			}
			defer flush()
			rootOpts, err := rootDirs.options()
			if err != nil {
				return err
			}
			r, err := g.newRunner(func(l *runner.Limits) error {
				if cmd.Flags().Changed("timeout") {
					l.Timeout = timeout
				}
				if cmd.Flags().Changed("max-steps") {
					l.MaxSteps = maxSteps
				}
				if cmd.Flags().Changed("max-memory") {
					b, err := flagByteSize(maxMem)
					if err != nil {
						return usageErrorf("--max-memory: %v", err)
					}
					l.MaxMemory = int64(b)
				}
				return nil
			}, append(rootOpts, runner.WithMaxInline(0), traces)...) // a handle would die with this process: print it all
			if err != nil {
				return err
			}
			defer r.Close()
			defer softMemoryLimit(r, 1)()
			// The program's standard error (sys.stderr, logging) goes to
			// ours, as python3 prog.py writes it; under serve it is part of
			// the one text a client reads.
			res := r.Exec(cmd.Context(), src, runner.SeparateStderr())
			if res.Stderr != "" {
				io.WriteString(cmd.ErrOrStderr(), res.Stderr)
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.Text)
			if res.IsError() {
				return &exitError{code: exitRun}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&code, "eval", "e", "", "program text to run")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "wall-clock budget of the run (default 30s)")
	cmd.Flags().Uint64Var(&maxSteps, "max-steps", 0, "Starlark step budget of the run (default 1000000000)")
	cmd.Flags().StringVar(&maxMem, "max-memory", "", "memory budget of the run, such as 64MiB (default 512MiB)")
	rootDirs.register(cmd)
	return cmd
}

// programSource reads the program from exactly one of -e, FILE or stdin.
func programSource(cmd *cobra.Command, code string, args []string) (string, error) {
	hasEval := cmd.Flags().Changed("eval")
	switch {
	case hasEval && len(args) > 0:
		return "", usageErrorf("give the program with -e or as FILE, not both")
	case hasEval:
		return code, nil
	case len(args) == 0:
		return "", usageErrorf("no program: use -e CODE, a FILE, or - to read standard input")
	case args[0] == "-":
		b, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return "", &exitError{code: exitRun, msg: fmt.Sprintf("reading standard input: %v", err)}
		}
		return string(b), nil
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return "", usageErrorf("cannot read program: %v", err)
	}
	return string(b), nil
}

// flagByteSize reads a size given on the command line. Unlike the
// configuration, where a bare number is bytes, a flag wants a unit:
// --max-memory 64 means 64 MiB to whoever typed it, and a budget of 64
// bytes stops every run at once.
func flagByteSize(s string) (config.ByteSize, error) {
	if t := strings.TrimSpace(s); t != "" && strings.Trim(t, "0123456789.") == "" {
		return 0, fmt.Errorf("%s has no unit: write %sMiB, say (units: B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)", t, t)
	}
	return config.ParseByteSize(s)
}
