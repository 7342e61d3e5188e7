package stdlib

import (
	"errors"
	"strings"
	"unicode"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// TextWrap is the textwrap module. Wrapping splits text into chunks as
// CPython's TextWrapper does (its word-separating expression, which RE2
// cannot run, is followed by hand here) and fills lines by CPython's
// rules, so lines break where CPython breaks them.
func TextWrap() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "textwrap", Members: starlark.StringDict{
		"wrap":        interp.NewBuiltin("wrap", twWrap),
		"fill":        interp.NewBuiltin("fill", twFill),
		"shorten":     interp.NewBuiltin("shorten", twShorten),
		"dedent":      interp.NewBuiltin("dedent", twDedent),
		"indent":      interp.NewBuiltin("indent", twIndent),
		"TextWrapper": interp.NewBuiltin("TextWrapper", twNew),
	}}
}

// wrapper is a TextWrapper's settings.
type wrapper struct {
	width                           int
	initialIndent, subsequentIndent []rune
	expandTabs, replaceWhitespace   bool
	fixSentenceEndings              bool
	breakLongWords, dropWhitespace  bool
	breakOnHyphens                  bool
	tabsize                         int
	maxLines                        int // 0: none
	placeholder                     []rune
	hasMaxLines                     bool
	initialText, subsequentText, ph string
}

func defaultWrapper() *wrapper {
	w := &wrapper{width: 70, expandTabs: true, replaceWhitespace: true, breakLongWords: true,
		dropWhitespace: true, breakOnHyphens: true, tabsize: 8, placeholder: []rune(" [...]"), ph: " [...]"}
	return w
}

