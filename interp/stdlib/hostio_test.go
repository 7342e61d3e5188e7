package stdlib

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// fakeHost answers every op with an error of the kind named by the op's
// "kind" argument, or echoes the op.
type fakeHost struct{ ctx context.Context }

var kinds = map[string]error{
	"not_found": pyops.ErrNotFound, "denied": pyops.ErrDenied, "exists": pyops.ErrExists,
	"too_large": pyops.ErrTooLarge, "limit": interp.ErrLimit, "none": errors.New("disk on fire"),
}

func (h *fakeHost) Call(ctx context.Context, op string, args map[string]any) (any, error) {
	h.ctx = ctx
	if k, ok := args["kind"].(string); ok {
		return nil, pyops.Tag(kinds[k], fmt.Errorf("the pack says %s", k))
	}
	return op, nil
}

func (h *fakeHost) Facts(context.Context) pyops.Facts {
	return pyops.Facts{Cwd: "/work", Env: map[string]string{"LANG": "C"}}
}

type goPath string

func (goPath) String() string        { return "goPath" }
func (goPath) Type() string          { return "goPath" }
func (goPath) Freeze()               {}
func (goPath) Truth() starlark.Bool  { return true }
func (goPath) Hash() (uint32, error) { return 0, nil }
func (p goPath) FSPath() string      { return string(p) }

// hostioGlobals: io_call(op, path, kind=None) calls the host and maps its
// error for path; fspath(v) is fsPath; cwd() is the facts' cwd.
func hostioGlobals() starlark.StringDict {
	g := starlark.StringDict{}
	for k, v := range globals() {
		g[k] = v
	}
	g["io_call"] = interp.NewBuiltin("io_call", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var op, path string
		var kind starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kw, "op", &op, "path", &path, "kind?", &kind); err != nil {
			return nil, err
		}
		a := map[string]any{}
		if s, ok := kind.(starlark.String); ok {
			a["kind"] = string(s)
		}
		v, err := call(th, op, a)
		if err != nil {
			return nil, pyErr(err, path)
		}
		return starlark.String(v.(string)), nil
	})
	g["fspath"] = interp.NewBuiltin("fspath", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s, err := fsPath(th, "", args[0])
		return starlark.String(s), err
	})
	g["gopath"] = goPath("/work/go.txt")
	g["cwd"] = interp.NewBuiltin("cwd", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.String(facts(th).Cwd), nil
	})
	g.Freeze()
	return g
}

func TestHostIO(t *testing.T) {
	code := `print(io_call('file.read@chunk', 'a.txt'))
print(repr(cwd()))
for kind in ['not_found', 'exists', 'denied', 'too_large', 'none']:
    try:
        io_call('file.read@chunk', 'a.txt', kind)
    except OSError as e:
        print(type(e).__name__, e.errno, e.filename, '|', e)
try:
    io_call('file.read@chunk', 'a.txt', 'not_found')
except FileNotFoundError as e:
    print('caught by its class')
class P:
    def __fspath__(self):
        return 'from/dunder'
class Bad:
    def __fspath__(self):
        return 3
print(fspath('s'), fspath(b'b'), fspath(gopath), fspath(P()))
for v in [3, Bad()]:
    try:
        fspath(v)
    except TypeError as e:
        print(e)
class MyErr(OSError):
    pass
e = MyErr(2, 'm', 'f')
print(type(e).__name__, e, e.errno, e.filename)
`
	want := `file.read@chunk
'/work'
FileNotFoundError 2 a.txt | [Errno 2] No such file or directory: 'a.txt'
FileExistsError 17 a.txt | [Errno 17] File exists: 'a.txt'
PermissionError 13 None | [Errno 13] the pack says denied
OSError 27 a.txt | [Errno 27] File too large (the pack says too_large): 'a.txt'
OSError 5 a.txt | [Errno 5] Input/output error (the pack says none): 'a.txt'
caught by its class
s b /work/go.txt from/dunder
expected str, bytes or os.PathLike object, not int
expected Bad.__fspath__() to return str or bytes, not int
MyErr [Errno 2] m: 'f' 2 f`
	h := &fakeHost{}
	opts := interp.Options{Predeclared: hostioGlobals(), Parse: python.Parse, Locals: map[string]any{pyops.LocalKey: h}}
	res, err := interp.Exec(context.Background(), code, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Printed != want {
		t.Errorf("printed\n%s\nwant\n%s", res.Printed, want)
	}
	if h.ctx == nil || h.ctx.Done() == nil {
		t.Error("the host did not get the run's context")
	}
	// A budget's error is not an OSError: nothing catches it.
	_, err = interp.Exec(context.Background(), "try:\n    io_call('x@y', 'a', 'limit')\nexcept BaseException:\n    print('caught')", opts)
	if !errors.Is(err, interp.ErrLimit) {
		t.Errorf("a budget's error was caught or changed: %v", err)
	}
	// Without a Host, an OSError that says so.
	opts.Locals = nil
	_, err = interp.Exec(context.Background(), "io_call('file.read@chunk', 'a.txt')", opts)
	if err == nil || !strings.Contains(err.Error(), "OSError: "+pyops.ErrNoHost.Error()) {
		t.Errorf("without a host: %v", err)
	}
	if f := facts(&starlark.Thread{}); f.Env == nil {
		t.Error("facts without a host have a nil environment")
	}
	_ = openOptions{Buffering: -1} // the signature part 2 implements
}
