package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Include limits: a chain of includes at most maxIncludeDepth long, and at
// most maxIncludeFiles files read in one load (a diamond of includes could
// otherwise read files an exponential number of times).
const (
	maxIncludeDepth = 5
	maxIncludeFiles = 64
)

// loader reads a config file and the files it includes.
type loader struct {
	errs   *errList
	x      *expander
	home   string
	budget *yamltree.Budget // nodes left, shared by every file
	files  []string         // every file read, in order
}

// loadFile reads file and its includes and returns the merged tree: the
// included files merged in order (later ones win), then file itself merged
// over them. chain is the list of files that led here, file last. It
// returns nil when the file could not be used; the reason is in l.errs.
func (l *loader) loadFile(file string, chain []string) *node {
	if len(l.files) >= maxIncludeFiles {
		l.errs.add(&Error{File: file, Msg: fmt.Sprintf("too many files included: a load reads at most %d", maxIncludeFiles)})
		return nil
	}
	l.files = append(l.files, file)
	data, err := readLimited(file)
	if err != nil {
		l.errs.add(&Error{File: file, Msg: "cannot read the config file", Err: err})
		return nil
	}
	root, ok := parseFile(data, file, l.budget, l.errs)
	if !ok {
		return nil
	}
	if root.IsNull() {
		return &node{Pos: pos{File: file, Line: 1, Column: 1}, Kind: yamltree.MappingNode}
	}
	if root.Kind != yamltree.MappingNode {
		l.errs.at(root.Pos, nil, "the top level must be a mapping of sections (packs:, servers:, …), got %s", yamltree.Describe(root))
		return nil
	}
	inc, ok := remove(root, "include")
	if !ok {
		return root
	}
	var merged *node
	for i, target := range l.includes(inc, file) {
		p := keyPath{"include"}.Index(i)
		if target.file == "" {
			continue // reported
		}
		next := append(slices.Clip(chain), target.file)
		if slices.Contains(chain, target.file) {
			l.errs.at(target.at, p, "include cycle: %s", l.showChain(next))
			continue
		}
		if len(chain) > maxIncludeDepth {
			l.errs.at(target.at, p, "includes nested more than %d deep: %s", maxIncludeDepth, l.showChain(next))
			continue
		}
		if sub := l.loadFile(target.file, next); sub != nil {
			merged = merge(merged, sub)
		}
	}
	return merge(merged, root)
}

// includeTarget is one entry of an include: list, resolved.
type includeTarget struct {
	file string // absolute; "" when the entry was bad (and reported)
	at   pos
}

// includes reads an include: value (a list of paths, or one path), with
// ${} expanded and paths relative to the including file. Missing files are
// reported here, at the line that names them.
func (l *loader) includes(inc pair, file string) []includeTarget {
	p := keyPath{"include"}
	v := inc.Val
	var items []*node
	switch {
	case v.IsNull():
	case v.Kind == yamltree.ListNode:
		items = v.Items
	case v.Kind == yamltree.ScalarNode:
		items = []*node{v}
	default:
		l.errs.at(v.Pos, p, "want a list of files to include, got %s", yamltree.Describe(v))
	}
	out := make([]includeTarget, len(items))
	for i, it := range items {
		ip := p.Index(i)
		out[i].at = it.Pos
		if it.Kind != yamltree.ScalarNode || it.IsNull() {
			l.errs.at(it.Pos, ip, "want a file path, got %s", yamltree.Describe(it))
			continue
		}
		l.x.expandScalar(it, ip, l.errs)
		l.x.shown(it) // a path: not a credential
		if it.Bad {
			continue
		}
		abs, err := resolvePath(it.Value, filepath.Dir(file), l.home)
		if err != nil {
			l.errs.at(it.Pos, ip, "%v", err)
			continue
		}
		st, err := os.Stat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			l.errs.at(it.Pos, ip, "included file %s does not exist", l.errs.show(abs))
			continue
		case err != nil:
			l.errs.at(it.Pos, ip, "cannot include %s: %v", l.errs.show(abs), err)
			continue
		case !st.Mode().IsRegular():
			l.errs.at(it.Pos, ip, "cannot include %s: not a regular file", l.errs.show(abs))
			continue
		}
		out[i].file = abs
	}
	return out
}

// showChain formats include chains as "a.yaml → b.yaml → a.yaml".
func (l *loader) showChain(files []string) string {
	shown := make([]string, len(files))
	for i, f := range files {
		shown[i] = l.errs.show(f)
	}
	return strings.Join(shown, " → ")
}

// merge lays over on top of base: mappings merge key by key, recursively;
// anything else in over replaces what base has. A null in over leaves base
// alone, so a section whose keys are all commented out does not wipe what
// an included file set.
func merge(base, over *node) *node {
	switch {
	case base == nil || base.Bad:
		return over
	case over == nil || over.IsNull() && !over.Bad:
		return base
	case base.Kind != yamltree.MappingNode || over.Kind != yamltree.MappingNode:
		return over
	}
	out := &node{Pos: over.Pos, Kind: yamltree.MappingNode, Pairs: make([]pair, 0, len(base.Pairs)+len(over.Pairs))}
	index := make(map[string]int, len(base.Pairs))
	for _, p := range base.Pairs {
		index[p.Key] = len(out.Pairs)
		out.Pairs = append(out.Pairs, p)
	}
	for _, p := range over.Pairs {
		if i, ok := index[p.Key]; ok {
			out.Pairs[i] = pair{Key: p.Key, At: p.At, Val: merge(out.Pairs[i].Val, p.Val)}
			continue
		}
		out.Pairs = append(out.Pairs, p)
	}
	return out
}
