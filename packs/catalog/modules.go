package catalog

import (
	"fmt"
	"strings"

	"github.com/onetool-dev/onetool/packs"
)

// Module is what help shows of a Python module programs may import.
type Module struct {
	Name    string
	Summary string
	// Entries are the module's functions and classes, one line each:
	// "search(pattern, string, flags=0) -> Match | None — The first match…".
	// A line may describe several related members ("sin(x) / cos(x)").
	Entries []ModuleEntry
	// Constants are the names of the module's other members.
	Constants []string
}

// ModuleEntry is one line of a module's help and the members it covers.
type ModuleEntry struct {
	Names []string
	Line  string
}

// ModuleHelp is ot.help(query="module"): a stub line per function or
// class, as a pack's help has, then the module's constants.
func ModuleHelp(m Module) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s (Python's module: import %s, or use %s.… directly)\n", m.Name, m.Summary, m.Name, m.Name)
	for _, e := range m.Entries {
		b.WriteString("\n")
		b.WriteString(ModuleLine(e.Line, Width))
	}
	if len(m.Constants) > 0 {
		fmt.Fprintf(&b, "\nconstants: %s", strings.Join(m.Constants, ", "))
	}
	return b.String()
}

// ModuleLine turns a module entry's "sig — Text." into a stub line,
// "sig  # Text", the text (written short already) cut to fit width.
func ModuleLine(line string, width int) string {
	sig, sentence, ok := strings.Cut(line, " — ")
	if !ok {
		return line
	}
	sentence = strings.TrimSuffix(strings.Join(strings.Fields(sentence), " "), ".")
	if sentence == "" {
		return sig
	}
	room := max(width-len([]rune(sig))-4, minComment/2)
	return sig + "  # " + strings.TrimSuffix(packs.Clip(sentence, room), ".")
}
