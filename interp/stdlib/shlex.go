package stdlib

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// ShLex is the shlex module's functions for command lines as text:
// split (POSIX rules), quote and join. Programs start no processes; they
// parse and build command lines to show or to pass to a tool.
func ShLex() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "shlex", Members: starlark.StringDict{
		"split": interp.NewBuiltin("split", shlexSplit),
		"quote": interp.NewBuiltin("quote", shlexQuote),
		"join":  interp.NewBuiltin("join", shlexJoin),
	}}
}

// shlexWords splits s as a POSIX shell does: words at blanks; '…' keeps
// everything; "…" keeps everything but \" and \\, which lose their
// backslash; outside quotes a backslash keeps the next character; quoted
// and unquoted parts of a word join up; with comments, # to the end of
// the line is dropped.
func shlexWords(b *interp.Budget, s string, comments bool) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false // a word has begun (possibly empty: "")
	var g goBytes   // the words, Go's until the caller makes them values
	word := func() error {
		if err := g.add(b, int64(w.Len())+32); err != nil {
			return err
		}
		words = append(words, w.String())
		w.Reset()
		inWord = false
		return nil
	}
	// The text as runes, and its words (at most the text again).
	if err := b.Alloc(int64(len(s)) * 6); err != nil {
		return nil, err
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			if inWord {
				if err := word(); err != nil {
					return nil, err
				}
			}
		case comments && c == '#':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			if inWord {
				if err := word(); err != nil {
					return nil, err
				}
			}
		case c == '\\':
			if i+1 >= len(rs) {
				return nil, pyrt.Errorf("ValueError", "No escaped character")
			}
			i++
			w.WriteRune(rs[i])
			inWord = true
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != c; j++ {
				if c == '"' && rs[j] == '\\' && j+1 < len(rs) && (rs[j+1] == '"' || rs[j+1] == '\\') {
					j++
				}
				w.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, pyrt.Errorf("ValueError", "No closing quotation")
			}
			i = j
			inWord = true
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		if err := word(); err != nil {
			return nil, err
		}
	}
	return words, nil
}

// shlexSplit is split(s, comments=False, posix=True).
func shlexSplit(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sv, comments, posix starlark.Value
	if err := (webParams{fn: "split", names: []string{"s", "comments", "posix"}, required: 1, maxPos: 3}).unpack(args, kwargs, &sv, &comments, &posix); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(sv)
	if !ok {
		if sv == starlark.None {
			return nil, pyrt.Errorf("ValueError", "s argument must not be None")
		}
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'read'", pyrt.TypeName(sv))
	}
	if !flagArg(posix, true) {
		return nil, pyrt.Errorf("ValueError", "shlex.split(posix=False) is not supported: use the default POSIX rules")
	}
	words, err := shlexWords(interp.BudgetOf(thread), s, flagArg(comments, false))
	if err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(words))
	for i, w := range words {
		out[i] = interp.MakeString(w)
	}
	return starlark.NewList(out), nil
}

// shQuote is quote(s): s itself when every character is safe in a shell
// (ASCII letters, digits and @%+=:,./-_), else s in single quotes, each '
// written as '"'"'.
func shQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_@%+=:,./-", c))) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

func shlexQuote(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var sv starlark.Value
	if err := (webParams{fn: "quote", names: []string{"s"}, required: 1, maxPos: 1}).unpack(args, kwargs, &sv); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(sv)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(sv))
	}
	if err := webGrow(thread, 4*len(s)+2); err != nil {
		return nil, err
	}
	return interp.MakeString(shQuote(s)), nil
}

// shlexJoin is join(split_command): the words quoted, joined by spaces.
func shlexJoin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cmd starlark.Value
	if err := (webParams{fn: "join", names: []string{"split_command"}, required: 1, maxPos: 1}).unpack(args, kwargs, &cmd); err != nil {
		return nil, err
	}
	iter := starlark.Iterate(cmd)
	if iter == nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(cmd))
	}
	defer iter.Done()
	var parts []string
	size := 0
	var x starlark.Value
	for iter.Next(&x) {
		s, ok := interp.AsText(x)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(x))
		}
		q := shQuote(s)
		size += len(q) + 1
		if err := interp.BudgetOf(thread).Fits(int64(2 * size)); err != nil { // the parts, then the text
			return nil, err
		}
		if err := interp.BudgetOf(thread).Charge(uint64(len(s))/16 + 1); err != nil {
			return nil, err
		}
		parts = append(parts, q)
	}
	return interp.MakeString(strings.Join(parts, " ")), nil
}
