package stdlib

// TEMPORARY (issue 31, part 3): a stand-in for part 2's openFile
// (fileio.go), so that Path.open/read_text/write_text work and are tested
// before part 2 lands. The lead deletes this file at the merge: the real
// openFile has the same signature (hostio.go). UTF-8 only, whole-file
// reads, one commit at close.

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

type standinFile struct {
	path   string
	mode   string
	binary bool
	write  bool
	data   []byte
	pos    int
	closed bool
	wrote  bool
}

func openFile(thread *starlark.Thread, file starlark.Value, mode string, o openOptions) (starlark.Value, error) {
	path, err := fsPath(thread, "file", file)
	if err != nil {
		return nil, err
	}
	f := &standinFile{path: path, mode: mode, binary: strings.Contains(mode, "b")}
	switch {
	case strings.ContainsAny(mode, "wax"):
		f.write = true
		m := string(strings.Trim(mode, "bt+")[0])
		if _, err := call(thread, pyops.FileOpen, map[string]any{"path": path, "mode": m}); err != nil {
			return nil, pyErr(err, path)
		}
	default:
		for off := int64(0); ; {
			r, err := call(thread, pyops.FileRead, map[string]any{"path": path, "offset": off, "size": int64(pyops.MaxChunk)})
			if err != nil {
				return nil, pyErr(err, path)
			}
			b, err := pyops.GetContent(r)
			if err != nil {
				return nil, pyrt.Errorf("OSError", "%s", err)
			}
			if err := interp.BudgetOf(thread).Alloc(int64(len(b))); err != nil {
				return nil, err
			}
			f.data = append(f.data, b...)
			off += int64(len(b))
			if fieldBool(r, "eof") || len(b) == 0 {
				break
			}
		}
	}
	return f, nil
}

func (f *standinFile) String() string {
	return "<_io.TextIOWrapper name=" + interp.QuoteString(f.path) + ">"
}
func (f *standinFile) Type() string          { return "TextIOWrapper" }
func (f *standinFile) Freeze()               {}
func (f *standinFile) Truth() starlark.Bool  { return true }
func (f *standinFile) Hash() (uint32, error) { return 0, nil }
func (f *standinFile) AttrNames() []string {
	return []string{"__enter__", "__exit__", "close", "read", "write"}
}

func (f *standinFile) Attr(name string) (starlark.Value, error) {
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		switch name {
		case "__enter__":
			return f, nil
		case "__exit__", "close":
			if f.closed {
				return starlark.None, nil
			}
			f.closed = true
			if f.write {
				c := map[string]any{"path": f.path, "append": strings.Contains(f.mode, "a"), "first": true}
				pyops.PutContent(c, f.data)
				if _, err := call(thread, pyops.FileWrite, c); err != nil {
					return nil, pyErr(err, f.path)
				}
			}
			return starlark.None, nil
		case "read":
			b := f.data[f.pos:]
			f.pos = len(f.data)
			if f.binary {
				return interp.Bytes(b), nil
			}
			return interp.MakeString(string(b)), nil
		case "write":
			if len(args) != 1 {
				return nil, pyrt.Errorf("TypeError", "write() takes exactly one argument")
			}
			if s, ok := interp.AsText(args[0]); ok && !f.binary {
				f.data = append(f.data, s...)
				return starlark.MakeInt(len([]rune(s))), nil
			}
			if b, ok := interp.AsBytes(args[0]); ok && f.binary {
				f.data = append(f.data, b...)
				return starlark.MakeInt(len(b)), nil
			}
			return nil, pyrt.Errorf("TypeError", "write() argument of the wrong type")
		}
		return nil, pyrt.Errorf("AttributeError", "%s", name)
	}), nil
}
