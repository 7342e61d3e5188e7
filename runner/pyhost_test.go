package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/demo"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
)

// withGlobals adds predeclared names to a runner (and, given to
// serveWorker, to a worker's): the test-only module demo_io.
func withGlobals(g starlark.StringDict) Option {
	return func(r *Runner) { r.extraGlobals = g }
}

// ioTestGlobals is demo_io, a module as Python's own I/O modules are
// built: call(op, **args) calls a variant through pyops.From(thread) and
// raises PermissionError or FileNotFoundError for the kinds; facts()
// gives the Host's facts.
func ioTestGlobals() starlark.StringDict {
	call := interp.NewBuiltin("call", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		op, _ := interp.AsText(args[0])
		m := map[string]any{}
		for _, kv := range kw {
			v, err := interp.ToGo(kv[1])
			if err != nil {
				return nil, err
			}
			m[string(kv[0].(starlark.String))] = v
		}
		h := pyops.From(th)
		if h == nil {
			return nil, pyrt.Errorf("OSError", "%s", pyops.ErrNoHost)
		}
		v, err := h.Call(interp.Context(th), op, m)
		switch {
		case errors.Is(err, pyops.ErrDenied):
			return nil, pyrt.OSError("PermissionError", 13, err.Error(), "")
		case errors.Is(err, pyops.ErrNotFound):
			return nil, pyrt.OSError("", 2, "No such file or directory", fmt.Sprint(m["text"]))
		case err != nil:
			return nil, err
		}
		if c, ok := v.(map[string]any); ok {
			if b, err := pyops.GetContent(c["content"]); err == nil && b != nil {
				c["content"] = interp.Bytes(b)
			}
		}
		return interp.FromGo(v)
	})
	facts := interp.NewBuiltin("facts", func(th *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		f := pyops.From(th).Facts(interp.Context(th))
		env := starlark.NewDict(len(f.Env))
		for k, v := range f.Env {
			env.SetKey(starlark.String(k), starlark.String(v))
		}
		return starlarkstruct.FromStringDict(starlark.String("facts"), starlark.StringDict{
			"cwd": starlark.String(f.Cwd), "env": env,
		}), nil
	})
	return starlark.StringDict{"demo_io": &starlarkstruct.Module{Name: "demo_io", Members: starlark.StringDict{"call": call, "facts": facts}}}
}

