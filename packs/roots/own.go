package roots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ConfigDirName is the name of onetool's configuration directory: onetool
// looks for onetool.yaml in one in the working directory and in the home
// directory, and the file pack keeps its backups in one in each root.
// Every path with a component of this name, in any letter case, is
// onetool's own: a program must not create configuration that the next
// start would load, nor read what is kept there.
const ConfigDirName = ".onetool"

// ErrProtected is the cause of every refusal of one of onetool's own
// files (SPEC §8.2).
var ErrProtected = errors.New("onetool's own file")

// Own is one of onetool's own files or directories, refused to programs
// whatever the roots say. It need not exist: a file that does not exist
// yet cannot be created either.
type Own struct {
	Path string `json:"path"` // absolute, or relative to the base
	What string `json:"what"` // what it is, for messages: "secrets file"
}

// own is an Own prepared for checks.
type own struct {
	Own
	paths []string    // Path absolute and clean, then its real path when that differs
	id    fs.FileInfo // its identity at construction; nil when it did not exist
}

// Protect returns roots that also refuse the files and directories in
// list (and everything inside those directories): by path, compared
// without regard to letter case, and by identity (device and inode, taken
// now), so that neither a symbolic link, nor a hard link, nor another
// spelling on a case-insensitive file system reaches them. r is unchanged.
func (r *Roots) Protect(list ...Own) (*Roots, error) {
	n := *r
	n.own = append([]own(nil), r.own...)
	n.given = append([]Own(nil), r.given...)
	for _, o := range list {
		if o.Path == "" {
			return nil, fmt.Errorf("roots: %s: empty path", o.What)
		}
		if strings.ContainsRune(o.Path, 0) {
			return nil, fmt.Errorf("roots: %s: path contains a NUL byte: %q", o.What, o.Path)
		}
		abs := o.Path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(r.base, abs)
		}
		abs = filepath.Clean(abs)
		p := own{Own: Own{Path: abs, What: o.What}, paths: []string{abs}}
		if real, err := resolve(abs); err == nil && real != abs {
			p.paths = append(p.paths, real)
		}
		if fi, err := os.Stat(abs); err == nil {
			p.id = fi
			n.ids++
		}
		n.own = append(n.own, p)
		n.given = append(n.given, p.Own)
	}
	return &n, nil
}

// Own returns the files and directories Protect was given, absolute.
func (r *Roots) Own() []Own { return r.given }

// How says how a refused path relates to one of onetool's own files.
type How int

const (
	OwnIs     How = iota // the path is the file or directory
	OwnInside            // the path lies inside the directory
	OwnAlias             // the path is another name for it: a hard link, another spelling
	OwnHolds             // the path is a directory that holds it
)

// ProtectedError is a path refused because it is one of onetool's own
// files, lies inside one, or holds one.
type ProtectedError struct {
	Path string // as the caller named it
	Own  string // the file or directory it touches
	What string // what that is: "secrets file"
	How  How
	Hint string // what to do instead; "" for the default of How
}

func (e *ProtectedError) Error() string {
	rel, hint := "is", "edit it yourself, outside onetool"
	switch e.How {
	case OwnInside:
		rel = "is inside"
	case OwnAlias:
		rel = "is another name for"
	case OwnHolds:
		rel, hint = "holds", "move or delete it yourself, outside onetool"
	}
	if e.Hint != "" {
		hint = e.Hint
	}
	return fmt.Sprintf("path '%s' %s onetool's own %s (%s): programs can neither read nor change onetool's own files, whatever the allowed roots; %s",
		e.Path, rel, e.What, e.Own, hint)
}

func (e *ProtectedError) Unwrap() error { return ErrProtected }

// refuseOwn returns the refusal of p when real (resolved, inside root) is
// one of onetool's own files or lies inside one. abs, the path as given
// (absolute, clean), is checked for a .onetool component too: a link
// named .onetool makes what it points to a configuration directory.
func (r *Roots) refuseOwn(p, abs, real, root string) error {
	if e := r.ownByPath(p, real); e != nil {
		return e
	}
	if e := configDirRefusal(p, abs); e != nil {
		return e
	}
	if e := r.ownByIdentity(p, real, root); e != nil {
		return e
	}
	return nil
}

// ownByPath compares real with the own paths and looks for a component
// named ConfigDirName, without touching the file system. The closest own
// path is named: "the secrets file" rather than "the configuration
// directory" it lies in.
func (r *Roots) ownByPath(p, real string) *ProtectedError {
	var best *ProtectedError
	bestLen := -1
	for _, o := range r.own {
		for _, q := range o.paths {
			if len(q) > bestLen && withinFold(real, q) {
				how := OwnInside
				if len(real) == len(q) {
					how = OwnIs
				}
				best, bestLen = &ProtectedError{Path: p, Own: o.Path, What: o.What, How: how}, len(q)
			}
		}
	}
	if best != nil {
		return best
	}
	return configDirRefusal(p, real)
}

