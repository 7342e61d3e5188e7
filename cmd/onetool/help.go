package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
)

// newHelpCmd replaces cobra's help command: `onetool help run` still shows
// the help of a command, and any other NAME is answered like ot.help(NAME),
// so people at a shell see what agents see.
func newHelpCmd(root *cobra.Command, g *globalFlags) *cobra.Command {
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
			r, err := g.newRunner(nil)
			if err != nil {
				return err
			}
			defer r.Close()
			// Ask the ot pack itself, so aliases and snippets are known.
			query := strings.Join(args, " ")
			res := r.Exec(cmd.Context(), fmt.Sprintf("ot.help(query=%s)", starlarkString(query)))
			fmt.Fprintln(cmd.OutOrStdout(), res.Text)
			if res.IsError() {
				return &exitError{code: exitRun}
			}
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

// starlarkString quotes s as a Starlark string literal.
func starlarkString(s string) string {
	return strconv.Quote(s)
}
