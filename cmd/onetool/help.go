package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/runner"
)

// newHelpCmd replaces cobra's help command: `onetool help run` still shows
// the help of a command, and any other NAME is answered like ot.help(NAME),
// so people at a shell see what agents see.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND | PACK | PACK.TOOL | WORDS]",
		Short: "Help on a command, a pack, a tool, or a search",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				root.InitDefaultHelpFlag()
				return root.Help()
			}
			if c, _, err := root.Find(args); err == nil && c != root {
				// The same text as `onetool CMD --help`, flags included.
				c.InitDefaultHelpFlag()
				return c.Help()
			}
			r, err := runner.New()
			if err != nil {
				return &exitError{code: exitRun, msg: err.Error()}
			}
			fmt.Fprintln(cmd.OutOrStdout(), ot.Help(r.Registry(), strings.Join(args, " ")))
			return nil
		},
	}
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "onetool %s\n", runner.Version)
		},
	}
}
