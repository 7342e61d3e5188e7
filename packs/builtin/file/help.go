package file

import (
	"context"
	"fmt"
	"strings"

	"github.com/onetool-dev/onetool/packs/roots"
)

// maxHelpRoots is the most roots the help names; a list longer still
// says how many more there are.
const maxHelpRoots = 10

// helpContext is the file pack's context in its help (packs.ContextFunc,
// issue 29): the roots of the caller's run (an MCP session's own, else
// those onetool was given), the first being where relative paths start.
func helpContext(def *roots.Roots, readOnly bool) func(ctx context.Context) string {
	return func(ctx context.Context) string {
		r := roots.FromContext(ctx, def)
		var b strings.Builder
		dirs := r.Dirs()
		if len(dirs) == 0 {
			why := r.Spec().None
			if why == "" {
				why = "no root was configured"
			}
			fmt.Fprintf(&b, "No root directory is set (%s): every path is refused; set one with --root DIR, packs.file.allowed_dirs, or your MCP client's roots.", why)
		} else {
			shown := dirs[:min(len(dirs), maxHelpRoots)]
			fmt.Fprintf(&b, "Roots: %s (relative paths start there)", shown[0])
			if len(shown) > 1 {
				fmt.Fprintf(&b, ", %s", strings.Join(shown[1:], ", "))
			}
			if more := len(dirs) - len(shown); more > 0 {
				fmt.Fprintf(&b, ", and %d more", more)
			}
			b.WriteString(".")
		}
		if readOnly {
			b.WriteString("\nRead-only (packs.file.read_only): write, edit, copy, move and delete refuse.")
		}
		return b.String()
	}
}
