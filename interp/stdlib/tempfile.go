package stdlib

import (
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// tempfile (issue 31): temporary files and directories in the run's
// scratch directory (pyops.FileTemp), which the file pack removes when
// the run ends; inside it every other operation is an ordinary file op.
// mkstemp and TemporaryFile's descriptors do not exist here: mkstemp is
// refused with what to use instead.

// TempFile is the tempfile module.
func TempFile() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "tempfile", Members: starlark.StringDict{
		"mkdtemp":    interp.NewBuiltin("mkdtemp", tempMkdtemp),
		"gettempdir": interp.NewBuiltin("gettempdir", tempGettempdir),
		"gettempprefix": interp.NewBuiltin("gettempprefix", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String("tmp"), nil
		}),
		"TemporaryDirectory": interp.NewBuiltin("TemporaryDirectory", tempDirectory),
		"NamedTemporaryFile": interp.NewBuiltin("NamedTemporaryFile", tempNamedFile),
		"TemporaryFile":      interp.NewBuiltin("TemporaryFile", tempNamedFile),
		"mkstemp": interp.NewBuiltin("mkstemp", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, pyrt.Errorf("NotImplementedError", "tempfile.mkstemp returns an OS file descriptor, which programs cannot have here: use tempfile.NamedTemporaryFile(delete=False) and its .name, or tempfile.mkdtemp()")
		}),
		"tempdir": starlark.None,
	}}
}

// tempNames reads suffix, prefix and dir (None or str) of mkdtemp and
// its kin.
func tempNames(suffix, prefix, dir starlark.Value) (sfx, pfx, d string, hasDir bool, err error) {
	pfx = "tmp"
	for _, p := range []struct {
		v   starlark.Value
		dst *string
		set *bool
	}{{suffix, &sfx, nil}, {prefix, &pfx, nil}, {dir, &d, &hasDir}} {
		if p.v == starlark.None {
			continue
		}
		s, ok := interp.AsText(p.v)
		if !ok {
			if pl, isPath := p.v.(interp.PathLike); isPath && p.set != nil {
				s, ok = pl.FSPath(), true
			}
		}
		if !ok {
			return "", "", "", false, pyrt.Errorf("TypeError", "expected str, bytes or os.PathLike object, not %s", pyrt.TypeName(p.v))
		}
		*p.dst = s
		if p.set != nil {
			*p.set = true
		}
	}
	return sfx, pfx, d, hasDir, nil
}

// makeTemp makes a directory (or an empty file) with a new name: in the
// run's scratch directory, or in dir when one is given.
func makeTemp(thread *starlark.Thread, isDir bool, suffix, prefix, dir string, hasDir bool) (string, error) {
	if !hasDir {
		res, err := call(thread, pyops.FileTemp, map[string]any{"dir": isDir, "prefix": prefix, "suffix": suffix})
		if err != nil {
			return "", pyErr(err, "")
		}
		return resultString(res, "path"), nil
	}
	for range 100 {
		var r [6]byte
		rand.Read(r[:])
		name := filepath.Join(dir, fmt.Sprintf("%s%x%s", prefix, r, suffix))
		var err error
		if isDir {
			_, err = call(thread, pyops.FileMkdir, map[string]any{"path": name})
		} else {
			var f starlark.Value
			if f, err = openFile(thread, starlark.String(name), "xb", openOptions{Buffering: -1, Closefd: true}); err == nil {
				err = f.(*fileObj).closeFile(thread)
			}
		}
		if err == nil {
			return name, nil
		}
		if !isExists(err) {
			return "", pyErr(err, name)
		}
	}
	return "", pyrt.OSError("FileExistsError", 17, "No usable temporary file name found", "")
}

func isExists(err error) bool {
	if errors.Is(err, pyops.ErrExists) {
		return true
	}
	var ex *pyrt.Exception
	return errors.As(err, &ex) && ex.Class == "FileExistsError"
}

func tempMkdtemp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var suffix, prefix, dir starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "suffix?", &suffix, "prefix?", &prefix, "dir?", &dir); err != nil {
		return nil, err
	}
	sfx, pfx, d, hasDir, err := tempNames(suffix, prefix, dir)
	if err != nil {
		return nil, err
	}
	p, err := makeTemp(thread, true, sfx, pfx, d, hasDir)
	return starlark.String(p), err
}

