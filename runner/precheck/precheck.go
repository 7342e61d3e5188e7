// Package precheck finds the mistakes in a program's calls of tools
// before the program runs: a call of a function a pack does not have, an
// unknown keyword, a missing required argument, too many positional
// arguments, a literal of the wrong type. A program that fails at its
// twentieth line, after nineteen calls with side effects, costs the agent
// a second round trip and may leave half-done work; found first, every
// such mistake is reported at once and no tool runs.
//
// The check sees the calls written with a tool's name: pack.fn(...), an
// alias, call(pack.fn, ...), and the steps of plan([...]) and
// chain([...]) given as literals. A call it cannot see (a tool held in a
// variable, a name a program rebinds, *args) is checked when it is made,
// as before.
package precheck

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp/lowered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/proxy"
)

// Problem is one mistake of one call.
type Problem struct {
	Line int    // the user's line of the call
	Msg  string // as the call would have failed: "demo.foo: unknown parameter 'txt'. …"
}

// Error is the problems of a program, in the order of their lines.
type Error struct {
	Problems []Problem
}

// Error reads like the error of the first call that would have failed,
// then the others, one per line, then a note that nothing ran.
func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "line %d: %s", p.Line, p.Msg)
	}
	b.WriteString("\n(the program did not start: its tool calls were checked first, and no tool ran)")
	return b.String()
}

// Line is the line of the first problem.
func (e *Error) Line() int { return e.Problems[0].Line }

// Unwrap makes errors.Is(err, packs.ErrArgs) true: the program's calls
// do not fit their tools.
func (e *Error) Unwrap() error { return packs.ErrArgs }

// PythonClass is the class an uncaught error names (none: it is the
// call's own text).
func (e *Error) PythonClass() string { return "ToolError" }

// maxProblems bounds what one error lists: past it, the agent has enough
// to fix, and the text stays short.
const maxProblems = 20

// Check walks f, a program resolved against globals (the predeclared
// names of the run: packs, aliases, combinators), and returns the
// problems of the tool calls it can see, or nil.
func Check(f *syntax.File, globals starlark.StringDict) error {
	c := checker{globals: globals, typed: map[string]any{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(c.problems) < maxProblems {
			c.call(call)
		}
		return true
	})
	if len(c.problems) == 0 {
		return nil
	}
	slices.SortStableFunc(c.problems, func(a, b Problem) int { return a.Line - b.Line })
	return &Error{Problems: c.problems}
}

type checker struct {
	globals  starlark.StringDict
	problems []Problem

	// Buffers of args, reused from call to call.
	values []any          // each argument's literal value, or unknown{}
	names  []string       // the keywords, in order
	typed  map[string]any // the literal arguments by parameter
}

func (c *checker) add(pos syntax.Position, msg string) {
	c.problems = append(c.problems, Problem{Line: int(pos.Line), Msg: msg})
}

// predeclared returns the value of id when it names a predeclared global
// the program does not rebind.
func (c *checker) predeclared(x syntax.Expr) (starlark.Value, bool) {
	id, ok := x.(*syntax.Ident)
	if !ok {
		return nil, false
	}
	if b, ok := id.Binding.(*resolve.Binding); !ok || b.Scope != resolve.Predeclared {
		return nil, false
	}
	v, ok := c.globals[id.Name]
	return v, ok
}

// tool returns the tool fn names (pack.fn or an alias). A pack that has
// no such function is a problem; what the check cannot resolve (an
// upstream server's pack, a value that is not a pack) is not.
func (c *checker) tool(fn syntax.Expr) (*packs.Tool, bool) {
	switch fn := fn.(type) {
	case *syntax.DotExpr:
		return c.packTool(fn.X, fn.Name.Name, fn.Dot)
	case *syntax.CallExpr:
		// pack.fn read as a value where fn is named like a method of
		// Python's values: __ot_getmethod(pack, "fn").
		if id, ok := fn.Fn.(*syntax.Ident); ok && id.Name == lowered.GetMethod && len(fn.Args) == 2 {
			if name, ok := stringLit(fn.Args[1]); ok {
				if _, ok := c.predeclared(id); ok {
					return c.packTool(fn.Args[0], name, fn.Lparen)
				}
			}
		}
	case *syntax.Ident:
		v, ok := c.predeclared(fn)
		if !ok {
			return nil, false
		}
		if pt, ok := v.(*proxy.Tool); ok {
			return pt.Tool(), true
		}
	}
	return nil, false
}