// set applies TextWrapper's keyword arguments.
func (w *wrapper) set(kwargs []starlark.Tuple) error {
	for _, kv := range kwargs {
		key, _ := starlark.AsString(kv[0])
		if err := w.setAttr(key, kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func (w *wrapper) setAttr(key string, v starlark.Value) error {
	text := func() (string, error) {
		s, ok := interp.AsText(v)
		if !ok {
			return "", pyrt.Errorf("TypeError", "%s must be a str, not %s", key, pyrt.TypeName(v))
		}
		return s, nil
	}
	integer := func() (int, error) {
		var n int
		if err := starlark.AsInt(v, &n); err != nil {
			return 0, pyrt.Errorf("TypeError", "%s must be an int, not %s", key, pyrt.TypeName(v))
		}
		return n, nil
	}
	var err error
	switch key {
	case "width":
		w.width, err = integer()
	case "initial_indent":
		w.initialText, err = text()
		w.initialIndent = []rune(w.initialText)
	case "subsequent_indent":
		w.subsequentText, err = text()
		w.subsequentIndent = []rune(w.subsequentText)
	case "placeholder":
		w.ph, err = text()
		w.placeholder = []rune(w.ph)
	case "expand_tabs":
		w.expandTabs = bool(v.Truth())
	case "replace_whitespace":
		w.replaceWhitespace = bool(v.Truth())
	case "fix_sentence_endings":
		w.fixSentenceEndings = bool(v.Truth())
	case "break_long_words":
		w.breakLongWords = bool(v.Truth())
	case "drop_whitespace":
		w.dropWhitespace = bool(v.Truth())
	case "break_on_hyphens":
		w.breakOnHyphens = bool(v.Truth())
	case "tabsize":
		w.tabsize, err = integer()
	case "max_lines":
		if v == starlark.None {
			w.hasMaxLines = false
			return nil
		}
		w.maxLines, err = integer()
		w.hasMaxLines = true
	default:
		return pyrt.Errorf("TypeError", "TextWrapper.__init__() got an unexpected keyword argument '%s'", key)
	}
	return err
}

// isTWSpace is textwrap's whitespace: ASCII only, as CPython's module.
func isTWSpace(c rune) bool {
	switch c {
	case '\t', '\n', '\x0b', '\x0c', '\r', ' ':
		return true
	}
	return false
}

// isWordChar is the regular expression class \w.
func isWordChar(c rune) bool {
	return c == '_' || unicode.IsLetter(c) || unicode.IsNumber(c)
}

// isLetter is [^\d\W]: a word character that is not a digit.
func isLetter(c rune) bool { return isWordChar(c) && !unicode.IsDigit(c) }

// isWordPunct is [\w!"'&.,?].
func isWordPunct(c rune) bool {
	return isWordChar(c) || strings.ContainsRune(`!"'&.,?`, c)
}

// munge expands tabs and turns each whitespace character into a space.
func (w *wrapper) munge(b *interp.Budget, text []rune) ([]rune, error) {
	if w.expandTabs {
		var err error
		if text, err = expandTabs(b, text, w.tabsize); err != nil {
			return nil, err
		}
	}
	if w.replaceWhitespace {
		for i, c := range text {
			if isTWSpace(c) {
				text[i] = ' '
			}
		}
	}
	return text, nil
}

// expandTabs is str.expandtabs(tabsize). Its length is counted first: a
// tab of a huge tabsize is that many spaces, refused before they are
// made when they would pass the memory budget (and wrap's chunks of
// them many times more).
func expandTabs(b *interp.Budget, text []rune, tabsize int) ([]rune, error) {
	n, col := int64(0), int64(0)
	for _, c := range text {
		switch c {
		case '\t':
			if tabsize > 0 {
				k := int64(tabsize) - col%int64(tabsize)
				n, col = n+k, col+k
			}
		case '\n', '\r':
			n, col = n+1, 0
		default:
			n, col = n+1, col+1
		}
		if n > 1<<40 {
			break
		}
	}
	if err := b.Alloc(n * 12); err != nil {
		return nil, err
	}
	out := make([]rune, 0, n)
	col = 0
	for _, c := range text {
		switch c {
		case '\t':
			if tabsize > 0 {
				k := int64(tabsize) - col%int64(tabsize)
				for range k {
					out = append(out, ' ')
				}
				col += k
			}
		case '\n', '\r':
			out = append(out, c)
			col = 0
		default:
			out = append(out, c)
			col++
		}
	}
	return out, nil
}

// split cuts text into chunks: runs of whitespace, and words, broken
// after hyphens between letters and before em-dashes when
// break_on_hyphens is set, as CPython's wordsep_re matches them.
func (w *wrapper) split(b *interp.Budget, text []rune) ([][]rune, error) {
	var chunks [][]rune
	at := func(i int) rune {
		if i < 0 || i >= len(text) {
			return -1
		}
		return text[i]
	}
	for i := 0; i < len(text); {
		if err := pace(b, len(chunks)); err != nil {
			return nil, err
		}
		end := i + 1
		switch {
		case isTWSpace(text[i]):
			for end < len(text) && isTWSpace(text[end]) {
				end++
			}
		case !w.breakOnHyphens:
			for end < len(text) && !isTWSpace(text[end]) {
				end++
			}
		case text[i] == '-' && at(i+1) == '-' && i > 0 && isWordPunct(text[i-1]) && dashesThenWord(text, i):
			for text[end] == '-' {
				end++
			}
		default:
			end = wordEnd(text, i)
		}
		chunks = append(chunks, text[i:end])
		i = end
	}
	return chunks, nil
}

// dashesThenWord reports whether text[i:] is two or more dashes and a
// word character.
func dashesThenWord(text []rune, i int) bool {
	j := i
	for j < len(text) && text[j] == '-' {
		j++
	}
	return j-i >= 2 && j < len(text) && isWordChar(text[j])
}

// wordEnd is where the word starting at i ends: the shortest run of
// non-whitespace followed by a hyphen between letters (taken with
// it), by whitespace or the end, or by an em-dash after punctuation.
func wordEnd(text []rune, i int) int {
	lt := func(k int) bool { return k >= 0 && k < len(text) && isLetter(text[k]) }
	for j := i + 1; ; j++ {
		if j >= len(text) || isTWSpace(text[j]) {
			return j
		}
		if text[j] == '-' {
			before := (lt(j-2) && lt(j-1)) || (lt(j-3) && j-2 >= 0 && text[j-2] == '-' && lt(j-1))
			after := lt(j+1) && (lt(j+2) || (j+2 < len(text) && text[j+2] == '-' && lt(j+3)))
			if before && after {
				return j + 1
			}
			if isWordPunct(text[j-1]) && dashesThenWord(text, j) {
				return j
			}
		}
	}
}

// isBlank is chunk.strip() == "".
func isBlank(chunk []rune) bool {
	for _, c := range chunk {
		if !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// fixSentences puts two spaces after a sentence's end.
func fixSentences(chunks [][]rune) {
	for i := 0; i < len(chunks)-1; {
		c := chunks[i]
		if string(chunks[i+1]) == " " && sentenceEnd(c) {
			chunks[i+1] = []rune("  ")
			i += 2
		} else {
			i++
		}
	}
}

// sentenceEnd is CPython's [a-z][\.\!\?][\"\']?\Z.
func sentenceEnd(c []rune) bool {
	n := len(c)
	if n > 0 && (c[n-1] == '"' || c[n-1] == '\'') {
		n--
	}
	return n >= 2 && strings.ContainsRune(".!?", c[n-1]) && c[n-2] >= 'a' && c[n-2] <= 'z'
}

// wrap is TextWrapper.wrap(text).
func (w *wrapper) wrap(b *interp.Budget, text string) ([]string, error) {
	if err := b.Charge(uint64(len(text)) / 16); err != nil {
		return nil, err
	}
	// Its runes, munged, and a chunk (a slice) per character at most.
	if err := b.Alloc(int64(len(text))*36 + 64); err != nil {
		return nil, err
	}
	munged, err := w.munge(b, []rune(text))
	if err != nil {
		return nil, err
	}
	chunks, err := w.split(b, munged)
	if err != nil {
		return nil, err
	}
	if w.fixSentenceEndings {
		fixSentences(chunks)
	}
	return w.wrapChunks(b, chunks)
}

func chunksLen(chunks [][]rune) int {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	return n
}

func joinChunks(indent []rune, chunks [][]rune) string {
	var sb strings.Builder
	sb.WriteString(string(indent))
	for _, c := range chunks {
		sb.WriteString(string(c))
	}
	return sb.String()
}

// wrapChunks is CPython's _wrap_chunks: chunks taken from the front,
// line by line.
func (w *wrapper) wrapChunks(b *interp.Budget, chunks [][]rune) ([]string, error) {
	if w.width <= 0 {
		return nil, pyrt.Errorf("ValueError", "invalid width %d (must be > 0)", w.width)
	}
	if w.hasMaxLines {
		indent := w.initialIndent
		if w.maxLines > 1 {
			indent = w.subsequentIndent
		}
		if len(indent)+len([]rune(strings.TrimLeftFunc(w.ph, unicode.IsSpace))) > w.width {
			return nil, pyrt.Errorf("ValueError", "placeholder too large for max width")
		}
	}
	var lines []string
	size := 0 // of the lines so far, joined
	for len(chunks) > 0 {
		if len(lines) > 0 {
			size += len(lines[len(lines)-1]) + 1
		}
		var cur [][]rune
		curLen := 0
		indent := w.initialIndent
		if len(lines) > 0 {
			indent = w.subsequentIndent
		}
		// Each line copies its indent: a long indent over many short
		// lines makes a text far longer than the input.
		if err := b.Charge(1 + uint64(len(indent))/16); err != nil {
			return nil, err
		}
		if err := b.Fits(int64(size + len(indent))); err != nil {
			return nil, err
		}
		width := w.width - len(indent)
		if w.dropWhitespace && isBlank(chunks[0]) && len(lines) > 0 {
			chunks = chunks[1:]
		}
		for len(chunks) > 0 {
			l := len(chunks[0])
			if curLen+l > width {
				break
			}
			if err := b.Charge(1 + uint64(l)/16); err != nil {
				return nil, err
			}
			cur = append(cur, chunks[0])
			chunks = chunks[1:]
			curLen += l
		}
		if len(chunks) > 0 && len(chunks[0]) > width {
			if err := b.Charge(uint64(len(chunks[0])) / 16); err != nil {
				return nil, err
			}
			cur, chunks = w.handleLongWord(chunks, cur, curLen, width)
			curLen = chunksLen(cur)
		}
		if w.dropWhitespace && len(cur) > 0 && isBlank(cur[len(cur)-1]) {
			curLen -= len(cur[len(cur)-1])
			cur = cur[:len(cur)-1]
		}
		if len(cur) == 0 {
			continue
		}
		rest := len(chunks) == 0 || (w.dropWhitespace && len(chunks) == 1 && isBlank(chunks[0]))
		if !w.hasMaxLines || len(lines)+1 < w.maxLines || rest && curLen <= width {
			lines = append(lines, joinChunks(indent, cur))
			continue
		}
		placed := false
		for len(cur) > 0 {
			if !isBlank(cur[len(cur)-1]) && curLen+len(w.placeholder) <= width {
				cur = append(cur, w.placeholder)
				lines = append(lines, joinChunks(indent, cur))
				placed = true
				break
			}
			curLen -= len(cur[len(cur)-1])
			cur = cur[:len(cur)-1]
		}
		if !placed {
			if len(lines) > 0 {
				prev := strings.TrimRightFunc(lines[len(lines)-1], unicode.IsSpace)
				if len([]rune(prev))+len(w.placeholder) <= w.width {
					lines[len(lines)-1] = prev + w.ph
					break
				}
			}
			lines = append(lines, string(indent)+strings.TrimLeftFunc(w.ph, unicode.IsSpace))
		}
		break
	}
	return lines, nil
}

// handleLongWord breaks the first chunk, too long for any line, to fill
// the current line (after a hyphen when it can), or takes it whole when
// long words are not broken and the line is empty. The chunk left over
// stays first in chunks (empty when all of it was taken, as CPython
// leaves it).
func (w *wrapper) handleLongWord(chunks [][]rune, cur [][]rune, curLen, width int) ([][]rune, [][]rune) {
	spaceLeft := 1
	if width >= 1 {
		spaceLeft = width - curLen
	}
	chunk := chunks[0]
	if w.breakLongWords {
		end := spaceLeft
		if w.breakOnHyphens && len(chunk) > spaceLeft {
			hyphen := -1
			for k := min(spaceLeft, len(chunk)) - 1; k >= 0; k-- {
				if chunk[k] == '-' {
					hyphen = k
					break
				}
			}
			if hyphen > 0 {
				for _, c := range chunk[:hyphen] {
					if c != '-' {
						end = hyphen + 1
						break
					}
				}
			}
		}
		end = min(max(end, 0), len(chunk))
		cur = append(cur, chunk[:end])
		chunks[0] = chunk[end:]
	} else if len(cur) == 0 {
		cur = append(cur, chunk)
		chunks = chunks[1:]
	}
	return cur, chunks
}

// twArgs reads (text, width=70, **kwargs) into a wrapper.
func twArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple) (string, *wrapper, error) {
	w := defaultWrapper()
	var text starlark.Value
	var rest []starlark.Tuple
	width := starlark.Value(nil)
	for _, kv := range kwargs {
		switch key, _ := starlark.AsString(kv[0]); key {
		case "text":
			text = kv[1]
		case "width":
			width = kv[1]
		default:
			rest = append(rest, kv)
		}
	}
	switch {
	case len(args) > 2:
		return "", nil, pyrt.Errorf("TypeError", "%s() takes from 1 to 2 positional arguments but %d were given", fn, len(args))
	case len(args) == 2:
		width = args[1]
		fallthrough
	case len(args) == 1:
		text = args[0]
	}
	if text == nil {
		return "", nil, pyrt.Errorf("TypeError", "%s() missing 1 required positional argument: 'text'", fn)
	}
	if width != nil {
		if err := w.setAttr("width", width); err != nil {
			return "", nil, err
		}
	}
	if err := w.set(rest); err != nil {
		return "", nil, err
	}
	s, ok := interp.AsText(text)
	if !ok {
		return "", nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'expandtabs'", pyrt.TypeName(text))
	}
	return s, w, nil
}

func stringList(lines []string) starlark.Value {
	out := make([]starlark.Value, len(lines))
	for i, l := range lines {
		out[i] = interp.MakeString(l)
	}
	return starlark.NewList(out)
}

// twLines is textwrap.wrap's work, shared by wrap and fill.
func twLines(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) ([]string, error) {
	text, w, err := twArgs(fn.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	return w.wrap(interp.BudgetOf(thread), text)
}

func twWrap(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	lines, err := twLines(thread, fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return stringList(lines), nil
}

func twFill(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	lines, err := twLines(thread, fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(strings.Join(lines, "\n")), nil
}

func twShorten(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "shorten() takes 2 positional arguments but %d were given", len(args))
	}
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "shorten() missing 2 required positional arguments: 'text' and 'width'")
	}
	if len(args) < 2 {
		hasWidth := false
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == "width" {
				hasWidth = true
			}
		}
		if !hasWidth {
			return nil, pyrt.Errorf("TypeError", "shorten() missing 1 required positional argument: 'width'")
		}
	}
	text, w, err := twArgs(fn.Name(), args, kwargs)
	if err != nil {
		return nil, err
	}
	w.maxLines, w.hasMaxLines = 1, true
	lines, err := w.wrap(interp.BudgetOf(thread), strings.Join(strings.Fields(text), " "))
	if err != nil {
		return nil, err
	}
	return interp.MakeString(strings.Join(lines, "\n")), nil
}

// twDedent is dedent(text): the longest common leading run of spaces and
// tabs removed from every line; lines of only spaces and tabs emptied.
func twDedent(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := unpack(fn.Name(), args, kwargs, "text", &v); err != nil {
		return nil, err
	}
	text, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected string or bytes-like object, got '%s'", pyrt.TypeName(v))
	}
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(text)) / 16); err != nil {
		return nil, err
	}
	if err := b.Alloc(2 * int64(len(text))); err != nil {
		return nil, err
	}
	lines := strings.Split(text, "\n")
	margin, have := "", false
	for i, line := range lines {
		if strings.Trim(line, " \t") == "" {
			lines[i] = ""
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		switch {
		case !have:
			margin, have = indent, true
		case strings.HasPrefix(indent, margin):
		case strings.HasPrefix(margin, indent):
			margin = indent
		default:
			k := 0
			for k < len(margin) && k < len(indent) && margin[k] == indent[k] {
				k++
			}
			margin = margin[:k]
		}
	}
	if margin != "" {
		for i, line := range lines {
			lines[i] = strings.TrimPrefix(line, margin)
		}
	}
	return interp.MakeString(strings.Join(lines, "\n")), nil
}

