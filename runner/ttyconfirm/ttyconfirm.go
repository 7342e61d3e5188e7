// Package ttyconfirm asks the person at a terminal, y/N, before a
// destructive tool call (security.confirm_destructive) made by a program
// run from the command line (onetool run, onetool repl).
//
// The question goes to the controlling terminal, /dev/tty, and the answer
// is read from it, so that it works when the program itself came on
// standard input and when standard output is redirected. The default is
// No: an empty line, end of input, anything but y or yes declines. The
// wait ends with the run (its deadline, Ctrl-C): the terminal is then
// let go, so that nothing keeps reading it after the answer.
package ttyconfirm

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/onetool-dev/onetool/runner"
)

// Terminal is the device to ask on, opened for each question and closed
// after: /dev/tty unless a test gives another.
type Terminal func() (*os.File, error)

// DevTTY opens the process's controlling terminal.
func DevTTY() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) }

// New returns a Confirmer that asks on the terminal tty opens. Questions
// of calls made at once (parallel) are asked one after the other.
func New(tty Terminal) runner.Confirmer {
	turn := make(chan struct{}, 1) // one question on the terminal at a time
	return func(ctx context.Context, req runner.ConfirmRequest) error {
		select {
		case turn <- struct{}{}:
		case <-ctx.Done():
			return fmt.Errorf("%w: no answer before the run ended: %w", runner.ErrNotConfirmed, context.Cause(ctx))
		}
		defer func() { <-turn }()
		return ask(ctx, tty, req)
	}
}

// ask puts one question and reads its answer.
func ask(ctx context.Context, tty Terminal, req runner.ConfirmRequest) error {
	f, err := tty()
	if err != nil {
		return fmt.Errorf("%w: the terminal cannot be opened (%v); set security.confirm_destructive: false to run it without asking", runner.ErrCannotAsk, err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%s [y/N] ", Printable(req.Question())); err != nil {
		return fmt.Errorf("%w: writing to the terminal: %v", runner.ErrCannotAsk, err)
	}
	// The run's end (deadline, Ctrl-C) ends the read: a terminal opened
	// by name is polled, so a past deadline returns the blocked Read.
	stop := context.AfterFunc(ctx, func() {
		if f.SetReadDeadline(time.Now()) != nil {
			f.Close() // not polled here: closing is what is left
		}
	})
	defer stop()
	line, err := bufio.NewReader(f).ReadString('\n')
	if ctx.Err() != nil {
		fmt.Fprintln(f) // past the unanswered question
		return fmt.Errorf("%w: no answer before the run ended: %w", runner.ErrNotConfirmed, context.Cause(ctx))
	}
	if err != nil {
		fmt.Fprintln(f) // Ctrl-D leaves the cursor after the question
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return fmt.Errorf("%w: the user declined %s; do not retry it unless the user asks", runner.ErrNotConfirmed, req.Tool.ID())
}

// Printable is text safe to write to a terminal: control characters
// (escape sequences that move the cursor, clear the screen or retitle the
// window), and the characters that reorder or hide text (bidirectional
// controls, zero-width characters), are shown as \u escapes. What a
// question shows comes from the program, which may have read a hostile
// page: it must not redraw the question it is part of.
func Printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == unicode.ReplacementChar, unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
