package main

import (
	"errors"
	"strings"

	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python/pyast"
)

// How lines become inputs, on a terminal and from a pipe alike:
//
//   - a line that completes a statement at the top level is an input;
//   - an unfinished line (open brackets, a triple-quoted string, a block
//     header) waits for more;
//   - a blank line ends a block (def, if, for, …) — unless the next
//     non-blank line has already arrived and is indented: then the blank
//     line is inside the block, as in a pasted function with blank lines
//     in its body. Lines typed one by one never have a next line waiting,
//     so typing works as in CPython; lines that arrive together (a paste
//     without bracketed paste, a piped file) group as in a source file.
//
// inputState is what accumulated input lines need before they run.
type inputState int

const (
	inputComplete inputState = iota // run it (it may be a syntax error: running shows it)
	inputMore                       // unfinished: open brackets, a triple-quoted string, a trailing operator in brackets
	inputBody                       // a block header (':') with no body yet
	inputBlock                      // a compound statement: a blank line ends it
)

// classify parses src the way the runner will (as Python) and says
// whether it is complete. An error that more text would cure (an open
// bracket or triple-quoted string, a header without its body, a try
// without its handler) means more is to come; any other syntax error is
// complete, so that running it reports the error.
func classify(src string) inputState {
	m, err := pyast.Parse(interp.Filename, src+"\n")
	if err != nil {
		var se syntax.Error
		if !errors.As(err, &se) {
			return inputComplete
		}
		// Only an error on the last line is one that more lines can cure.
		atEnd := int(se.Pos.Line) >= strings.Count(strings.TrimRight(src, "\n"), "\n")+1
		switch {
		case atEnd && strings.HasPrefix(se.Msg, "expected an indented block") && endsHeader(src):
			return inputBody
		case atEnd && strings.HasPrefix(se.Msg, "expected 'except' or 'finally' block"):
			return inputBlock
		case strings.HasSuffix(se.Msg, "was never closed"),
			strings.HasPrefix(se.Msg, "unterminated triple-quoted string"),
			se.Msg == "unexpected EOF while parsing":
			return inputMore
		}
		return inputComplete
	}
	if n := len(m.Body); n > 0 {
		switch m.Body[n-1].(type) {
		case *pyast.FunctionDef, *pyast.ClassDef, *pyast.If, *pyast.For, *pyast.While,
			*pyast.Try, *pyast.With, *pyast.Match:
			return inputBlock
		}
	}
	return inputComplete
}

// endsHeader reports whether the last line of src is a block header
// (it ends with ':'), which the next line would give its body.
func endsHeader(src string) bool {
	lines := strings.Split(strings.TrimRight(src, " \t\n"), "\n")
	return strings.HasSuffix(lines[len(lines)-1], ":")
}

// blankEnds reports whether a blank line after src ends the input: it
// ends a block (and a header without a body, to show the error), but not
// open brackets or a triple-quoted string, where it is part of the text.
func blankEnds(src string) bool {
	return classify(src) != inputMore
}

// grouper collects lines into inputs by the rules above.
type grouper struct{ buf []string }

// add takes the next line. indentedNext reports whether the next
// non-blank line has already arrived and is indented; it is asked only
// at a blank line that could end a block. add returns the input the line
// completes, if it completes one.
func (g *grouper) add(line string, indentedNext func() bool) (input string, done bool) {
	blank := strings.TrimSpace(line) == ""
	if blank && len(g.buf) == 0 {
		return "", false
	}
	if blank && blankEnds(strings.Join(g.buf, "\n")) && !indentedNext() {
		return g.flush(), true
	}
	g.buf = append(g.buf, line)
	if classify(strings.Join(g.buf, "\n")) == inputComplete {
		return g.flush(), true
	}
	return "", false
}

// flush returns the lines collected so far as one input, and forgets them.
func (g *grouper) flush() string {
	input := strings.Join(g.buf, "\n")
	g.buf = g.buf[:0]
	return input
}

// splitInputs splits a text that arrived whole (an accepted terminal
// buffer) into inputs; all of its lines have arrived.
func splitInputs(text string) []string {
	lines := strings.Split(text, "\n")
	var g grouper
	var out []string
	for i, line := range lines {
		next := func() bool { return indentedLine(lines[i+1:]) }
		if input, done := g.add(line, next); done {
			out = append(out, input)
		}
	}
	if len(g.buf) > 0 {
		out = append(out, g.flush())
	}
	return out
}

// indentedLine reports whether the first non-blank line of lines is
// indented.
func indentedLine(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return l[0] == ' ' || l[0] == '\t'
		}
	}
	return false
}

// accept is the terminal's Enter: true runs the buffer, false opens a
// continuation line; a blank line ends a block, as in CPython's REPL. (A
// paste keeps its blank lines through bracketed paste. Telling a paste
// without it by the keys already waiting proved unreliable: the line
// editor's key buffer is sometimes not empty when a typed Enter is
// handled, and a typed blank line then failed to end the block.)
func accept(buffer string) bool {
	text := strings.TrimSpace(buffer)
	if text == "" || (strings.HasPrefix(text, ":") && !strings.Contains(text, "\n")) {
		return true
	}
	lines := strings.Split(buffer, "\n")
	if last := lines[len(lines)-1]; strings.TrimSpace(last) == "" && len(lines) > 1 {
		return blankEnds(strings.Join(lines[:len(lines)-1], "\n"))
	}
	return classify(buffer) == inputComplete
}