// ioRegistry is the demo pack with a variant demo.foo@x, and a file pack
// of one tool with a variant file.info@stat (counted as an I/O
// operation). demo.foo@x answers by its text: "missing" and "outside"
// fail as a file variant would, "bin" returns bytes that are not UTF-8.
func ioRegistry(t *testing.T) *packs.Registry {
	reg := packs.NewRegistry()
	if err := demo.Register(reg); err != nil {
		t.Fatal(err)
	}
	info := &packs.Tool{Pack: "file", Name: "info", Annotations: packs.Annotations{ReadOnly: true},
		Handler: func(context.Context, map[string]any) (any, error) { return "the public tool", nil }}
	if err := reg.Register(info); err != nil {
		t.Fatal(err)
	}
	schema := `{"type": "object", "properties": {"text": {"type": "string"}}}`
	err := reg.RegisterVariants(
		&packs.Tool{Pack: "demo", Name: "foo", Variant: "x", InputSchema: schema, Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(ctx context.Context, args map[string]any) (any, error) {
				text, _ := args["text"].(string)
				switch text {
				case "missing":
					return nil, pyops.Tag(pyops.ErrNotFound, errors.New("no file missing"))
				case "outside":
					return nil, fmt.Errorf("%w: /etc/passwd is outside the allowed roots /work", roots.ErrOutside)
				}
				out := map[string]any{"echo": text, "scope": packs.ScopeFrom(ctx) != nil}
				if text == "bin" {
					c := map[string]any{}
					pyops.PutContent(c, []byte{0xff, 0, 'a'})
					out["content"] = c
				}
				return out, nil
			}},
		&packs.Tool{Pack: "file", Name: "info", Variant: "stat", InputSchema: schema, Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) { return map[string]any{"exists": true}, nil }},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// ioRunners are a runner in-process and one with isolation: process, on
// ioRegistry, each with its stats and audit log.
type ioRunner struct {
	name  string
	r     *Runner
	sink  *sinkLog
	audit *bytes.Buffer
}

func ioRunners(t *testing.T, opts ...Option) []ioRunner {
	var out []ioRunner
	for _, iso := range []bool{false, true} {
		sink, audit := &sinkLog{}, &bytes.Buffer{}
		o := append([]Option{WithRegistry(ioRegistry(t)), withGlobals(ioTestGlobals()), WithStatsSink(sink), WithAudit(auth.NewAudit(audit))}, opts...)
		name := "in-process"
		var r *Runner
		if iso {
			name = "isolated"
			r = isolated(t, Isolation{Workers: 1}, o...)
		} else {
			r = newRunner(t, o...)
			t.Cleanup(func() { r.Close() })
		}
		out = append(out, ioRunner{name, r, sink, audit})
	}
	return out
}

// The end-to-end path of Python's own I/O APIs (issue 31): a module calls
// a variant through pyops.From(thread); the call is demo.foo to stats,
// the audit log and policy, its kinds become Python's exceptions, bytes
// cross, and all of it the same in a worker of isolation: process.
func TestPyOpsVariantEndToEnd(t *testing.T) {
	allowed := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "demo.foo"}})
	without := principal("ci", "other", config.Policy{Allow: []string{"ot.*", "demo.bar"}})
	code := `r = demo_io.call('demo.foo@x', text='hi')
print(r['echo'], r['scope'])
print(demo_io.call('demo.foo@x', text='bin')['content'])
for text in ['missing', 'outside']:
    try:
        demo_io.call('demo.foo@x', text=text)
    except OSError as e:
        print(type(e).__name__, e)
print(demo.foo(text='test'))`
	want := `hi True
b'\xff\x00a'
FileNotFoundError [Errno 2] No such file or directory: 'missing'
PermissionError [Errno 13] outside the allowed roots: /etc/passwd is outside the allowed roots /work
orange`
	for _, ir := range ioRunners(t) {
		t.Run(ir.name, func(t *testing.T) {
			res := ir.r.Exec(context.Background(), code, AsPrincipal(allowed))
			if res.Err != nil || res.Printed != want {
				t.Fatalf("printed\n%s\nwant\n%s\n(%v)", res.Printed, want, res.Err)
			}
			// Four calls of the variant and one of the tool, all demo.foo.
			var ids []string
			for _, c := range ir.sink.calls {
				ids = append(ids, c.Tool)
			}
			if !slices.Equal(ids, []string{"demo.foo", "demo.foo", "demo.foo", "demo.foo", "demo.foo"}) {
				t.Errorf("stats: %v", ids)
			}
			if res.ToolCalls != 5 {
				t.Errorf("ToolCalls %d, want 5", res.ToolCalls)
			}
			// A policy without demo.foo refuses the variant: PermissionError.
			res = ir.r.Exec(context.Background(), "try:\n    demo_io.call('demo.foo@x', text='hi')\nexcept PermissionError as e:\n    print(e)", AsPrincipal(without))
			if res.Err != nil || res.Printed != "[Errno 13] demo.foo is not allowed by policy 'other'" {
				t.Errorf("refused: %q %v", res.Printed, res.Err)
			}
			var lines []auth.AuditEntry
			for _, l := range strings.Split(strings.TrimSpace(ir.audit.String()), "\n") {
				var e auth.AuditEntry
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, e)
			}
			if len(lines) != 2 || !slices.Equal(lines[0].Tools, []string{"demo.foo"}) || lines[0].Outcome != "ok" ||
				!slices.Equal(lines[1].Tools, []string{"demo.foo"}) || lines[1].Outcome != "denied" {
				t.Errorf("audit: %s", ir.audit)
			}
		})
	}
}

// Variants are never listed nor reachable as pack attributes: the
// program sees demo.foo, not demo.foo@x.
func TestVariantsHidden(t *testing.T) {
	r := newRunner(t, WithRegistry(ioRegistry(t)), withGlobals(ioTestGlobals()))
	defer r.Close()
	for _, code := range []string{`dir(demo)`, `ot.tools(info="min")`, `ot.help(query="foo")`, `[p["tools"] for p in ot.packs()]`} {
		res := r.Exec(context.Background(), code)
		if res.Err != nil || strings.Contains(res.Text, "@") || strings.Contains(res.Text, "info@") {
			t.Errorf("%s: %s", code, res.Text)
		}
	}
	if res := r.Exec(context.Background(), `file.info()`); res.Text != "the public tool" {
		t.Errorf("file.info is not the public tool: %s", res.Text)
	}
}

// limits.max_io_ops bounds the file pack's variants, which do not count
// as tool calls; other variants count against limits.max_tool_calls.
// Neither is catchable, and each names its setting.
func TestMaxIOOps(t *testing.T) {
	loop := "n = 0\nfor i in range(%d):\n    try:\n        demo_io.call('%s', text='a')\n        n += 1\n    except BaseException:\n        pass\nprint(n)"
	for _, ir := range ioRunners(t) {
		t.Run(ir.name, func(t *testing.T) {
			l := DefaultLimits()
			l.MaxIOOps, l.MaxToolCalls = 5, 3
			res := ir.r.Exec(context.Background(), fmt.Sprintf(loop, 5, "file.info@stat"), RunLimits(l))
			if res.Err != nil || res.Printed != "5" || res.ToolCalls != 0 {
				t.Errorf("5 operations, 0 tool calls: %q %v (%d calls)", res.Printed, res.Err, res.ToolCalls)
			}
			res = ir.r.Exec(context.Background(), fmt.Sprintf(loop, 6, "file.info@stat"), RunLimits(l))
			if !errors.Is(res.Err, interp.ErrLimit) || res.Text != "Error: I/O operation limit of 5 exceeded (open, os, pathlib…) at line 4 (set limits.max_io_ops to raise it)" {
				t.Errorf("6 operations: %q (%v)", res.Text, res.Err)
			}
			res = ir.r.Exec(context.Background(), fmt.Sprintf(loop, 4, "demo.foo@x"), RunLimits(l))
			if !errors.Is(res.Err, ErrToolCallLimit) || !strings.Contains(res.Text, "tool call limit of 3 exceeded at line 4 (set limits.max_tool_calls") {
				t.Errorf("a demo variant past max_tool_calls: %q (%v)", res.Text, res.Err)
			}
		})
	}
}

