package file

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-pkgs/gitignore"
)

// Limits of what .gitignore files a walk reads.
const (
	maxIgnoreFile  = 1 << 20 // a larger .gitignore is not read (bytes)
	maxIgnoreTotal = 8 << 20 // .gitignore bytes one walk reads at most
)

// ignorer applies .gitignore files to one walk (grep, glob, tree): the
// ones of the directories from the repository's top (the nearest
// directory above the start with a .git in it, else the allowed root)
// down to where the walk starts, and then every .gitignore met on the
// way down, each for its own directory, as git does: last match wins, a
// pattern with '!' takes a path back, a pattern ending in '/' matches
// directories only. An ignored directory is not entered, so nothing
// below it can be taken back (git's rule too).
//
// Paths are relative to the os.Root the walk uses, slash-separated. The
// files are read through that os.Root, so a .gitignore that is a link
// leading outside is not read.
type ignorer struct {
	ctx  context.Context
	g    *guard // a .gitignore that is one of onetool's own files is not read
	root *os.Root
	m    *gitignore.Matcher
	read int64 // .gitignore bytes read
	n    int   // patterns files loaded
}

// newIgnorer prepares the rules for a walk that starts at start (relative
// to root, slash-separated). A start directory that the rules above it
// ignore is searched all the same, as it was named: then only the
// .gitignore files from the start down apply.
func newIgnorer(ctx context.Context, g *guard, root *os.Root, start string) *ignorer {
	ig := &ignorer{ctx: ctx, g: g, root: root, m: &gitignore.Matcher{}}
	var chain []string // ".", "a", "a/b" for start "a/b"
	if start != "." {
		parts := strings.Split(start, "/")
		for i := range parts {
			chain = append(chain, strings.Join(parts[:i+1], "/"))
		}
	}
	chain = append([]string{"."}, chain...)
	for _, dir := range chain[:len(chain)-1] {
		ig.load(dir)
	}
	if start != "." && ig.m.MatchPath(start, true) {
		ig.m = &gitignore.Matcher{}
	}
	ig.load(start)
	return ig
}

// load reads dir's .gitignore, scoped to dir. A directory with a .git in
// it is the top of a repository: rules from above it are dropped, and
// its .git/info/exclude applies (below its .gitignore files).
func (ig *ignorer) load(dir string) {
	if _, err := ig.root.Lstat(ig.join(dir, ".git")); err == nil {
		ig.m = &gitignore.Matcher{}
		ig.add(dir, ".git/info/exclude")
	}
	ig.add(dir, ".gitignore")
}

// enter is called for each directory a walk goes into.
func (ig *ignorer) enter(dir string) {
	ig.add(dir, ".gitignore")
}

func (ig *ignorer) join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// add reads the patterns file name in dir, if there is one: a regular
// file, not too big.
func (ig *ignorer) add(dir, name string) {
	if ig.read >= maxIgnoreTotal || ig.ctx.Err() != nil {
		return
	}
	f, err := ig.root.OpenFile(filepath.FromSlash(ig.join(dir, name)), readFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxIgnoreFile || ig.g.opened(f, st, name) != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreFile))
	if err != nil && !errors.Is(err, io.EOF) {
		return
	}
	ig.read += int64(len(data))
	scope := dir
	if dir == "." {
		scope = ""
	}
	ig.m.AddPatterns(data, scope)
	ig.n++
}

// ignored reports whether the rules ignore rel.
func (ig *ignorer) ignored(rel string, isDir bool) bool {
	if ig == nil || ig.n == 0 || rel == "." {
		return false
	}
	return ig.m.MatchPath(rel, isDir)
}

// filter returns ig as a walk's ignore function, nil when ig is nil.
func (ig *ignorer) filter() func(rel string, d fs.DirEntry) bool {
	if ig == nil {
		return nil
	}
	return func(rel string, d fs.DirEntry) bool { return ig.ignored(rel, d.IsDir()) }
}
