package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/runner/ttyconfirm"
)

func newRunCmd(g *globalFlags) *cobra.Command {
	var (
		code     string
		timeout  time.Duration
		maxSteps uint64
		maxMem   string
		jsonOut  bool
		rootDirs rootFlags
	)
	cmd := &cobra.Command{
		Use:   "run [flags] (-e CODE | FILE | -) [ARG]...",
		Short: "Run a Python program and print its result",
		Long: `Run a Python program once and print what the run tool would return.

The program comes from -e, from FILE, or from standard input when FILE is -.
The ARGs that follow reach the program in sys.argv, as python3 gives them:
[FILE, ARG...], ['-', ARG...], or ['-e', ARG...]. Everything after FILE
(or -) is the program's, flags included; use -- before a FILE that starts
with a dash, or to pass flags after -e CODE.
Exit status: 0 on success, 1 when the program fails (the error is printed
on standard output, exactly as an agent would see it), 2 on usage errors.
--json prints one JSON object instead (docs/cli.md says what
is in it), with the same exit status.
Files: the program reaches the directories of --root (repeatable), or else
the working directory — never / or your home directory unless named —
plus configured projects and packs.file.allowed_dirs.
With security.confirm_destructive on, a destructive call asks y/N on the
terminal when there is one, and is refused when there is none.`,
		Example: `  onetool run -e 'demo.foo(text="hi")'
  onetool run script.py input.csv --verbose
  echo 'ot.help()' | onetool run -
  onetool run --json -e 'file.list(".")'
  onetool run --root ~/notes -e 'file.list(".")'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, argv, err := programSource(cmd, code, args)
			if err != nil {
				return err
			}
			report := printText
			if jsonOut {
				report = printJSON
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
			cfg, err := g.loadConfig()
			if err != nil {
				return report(cmd, nil, err)
			}
			opts := append(rootOpts, traces)
			if !jsonOut || store.IsMemory(cfg.Store) {
				// A handle would die with this process: print it all. With
				// a shared store (store: redis://…) it outlives the process,
				// and --json gives it.
				opts = append(opts, runner.WithMaxInline(0))
			}
			r, err := g.newRunnerFrom(cfg, func(l *runner.Limits) error {
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
			}, opts...)
			if err != nil {
				return report(cmd, nil, err)
			}
			defer r.Close()
			defer softMemoryLimit(r, 1)()
			// The program's standard error (sys.stderr, logging) goes to
			// ours, as python3 prog.py writes it; under serve it is part of
			// the one text a client reads.
			// sys.orig_argv is the command line that ran it, as python3's
			// is, from the program on (the flags before it are onetool's).
			orig := append([]string{"onetool", "run"}, args...)
			if argv[0] == "-e" {
				orig = append([]string{"onetool", "run", "-e", code}, args...)
			}
			execOpts := append([]runner.ExecOption{runner.SeparateStderr(), runner.ProgramArgs(argv, orig)},
				confirmAtTerminal(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())...)
			return report(cmd, r.Exec(cmd.Context(), src, execOpts...), nil)
		},
	}
	// Flags end at FILE (or -): what follows is the program's, as for
	// python3 FILE ARG...
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().StringVarP(&code, "eval", "e", "", "program text to run")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print one JSON object: text, printed, stderr, value, error (kind, line, message), handle")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "wall-clock budget of the run (default 30s)")
	cmd.Flags().Uint64Var(&maxSteps, "max-steps", 0, "Starlark step budget of the run (default 1000000000)")
	cmd.Flags().StringVar(&maxMem, "max-memory", "", "memory budget of the run, such as 64MiB (default 512MiB)")
	rootDirs.register(cmd)
	return cmd
}

// confirmAtTerminal lets a destructive call (security.confirm_destructive)
// ask y/N on the terminal when the command runs at one: one of its
// streams (the command's, not the process's: Main in a test has buffers)
// is a terminal. The question goes to /dev/tty, so that it works when the
// program came on standard input or the output is redirected. Without a
// terminal (pipes, cron, CI) it adds nothing, and such calls are refused
// as before.
func confirmAtTerminal(streams ...any) []runner.ExecOption {
	for _, s := range streams {
		if f, ok := s.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			return []runner.ExecOption{runner.ConfirmWith(ttyconfirm.New(ttyconfirm.DevTTY))}
		}
	}
	return nil
}

// printText prints a result as the run tool returns it: the text on
// standard output, the program's standard error on ours.
func printText(cmd *cobra.Command, res *runner.ExecResult, err error) error {
	if err != nil {
		return err
	}
	if res.Stderr != "" {
		io.WriteString(cmd.ErrOrStderr(), res.Stderr)
	}
	fmt.Fprintln(cmd.OutOrStdout(), res.Text)
	if res.IsError() {
		return &exitError{code: exitRun}
	}
	return nil
}

// runJSON is what `onetool run --json` prints: one object, whatever
// happened (docs/cli.md#onetool-run---json). Every field is
// always there.
type runJSON struct {
	OK bool `json:"ok"`
	// Text is what the run tool returns (and onetool run prints).
	Text string `json:"text"`
	// Printed is what the program printed (lines joined by "\n", without
	// the last newline, as Text shows it), Stderr what it wrote to its
	// standard error, as written.
	Printed string `json:"printed"`
	Stderr  string `json:"stderr"`
	// Value is the program's value as JSON; null with HasValue false when
	// there is none (a value of None is null with HasValue true).
	Value    json.RawMessage `json:"value"`
	HasValue bool            `json:"has_value"`
	Error    *runJSONError   `json:"error"`
	// Handle names the whole result in a shared store when Text is a
	// preview of it; null otherwise.
	Handle     *string `json:"handle"`
	ToolCalls  int     `json:"tool_calls"`
	DurationMS int64   `json:"duration_ms"`
}

type runJSONError struct {
	// Kind is one of syntax, undefined, runtime, limit, cancelled,
	// internal (interp.ErrorKind), worker, input, or config when the run
	// could not start.
	Kind    string `json:"kind"`
	Line    *int   `json:"line"` // in the program; null when none
	Message string `json:"message"`
}

// printJSON prints res (or err, when the run could not start) as one
// JSON object. Usage errors are not runs: they keep their message on
// standard error and exit 2.
func printJSON(cmd *cobra.Command, res *runner.ExecResult, err error) error {
	var out runJSON
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.code == exitUsage {
			return err
		}
		out.Error = &runJSONError{Kind: "config", Message: err.Error()}
		out.Text = "Error: " + err.Error()
	} else {
		out = runJSON{OK: !res.IsError(), Text: res.Text, Printed: res.Printed, Stderr: res.Stderr, HasValue: res.HasValue,
			ToolCalls: res.ToolCalls, DurationMS: res.Duration.Milliseconds()}
		if res.Handle != "" {
			out.Handle = &res.Handle
		}
		if res.HasValue && !res.IsError() {
			if b, err := ordered.Encode(res.Value); err == nil {
				out.Value = b
			}
		}
		if res.IsError() {
			out.Error = &runJSONError{Kind: res.ErrorKind(), Message: res.Err.Error()}
			var ie *interp.Error
			if errors.As(res.Err, &ie) && ie.Line > 0 {
				out.Error.Line = &ie.Line
			}
		}
	}
	if out.Value == nil {
		out.Value = json.RawMessage("null")
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return &exitError{code: exitRun, msg: fmt.Sprintf("writing the result: %v", err)}
	}
	if !out.OK {
		return &exitError{code: exitRun}
	}
	return nil
}

// programSource reads the program from exactly one of -e, FILE or stdin,
// and gives its sys.argv: what python3 gives for -c CODE, FILE and -.
func programSource(cmd *cobra.Command, code string, args []string) (src string, argv []string, err error) {
	if cmd.Flags().Changed("eval") {
		return code, append([]string{"-e"}, args...), nil
	}
	switch {
	case len(args) == 0:
		return "", nil, usageErrorf("no program: use -e CODE, a FILE, or - to read standard input")
	case args[0] == "-":
		b, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return "", nil, &exitError{code: exitRun, msg: fmt.Sprintf("reading standard input: %v", err)}
		}
		return string(b), args, nil
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return "", nil, usageErrorf("cannot read program: %v", err)
	}
	return string(b), args, nil
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