func (c *checker) call(call *syntax.CallExpr) {
	if t, ok := c.tool(call.Fn); ok {
		c.args(call.Lparen, t, call.Args)
		return
	}
	if t, ok := c.loweredMethod(call); ok {
		c.args(call.Lparen, t, call.Args[1:])
		return
	}
	v, ok := c.predeclared(call.Fn)
	if !ok {
		return
	}
	b, ok := v.(*starlark.Builtin)
	if !ok {
		return
	}
	switch b.Name() {
	case "call":
		// call(pack.fn, *args, **kwargs): the rest are the tool's.
		if len(call.Args) > 0 && !isKeyword(call.Args[0]) && !isStar(call.Args[0]) {
			if t, ok := c.tool(call.Args[0]); ok {
				c.args(call.Lparen, t, call.Args[1:])
			}
		}
	case "plan", "chain":
		if len(call.Args) > 0 {
			if list, ok := call.Args[0].(*syntax.ListExpr); ok {
				for i, step := range list.List {
					c.step(step, b.Name(), i+1)
				}
			}
		}
	}
}

// loweredMethod finds pack.fn(...) where the Python front end wrote it
// as __ot_fn(pack, ...): a tool named like a method of Python's values
// (items, copy, count, …) is called through the helper that gives those
// methods their Python meaning.
func (c *checker) loweredMethod(call *syntax.CallExpr) (*packs.Tool, bool) {
	id, ok := call.Fn.(*syntax.Ident)
	if !ok || len(call.Args) == 0 {
		return nil, false
	}
	method, ok := lowered.Call(id.Name)
	if !ok {
		return nil, false
	}
	if _, ok := c.predeclared(id); !ok {
		return nil, false
	}
	return c.packTool(call.Args[0], method, call.Lparen)
}

// packTool returns the tool name of the pack x names.
func (c *checker) packTool(x syntax.Expr, name string, pos syntax.Position) (*packs.Tool, bool) {
	v, ok := c.predeclared(x)
	if !ok {
		return nil, false
	}
	if up, ok := v.(*proxy.UpstreamPack); ok {
		t, known, err := up.ResolveNow(name)
		if !known {
			return nil, false // the server is still connecting: checked at the call
		}
		if err != nil {
			c.add(pos, err.Error())
			return nil, false
		}
		return t, true
	}
	p, ok := v.(*proxy.Pack)
	if !ok {
		return nil, false
	}
	t, err := p.Attr(name)
	if err != nil {
		c.add(pos, err.Error())
		return nil, false
	}
	pt, ok := t.(*proxy.Tool)
	if !ok {
		return nil, false
	}
	return pt.Tool(), true
}

// marker stands for the argument at its index while binding: it tells
// which parameter each argument went to.
type marker int

// args checks the arguments of one call of t.
func (c *checker) args(pos syntax.Position, t *packs.Tool, args []syntax.Expr) {
	// Positional arguments come first in a call; the buffers are the
	// checker's, reused from call to call.
	c.values, c.names = c.values[:0], c.names[:0]
	n := 0
	for _, a := range args {
		if isStar(a) {
			// *args or **kwargs: which parameters get what is known only
			// when the call is made; the keywords written are still checked.
			c.keywords(pos, t, args)
			return
		}
		if k, ok := a.(*syntax.BinaryExpr); ok && k.Op == syntax.EQ {
			c.names = append(c.names, k.X.(*syntax.Ident).Name)
			c.values = append(c.values, literal(k.Y))
			continue
		}
		n++
		c.values = append(c.values, literal(a))
	}
	clear(c.typed)
	fits := t.BindsExactly(n, c.names, func(arg int, param string) {
		if known(c.values[arg]) {
			c.typed[param] = c.values[arg]
		}
	})
	if !fits {
		// Bind says what is wrong; the markers tell which parameter each
		// argument went to where it binds after all (a synonym, a prefix).
		positional := make([]any, n)
		for i := range positional {
			positional[i] = marker(i)
		}
		named := make([]packs.NamedArg, len(c.names))
		for j, k := range c.names {
			named[j] = packs.NamedArg{Name: k, Value: marker(n + j)}
		}
		bound, err := t.Bind(positional, named)
		if err != nil {
			c.add(pos, err.Error())
			return
		}
		for name, v := range bound {
			if m, ok := v.(marker); ok && known(c.values[m]) {
				c.typed[name] = c.values[m]
			}
		}
	}
	if len(c.typed) == 0 {
		return
	}
	if err := t.ValidateInput(c.typed); err != nil {
		var ve *packs.ValidationError
		if !errors.As(err, &ve) {
			return
		}
		// Only what the literals break: the other arguments are not known
		// yet, and required ones were checked by the binding.
		var kept []packs.Problem
		for _, p := range ve.Problems {
			if about(p.Path, c.typed) {
				kept = append(kept, p)
			}
		}
		if len(kept) > 0 {
			only := *ve
			only.Problems = kept
			c.add(pos, only.Error())
		}
	}
}

