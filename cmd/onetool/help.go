package main

import (
	"fmt"
	"github.com/onetool-dev/onetool/internal/suggest"
	"runtime"
	"runtime/debug"
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
			if !res.IsError() && strings.HasPrefix(res.Text, "Nothing matches ") {
				// Neither a command nor anything of the packs: name the
				// commands and packs, not program calls.
				var packNames []string
				for _, p := range r.Registry().Packs() {
					packNames = append(packNames, p.Name)
				}
				return usageErrorf("%s", unknownHelpTopic(root, query, packNames))
			}
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
			fmt.Fprintln(cmd.OutOrStdout(), versionLine())
		},
	}
}

// versionLine is what `onetool version` and `onetool --version` print:
// the version, the commit it was built from (with "+dirty" when the tree
// had changes) and the Go that built it, from the binary's build info.
func versionLine() string {
	commit, goVersion := "unknown", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			commit = rev[:min(len(rev), 12)]
			if modified == "true" {
				commit += "+dirty"
			}
		}
	}
	return fmt.Sprintf("onetool %s (commit %s, %s)", runner.Version, commit, goVersion)
}

// starlarkString quotes s as a Starlark string literal.
func starlarkString(s string) string {
	return strconv.Quote(s)
}

// unknownHelpTopic is the message for `onetool help X` when X is no
// command, pack, tool or module: the commands and packs, and the closest
// command.
func unknownHelpTopic(root *cobra.Command, topic string, packNames []string) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("nothing named %q: it is no command (%s), pack (%s), tool or module",
		topic, strings.Join(names, ", "), strings.Join(packNames, ", "))
	if s := suggest.Closest(topic, names); s != "" {
		msg += fmt.Sprintf("; did you mean 'onetool help %s'?", s)
	}
	return msg
}
