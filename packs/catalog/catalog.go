// Package catalog renders what an agent reads before it calls a tool:
// one Python stub line per function,
//
//	query(sql: str, params: list = [], max_rows: int = 1000, db: str = "") -> list[dict]  # Run SQL and return the rows as dicts
//
// with the first sentence of its description, for the help of a pack
// (ot.help(query="db")), of a Python module, and for the server
// instructions when the whole catalog is small enough to carry in them
// (issue 29: agents read signatures, result shapes and table columns,
// never the prose). A pack may add a context section computed when its
// help is asked for (packs.ContextFunc: the db pack's tables, the file
// pack's roots, the web pack's hosts), bounded here in size and time.
//
// The types come from packs (Param.Stub, Tool.ResultStub: enums as
// Literal["a", "b"], objects as {key: type}); the result type may come
// from a hook instead (Options.Result), which says when it was learned
// from results seen rather than declared: the line then reads
// "-> T  # (seen) …".
package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs"
)

// ResultHook gives the type of a tool's result for its stub, and whether
// it was learned from results seen (true) rather than declared. An empty
// typ means "no better idea": the stub uses Tool.ResultStub.
type ResultHook func(t *packs.Tool) (typ string, seen bool)

// Options configure the rendering.
type Options struct {
	// Result, if set, gives each tool's result type; nil: from its
	// declared Returns or output schema (Tool.ResultStub).
	Result ResultHook
}

// Bounds of what an agent reads.
const (
	// PackBudget is the most characters a built-in pack's help takes,
	// its context section included when that is small: the lines narrow
	// (first sentences cut shorter, last optional parameters shown as
	// "…") until the help fits, down to MinWidth. A pack of more tools
	// (an upstream server's) gets ToolBudget characters a tool instead.
	PackBudget = 1200
	ToolBudget = 100
	// Width is a stub line's width when there is room.
	Width = 110
	// MinWidth is the narrowest a line gets to fit a budget.
	MinWidth = 60
	// ContextMax is the most characters of a pack's context section;
	// longer ones are cut at a line, saying so.
	ContextMax = 1000
	// ContextTimeout bounds the time a pack's context may take: help
	// never waits for a slow database.
	ContextTimeout = 2 * time.Second
	// SeenMarker starts the comment of a stub whose result type was
	// learned from results seen rather than declared.
	SeenMarker = "(seen) "
	// minComment is the room a first sentence keeps before the
	// signature gives up optional parameters for it.
	minComment = 20
)

// Stub is one tool's stub line, within about width characters:
//
//	read(path: str, offset: int = 1, limit: int = 2000) -> str  # Read a text file's lines, exactly as stored
//
// without the pack's name (the pack's help or catalog heads its lines).
// The first sentence is cut to the room left; when the signature itself
// is too long, its last optional parameters become "…". Required
// parameters are always shown.
func Stub(t *packs.Tool, width int, o Options) string { return newStub(t, o).render(width) }

// stub is a tool's line in parts, rendered at any width.
type stub struct {
	name, ret, sentence string
	parts               []string // "name: type = default"
	required            int      // parts that are required, first
}

func newStub(t *packs.Tool, o Options) *stub {
	ret, seen := resultType(t, o)
	params := t.Params()
	s := &stub{name: t.Name, ret: ret, parts: make([]string, len(params))}
	for i, p := range params {
		s.parts[i] = paramStub(p)
		if p.Required {
			s.required = i + 1
		}
	}
	s.sentence = strings.TrimSuffix(packs.FirstSentence(t.Description), ".")
	if seen {
		s.sentence = SeenMarker + s.sentence
	}
	return s
}

func (s *stub) signature(n int) string {
	var b strings.Builder
	b.WriteString(s.name)
	b.WriteByte('(')
	b.WriteString(strings.Join(s.parts[:n], ", "))
	if n < len(s.parts) {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString("…")
	}
	b.WriteString(") -> ")
	b.WriteString(s.ret)
	return b.String()
}

func (s *stub) render(width int) string {
	n := len(s.parts)
	sig := s.signature(n)
	for n > s.required && utf8.RuneCountInString(sig) > width-minComment {
		n--
		sig = s.signature(n)
	}
	if strings.TrimSpace(s.sentence) == "" {
		return sig
	}
	room := max(width-utf8.RuneCountInString(sig)-4, minComment/2)
	return sig + "  # " + strings.TrimSuffix(packs.Clip(s.sentence, room), ".")
}

// resultType is the hook's type when it has one, else the declared one.
func resultType(t *packs.Tool, o Options) (string, bool) {
	if o.Result != nil {
		if typ, seen := o.Result(t); typ != "" {
			return typ, seen
		}
	}
	return t.ResultStub(), false
}