// splitLinesKeep is str.splitlines(keepends=True).
func splitLinesKeep(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	pos := 0 // byte offset of rs[i]
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		size := len(string(c))
		switch c {
		case '\n', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\u0085', '\u2028', '\u2029':
			out = append(out, s[start:pos+size])
			start = pos + size
		case '\r':
			end := pos + size
			if i+1 < len(rs) && rs[i+1] == '\n' {
				end++
				i++
				pos++
			}
			out = append(out, s[start:end])
			start = end
		}
		pos += size
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func twIndent(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var tv, pv starlark.Value
	var predicate starlark.Value = starlark.None
	if err := unpack(fn.Name(), args, kwargs, "text", &tv, "prefix", &pv, "predicate?", &predicate); err != nil {
		return nil, err
	}
	text, ok := interp.AsText(tv)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'splitlines'", pyrt.TypeName(tv))
	}
	prefix, ok := interp.AsText(pv)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for +: '%s' and 'str'", pyrt.TypeName(pv))
	}
	// The lines (a slot each, and as runes) first; the text, which only
	// the lines that are not blank lengthen, as it grows.
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(len(text)) * 6); err != nil {
		return nil, err
	}
	lines := splitLinesKeep(text)
	if err := b.Alloc(int64(len(lines)) * 32); err != nil {
		return nil, err
	}
	sb := textBuf{b: b}
	defer sb.done()
	for _, line := range lines {
		if err := b.Charge(1 + uint64(len(line)+len(prefix))/16); err != nil {
			return nil, err
		}
		var add bool
		if predicate == starlark.None {
			add = strings.TrimSpace(line) != "" && strings.TrimFunc(line, unicode.IsSpace) != ""
		} else {
			r, err := starlark.Call(thread, predicate, starlark.Tuple{interp.MakeString(line)}, nil)
			if err != nil {
				return nil, err
			}
			add = bool(r.Truth())
		}
		if add {
			if err := sb.WriteString(prefix); err != nil {
				return nil, err
			}
		}
		if err := sb.WriteString(line); err != nil {
			return nil, err
		}
	}
	return sb.value()
}

