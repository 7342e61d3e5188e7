package file

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globPattern is a checked glob, matched with doublestar: `*`, `?` and
// classes (`[abc]`, `[a-z]`, `[^abc]`) within one path element, `**` for
// any number of directories, `{a,b}` for alternatives, `\` to escape.
// Patterns are relative and never go up: they cannot name anything
// outside the directory they are matched under.
type globPattern struct {
	source   string // as given, for messages
	pat      string // what doublestar matches: slash-separated, cleaned
	baseOnly bool   // no '/': match the last element only (list, grep's include/exclude)
	dirOnly  bool   // ends in '/': directories only
	// alts are the {a,b} alternatives split into elements, used only to
	// skip directories that cannot hold a match and to enter the ones a
	// walk skips by default when the pattern names them. nil when there
	// are too many alternatives: then every directory is looked at.
	alts [][]string
}

const (
	maxGlobLen  = 1000
	maxGlobAlts = 64
)

// compileGlob checks a pattern. what names the parameter in errors
// ("pattern", "include").
func compileGlob(pattern, what string) (*globPattern, error) {
	if pattern == "" {
		return nil, fmt.Errorf("'%s' is empty: give a pattern such as \"*.go\" or \"**/*.md\"", what)
	}
	if len(pattern) > maxGlobLen {
		return nil, fmt.Errorf("'%s' is longer than %d characters", what, maxGlobLen)
	}
	if strings.ContainsRune(pattern, 0) {
		return nil, fmt.Errorf("'%s' contains a NUL byte", what)
	}
	if strings.HasPrefix(pattern, "/") || filepath.IsAbs(pattern) || strings.HasPrefix(pattern, "~") {
		return nil, fmt.Errorf("'%s' %q is absolute: patterns are relative to path; put the directory in path= (it must be inside the allowed roots) and a relative pattern in %s=", what, pattern, what)
	}
	p := filepath.ToSlash(pattern)
	g := &globPattern{source: pattern}
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(p, `\/`) {
		g.dirOnly = true
		p = strings.TrimRight(p, "/")
	}
	p = cleanGlob(p)
	g.pat = p
	g.baseOnly = !strings.Contains(p, "/")
	if !doublestar.ValidatePattern(p) {
		return nil, fmt.Errorf("'%s' %q is not a valid glob: every '[' needs a ']' and every '{' a '}'; use *, ?, [abc], [^abc], ** and {a,b}, and \\ before a character to match it as it is", what, pattern)
	}
	alts, err := expandBraces(p)
	if err != nil {
		alts = nil // doublestar accepted it: only the walk's shortcuts are lost
	}
	for _, alt := range alts {
		var elems []string
		for _, e := range strings.Split(alt, "/") {
			if e == "" || e == "." {
				continue
			}
			if e == "**" && len(elems) > 0 && elems[len(elems)-1] == "**" {
				continue
			}
			elems = append(elems, e)
		}
		g.alts = append(g.alts, elems)
	}
	if goesUp(p, g.alts) {
		return nil, fmt.Errorf("'%s' %q goes up with '..': patterns cannot leave path; put the directory in path= instead", what, pattern)
	}
	if p == "" || p == "." || g.alts != nil && allEmpty(g.alts) {
		return nil, fmt.Errorf("'%s' %q matches nothing but the directory itself: use a pattern such as \"*\" or \"**/*.go\"", what, pattern)
	}
	return g, nil
}

// cleanGlob drops "./" at the start and empty or "." elements, which
// paths never have.
func cleanGlob(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	for strings.Contains(p, "/./") {
		p = strings.ReplaceAll(p, "/./", "/")
	}
	return strings.TrimSuffix(p, "/.")
}

func allEmpty(alts [][]string) bool {
	for _, a := range alts {
		if len(a) > 0 {
			return false
		}
	}
	return true
}

