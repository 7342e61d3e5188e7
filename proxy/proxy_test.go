package proxy

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// direct calls the tool's handler with validation, like the runner does.
var direct = CallerFunc(func(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
	if err := t.ValidateInput(args); err != nil {
		return nil, err
	}
	return packs.Invoke(ctx, t, args)
})

func testRegistry(t *testing.T) *packs.Registry {
	t.Helper()
	reg := packs.NewRegistry()
	reg.SetPackDescription("file", "files")
	echo := func(_ context.Context, args map[string]any) (any, error) { return args, nil }
	err := reg.Register(
		&packs.Tool{Pack: "file", Name: "read", Handler: echo,
			InputSchema: `{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","default":1},"limit":{"type":"integer","default":2000}},"required":["path"]}`},
		&packs.Tool{Pack: "file", Name: "write", Handler: echo,
			InputSchema: `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`},
		&packs.Tool{Pack: "file", Name: "list", Handler: echo,
			InputSchema: `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"lines":{"type":"boolean"}}}`},
		&packs.Tool{Pack: "file", Name: "boom", Handler: func(context.Context, map[string]any) (any, error) {
			return nil, errors.New("404 Not Found")
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func exec(t *testing.T, code string) (string, error) {
	t.Helper()
	predeclared := Globals(testRegistry(t), direct)
	res, err := interp.Exec(context.Background(), code, interp.Options{Predeclared: predeclared})
	if err != nil {
		return "", err
	}
	text, _ := interp.Format(res.Value, "")
	return text, nil
}

func TestCalls(t *testing.T) {
	tests := []struct{ code, want string }{
		{`file.read(path="a")`, `{"limit":2000,"offset":1,"path":"a"}`},
		{`file.read("a", 5)`, `{"limit":2000,"offset":5,"path":"a"}`},
		{`file.read(path="a", off=3)`, `{"limit":2000,"offset":3,"path":"a"}`},
		{`file.write(path="p", content="c")`, `{"content":"c","path":"p"}`},
		{`dir(file)`, `["boom","list","read","write"]`},
		{`file.read.name`, `read`},
		{`file.read.pack + " " + file.read.id`, `file file.read`},
		{`dir(file.read)`, `["doc","id","map","name","pack"]`},
		{`type(file) + " " + type(file.read)`, `pack tool`},
		{`str(file) + str(file.read)`, `<pack file><tool file.read>`},
		{`{file.read: 1}[file.read]`, `1`},
	}
	for _, tt := range tests {
		got, err := exec(t, tt.code)
		if err != nil {
			t.Errorf("%s: %v", tt.code, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s = %s, want %s", tt.code, got, tt.want)
		}
	}
}

func TestDoc(t *testing.T) {
	got, err := exec(t, "file.read.doc")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "file.read(path: str, offset: int = 1, limit: int = 2000)") {
		t.Errorf("doc = %q", got)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ code, want string }{
		{`file.raed(path="a")`, "line 1: pack 'file' has no function 'raed'. Did you mean 'read'? Available: boom, list, read, write"},
		{`file.zzzzzz`, "line 1: pack 'file' has no function 'zzzzzz'. Available: boom, list, read, write"},
		{`file._secret`, "line 1: pack 'file' has no public attribute '_secret': names starting with '_' are private. Available: boom, list, read, write"},
		{`file.read(filepath="a")`, "line 1: file.read: unknown parameter 'filepath'. Did you mean 'path'? Signature: file.read(path: str, offset: int = 1, limit: int = 2000) -> any"},
		{`file.list(li=1)`, "line 1: file.list: ambiguous parameter 'li' matches limit, lines. Signature: file.list(path: str = None, limit: int = None, lines: bool = None) -> any"},
		{`file.read(path=len)`, "line 1: file.read: argument 'path': cannot convert builtin_function_or_method to JSON (a builtin_function_or_method value)"},
		{`file.boom()`, "line 1: file.boom failed: 404 Not Found"},
		{`file.read.nope`, "line 1: tool has no .nope field or method"},
	}
	for _, tt := range tests {
		_, err := exec(t, tt.code)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.code, err, tt.want)
		}
	}
}

func TestCallErrorUnwraps(t *testing.T) {
	_, err := exec(t, "file.boom()")
	var ce *CallError
	if !errors.As(err, &ce) || ce.ToolID != "file.boom" {
		t.Errorf("errors.As(*CallError) failed: %v", err)
	}
	_, err = exec(t, "file.read(nope=1)")
	if !errors.Is(err, packs.ErrArgs) {
		t.Errorf("argument error does not match packs.ErrArgs: %v", err)
	}
}

func TestValuesAreFrozenAndShared(t *testing.T) {
	g := Globals(testRegistry(t), direct)
	p, ok := g["file"].(*Pack)
	if !ok || p.Name() != "file" {
		t.Fatalf("globals = %v", g)
	}
	// Assignment to a pack attribute is refused: pack values are shared.
	_, err := interp.Exec(context.Background(), "file.read = 1", interp.Options{Predeclared: g})
	if err == nil {
		t.Error("assigning to a pack attribute succeeded")
	}
	var _ starlark.Callable = p.tools["read"]
}
