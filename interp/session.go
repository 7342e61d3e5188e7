package interp

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A Session runs programs one after another in shared globals, the way a
// REPL does (SPEC §8.4): a variable or function defined by one input is
// there for the next. Each input is compiled against the globals as they
// are, so `x = x + 1` works on the x of an earlier input; budgets, result
// capture, formatting and error texts are those of Exec, with lines
// counted from the start of each input.
//
// An input that uses a top-level return runs as the body of a function,
// as in Exec, so its assignments are local to it and do not persist.
//
// A Session is safe for concurrent use; its inputs run one at a time.
type Session struct {
	// busy holds a token while an input runs (or while one that overran
	// its deadline is still stopping): a channel, so that a waiting input
	// gives up when its own context ends.
	busy        chan struct{}
	predeclared starlark.StringDict
	globals     starlark.StringDict
	// cells are the variables inputs keep in cells (ModuleCell): their
	// values are the truth, copied to globals before and after each input.
	cells map[string]*Cell
	hint  string
	// strDigits is the limit on int–str conversion that inputs set with
	// sys.set_int_max_str_digits: it lasts for the session.
	strDigits intStrDigits
	// kept is what globals held after the last input, as the memory meter
	// counts it (0 when no input measured it): the next input's runs
	// start from it.
	kept uint64
	// host gives the instances an input makes the thread of the input
	// running now.
	host Host
}

// NewSession returns a session whose programs see predeclared (frozen,
// shared) and then their own globals. hint follows "'x' is not defined."
func NewSession(predeclared starlark.StringDict, hint string) *Session {
	s := &Session{predeclared: predeclared, hint: hint, busy: make(chan struct{}, 1)}
	s.Reset()
	return s
}

// Reset forgets every global the session's programs defined.
func (s *Session) Reset() {
	s.lock()
	defer s.unlock()
	s.globals = make(starlark.StringDict, len(s.predeclared))
	for k, v := range s.predeclared {
		s.globals[k] = v
	}
	s.cells = map[string]*Cell{}
	s.strDigits = intStrDigits{}
	s.kept = 0
	s.host.stopChildren()
}