// textWrapper is a textwrap.TextWrapper: settings, with wrap and fill.
type textWrapper struct{ w *wrapper }

var _ starlark.HasAttrs = (*textWrapper)(nil)

func (t *textWrapper) String() string        { return "<textwrap.TextWrapper object>" }
func (t *textWrapper) Type() string          { return "TextWrapper" }
func (t *textWrapper) Freeze()               {}
func (t *textWrapper) Truth() starlark.Bool  { return true }
func (t *textWrapper) Hash() (uint32, error) { return 0, nil }
func (t *textWrapper) AttrNames() []string {
	return []string{"break_long_words", "break_on_hyphens", "drop_whitespace", "expand_tabs", "fill",
		"fix_sentence_endings", "initial_indent", "max_lines", "placeholder", "replace_whitespace",
		"subsequent_indent", "tabsize", "width", "wrap"}
}

func (t *textWrapper) Attr(name string) (starlark.Value, error) {
	w := t.w
	switch name {
	case "wrap", "fill":
		return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value
			if err := starlark.UnpackArgs(name, args, kwargs, "text", &v); err != nil {
				return nil, err
			}
			text, ok := interp.AsText(v)
			if !ok {
				return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'expandtabs'", pyrt.TypeName(v))
			}
			lines, err := w.wrap(interp.BudgetOf(thread), text)
			if err != nil {
				return nil, err
			}
			if name == "wrap" {
				return stringList(lines), nil
			}
			return interp.MakeString(strings.Join(lines, "\n")), nil
		}).BindReceiver(t), nil
	case "width":
		return starlark.MakeInt(w.width), nil
	case "initial_indent":
		return interp.MakeString(w.initialText), nil
	case "subsequent_indent":
		return interp.MakeString(w.subsequentText), nil
	case "placeholder":
		return interp.MakeString(w.ph), nil
	case "tabsize":
		return starlark.MakeInt(w.tabsize), nil
	case "max_lines":
		if !w.hasMaxLines {
			return starlark.None, nil
		}
		return starlark.MakeInt(w.maxLines), nil
	case "expand_tabs":
		return starlark.Bool(w.expandTabs), nil
	case "replace_whitespace":
		return starlark.Bool(w.replaceWhitespace), nil
	case "fix_sentence_endings":
		return starlark.Bool(w.fixSentenceEndings), nil
	case "break_long_words":
		return starlark.Bool(w.breakLongWords), nil
	case "drop_whitespace":
		return starlark.Bool(w.dropWhitespace), nil
	case "break_on_hyphens":
		return starlark.Bool(w.breakOnHyphens), nil
	}
	return nil, nil
}

// SetField lets a program change a setting, as wrapper.width = 40.
func (t *textWrapper) SetField(name string, v starlark.Value) error {
	if name == "wrap" || name == "fill" {
		return pyrt.Errorf("AttributeError", "cannot set %s", name)
	}
	if err := t.w.setAttr(name, v); err != nil {
		if ex := (*pyrt.Exception)(nil); errors.As(err, &ex) && strings.Contains(ex.Msg, "unexpected keyword") {
			return pyrt.Errorf("AttributeError", "'TextWrapper' object has no attribute '%s'", name)
		}
		return err
	}
	return nil
}

func twNew(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	w := defaultWrapper()
	names := []string{"width", "initial_indent", "subsequent_indent", "expand_tabs", "replace_whitespace",
		"fix_sentence_endings", "break_long_words", "drop_whitespace", "break_on_hyphens", "tabsize"}
	if len(args) > len(names) {
		return nil, pyrt.Errorf("TypeError", "TextWrapper.__init__() takes at most %d positional arguments", len(names)+1)
	}
	for i, a := range args {
		if err := w.setAttr(names[i], a); err != nil {
			return nil, err
		}
	}
	if err := w.set(kwargs); err != nil {
		return nil, err
	}
	return &textWrapper{w: w}, nil
}
