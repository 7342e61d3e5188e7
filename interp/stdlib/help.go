package stdlib

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// help.txt is the modules' help, in the words of ot.help: written by
// hand, because a module's Go builtins carry no signatures, and checked
// against Modules() by TestHelpCoversModules.
//
//go:embed help.txt
var helpText string

// ModuleDoc is a module's help: a summary, a line per function or class,
// and the names of its constants.
type ModuleDoc struct {
	Name      string
	Summary   string
	Entries   []EntryDoc
	Constants []string
}

// EntryDoc is one line of a module's help: "search(pattern, string,
// flags=0) -> Match | None — The first match anywhere in string." Names
// are the members it describes; a line may cover several related ones.
type EntryDoc struct {
	Names []string
	Line  string
}

// Docs returns the help of every module, sorted by name.
func Docs() []ModuleDoc {
	docs, err := parseHelp(helpText)
	if err != nil {
		panic(err) // help.txt is part of the source; TestHelpCoversModules parses it
	}
	slices.SortFunc(docs, func(a, b ModuleDoc) int { return strings.Compare(a.Name, b.Name) })
	return docs
}

func parseHelp(text string) ([]ModuleDoc, error) {
	var docs []ModuleDoc
	for n, line := range strings.Split(text, "\n") {
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, " "):
			name, summary, ok := strings.Cut(line, " — ")
			if !ok {
				return nil, fmt.Errorf("help.txt:%d: a module line is \"name — summary\"", n+1)
			}
			docs = append(docs, ModuleDoc{Name: name, Summary: summary})
		case len(docs) == 0:
			return nil, fmt.Errorf("help.txt:%d: an entry before any module", n+1)
		default:
			d := &docs[len(docs)-1]
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "constants: "); ok {
				d.Constants = append(d.Constants, strings.Split(rest, ", ")...)
				continue
			}
			sig, _, _ := strings.Cut(line, " — ")
			var names []string
			for _, part := range strings.Split(sig, " / ") {
				name := strings.TrimSpace(part)
				if i := strings.IndexAny(name, "( "); i >= 0 {
					name = name[:i]
				}
				names = append(names, name)
			}
			d.Entries = append(d.Entries, EntryDoc{Names: names, Line: line})
		}
	}
	return docs, nil
}
