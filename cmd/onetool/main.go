// Command onetool is an MCP server with one tool, run, that executes
// Python programs calling packs of tools; the same engine serves the
// command line. See README.md and docs/ for the commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
)

func main() {
	if runner.IsWorker() { // isolation: process starts this program as its workers
		os.Exit(runner.WorkerMain())
	}
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes: 0 success, 1 a run (or check) failed, 2 the command line
// was wrong.
const (
	exitOK    = 0
	exitRun   = 1
	exitUsage = 2
)

// exitError carries an exit code out of a command, with the message
// already written (or none to write).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// Main runs the command line and returns the exit code. It is main without
// os.Exit, so tests run it in-process.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	if cmd == nil {
		cmd = root
	}
	// A usage error points at the help of the command that was used.
	usage := fmt.Sprintf("Run '%s --help' for usage.", cmd.CommandPath())
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "onetool:", ee.msg)
			if ee.code == exitUsage {
				fmt.Fprintln(stderr, usage)
			}
		}
		return ee.code
	}
	// Everything cobra itself reports (unknown command or flag, bad flag
	// value, wrong number of arguments) is a usage error.
	fmt.Fprintln(stderr, "onetool:", err)
	fmt.Fprintln(stderr, usage)
	return exitUsage
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "onetool",
		Short: "One MCP tool that runs Python programs calling packs of tools",
		Long: `onetool is an MCP server with a single tool, run, that executes a program
in a sandboxed subset of Python. The program calls packs: namespaced tool
functions such as demo.foo(text="hi") or ot.help(). The same engine runs
from the command line.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// `onetool completion bash|zsh|fish|powershell` prints a script for
	// the shell (cobra's own command, which knows every subcommand and flag).
	root.CompletionOptions.HiddenDefaultCmd = false
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	root.InitDefaultVersionFlag()
	root.Flags().Lookup("version").Usage = "print the version, commit and Go version"
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%v", err)
	})
	g := &globalFlags{}
	g.register(root)
	root.AddCommand(
		newRunCmd(g),
		newReplCmd(g),
		newServeCmd(g),
		newPacksCmd(g),
		newConfigCmd(g),
		newDoctorCmd(g),
		newBenchCmd(g),
		newVersionCmd(),
	)
	root.SetHelpCommand(newHelpCmd(root, g))
	return root
}
