package stdlib

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The glob module (issue 31): Glob's matching (globmatch.go) over the
// directories the file pack lists (hostGlobFS), within the run's roots.
// iglob is a list's iterator: the matches are found at the call (bounded
// by the pack's listing caps and the run's budgets), not lazily.

// GlobModule is the glob module.
func GlobModule() *starlarkstruct.Module {
	fn := func(name string, f interp.BuiltinFunc) starlark.Value { return interp.NewBuiltin(name, f) }
	return &starlarkstruct.Module{Name: "glob", Members: starlark.StringDict{
		"glob":      fn("glob", globGlob),
		"iglob":     fn("iglob", globGlob),
		"escape":    fn("escape", globEscape),
		"has_magic": fn("has_magic", globHasMagic),
	}}
}

func globGlob(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pathV, rootV, dirFD, recursive, hidden starlark.Value = nil, starlark.None, starlark.None, starlark.False, starlark.False
	if err := (webParams{fn: b.Name(), names: []string{"pathname", "root_dir", "dir_fd", "recursive", "include_hidden"}, required: 1, maxPos: 1}).unpack(args, kwargs, &pathV, &rootV, &dirFD, &recursive, &hidden); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, pathV)
	if err != nil {
		return nil, err
	}
	root := ""
	if rootV != starlark.None {
		r, err := fsPathText(thread, rootV)
		if err != nil {
			return nil, err
		}
		root = r.s
	}
	found, err := Glob(interp.BudgetOf(thread), newHostGlobFS(thread), p.s, root, bool(recursive.Truth()), bool(hidden.Truth()))
	if err != nil {
		return nil, pyErr(err, p.s)
	}
	l, err := pathStrings(thread, found, p.bytes)
	if err != nil || b.Name() == "glob" {
		return l, err
	}
	i := 0
	return pyrt.NewIterator(thread, "generator", func(*starlark.Thread) (starlark.Value, bool, error) {
		if i >= l.Len() {
			return nil, false, nil
		}
		i++
		return l.Index(i - 1), true, nil
	}, l), nil
}

// globEscape is escape(pathname): each magic character in brackets.
func globEscape(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "escape", names: []string{"pathname"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, 3*len(p.s)); err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(p.s))
	for i := 0; i < len(p.s); i++ {
		c := p.s[i]
		if c == '*' || c == '?' || c == '[' {
			out = append(out, '[', c, ']')
		} else {
			out = append(out, c)
		}
	}
	return p.of(string(out)), nil
}

func globHasMagic(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "has_magic", names: []string{"s"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(GlobMagic(p.s)), nil
}
