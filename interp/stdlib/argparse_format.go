package stdlib

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// helpFmt is argparse.HelpFormatter at 80 columns (CPython's width when
// standard output is no terminal and COLUMNS is unset), with the
// behaviours of its subclasses by kind.
type helpFmt struct {
	prog                       string
	kind                       *pyClass
	width, maxHelpPos, current int
	actionMax                  int
	root, cur                  *hsection
	thread                     *starlark.Thread
}

type hsection struct {
	parent  *hsection
	heading string
	titled  bool
	items   []func() (string, error)
}

func (p *apParser) newFormatter() *helpFmt {
	prog, _ := interp.Str(nil, p.prog)
	f := &helpFmt{prog: prog, kind: p.formatter, width: 78, maxHelpPos: 24}
	f.root = &hsection{}
	f.cur = f.root
	return f
}

func apLen(s string) int { return utf8.RuneCountInString(s) }

func apSpaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

func (f *helpFmt) sectionHelp(s *hsection) (string, error) {
	if s.parent != nil {
		f.current += 2
	}
	var b strings.Builder
	for _, it := range s.items {
		t, err := it()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	if s.parent != nil {
		f.current -= 2
	}
	if b.Len() == 0 {
		return "", nil
	}
	heading := ""
	if s.titled {
		heading = apSpaces(f.current) + s.heading + ":\n"
	}
	return "\n" + heading + b.String() + "\n", nil
}

func (f *helpFmt) startSection(heading starlark.Value) {
	f.current += 2
	s := &hsection{parent: f.cur}
	if heading != nil && heading != starlark.None && !isSuppress(heading) {
		s.heading, _ = interp.Str(nil, heading)
		s.titled = true
	}
	f.cur.items = append(f.cur.items, func() (string, error) { return f.sectionHelp(s) })
	f.cur = s
}

func (f *helpFmt) endSection() {
	f.cur = f.cur.parent
	f.current -= 2
}

func (f *helpFmt) addText(thread *starlark.Thread, text string) {
	if text == "" || text == apSuppress {
		return
	}
	f.cur.items = append(f.cur.items, func() (string, error) { return f.formatText(thread, text) })
}

var longBreak = regexp.MustCompile(`\n\n\n+`)

func (f *helpFmt) formatHelp() (string, error) {
	h, err := f.sectionHelp(f.root)
	if err != nil || h == "" {
		return h, err
	}
	h = longBreak.ReplaceAllString(h, "\n\n")
	return strings.Trim(h, "\n") + "\n", nil
}

// formatText is format_help (all) or format_usage of p.
func (p *apParser) formatText(thread *starlark.Thread, all bool) (string, error) {
	f := p.newFormatter()
	f.thread = thread
	f.cur.items = append(f.cur.items, func() (string, error) {
		return f.formatUsage(thread, p.usage, p.actions, p.mutex, "usage: ")
	})
	if !all {
		return f.formatHelp()
	}
	f.addText(thread, apText(p.description))
	for _, g := range p.groups {
		f.startSection(g.title)
		f.addText(thread, apText(g.description))
		for _, a := range g.actions {
			f.addArgument(a)
		}
		f.endSection()
	}
	f.addText(thread, apText(p.epilog))
	return f.formatHelp()
}

func apText(v starlark.Value) string {
	if v == nil || v == starlark.None {
		return ""
	}
	s, _ := interp.Str(nil, v)
	return s
}

func (f *helpFmt) addArgument(a *apAction) {
	if isSuppress(a.help) {
		return
	}
	n := apLen(f.invocation(a))
	for _, sub := range a.subHelp {
		n = max(n, apLen(f.invocation(sub)))
	}
	f.actionMax = max(f.actionMax, n+f.current)
	f.cur.items = append(f.cur.items, func() (string, error) { return f.formatAction(a) })
}

func (f *helpFmt) metavars(a *apAction, deflt string, n int) []string {
	var out []string
	switch m := a.metavar.(type) {
	case starlark.Tuple:
		for _, x := range m {
			s, _ := interp.Str(nil, x)
			out = append(out, s)
		}
		return out
	case nil, starlark.NoneType:
		if a.kind == "parsers" || a.choices != nil && a.choices != starlark.None {
			strs, _ := choiceStrings(a, false)
			deflt = "{" + strings.Join(strs, ",") + "}"
		}
	default:
		deflt, _ = interp.Str(nil, m)
	}
	for range max(n, 1) {
		out = append(out, deflt)
	}
	return out
}

func (f *helpFmt) formatArgs(a *apAction, deflt string) string {
	switch a.nargs {
	case nargsNone:
		return f.metavars(a, deflt, 1)[0]
	case nargsOptional:
		return "[" + f.metavars(a, deflt, 1)[0] + "]"
	case nargsStar:
		m := f.metavars(a, deflt, 1)
		if len(m) == 2 {
			return "[" + m[0] + " [" + m[1] + " ...]]"
		}
		return "[" + m[0] + " ...]"
	case nargsPlus:
		m := f.metavars(a, deflt, 2)
		return m[0] + " [" + m[1] + " ...]"
	case nargsRemain:
		return "..."
	case nargsParser:
		return f.metavars(a, deflt, 1)[0] + " ..."
	case nargsSuppress:
		return ""
	}
	m := f.metavars(a, deflt, a.nargs)
	return strings.Join(m[:min(len(m), a.nargs)], " ")
}

func (f *helpFmt) defaultMetavar(a *apAction) string {
	if len(a.opts) > 0 {
		if f.kind == metavarTypeClass {
			return apTypeName(a.typ)
		}
		return strings.ToUpper(a.dest)
	}
	if f.kind == metavarTypeClass {
		return apTypeName(a.typ)
	}
	return a.dest
}

func (f *helpFmt) invocation(a *apAction) string {
	if len(a.opts) == 0 {
		return f.metavars(a, f.defaultMetavar(a), 1)[0]
	}
	if a.nargs == 0 {
		return strings.Join(a.opts, ", ")
	}
	args := f.formatArgs(a, f.defaultMetavar(a))
	parts := make([]string, len(a.opts))
	for i, o := range a.opts {
		parts[i] = o + " " + args
	}
	return strings.Join(parts, ", ")
}

func (f *helpFmt) formatAction(a *apAction) (string, error) {
	helpPos := min(f.actionMax+2, f.maxHelpPos)
	helpWidth := max(f.width-helpPos, 11)
	actionWidth := helpPos - f.current - 2
	header := f.invocation(a)
	help, hasHelp := apHelpText(a)
	var b strings.Builder
	indentFirst := 0
	switch {
	case !hasHelp || help == "":
		b.WriteString(apSpaces(f.current) + header + "\n")
	case apLen(header) <= actionWidth:
		b.WriteString(apSpaces(f.current) + header + apSpaces(actionWidth-apLen(header)) + "  ")
	default:
		b.WriteString(apSpaces(f.current) + header + "\n")
		indentFirst = helpPos
	}
	if hasHelp && strings.TrimSpace(help) != "" {
		text, err := f.expandHelp(a, help)
		if err != nil {
			return "", err
		}
		if text != "" {
			lines, err := f.splitLines(text, helpWidth)
			if err != nil {
				return "", err
			}
			if len(lines) > 0 {
				b.WriteString(apSpaces(indentFirst) + lines[0] + "\n")
				for _, l := range lines[1:] {
					b.WriteString(apSpaces(helpPos) + l + "\n")
				}
			}
		}
	} else if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	f.current += 2
	for _, sub := range a.subHelp {
		s, err := f.formatAction(sub)
		if err != nil {
			f.current -= 2
			return "", err
		}
		b.WriteString(s)
	}
	f.current -= 2
	return b.String(), nil
}

// expandHelp is help % the action's attributes (and prog).
func (f *helpFmt) expandHelp(a *apAction, help string) (string, error) {
	if f.kind == argDefaultsClass && !strings.Contains(help, "%(default)") && !isSuppress(a.deflt) &&
		(len(a.opts) > 0 || a.nargs == nargsOptional || a.nargs == nargsStar) {
		help += " (default: %(default)s)"
	}
	if !strings.Contains(help, "%") {
		return help, nil
	}
	d := starlark.NewDict(12)
	for _, k := range []string{"option_strings", "dest", "nargs", "const", "default", "type", "choices", "required", "help", "metavar"} {
		v, _ := a.Attr(k)
		if v == nil || isSuppress(v) {
			continue
		}
		if n, ok := apNameOf(v); ok {
			v = starlark.String(n)
		}
		if k == "choices" && v != starlark.None {
			strs, _ := choiceStrings(a, false)
			v = interp.MakeString(strings.Join(strs, ", "))
		}
		_ = d.SetKey(starlark.String(k), v)
	}
	if a.kind == "version" {
		_ = d.SetKey(starlark.String("version"), a.version)
	}
	_ = d.SetKey(starlark.String("prog"), interp.MakeString(f.prog))
	v, err := starlark.Call(f.thread, Builtins()["__ot_mod"], starlark.Tuple{interp.MakeString(help), d}, nil)
	if err != nil {
		return "", err
	}
	s, _ := interp.AsText(v)
	return s, nil
}

var asciiSpace = regexp.MustCompile(`[ \t\n\r\f\v]+`)

func (f *helpFmt) splitLines(text string, width int) ([]string, error) {
	if f.kind == rawTextClass {
		return pySplitLines(text, false), nil
	}
	text = strings.Trim(asciiSpace.ReplaceAllString(text, " "), " ")
	w := defaultWrapper()
	w.width = width
	return w.wrap(budgetOf(f.thread), text)
}

func budgetOf(thread *starlark.Thread) *interp.Budget {
	if thread == nil {
		return nil
	}
	return interp.BudgetOf(thread)
}

// pySplitLines is str.splitlines(keepends).
func pySplitLines(s string, keep bool) []string {
	var out []string
	rs := []rune(s)
	start := 0
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			end := i + 1
			if rs[i] == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
				end++
			}
			if keep {
				out = append(out, string(rs[start:end]))
			} else {
				out = append(out, string(rs[start:i]))
			}
			i = end - 1
			start = end
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

func (f *helpFmt) formatText(thread *starlark.Thread, text string) (string, error) {
	if strings.Contains(text, "%(prog)") {
		d := starlark.NewDict(1)
		_ = d.SetKey(starlark.String("prog"), interp.MakeString(f.prog))
		v, err := starlark.Call(thread, Builtins()["__ot_mod"], starlark.Tuple{interp.MakeString(text), d}, nil)
		if err != nil {
			return "", err
		}
		text, _ = interp.AsText(v)
	}
	width := max(f.width-f.current, 11)
	indent := apSpaces(f.current)
	if f.kind == rawDescriptionClass || f.kind == rawTextClass {
		var b strings.Builder
		for _, l := range pySplitLines(text, true) {
			b.WriteString(indent + l)
		}
		return b.String() + "\n\n", nil
	}
	text = strings.Trim(asciiSpace.ReplaceAllString(text, " "), " ")
	w := defaultWrapper()
	w.width = width
	w.initialText, w.initialIndent = indent, []rune(indent)
	w.subsequentText, w.subsequentIndent = indent, []rune(indent)
	lines, err := w.wrap(budgetOf(thread), text)
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n") + "\n\n", nil
}

// ---- usage ----

func (f *helpFmt) formatUsage(thread *starlark.Thread, usage starlark.Value, actions []*apAction, groups []*apGroup, prefix string) (string, error) {
	var text string
	switch {
	case usage != nil && usage != starlark.None:
		u, _ := interp.Str(nil, usage)
		d := starlark.NewDict(1)
		_ = d.SetKey(starlark.String("prog"), interp.MakeString(f.prog))
		v, err := starlark.Call(thread, Builtins()["__ot_mod"], starlark.Tuple{interp.MakeString(u), d}, nil)
		if err != nil {
			return "", err
		}
		text, _ = interp.AsText(v)
	case len(actions) == 0:
		text = f.prog
	default:
		var opts, pos []*apAction
		for _, a := range actions {
			if len(a.opts) > 0 {
				opts = append(opts, a)
			} else {
				pos = append(pos, a)
			}
		}
		all := f.actionsUsage(append(append([]*apAction(nil), opts...), pos...), groups)
		text = f.prog
		if all != "" {
			text += " " + all
		}
		tw := f.width - f.current
		if apLen(prefix)+apLen(text) > tw {
			optParts := usageParts(f.actionsUsage(opts, groups))
			posParts := usageParts(f.actionsUsage(pos, groups))
			getLines := func(parts []string, indent string, withPrefix bool) []string {
				var lines, line []string
				n := apLen(indent) - 1
				if withPrefix {
					n = apLen(prefix) - 1
				}
				for _, part := range parts {
					if n+1+apLen(part) > tw && len(line) > 0 {
						lines = append(lines, indent+strings.Join(line, " "))
						line = nil
						n = apLen(indent) - 1
					}
					line = append(line, part)
					n += apLen(part) + 1
				}
				if len(line) > 0 {
					lines = append(lines, indent+strings.Join(line, " "))
				}
				if withPrefix && len(lines) > 0 {
					lines[0] = lines[0][len(indent):]
				}
				return lines
			}
			var lines []string
			if float64(apLen(prefix)+apLen(f.prog)) <= 0.75*float64(tw) {
				indent := apSpaces(apLen(prefix) + apLen(f.prog) + 1)
				switch {
				case len(optParts) > 0:
					lines = getLines(append([]string{f.prog}, optParts...), indent, true)
					lines = append(lines, getLines(posParts, indent, false)...)
				case len(posParts) > 0:
					lines = getLines(append([]string{f.prog}, posParts...), indent, true)
				default:
					lines = []string{f.prog}
				}
			} else {
				indent := apSpaces(apLen(prefix))
				lines = getLines(append(append([]string(nil), optParts...), posParts...), indent, false)
				if len(lines) > 1 {
					lines = append(getLines(optParts, indent, false), getLines(posParts, indent, false)...)
				}
				lines = append([]string{f.prog}, lines...)
			}
			text = strings.Join(lines, "\n")
		}
	}
	return prefix + text + "\n\n", nil
}

// usageParts is re.findall(r'\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+').
func usageParts(s string) []string {
	var out []string
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	i := 0
	for i < len(s) {
		if isSpace(s[i]) {
			i++
			continue
		}
		end := -1
		if s[i] == '(' || s[i] == '[' {
			closer := byte(')')
			if s[i] == '[' {
				closer = ']'
			}
			for m := i + 1; m < len(s) && s[m] != '\n'; m++ {
				if s[m] != closer {
					continue
				}
				e := m
				for e < len(s) && s[e] == closer {
					e++
				}
				if e == len(s) || isSpace(s[e]) {
					end = e
					break
				}
			}
		}
		if end < 0 {
			end = i
			for end < len(s) && !isSpace(s[end]) {
				end++
			}
		}
		out = append(out, s[i:end])
		i = end
	}
	return out
}

var (
	openSpace  = regexp.MustCompile(`([\[(]) `)
	spaceClose = regexp.MustCompile(` ([\])])`)
	emptyPair  = regexp.MustCompile(`[\[(] *[\])]`)
)

func (f *helpFmt) actionsUsage(actions []*apAction, groups []*apGroup) string {
	inGroup := map[*apAction]bool{}
	inserts := map[int]string{}
	index := func(a *apAction) int {
		for i, x := range actions {
			if x == a {
				return i
			}
		}
		return -1
	}
	for _, g := range groups {
		if len(g.actions) == 0 {
			continue
		}
		start := index(g.actions[0])
		if start < 0 {
			continue
		}
		end := start + len(g.actions)
		if end > len(actions) {
			continue
		}
		match := true
		for i, a := range g.actions {
			match = match && actions[start+i] == a
		}
		if !match {
			continue
		}
		suppressed := 0
		for _, a := range g.actions {
			inGroup[a] = true
			if isSuppress(a.help) {
				suppressed++
			}
		}
		exposed := len(g.actions) - suppressed
		add := func(i int, s, sep string) {
			if old, ok := inserts[i]; ok {
				inserts[i] = old + sep + s
			} else {
				inserts[i] = s
			}
		}
		if !g.required {
			add(start, "[", " ")
			add(end, "]", "")
		} else if exposed > 1 {
			add(start, "(", " ")
			add(end, ")", "")
		}
		for i := start + 1; i < end; i++ {
			inserts[i] = "|"
		}
	}
	parts := make([]*string, 0, len(actions))
	for i, a := range actions {
		switch {
		case isSuppress(a.help):
			parts = append(parts, nil)
			if inserts[i] == "|" {
				delete(inserts, i)
			} else if inserts[i+1] == "|" {
				delete(inserts, i+1)
			}
		case len(a.opts) == 0:
			part := f.formatArgs(a, f.defaultMetavar(a))
			if inGroup[a] && len(part) >= 2 && part[0] == '[' && part[len(part)-1] == ']' {
				part = part[1 : len(part)-1]
			}
			parts = append(parts, &part)
		default:
			var part string
			if a.nargs == 0 {
				part = a.opts[0]
				if a.kind == "boolopt" {
					part = strings.Join(a.opts, " | ")
				}
			} else {
				part = a.opts[0] + " " + f.formatArgs(a, f.defaultMetavar(a))
			}
			if !a.required && !inGroup[a] {
				part = "[" + part + "]"
			}
			parts = append(parts, &part)
		}
	}
	keys := make([]int, 0, len(inserts))
	for k := range inserts {
		keys = append(keys, k)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(keys)))
	for _, k := range keys {
		s := inserts[k]
		if k > len(parts) {
			k = len(parts)
		}
		parts = append(parts[:k], append([]*string{&s}, parts[k:]...)...)
	}
	var strs []string
	for _, s := range parts {
		if s != nil {
			strs = append(strs, *s)
		}
	}
	text := strings.Join(strs, " ")
	text = openSpace.ReplaceAllString(text, "$1")
	text = spaceClose.ReplaceAllString(text, "$1")
	text = emptyPair.ReplaceAllString(text, "")
	return strings.TrimSpace(text)
}
