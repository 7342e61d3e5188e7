// Package fence turns what a model sends to the run tool into the Starlark
// code it meant, following SPEC §2.1.
//
// Models rarely send bare code. They prefix it with the name of the tool
// (">>> ", "__run ", "mcp__onetool__run "), wrap it in a Markdown fence with a
// language tag and a sentence of prose after it, or send it indented because
// it was cut from a larger answer. [Strip] removes all of that, in this order:
//
//  1. CRLF and lone CR become LF; whitespace around the text is dropped,
//     except the first line's indentation, which step 6 removes together
//     with that of the other lines.
//  2. One trigger prefix is removed: >>>, __run, __ot, __ot__run, __onetool,
//     __onetool__run or mcp__onetool__run, only when followed by whitespace or
//     the end of the text, so identifiers such as __other or calls such as
//     __run() are left alone.
//  3. Text starting with !onetool is rejected with [ErrBangPrefix].
//  4. A ``` fence (any language tag) is replaced by its contents; what follows
//     the closing fence is ignored.
//  5. Otherwise code wrapped in one, two or three backticks (`code`) is
//     unwrapped when the text holds no other backtick.
//  6. The code is dedented: leading tabs count to the next multiple of 4
//     columns, the common indentation is removed, whitespace-only lines become
//     empty, and blank lines at either end are dropped.
//
// The result's line 1 is the first line of code the model wrote, so line
// numbers in Starlark errors match what the model sees inside its fence
// (SPEC §2.1.7). Strip returns its input unchanged, without allocating, when
// there is nothing to remove.
package fence

import (
	"errors"
	"strings"
)

// ErrBangPrefix is returned for a command starting with "!onetool": that is
// how some clients invoke a tool from chat, and running the rest as code would
// fail with a confusing syntax error, so the model is told what to send instead.
var ErrBangPrefix = errors.New("the !onetool prefix is not supported; send the code itself, optionally in a ``` fence")

// tabWidth is the distance between tab stops when tabs in indentation are
// expanded. Models mix tabs and spaces; Starlark needs one consistent count.
const tabWidth = 4

// Strip applies SPEC §2.1 steps 1–6 and returns the code to parse.
//
// Empty or whitespace-only input gives "" and a nil error. The only error is
// [ErrBangPrefix]; test for it with errors.Is.
//
// Where the specification is silent Strip does what keeps the model's code
// intact:
//   - A prefix must be followed by whitespace (a space, tab or newline) or end
//     the text: ">>>x" is left alone.
//   - A fence of N backticks closes only on a line of exactly N backticks
//     (surrounding spaces allowed), so a ```` fence may contain ``` lines.
//   - An unclosed fence still runs: the opening line is dropped when it holds
//     only a language tag and kept as code otherwise, and a run of N backticks
//     glued to the end of the last line is removed ("```py\nx = 1```").
//   - Indentation of the first line that dedenting leaves behind is removed,
//     as the spec's trim in step 1 asks; uniformly indented code is first
//     dedented as a whole, so its nested blocks keep their shape.
//   - Steps 4 and 5 exclude each other, and step 3 looks only before a fence:
//     what is inside a fence is code and is not unwrapped or rejected again.
//
// Like Python's textwrap.dedent, dedenting also reaches lines inside a
// multi-line string literal; tabs are expanded only in indentation, so a tab
// elsewhere in a line, such as inside a string, is kept.
func Strip(text string) (string, error) {
	text = trimBlankLines(normalizeNewlines(text))
	// head is the text without the first line's indentation: prefixes and
	// fences are recognised there, while dedent still sees the indentation.
	head := trimLeftSpace(text)
	if rest, ok := cutTrigger(head); ok {
		// Spaces after the prefix on its own line only separate it from the
		// code; indentation on the following lines belongs to the code.
		text = trimBlankLines(trimIndent(rest))
		head = trimLeftSpace(text)
	}
	if strings.HasPrefix(head, "!onetool") {
		return "", ErrBangPrefix
	}
	if code, ok := cutFence(head); ok {
		text = code
	} else if code, ok := cutInline(head); ok {
		text = code
	}
	return dedent(text), nil
}

// normalizeNewlines turns CRLF and lone CR into LF. It allocates only when
// the text holds a CR.
func normalizeNewlines(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\r' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\n')
		if i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
	}
	return b.String()
}