// Names returns the globals the session's programs defined, sorted.
func (s *Session) Names() []string {
	s.lock()
	defer s.unlock()
	var out []string
	for k, v := range s.globals {
		if p, ok := s.predeclared[k]; ok && p == v {
			continue
		}
		if !strings.HasPrefix(k, "__ot_") {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// AttrNames returns the attributes of the session's global name, for a
// completion menu (an instance's own attributes and its class's); nil
// when it has none, or while an input runs.
func (s *Session) AttrNames(name string) []string {
	select {
	case s.busy <- struct{}{}:
	default:
		return nil
	}
	defer s.unlock()
	v, ok := s.globals[name]
	if c, isCell := s.cells[name]; isCell {
		v, ok = c.Value(), true
	}
	if !ok {
		return nil
	}
	if a, ok := v.(starlark.HasAttrs); ok {
		return a.AttrNames()
	}
	return nil
}

// Run executes code in the session's globals. opts.Predeclared is ignored:
// the session has its own.
//
// How: the session's globals are the predeclared names of each input, so
// a function defined by an earlier input reads the current value of a
// global whenever it runs. A name the input binds at top level becomes a
// global of the input's own module, initialised first from the session,
// so `x = x + 1` reads the x of before; the input's globals are copied
// back when it ends, even after an error.
func (s *Session) Run(ctx context.Context, code string, opts Options) (*Result, error) {
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return nil, &Error{Kind: KindCancelled, Msg: "cancelled while the session's previous input was still stopping", causes: []error{ErrCancelled, ctx.Err()}}
	}
	var finished func() // set when the input overran: waits for it to end
	cleanup := func() {}
	defer func() {
		if finished == nil {
			cleanup()
			s.unlock()
			return
		}
		// The input overran its deadline inside a Go call and still runs:
		// the session stays locked until it ends, so that the next input
		// never shares the globals with it.
		go func() {
			finished()
			cleanup()
			s.unlock()
		}()
	}()
	parse := opts.Parse
	if parse == nil {
		parse = ParseStarlark
	}
	var f *syntax.File
	var err error
	if opts.ParseWithCells != nil {
		// Never nil for an input of a session: the front end knows it
		// is one (earlier inputs may have made instances of classes).
		cells := slices.Sorted(maps.Keys(s.cells))
		if cells == nil {
			cells = []string{}
		}
		f, err = opts.ParseWithCells(code, cells)
	} else {
		f, err = parse(code)
	}
	if err != nil {
		return nil, syntaxError(code, err)
	}
	if err := checkLoads(code, f); err != nil {
		return nil, err
	}
	if len(f.Stmts) == 0 { // blank, or only comments
		return &Result{}, nil
	}
	p := &Program{src: code, format: literalFormat(f.Stmts)}
	p.wrapped, p.captures = shape(f)
	live, kept := rewriteGlobals(f)
	// Names the input assigns resolve as the session's from the start; a
	// placeholder stands in for new ones until the assignment runs, and
	// goes if it never does.
	var placeholders []string
	for _, name := range live {
		if _, ok := s.globals[name]; !ok {
			s.globals[name] = starlark.None
			placeholders = append(placeholders, name)
		}
	}
	assigned := map[string]bool{}
	cleanup = func() {
		for _, name := range placeholders {
			if !assigned[name] {
				delete(s.globals, name)
			}
		}
	}
	s.syncCells(nil)
	s.globals[setName] = s.setter(assigned)
	s.carryOver(f, kept)
	if p.prog, err = starlark.FileProgram(f, s.globals.Has); err != nil {
		return nil, resolveError(code, err, s.globals, s.hint)
	}
	opts.session, opts.cells, opts.strDigits, opts.sessionKept, opts.host = s.globals, s.cells, &s.strDigits, s.kept, &s.host
	res, globals, wait, err := p.exec(ctx, opts, s.globals)
	if wait != nil {
		finished = wait
		return nil, err
	}
	for k, v := range globals { // kept names, even after an error
		if v != nil && !strings.HasPrefix(k, "__ot_") {
			s.globals[k] = v
			assigned[k] = true
		}
	}
	s.syncCells(assigned)
	// What the session keeps counts against every run's budget (SPEC
	// §8.4); the watchdog only sees growth within one run, so a session
	// could otherwise grow by almost a budget per input.
	budget := uint64(opts.MaxMemory)
	if opts.Watchdog == nil {
		budget = 0
	}
	if budget > 0 || opts.SessionKept != nil {
		limit := budget
		if limit == 0 {
			limit = math.MaxUint64
		}
		size := sessionSize(s.globals, limit)
		s.kept = size
		if budget > 0 && size > budget {
			s.forget()
			if opts.SessionKept != nil {
				_ = opts.SessionKept(0)
			}
			msg := fmt.Sprintf("memory limit of %s exceeded by the variables this session keeps; they have all been cleared", FormatBytes(opts.MaxMemory))
			return nil, &Error{Kind: KindLimit, Msg: LimitMessage(msg, "", Setting(ErrMemoryLimit)), causes: []error{ErrMemoryLimit}}
		}
		if opts.SessionKept != nil {
			if kerr := opts.SessionKept(size); kerr != nil {
				s.forget()
				_ = opts.SessionKept(0)
				return nil, kerr
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// forget drops every variable the session keeps, those in cells too
// (a cell would put its value back at the next input). The session's
// lock is held.
func (s *Session) forget() {
	s.globals = maps.Clone(s.predeclared)
	s.cells = map[string]*Cell{}
	s.kept = 0
	s.host.stopChildren()
}

func (s *Session) lock()   { s.busy <- struct{}{} }
func (s *Session) unlock() { <-s.busy }

// syncCells makes the session's globals and its cells agree: a name the
// input assigned at top level (in assigned) sets its cell; every other
// name takes its cell's value, which a function may have changed.
func (s *Session) syncCells(assigned map[string]bool) {
	for name, c := range s.cells {
		v, ok := s.globals[name]
		switch {
		case assigned[name] && ok:
			c.value = v
		case c.value != nil:
			s.globals[name] = c.value
		case ok && s.predeclared[name] == nil:
			delete(s.globals, name) // deleted (del x) by a function
		}
	}
}

// setName is the builtin an input's global assignments become (see
// liveAssignments).
const setName = "__ot_set__"

// setter is the builtin __ot_set__(names, value): it stores value under
// one name, or unpacks it over a tuple of names, in the session's globals.
func (s *Session) setter(assigned map[string]bool) *starlark.Builtin {
	return starlark.NewBuiltin(setName, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		value := args[1]
		switch names := args[0].(type) {
		case starlark.String:
			s.globals[string(names)] = value
			assigned[string(names)] = true
		case starlark.Tuple:
			items, err := unpack(value, len(names))
			if err != nil {
				return nil, err
			}
			for i, n := range names {
				s.globals[string(n.(starlark.String))] = items[i]
				assigned[string(n.(starlark.String))] = true
			}
		}
		return starlark.None, nil
	})
}

// unpack is Starlark's `a, b = value` for n names.
func unpack(value starlark.Value, n int) ([]starlark.Value, error) {
	iter := starlark.Iterate(value)
	if iter == nil {
		return nil, fmt.Errorf("got %s in sequence assignment", value.Type())
	}
	defer iter.Done()
	var items []starlark.Value
	var x starlark.Value
	for iter.Next(&x) {
		if len(items) == n {
			return nil, fmt.Errorf("too many values to unpack (want %d)", n)
		}
		items = append(items, x)
	}
	if len(items) < n {
		return nil, fmt.Errorf("too few values to unpack (got %d, want %d)", len(items), n)
	}
	return items, nil
}

// rewriteGlobals rewrites the global assignments of f — `x = e`,
// `a, b = e`, `x += e` at top level, inside top-level if, for and while
// too — into calls of __ot_set__. It returns the names those assign
// (live) and the names f still binds as globals of its own module (kept):
// definitions, loop variables, nested unpacking.
//
// Why: Starlark gives every input its own module, and a function keeps
// the module it was defined in. Were x a global of the input that assigns
// it, a function defined then would see that input's x forever; as a
// session global it reads the current x whenever it runs, as in Python.
// Kept names are copied to the session when the input ends.
func rewriteGlobals(f *syntax.File) (live, kept []string) {
	seen := map[string]bool{}
	note := func(list *[]string, n string) {
		if !seen[n] {
			seen[n] = true
			*list = append(*list, n)
		}
	}
	var keep func(e syntax.Expr)
	keep = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Ident:
			note(&kept, e.Name)
		case *syntax.TupleExpr:
			for _, x := range e.List {
				keep(x)
			}
		case *syntax.ListExpr:
			for _, x := range e.List {
				keep(x)
			}
		case *syntax.ParenExpr:
			keep(e.X)
		}
	}
	var rewrite func([]syntax.Stmt)
	rewrite = func(stmts []syntax.Stmt) {
		for i, st := range stmts {
			switch st := st.(type) {
			case *syntax.AssignStmt:
				pos := syntax.Start(st)
				if id, ok := st.LHS.(*syntax.Ident); ok && !strings.HasPrefix(id.Name, "__") {
					value := st.RHS
					if st.Op != syntax.EQ { // x += e is x = x + e
						value = &syntax.BinaryExpr{X: &syntax.Ident{NamePos: id.NamePos, Name: id.Name}, OpPos: st.OpPos, Op: st.Op - syntax.PLUS_EQ + syntax.PLUS, Y: st.RHS}
					}
					note(&live, id.Name)
					stmts[i] = callStmt(pos, setName, strLit(pos, id.Name), value)
				} else if list := identList(st.LHS); st.Op == syntax.EQ && list != nil {
					targets := &syntax.TupleExpr{Lparen: pos, Rparen: pos}
					for _, n := range list {
						note(&live, n)
						targets.List = append(targets.List, strLit(pos, n))
					}
					stmts[i] = callStmt(pos, setName, targets, st.RHS)
				} else {
					keep(st.LHS)
				}
			case *syntax.DefStmt:
				keep(st.Name)
			case *syntax.ForStmt:
				keep(st.Vars)
				rewrite(st.Body)
			case *syntax.WhileStmt:
				rewrite(st.Body)
			case *syntax.IfStmt:
				rewrite(st.True)
				rewrite(st.False)
			}
		}
	}
	rewrite(f.Stmts)
	return live, kept
}

// identList returns the names of a tuple or list of plain names (`a, b`),
// or nil for any other target.
func identList(e syntax.Expr) []string {
	if p, ok := e.(*syntax.ParenExpr); ok {
		e = p.X
	}
	var list []syntax.Expr
	switch e := e.(type) {
	case *syntax.TupleExpr:
		list = e.List
	case *syntax.ListExpr:
		list = e.List
	default:
		return nil
	}
	var out []string
	for _, x := range list {
		id, ok := x.(*syntax.Ident)
		if !ok || strings.HasPrefix(id.Name, "__") {
			return nil
		}
		out = append(out, id.Name)
	}
	return out
}

// prevName is the builtin that hands an input the session's value of a
// name the input keeps as its own global (see carryOver).
const prevName = "__ot_prev__"

// carryOver starts f with `x = __ot_prev__("x")` for every kept name the
// session already has, so that f's own global x begins as the session's x
// (a loop over nothing leaves x as it was, as in Python).
func (s *Session) carryOver(f *syntax.File, kept []string) {
	var init []syntax.Stmt
	pos := syntax.Start(f.Stmts[0])
	for _, name := range kept {
		if _, ok := s.globals[name]; ok {
			init = append(init, &syntax.AssignStmt{
				OpPos: pos, Op: syntax.EQ,
				LHS: &syntax.Ident{NamePos: pos, Name: name},
				RHS: callStmt(pos, prevName, strLit(pos, name)).(*syntax.ExprStmt).X,
			})
		}
	}
	if len(init) == 0 {
		return
	}
	if _, ok := s.globals[prevName]; !ok {
		s.globals[prevName] = starlark.NewBuiltin(prevName, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			name, _ := starlark.AsString(args[0])
			return s.globals[name], nil
		})
	}
	f.Stmts = append(init, f.Stmts...)
}

// strLit is the string literal s at pos.
func strLit(pos syntax.Position, s string) syntax.Expr {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(s), Value: s}
}

// callStmt is the statement fn(args...) at pos.
func callStmt(pos syntax.Position, fn string, args ...syntax.Expr) syntax.Stmt {
	return &syntax.ExprStmt{X: &syntax.CallExpr{
		Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Rparen: pos, Args: args,
	}}
}
