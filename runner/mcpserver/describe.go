package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/onetool-dev/onetool/runner"
)

// The run tool's description is short, because every client pays for it
// in every conversation; the details are in the instructions and in
// ot.help(). It names the roots and databases a program's open(), os,
// pathlib and sqlite3 reach, so an agent need not discover them first.
const (
	describeCall   = `Run a Python program that calls tools as pack.function(arg=value), e.g. demo.foo(text="hi"). `
	describeResult = `The result is the last expression or a top-level return, after print() output. Discover tools with ot.help().`

	// At most this many roots and databases are named; the rest are
	// counted ("+2 more"), so a long configuration cannot crowd out the
	// rest of the listing.
	describeMaxRoots     = 3
	describeMaxDatabases = 5
)

// ToolDescription is the run tool's description for the runner r.
func ToolDescription(r *runner.Runner) string {
	var dirs []string
	if rs := r.Roots(); rs != nil {
		dirs = rs.Dirs()
	}
	wd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return describeCall +
		fmt.Sprintf("Python 3 and its standard modules; open(), os, pathlib, requests and sqlite3 work within the allowed roots (%s), hosts and databases (%s). ",
			showDirs(dirs, wd, home), showNames(r.Databases(), describeMaxDatabases)) +
		describeResult
}

// showDirs names the roots briefly: the first, where relative paths
// start, as "." when it is the working directory; others under the home
// directory as "~/…".
func showDirs(dirs []string, wd, home string) string {
	shown := make([]string, 0, len(dirs))
	for i, d := range dirs {
		switch rel, err := filepath.Rel(home, d); {
		case i == 0 && wd != "" && d == wd:
			d = "."
		case home != "" && err == nil && rel == ".":
			d = "~"
		case home != "" && err == nil && filepath.IsLocal(rel):
			d = "~/" + filepath.ToSlash(rel)
		}
		shown = append(shown, d)
	}
	return showNames(shown, describeMaxRoots)
}

// showNames joins names, at most max of them, or says there are none.
func showNames(names []string, max int) string {
	if len(names) == 0 {
		return "none"
	}
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, +%d more", strings.Join(names[:max], ", "), len(names)-max)
}