// tempGettempdir is the run's scratch directory: the parent of a new
// directory made in it.
func tempGettempdir(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackArgs(b.Name(), args, kwargs); err != nil {
		return nil, err
	}
	p, err := makeTemp(thread, true, "", "tmp", "", false)
	if err != nil {
		return nil, err
	}
	return starlark.String(filepath.Dir(p)), nil
}

// tempDir is a TemporaryDirectory: its name, cleanup(), and with as a
// context manager whose value is the name.
type tempDir struct {
	name    string
	cleaned bool
	remove  func()
}

func (d *tempDir) String() string        { return fmt.Sprintf("<TemporaryDirectory '%s'>", d.name) }
func (d *tempDir) Type() string          { return "TemporaryDirectory" }
func (d *tempDir) Freeze()               {}
func (d *tempDir) Truth() starlark.Bool  { return true }
func (d *tempDir) Hash() (uint32, error) { return 0, nil }
func (d *tempDir) AttrNames() []string   { return []string{"cleanup", "name"} }

func (d *tempDir) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(d.name), nil
	case "__enter__":
		return interp.NewBuiltin(name, func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(d.name), nil
		}), nil
	case "cleanup", "__exit__":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, d.cleanup(thread)
		}), nil
	}
	return nil, noAttrNamed("TemporaryDirectory", name)
}

func (d *tempDir) cleanup(thread *starlark.Thread) error {
	if d.cleaned {
		return nil
	}
	d.cleaned = true
	if d.remove != nil {
		d.remove()
	}
	_, err := call(thread, pyops.FileRemove, map[string]any{"path": d.name, "kind": "tree", "missing_ok": true})
	return pyErr(err, d.name)
}

func tempDirectory(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var suffix, prefix, dir starlark.Value = starlark.None, starlark.None, starlark.None
	var ignore bool
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "suffix?", &suffix, "prefix?", &prefix, "dir?", &dir, "ignore_cleanup_errors?", &ignore); err != nil {
		return nil, err
	}
	sfx, pfx, d, hasDir, err := tempNames(suffix, prefix, dir)
	if err != nil {
		return nil, err
	}
	p, err := makeTemp(thread, true, sfx, pfx, d, hasDir)
	if err != nil {
		return nil, err
	}
	td := &tempDir{name: p}
	if hasDir { // the scratch directory goes at the run's end; one made elsewhere goes with its object
		td.remove = interp.AtEnd(thread, td.String(), td.cleanup)
	}
	return td, nil
}

// tempNamedFile is NamedTemporaryFile(mode='w+b', buffering=-1,
// encoding=None, newline=None, suffix=None, prefix=None, dir=None,
// delete=True, *, errors=None) and TemporaryFile (the same, always
// deleted): a file object of open() over a new file, with .file (itself)
// and .delete; with delete, closing it removes the file.
func tempNamedFile(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	mode := "w+b"
	buffering := -1
	var encoding, newline, suffix, prefix, dir, errs starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	del := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "mode?", &mode, "buffering?", &buffering, "encoding?", &encoding,
		"newline?", &newline, "suffix?", &suffix, "prefix?", &prefix, "dir?", &dir, "delete?", &del, "errors?", &errs); err != nil {
		return nil, err
	}
	if b.Name() == "TemporaryFile" {
		del = true
	}
	sfx, pfx, d, hasDir, err := tempNames(suffix, prefix, dir)
	if err != nil {
		return nil, err
	}
	o := openOptions{Buffering: buffering, Closefd: true}
	if s, ok := interp.AsText(encoding); ok {
		o.Encoding = s
	}
	if s, ok := interp.AsText(errs); ok {
		o.Errors = s
	}
	if s, ok := interp.AsText(newline); ok {
		o.Newline, o.HasNewline = s, true
	}
	p, err := makeTemp(thread, false, sfx, pfx, d, hasDir)
	if err != nil {
		return nil, err
	}
	v, err := openFile(thread, starlark.String(p), mode, o)
	if err != nil {
		return nil, err
	}
	f := v.(*fileObj)
	f.extra = map[string]starlark.Value{"file": f, "delete": starlark.Bool(del)}
	if del {
		f.onClose = func(th *starlark.Thread) error {
			_, err := call(th, pyops.FileRemove, map[string]any{"path": p, "kind": "file", "missing_ok": true})
			return pyErr(err, p)
		}
	}
	return f, nil
}