// paramStub is "name: type", "name: type = default" or, optional without
// a default, "name: type = None". A long default is "...", as in a .pyi
// file: the tool's help has it.
func paramStub(p packs.Param) string {
	typ := p.Stub
	if typ == "" {
		typ = p.Type
	}
	s := p.Name + ": " + typ
	switch {
	case p.Required:
	case p.HasDefault:
		d := packs.Literal(p.Default)
		if utf8.RuneCountInString(d) > 24 {
			d = "..."
		}
		s += " = " + d
	default:
		s += " = None"
	}
	return s
}

// Lines are the stub lines of a pack's tools, in name order.
func Lines(p *packs.Pack, width int, o Options) []string {
	return render(stubs(p, o), width)
}

func stubs(p *packs.Pack, o Options) []*stub {
	tools := p.Tools()
	out := make([]*stub, len(tools))
	for i, t := range tools {
		out[i] = newStub(t, o)
	}
	return out
}

func render(stubs []*stub, width int) []string {
	out := make([]string, len(stubs))
	for i, s := range stubs {
		out[i] = s.render(width)
	}
	return out
}

// PackHelp is ot.help(query="pack"): the pack's name and description, a
// stub line per tool, its context (PackContext), and how to get one
// tool's whole help. It narrows the lines until it fits PackBudget
// characters (ToolBudget a tool for a pack of more than 12), down to
// MinWidth (a pack of many tools, or a long context, may not fit).
func PackHelp(ctx context.Context, p *packs.Pack, o Options) string {
	section := PackContext(ctx, p)
	all := stubs(p, o)
	budget := max(PackBudget, ToolBudget*len(all))
	var text string
	for width := Width; ; width -= 2 {
		text = packHelp(p, render(all, width), section)
		if utf8.RuneCountInString(text) <= budget || width-2 < MinWidth {
			return text
		}
	}
}

func packHelp(p *packs.Pack, lines []string, section string) string {
	var b strings.Builder
	b.WriteString(p.Name)
	if p.Description != "" {
		b.WriteString(" — " + p.Description)
	}
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString("\n")
		b.WriteString(l)
	}
	if section != "" {
		b.WriteString("\n\n")
		b.WriteString(section)
	}
	fmt.Fprintf(&b, "\n\nCall as %s.<function>(…); all of one: ot.help(query=\"%[1]s.<function>\").", p.Name)
	return b.String()
}

// PackContext is the pack's context section (packs.ContextFunc), at most
// ContextMax characters, computed within ContextTimeout: a function that
// overruns is no longer waited for, and the section says so. "" when the
// pack has none.
func PackContext(ctx context.Context, p *packs.Pack) string {
	fn := p.Context()
	if fn == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, ContextTimeout)
	defer cancel()
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- "(not available: internal error)"
			}
		}()
		done <- fn(ctx)
	}()
	var text string
	select {
	case text = <-done:
	case <-ctx.Done():
		// The function honours ctx and ends soon; its answer is not awaited.
		text = fmt.Sprintf("(not available: took longer than %s)", ContextTimeout)
	}
	return clipLines(strings.TrimSpace(text), ContextMax)
}

// clipLines cuts text to at most n characters at a line end, ending with
// a line that says how many lines were left out.
func clipLines(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		l = packs.Clip(l, Width)
		more := fmt.Sprintf("… %d more lines", len(lines)-i)
		if utf8.RuneCountInString(b.String())+utf8.RuneCountInString(l)+1+len(more) > n {
			b.WriteString(more)
			return b.String()
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// MaxTools is the most tools whose stub lines the server instructions
// carry (issue 29: an agent then needs no discovery call). With more, the
// instructions list the packs, a line each, and point to ot.help's
// search: a catalog of 40 tools is already about 3,000 characters.
const MaxTools = 40

// InstructionWidth is a stub line's width in the server instructions,
// which every conversation pays for.
const InstructionWidth = 96

// Entry is a pack of the instructions: its name and description, and its
// tools when they are known (an upstream server still connecting has
// none yet).
type Entry struct {
	Name, Description string
	Pack              *packs.Pack // nil when its tools are not known yet
}

// Carries reports whether the instructions can carry every stub line of
// entries: at most MaxTools tools in all, and every pack's tools known
// (a server still connecting may bring any number).
func Carries(entries []Entry) bool {
	n := 0
	for _, e := range entries {
		if e.Pack == nil {
			return false
		}
		n += len(e.Pack.ToolNames())
	}
	return n <= MaxTools
}

// Instructions lists the packs of entries, a line each ("- db: SQL over
// the databases…"), each followed, when catalog is true, by its stub
// lines indented by two spaces.
func Instructions(entries []Entry, catalog bool, o Options) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "- %s: %s\n", e.Name, strings.TrimSuffix(packs.FirstSentence(e.Description), "."))
		if !catalog || e.Pack == nil {
			continue
		}
		for _, l := range Lines(e.Pack, InstructionWidth, o) {
			b.WriteString("  ")
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
