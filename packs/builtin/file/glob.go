package file

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// globPattern is a compiled glob: `*`, `?` and `[...]` within one path
// element, `**` for any number of directories, `{a,b}` for alternatives.
// Patterns are relative and never go up: they cannot name anything
// outside the directory they are matched under.
type globPattern struct {
	alts     [][]string // one list of elements per alternative
	baseOnly bool       // no '/': match the last element only (grep's glob=)
	source   string
}

const (
	maxGlobLen   = 1000
	maxGlobAlts  = 64
	maxDoubleStr = 8
)

// compileGlob checks and compiles a pattern. what names the parameter in
// errors ("pattern", "glob").
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
	alts, err := expandBraces(filepath.ToSlash(pattern))
	if err != nil {
		return nil, fmt.Errorf("'%s' %q: %v", what, pattern, err)
	}
	g := &globPattern{source: pattern, baseOnly: !strings.Contains(filepath.ToSlash(pattern), "/")}
	for _, alt := range alts {
		var elems []string
		stars := 0
		for _, e := range strings.Split(alt, "/") {
			switch e {
			case "", ".":
				continue
			case "..":
				return nil, fmt.Errorf("'%s' %q goes up with '..': patterns cannot leave path; put the directory in path= instead", what, pattern)
			case "**":
				if len(elems) > 0 && elems[len(elems)-1] == "**" {
					continue
				}
				stars++
			}
			if _, err := path.Match(e, ""); err != nil {
				return nil, fmt.Errorf("'%s' %q: bad pattern element %q: use *, ?, [abc], ** and {a,b}", what, pattern, e)
			}
			elems = append(elems, e)
		}
		if stars > maxDoubleStr {
			return nil, fmt.Errorf("'%s' %q has more than %d '**'", what, pattern, maxDoubleStr)
		}
		if len(elems) == 0 {
			return nil, fmt.Errorf("'%s' %q matches nothing but the directory itself: use a pattern such as \"*\" or \"**/*.go\"", what, pattern)
		}
		g.alts = append(g.alts, elems)
	}
	return g, nil
}

// expandBraces expands {a,b} alternatives, nested ones included.
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
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
// searched) matches.
func (g *globPattern) match(rel string) bool {
	elems := strings.Split(rel, "/")
	if g.baseOnly {
		elems = elems[len(elems)-1:]
	}
	for _, alt := range g.alts {
		if matchElems(alt, elems) {
			return true
		}
	}
	return false
}

func matchElems(p, s []string) bool {
	for len(p) > 0 {
		if p[0] == "**" {
			for i := 0; i <= len(s); i++ {
				if matchElems(p[1:], s[i:]) {
					return true
				}
			}
			return false
		}
		if len(s) == 0 {
			return false
		}
		if ok, _ := path.Match(p[0], s[0]); !ok {
			return false
		}
		p, s = p[1:], s[1:]
	}
	return len(s) == 0
}

// mayMatchUnder reports whether something inside the directory rel could
// match, so that walks skip directories that cannot.
func (g *globPattern) mayMatchUnder(rel string) bool {
	if g.baseOnly || rel == "." {
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

func prefixMatch(p, d []string) bool {
	for len(d) > 0 {
		if len(p) == 0 {
			return false
		}
		if p[0] == "**" {
			return true
		}
		if ok, _ := path.Match(p[0], d[0]); !ok {
			return false
		}
		p, d = p[1:], d[1:]
	}
	return true
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