// configDirRefusal refuses p when path, its absolute form, has a
// component named ConfigDirName; nil otherwise.
func configDirRefusal(p, path string) *ProtectedError {
	dir, ok := configDirIn(path)
	if !ok {
		return nil
	}
	how := OwnInside
	if len(dir) == len(path) {
		how = OwnIs
	}
	return &ProtectedError{Path: p, Own: dir, What: "configuration directory", How: how}
}

// ownByIdentity compares the file at real, and the directory it lies in,
// with the own files that existed at construction: a hard link, or a name
// spelled in another case on a file system that ignores case, has another
// path but the same identity. Only the directory a file is read from or
// created in is compared (for a new file, the nearest one that exists):
// onetool loads configuration files and toolpacks from a directory, not
// from deeper down, and a stat per level would slow every call.
func (r *Roots) ownByIdentity(p, real, root string) *ProtectedError {
	if r.ids == 0 {
		return nil
	}
	match := func(fi fs.FileInfo, dirsOnly bool) *own {
		for i := range r.own {
			o := &r.own[i]
			if o.id != nil && (!dirsOnly || o.id.IsDir()) && os.SameFile(fi, o.id) {
				return o
			}
		}
		return nil
	}
	fi, err := os.Lstat(real)
	if err == nil {
		if o := match(fi, false); o != nil {
			return &ProtectedError{Path: p, Own: o.Path, What: o.What, How: OwnAlias}
		}
	}
	for dir := real; dir != root; {
		dir = filepath.Dir(dir)
		if !within(dir, root) {
			return nil
		}
		st, serr := os.Lstat(dir)
		if serr != nil {
			continue // not there yet: the file would be created further up
		}
		if o := match(st, true); o != nil {
			return &ProtectedError{Path: p, Own: o.Path, What: o.What, How: OwnInside}
		}
		return nil
	}
	return nil
}

// CheckPath refuses real, a path with no symbolic link in it named name
// by the caller, when it is one of onetool's own files or lies inside one,
// by name and path alone (see OwnEntry).
func (r *Roots) CheckPath(name, real string) error {
	if e := r.ownByPath(name, real); e != nil {
		return e
	}
	return nil
}

// OwnEntry reports whether real — an entry a walk met, its path with no
// symbolic link in it — is one of onetool's own files or lies inside one,
// by name and path alone. Walks leave such entries out, and do not enter
// them.
func (r *Roots) OwnEntry(real string) bool {
	return r.ownByPath(real, real) != nil
}

// CheckOpened refuses f, a file or directory opened under the name name,
// when it is one of onetool's own files or lies inside one: by identity
// (fi, its information, when not nil) and, where the system tells, by
// the path it really was opened at. It is the last check before content
// is read or written: it also catches a hard link, and a directory
// swapped for a link after Resolve.
func (r *Roots) CheckOpened(name string, f *os.File, fi fs.FileInfo) error {
	if r.ids > 0 && fi != nil {
		for _, o := range r.own {
			if o.id != nil && os.SameFile(fi, o.id) {
				return &ProtectedError{Path: name, Own: o.Path, What: o.What, How: OwnAlias}
			}
		}
	}
	if f != nil {
		if real, ok := openedPath(f); ok {
			return r.CheckPath(name, real)
		}
	}
	return nil
}

// CheckHolds refuses the directory real (resolved), named name, when one
// of the own paths given to Protect lies inside it. A ConfigDirName
// directory deeper inside is only found by walking it (see OwnEntry).
func (r *Roots) CheckHolds(name, real string) error {
	for _, o := range r.own {
		for _, q := range o.paths {
			if withinFold(q, real) {
				return &ProtectedError{Path: name, Own: o.Path, What: o.What, How: OwnHolds}
			}
		}
	}
	return nil
}

// IsConfigDirName reports whether a file name is ConfigDirName in any
// letter case.
func IsConfigDirName(name string) bool { return strings.EqualFold(name, ConfigDirName) }

// configDirIn returns the part of the absolute path p up to its first
// component named ConfigDirName (in any case).
func configDirIn(p string) (string, bool) {
	for i := 0; i < len(p); {
		j := strings.IndexByte(p[i:], filepath.Separator)
		end := len(p)
		if j >= 0 {
			end = i + j
		}
		if end-i == len(ConfigDirName) && IsConfigDirName(p[i:end]) {
			return p[:end], true
		}
		i = end + 1
	}
	return "", false
}

// withinFold is within with letter case ignored: on a file system that
// ignores case, /w/.ONETOOL/Secrets.yaml is /w/.onetool/secrets.yaml.
// Where case matters it refuses a little more than it must, never less.
func withinFold(p, dir string) bool {
	if len(p) < len(dir) || !strings.EqualFold(p[:len(dir)], dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator))
}