// keywords checks the keyword names of a call that also spreads *args or
// **kwargs.
func (c *checker) keywords(pos syntax.Position, t *packs.Tool, args []syntax.Expr) {
	for _, a := range args {
		if k, ok := a.(*syntax.BinaryExpr); ok && k.Op == syntax.EQ {
			if _, err := t.Bind(nil, []packs.NamedArg{{Name: k.X.(*syntax.Ident).Name}}); err != nil {
				var ae *packs.ArgError
				if errors.As(err, &ae) && ae.Kind == packs.ArgUnknown {
					c.add(pos, err.Error())
					return
				}
			}
		}
	}
}

// about reports whether a validation problem's path lies in one of args.
func about(path string, args map[string]any) bool {
	rest, ok := strings.CutPrefix(path, "args.")
	if !ok {
		return false
	}
	for name := range args {
		if after, ok := strings.CutPrefix(rest, name); ok && (after == "" || after[0] == '.' || after[0] == '[') {
			return true
		}
	}
	return false
}

// step checks one literal step of plan or chain (the combinator), the
// n-th: its tool exists and its literal args name the tool's parameters.
// Missing arguments and types are left to the call: a plan fills ${…}
// references and a chain passes the previous result.
func (c *checker) step(x syntax.Expr, combinator string, n int) {
	d, ok := x.(*syntax.DictExpr)
	if !ok {
		return
	}
	var toolName, id string
	var toolPos syntax.Position
	var args *syntax.DictExpr
	for _, e := range d.List {
		entry := e.(*syntax.DictEntry)
		key, ok := stringLit(entry.Key)
		if !ok {
			continue
		}
		switch key {
		case "tool":
			if s, ok := stringLit(entry.Value); ok {
				toolName, toolPos = s, entry.Colon
			}
		case "args":
			args, _ = entry.Value.(*syntax.DictExpr)
		case "id":
			id, _ = stringLit(entry.Value)
		}
	}
	prefix := fmt.Sprintf("%s step %d: ", combinator, n)
	if id != "" {
		prefix = fmt.Sprintf("%s step '%s': ", combinator, id)
	}
	pack, fn, ok := strings.Cut(toolName, ".")
	if !ok {
		return
	}
	v, ok := c.globals[pack]
	if !ok {
		return
	}
	p, ok := v.(*proxy.Pack)
	if !ok {
		return
	}
	tv, err := p.Attr(fn)
	if err != nil {
		c.add(toolPos, prefix+err.Error())
		return
	}
	pt, ok := tv.(*proxy.Tool)
	if !ok || args == nil {
		return
	}
	for _, e := range args.List {
		entry := e.(*syntax.DictEntry)
		name, ok := stringLit(entry.Key)
		if !ok {
			continue
		}
		if _, err := pt.Tool().Bind(nil, []packs.NamedArg{{Name: name}}); err != nil {
			var ae *packs.ArgError
			if errors.As(err, &ae) && (ae.Kind == packs.ArgUnknown || ae.Kind == packs.ArgAmbiguous) {
				c.add(entry.Colon, prefix+err.Error())
			}
		}
	}
}

func isKeyword(x syntax.Expr) bool {
	b, ok := x.(*syntax.BinaryExpr)
	return ok && b.Op == syntax.EQ
}

func isStar(x syntax.Expr) bool {
	u, ok := x.(*syntax.UnaryExpr)
	return ok && (u.Op == syntax.STAR || u.Op == syntax.STARSTAR)
}

func stringLit(x syntax.Expr) (string, bool) {
	l, ok := x.(*syntax.Literal)
	if !ok || l.Token != syntax.STRING {
		return "", false
	}
	s, ok := l.Value.(string)
	return s, ok
}

// unknown is the value of an argument the check cannot know.
type unknown struct{}

func known(v any) bool {
	_, u := v.(unknown)
	return !u
}

// literal returns the Go value of a literal argument (a number, a
// string, True, False, None, or a list of them), or unknown{}.
func literal(x syntax.Expr) any {
	switch x := x.(type) {
	case *syntax.Literal:
		switch x.Token {
		case syntax.STRING:
			return x.Value
		case syntax.INT:
			if n, ok := x.Value.(int64); ok {
				return n
			}
		case syntax.FLOAT:
			return x.Value
		}
	case *syntax.UnaryExpr:
		if x.Op == syntax.MINUS {
			switch v := literal(x.X).(type) {
			case int64:
				return -v
			case float64:
				return -v
			}
		}
	case *syntax.Ident:
		b, ok := x.Binding.(*resolve.Binding)
		if !ok || b.Scope != resolve.Universal {
			return unknown{}
		}
		switch x.Name {
		case "True":
			return true
		case "False":
			return false
		case "None":
			return nil
		}
	case *syntax.ListExpr:
		out := make([]any, len(x.List))
		for i, e := range x.List {
			if out[i] = literal(e); !known(out[i]) {
				return unknown{}
			}
		}
		return out
	}
	return unknown{}
}
