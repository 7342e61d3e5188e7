package web

import (
	"fmt"
	"slices"
	"strings"
)

// maxHelpHosts is the most allowed hosts the help names.
const maxHelpHosts = 20

// helpContext is the web pack's context in its help (packs.ContextFunc,
// issue 29): the hosts it may fetch. The deny list is left out: an agent
// needs what it can reach.
func helpContext(allow []string) string {
	any := len(allow) == 0 || slices.Contains(allow, "*")
	allow = slices.DeleteFunc(slices.Clone(allow), func(h string) bool { return h == "*" })
	if len(allow) == 0 {
		return "Hosts: any public host (private and local addresses only when packs.web.allow_hosts names them)."
	}
	shown := allow[:min(len(allow), maxHelpHosts)]
	text := "Hosts: only " + strings.Join(shown, ", ")
	if any {
		text = "Hosts: any public host, and " + strings.Join(shown, ", ")
	}
	if more := len(allow) - len(shown); more > 0 {
		text += fmt.Sprintf(", and %d more", more)
	}
	return text + " (packs.web.allow_hosts)."
}
