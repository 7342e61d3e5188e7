package main

import (
	"slices"
	"strings"

	"github.com/reeflective/readline"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
)

// completer completes Python at the REPL's cursor.
type completer struct {
	r *runner.Runner
	s *runner.Session
}

// keywords are the Python keywords worth completing (those of the
// constructs the front end accepts).
var keywords = []string{"and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
	"pass", "raise", "return", "try", "while", "with"}

// complete is the line editor's completer: see candidates.
func (c *completer) complete(line []rune, cursor int) readline.Completions {
	prefix, cands := c.candidates(string(line[:cursor]))
	comps := readline.CompleteRaw(cands).NoSort() // parameters in signature order
	comps.PREFIX = prefix
	return comps
}

// candidates completes the text before the cursor. It offers the functions
// of a pack after "pack." (as "pack.fn("), parameter names ("name=") and
// globals inside a tool call's parentheses, the globals elsewhere, and four
// spaces at the start of a line. prefix is the text before the cursor that
// a candidate's Value replaces.
func (c *completer) candidates(before string) (prefix string, cands []readline.Completion) {
	ctx, ok := scanContext(before)
	if !ok { // inside a string or a comment
		return "", nil
	}
	lineStart := strings.LastIndexByte(before, '\n') + 1
	if strings.TrimSpace(before[lineStart:]) == "" {
		// Tab at the start of a line indents, as in Python's REPL.
		return "", []readline.Completion{{Value: "    ", Display: "    "}}
	}
	word := trailingWord(before)
	type cand struct{ value, display, desc string }
	var list []cand
	if obj, partial, dotted := cutLast(word, "."); dotted {
		for _, m := range c.members(obj) {
			if strings.HasPrefix(m.name, partial) {
				list = append(list, cand{obj + "." + m.name, m.name, m.desc})
			}
		}
	} else {
		if t := c.tool(ctx.call); t != nil {
			for _, p := range t.Params() {
				if strings.HasPrefix(p.Name, word) {
					list = append(list, cand{p.Name + "=", p.Name + "=", p.Type})
				}
			}
			if word == "" || len(list) > 0 { // the parameters first: a call's own names
				goto done
			}
		}
		for _, g := range c.globals() {
			if strings.HasPrefix(g, word) {
				list = append(list, cand{g, g, ""})
			}
		}
	}
done:
	// The candidates replace the word. An empty prefix would make the line
	// editor replace the blank-separated word ("demo.foo(" before an empty
	// word): then complete that word, showing only the new part.
	lead := ""
	if word == "" {
		lead = blankWord(before)
	}
	for _, k := range list {
		cands = append(cands, readline.Completion{Value: lead + k.value, Display: k.display, Description: k.desc})
	}
	return lead + word, cands
}

// member is a name after "obj.".
type member struct{ name, desc string }

// members lists what completes after "obj.": a pack's functions (with
// "(" and the first sentence of their description) or the attributes of a
// library module.
func (c *completer) members(obj string) []member {
	var out []member
	if p, ok := c.r.Registry().Pack(obj); ok {
		for _, t := range p.Tools() {
			out = append(out, member{t.Name + "(", firstSentence(t.Description)})
		}
		return out
	}
	if m, ok := c.r.Globals()[obj].(*starlarkstruct.Module); ok {
		for _, n := range m.AttrNames() {
			out = append(out, member{n, ""})
		}
		return out
	}
	// A variable of the session: an instance's attributes and methods.
	names := c.s.AttrNames(obj)
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		if !strings.HasPrefix(n, "__") {
			out = append(out, member{n, ""})
		}
	}
	return out
}

// firstSentence shortens a description for a completion menu.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// tool resolves a callee such as "demo.foo" or an alias to its tool.
func (c *completer) tool(callee string) *packs.Tool {
	reg := c.r.Registry()
	aliases := c.r.Config().Aliases
	for range 10 { // aliases of aliases; cycles are configuration errors
		target, isAlias := aliases[callee]
		if !isAlias {
			break
		}
		callee = strings.ReplaceAll(target, ":", ".")
	}
	if t, ok := reg.Tool(callee); ok {
		return t
	}
	return nil
}

// globals lists every name a program can use at the top level.
func (c *completer) globals() []string {
	seen := map[string]bool{}
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			if !seen[n] && !strings.HasPrefix(n, "__") {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for _, p := range c.r.PackSummaries() {
		add(p.Name)
	}
	for n := range c.r.Config().Aliases {
		add(n)
	}
	add(c.s.Names()...)
	for n, v := range c.r.Globals() { // combinators, builtins, modules, proj
		if !interp.IsUnavailable(v) { // open(), eval(): there only to fail with a hint
			add(n)
		}
	}
	for n := range starlark.Universe {
		add(n)
	}
	add(keywords...)
	slices.Sort(out)
	return out
}

// callContext is where the cursor is in the text before it.
type callContext struct {
	call string // the callee of the innermost open '(' ("demo.foo"), if any
}

// scanContext scans the text before the cursor with Starlark's token
// rules for brackets, strings and comments. ok is false inside a string or
// a comment.
func scanContext(text string) (ctx callContext, ok bool) {
	type open struct {
		ch     byte
		callee string
	}
	var stack []open
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '#':
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return ctx, false
			}
			i += nl
		case '"', '\'':
			quote := string(ch)
			if strings.HasPrefix(text[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
			}
			j := i + len(quote)
			for ; j < len(text); j++ {
				if text[j] == '\\' {
					j++
					continue
				}
				if strings.HasPrefix(text[j:], quote) {
					break
				}
				if len(quote) == 1 && text[j] == '\n' {
					break
				}
			}
			if j >= len(text) {
				return ctx, false
			}
			i = j + len(quote) - 1
		case '(', '[', '{':
			o := open{ch: ch}
			if ch == '(' {
				o.callee = trailingWord(strings.TrimRight(text[:i], " \t"))
			}
			stack = append(stack, o)
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if n := len(stack); n > 0 && stack[n-1].ch == '(' {
		ctx.call = stack[n-1].callee
	}
	return ctx, true
}

// trailingWord is the dotted identifier that ends text ("demo.fo" in
// "x = demo.fo").
func trailingWord(text string) string {
	i := len(text)
	for i > 0 {
		ch := text[i-1]
		if ch == '_' || ch == '.' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' {
			i--
			continue
		}
		break
	}
	return text[i:]
}

// blankWord is the text after the last blank, as the line editor sees it.
func blankWord(text string) string {
	return text[strings.LastIndexAny(text, " \t\n")+1:]
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