// isSpace reports whether c is ASCII whitespace. Unicode spaces are left to
// the Starlark scanner, which reports them as errors where they matter.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// trimIndent returns s without its leading spaces and tabs. It is
// strings.TrimLeft(s, " \t") without the cost of building a cutset per call.
func trimIndent(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// trimLeftSpace returns s without its leading whitespace.
func trimLeftSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// isBlank reports whether a line holds only whitespace.
func isBlank(line string) bool {
	for i := 0; i < len(line); i++ {
		if !isSpace(line[i]) {
			return false
		}
	}
	return true
}

// trimBlankLines removes whitespace-only lines at the start, keeping the
// indentation of the first non-blank line, and all whitespace at the end.
func trimBlankLines(s string) string {
	start := 0
	for i := 0; i < len(s) && isSpace(s[i]); i++ {
		if s[i] == '\n' {
			start = i + 1
		}
	}
	end := len(s)
	for end > start && isSpace(s[end-1]) {
		end--
	}
	return s[start:end]
}

// cutTrigger removes one trigger prefix from s. A prefix counts only when a
// whitespace character or the end of the text follows it; the prefixes are
// tried longest first, so "__ot__run x" loses "__ot__run", not "__ot".
func cutTrigger(s string) (string, bool) {
	for _, p := range [...]string{
		"mcp__onetool__run", "__onetool__run", "__onetool", "__ot__run", "__run", "__ot", ">>>",
	} {
		rest, ok := strings.CutPrefix(s, p)
		if ok && (rest == "" || isSpace(rest[0])) {
			return rest, true
		}
	}
	return s, false
}

// backtickRun returns the number of backticks s starts with.
func backtickRun(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// cutFence returns the code inside a fence of three or more backticks at the
// start of s: the lines after the opening line up to the first line made of
// the same backticks only. It reports false when s does not open a fence,
// including the one-line form ```code```, whose first line holds more
// backticks and which cutInline unwraps.
func cutFence(s string) (string, bool) {
	n := backtickRun(s)
	if n < 3 {
		return "", false
	}
	opening, body, _ := strings.Cut(s, "\n")
	info := opening[n:]
	if strings.IndexByte(info, '`') >= 0 {
		return "", false
	}
	fence := s[:n]
	for off := 0; off < len(body); {
		line := body[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if isClosing(line, fence) {
			return body[:off], true
		}
		off += len(line) + 1
	}
	return unclosed(s[n:], info, fence), true
}

// isClosing reports whether line is the fence and nothing else but spaces.
func isClosing(line, fence string) bool {
	line = trimIndent(line)
	if !strings.HasPrefix(line, fence) {
		return false
	}
	return isBlank(line[len(fence):])
}

// unclosed returns the code of a fence that never closes, such as a reply cut
// off by a length limit; afterOpen is the text after the opening backticks.
// Running what is there beats rejecting it, and the model sees the error, if
// any, in its own lines.
func unclosed(afterOpen, info, fence string) string {
	code := afterOpen
	if isLanguageTag(info) {
		_, code, _ = strings.Cut(afterOpen, "\n")
	}
	// A closing fence glued to the last line ("x = 1```") cannot be Starlark:
	// a backtick is only valid inside a string or comment, and a string must
	// end with a quote.
	if rest, ok := strings.CutSuffix(code, fence); ok && !strings.HasSuffix(rest, "`") {
		code = rest
	}
	return code
}

// isLanguageTag reports whether the rest of a fence's opening line looks like
// a language tag ("python", "c++", "{.py}") rather than code: it is empty or
// one word of letters, digits and + - . _ # : / { }.
func isLanguageTag(info string) bool {
	info = strings.Trim(info, " \t\v\f")
	for i := 0; i < len(info); i++ {
		c := info[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+-._#:/{}", c) >= 0) {
			return false
		}
	}
	return true
}

// cutInline unwraps code wrapped in one, two or three backticks, as in
// `code` or ```code```: s must start and end with the same run and hold no
// other backtick, so text that merely uses backticks somewhere is never cut.
func cutInline(s string) (string, bool) {
	n := backtickRun(s)
	if n < 1 || n > 3 || len(s) < 2*n {
		return "", false
	}
	inner := s[n : len(s)-n]
	if s[len(s)-n:] != s[:n] || strings.IndexByte(inner, '`') >= 0 {
		return "", false
	}
	return inner, true
}

// indentation measures the leading spaces and tabs of line: n is their length
// in bytes, width the column they reach with tab stops every tabWidth
// columns, and tabs whether any of them is a tab.
func indentation(line string) (n, width int, tabs bool) {
	for ; n < len(line); n++ {
		switch line[n] {
		case ' ':
			width++
		case '\t':
			width += tabWidth - width%tabWidth
			tabs = true
		default:
			return n, width, tabs
		}
	}
	return n, width, tabs
}

// dedent removes blank lines at both ends, the indentation common to all
// non-blank lines, and whitespace from whitespace-only lines. Tabs are
// expanded only in indentation: a tab inside a string literal on the same
// line is part of the program. The text is returned as is when nothing needs
// to change.
func dedent(s string) string {
	s = trimBlankLines(s)
	margin, clean := measure(s)
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	first := true
	for line := range strings.SplitSeq(s, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		switch {
		case first:
			// Whatever indentation the margin leaves on the first line would
			// be a Starlark error; step 1 of the spec trims it.
			b.WriteString(trimLeftSpace(line))
		case !isBlank(line):
			n, width, _ := indentation(line)
			writeSpaces(&b, width-margin)
			b.WriteString(line[n:])
		}
		first = false
	}
	return b.String()
}

// measure returns the smallest indentation width of the non-blank lines of s
// and whether s is already dedented: no tab in any indentation, no
// whitespace-only line that is not empty, and no indentation on the first
// line (s itself starts with its first non-blank line).
func measure(s string) (margin int, clean bool) {
	margin, clean = -1, true
	for line := range strings.SplitSeq(s, "\n") {
		if isBlank(line) {
			clean = clean && line == ""
			continue
		}
		_, width, tabs := indentation(line)
		if margin < 0 { // the first line
			clean = clean && !isSpace(line[0])
		}
		if margin < 0 || width < margin {
			margin = width
		}
		clean = clean && !tabs
	}
	return max(margin, 0), clean
}

// writeSpaces writes n spaces to b without allocating a padding string.
func writeSpaces(b *strings.Builder, n int) {
	const spaces = "                                " // 32
	for n > len(spaces) {
		b.WriteString(spaces)
		n -= len(spaces)
	}
	b.WriteString(spaces[:n])
}