// goesUp reports whether an alternative of the pattern has a ".."
// element. Without the alternatives (too many), it looks for ".."
// between separators of elements or alternatives.
func goesUp(p string, alts [][]string) bool {
	if alts != nil {
		for _, alt := range alts {
			for _, e := range alt {
				if e == ".." {
					return true
				}
			}
		}
		return false
	}
	sep := func(i int) bool { return i < 0 || i >= len(p) || strings.IndexByte("/{},", p[i]) >= 0 }
	for i := strings.Index(p, ".."); i >= 0; {
		if sep(i-1) && sep(i+2) {
			return true
		}
		j := strings.Index(p[i+1:], "..")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// expandBraces expands {a,b} alternatives, nested ones included, into
// at most maxGlobAlts patterns.
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
			if i+1 < len(p) && (p[i+1] == '^' || p[i+1] == '!') {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++ // a ']' first in a class is part of it
			}
		case c == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case c == '}':
			if depth == 0 {
				return nil, errors.New("'}' without '{'")
			}
			depth--
			if depth > 0 {
				continue
			}
			var parts []string
			d, start := 0, open+1
			for j := open + 1; j < i; j++ {
				switch p[j] {
				case '\\':
					j++
				case '{':
					d++
				case '}':
					d--
				case ',':
					if d == 0 {
						parts = append(parts, p[start:j])
						start = j + 1
					}
				}
			}
			parts = append(parts, p[start:i])
			var out []string
			for _, part := range parts {
				rest, err := expandBraces(p[:open] + part + p[i+1:])
				if err != nil {
					return nil, err
				}
				out = append(out, rest...)
				if len(out) > maxGlobAlts {
					return nil, fmt.Errorf("more than %d alternatives", maxGlobAlts)
				}
			}
			return out, nil
		}
	}
	if depth > 0 {
		return nil, errors.New("'{' without '}'")
	}
	return []string{p}, nil
}

// match reports whether rel (slash-separated, relative to the directory
// searched) matches; isDir says whether it is a directory.
func (g *globPattern) match(rel string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	if g.baseOnly {
		rel = lastElem(rel)
	}
	return doublestar.MatchUnvalidated(g.pat, rel)
}

// mayMatchUnder reports whether something inside the directory rel could
// match, so that walks skip directories that cannot. It errs on the side
// of looking.
func (g *globPattern) mayMatchUnder(rel string) bool {
	if g.baseOnly || rel == "." || g.alts == nil {
		return true
	}
	elems := strings.Split(rel, "/")
	for _, alt := range g.alts {
		if prefixMatch(alt, elems) {
			return true
		}
	}
	return false
}

// prefixMatch reports whether the directory d could be on the way to a
// match of the elements p.
func prefixMatch(p, d []string) bool {
	for len(d) > 0 {
		if len(p) == 0 {
			return false
		}
		if strings.Contains(p[0], "**") {
			return true
		}
		if !doublestar.MatchUnvalidated(p[0], d[0]) {
			return false
		}
		p, d = p[1:], d[1:]
	}
	return true
}

// maxDepth is the most path elements a match can have, -1 for any.
func (g *globPattern) maxDepth() int {
	if g.alts == nil {
		return -1
	}
	depth := 0
	for _, alt := range g.alts {
		for _, e := range alt {
			if strings.Contains(e, "**") {
				return -1
			}
		}
		depth = max(depth, len(alt))
	}
	return depth
}

// mentions reports whether the pattern names a directory literally, so
// that walks enter it even if they skip it by default.
func (g *globPattern) mentions(name string) bool {
	for _, alt := range g.alts {
		for _, e := range alt {
			if e == name {
				return true
			}
		}
	}
	return false
}

// globList is the patterns of grep's include= or exclude=.
type globList []*globPattern

// compileGlobs reads a parameter that is one pattern or a list of them.
func compileGlobs(args map[string]any, name string) (globList, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return nil, nil
	}
	var raw []string
	switch x := v.(type) {
	case string:
		if x != "" {
			raw = []string{x}
		}
	case []string:
		raw = x
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("'%s' must be a glob or a list of globs (strings); element %d is %T", name, i, e)
			}
			raw = append(raw, s)
		}
	default:
		return nil, fmt.Errorf("'%s' must be a glob or a list of globs, got %T", name, v)
	}
	if len(raw) > maxGlobAlts {
		return nil, fmt.Errorf("'%s' has %d patterns: give at most %d", name, len(raw), maxGlobAlts)
	}
	var out globList
	for _, s := range raw {
		g, err := compileGlob(s, name)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// any reports whether one of the patterns matches.
func (l globList) any(rel string, isDir bool) bool {
	for _, g := range l {
		if g.match(rel, isDir) {
			return true
		}
	}
	return false
}

// mayMatchUnder reports whether one of the patterns could match inside
// the directory rel.
func (l globList) mayMatchUnder(rel string) bool {
	for _, g := range l {
		if g.mayMatchUnder(rel) {
			return true
		}
	}
	return false
}

// mentions reports whether one of the patterns names the directory.
func (l globList) mentions(name string) bool {
	for _, g := range l {
		if g.mentions(name) {
			return true
		}
	}
	return false
}
