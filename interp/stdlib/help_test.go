package stdlib

import (
	"os"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"go.starlark.net/starlarkstruct"
)

// Every module has help, every member of a module is on a line of it
// (a function or class) or among its constants, every name in the help
// is a member, and each line fits an overview (issue 18: about 120
// characters with the module's name before it).
func TestHelpCoversModules(t *testing.T) {
	docs, err := parseHelp(helpText)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]ModuleDoc{}
	for _, d := range docs {
		byName[d.Name] = d
	}
	mods := map[string]*starlarkstruct.Module{}
	var walk func(name string, m *starlarkstruct.Module)
	walk = func(name string, m *starlarkstruct.Module) {
		mods[name] = m
		for k, v := range m.Members {
			if sub, ok := moduleOf(v); ok {
				walk(name+"."+k, sub)
			}
		}
	}
	for name, v := range Modules() {
		m, _ := moduleOf(v)
		walk(name, m)
	}
	for name, m := range mods {
		d, ok := byName[name]
		if !ok {
			t.Errorf("module %s has no help in help.txt", name)
			continue
		}
		documented := map[string]bool{}
		for _, e := range d.Entries {
			for _, n := range e.Names {
				documented[n] = true
			}
			if n := utf8.RuneCountInString(name + "." + e.Line); n > 130 {
				t.Errorf("%s.%s: %d characters, want at most about 120", name, e.Line, n)
			}
		}
		for _, c := range d.Constants {
			documented[c] = true
		}
		var missing []string
		for k, v := range m.Members {
			if _, sub := moduleOf(v); sub {
				continue // has a help of its own
			}
			if !documented[k] && !strings.HasPrefix(k, "_toplevel") { // the runtime's hooks
				missing = append(missing, k)
			}
			delete(documented, k)
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("module %s: members without help: %s", name, strings.Join(missing, ", "))
		}
		for n := range documented {
			t.Errorf("module %s: help names %s, which is not a member", name, n)
		}
	}
	for name := range byName {
		if mods[name] == nil {
			t.Errorf("help.txt describes %s, which is not a module", name)
		}
	}
}

func TestParseHelpErrors(t *testing.T) {
	for _, text := range []string{"  entry() — before any module", "nodash summary"} {
		if _, err := parseHelp(text); err == nil {
			t.Errorf("parseHelp(%q) = nil error", text)
		}
	}
}

// docs/language.md lists every module with all its names (issue 18):
// each module's row in its table names every function, class and
// constant the help does.
func TestLanguageDocListsModules(t *testing.T) {
	data, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok {
				rows[name] = line
			}
		}
	}
	for _, d := range Docs() {
		if len(d.Entries) == 0 && len(d.Constants) == 0 {
			continue // a package of submodules (urllib)
		}
		row, ok := rows[d.Name]
		if !ok {
			t.Errorf("docs/language.md has no row for module %s", d.Name)
			continue
		}
		names := append([]string(nil), d.Constants...)
		for _, e := range d.Entries {
			names = append(names, e.Names...)
		}
		for _, n := range names {
			if !strings.Contains(row, "`"+n+"`") {
				t.Errorf("docs/language.md: the row of %s does not name %s", d.Name, n)
			}
		}
	}
}