// security.environ: the named variables that are set reach os.environ
// (Facts.Env), a secret's never; with none named, nothing; cwd is the
// run's roots' base.
func TestSecurityEnviron(t *testing.T) {
	t.Setenv("OT_TEST_LANG", "fr_FR")
	t.Setenv("API_TOKEN", "named as a secret")
	t.Setenv("OT_TEST_HOLDS", "x "+secretValue+" y")
	cfg := secretConfig(t, "security:\n  environ: [OT_TEST_LANG, API_TOKEN, OT_TEST_HOLDS, OT_TEST_UNSET]\n")
	dir := t.TempDir()
	rr, err := roots.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	code := "f = demo_io.facts()\nprint(sorted(f.env.items()), f.cwd == " + fmt.Sprintf("%q", dir) + ")"
	for _, ir := range ioRunners(t, WithConfig(cfg)) {
		t.Run(ir.name, func(t *testing.T) {
			res := ir.r.Exec(context.Background(), code, RunRoots(rr))
			if res.Err != nil || res.Printed != "[('OT_TEST_LANG', 'fr_FR')] True" {
				t.Errorf("%q %v", res.Printed, res.Err)
			}
		})
	}
	plain := newRunner(t, WithRegistry(ioRegistry(t)), withGlobals(ioTestGlobals()))
	defer plain.Close()
	if res := plain.Exec(context.Background(), "print(demo_io.facts().env)"); res.Printed != "{}" {
		t.Errorf("without security.environ: %q %v", res.Printed, res.Err)
	}
}

type countCloser struct{ n *atomic.Int32 }

func (c countCloser) Close() error { c.n.Add(1); return nil }

// What a run's operations keep in its Scope is closed when the run ends,
// whether it succeeded or not, in-process and in the server of a worker;
// each input of a session has its own.
func TestScopeClosedAtRunEnd(t *testing.T) {
	for _, ir := range ioRunners(t) {
		t.Run(ir.name, func(t *testing.T) {
			var made, closed atomic.Int32
			type key struct{}
			keep := &packs.Tool{Pack: "demo", Name: "echo", Variant: "keep", Handler: func(ctx context.Context, _ map[string]any) (any, error) {
				s := packs.ScopeFrom(ctx)
				if s == nil {
					return nil, errors.New("no scope")
				}
				_, err := s.Value(key{}, func() (io.Closer, error) { made.Add(1); return countCloser{&closed}, nil })
				return "kept", err
			}}
			if err := ir.r.Registry().RegisterVariants(keep); err != nil {
				t.Fatal(err)
			}
			for i, code := range []string{"demo_io.call('demo.echo@keep')\ndemo_io.call('demo.echo@keep')", "demo_io.call('demo.echo@keep')\n1 // 0"} {
				res := ir.r.Exec(context.Background(), code)
				if (i == 0) != (res.Err == nil) {
					t.Fatalf("%s: %v", code, res.Err)
				}
				if made.Load() != int32(i+1) || closed.Load() != int32(i+1) {
					t.Errorf("after run %d: %d made, %d closed", i+1, made.Load(), closed.Load())
				}
			}
		})
	}
}

// os, imported by one input of a session, reads the environment of the
// input running now through the session's Host: a later input sees
// os.environ too (the module holds no thread of the input that ended).
func TestOSEnvironInASession(t *testing.T) {
	t.Setenv("OT_TEST_LANG", "fr_FR")
	cfg := secretConfig(t, "security:\n  environ: [OT_TEST_LANG]\n")
	r := newRunner(t, WithConfig(cfg))
	defer r.Close()
	s := r.NewSession()
	if res := s.Exec(context.Background(), "import os\nos.environ['OT_TEST_LANG']"); res.Text != "fr_FR" {
		t.Fatalf("first input: %s", res.Text)
	}
	if res := s.Exec(context.Background(), "os.environ.get('OT_TEST_LANG'), os.getenv('OT_TEST_LANG'), len(os.environ)"); res.Text != `["fr_FR","fr_FR",1]` {
		t.Errorf("a later input: %s", res.Text)
	}
}
