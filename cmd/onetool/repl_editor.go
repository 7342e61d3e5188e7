package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/reeflective/readline"
	"github.com/reeflective/readline/inputrc"

	"github.com/onetool-dev/onetool/internal/termscroll"
)

// interactive runs the REPL on a terminal with line editing.
func (rp *repl) interactive(ctx context.Context, historyPath string, stderr io.Writer) error {
	rl := readline.NewShell()
	rl.Prompt.Primary(func() string { return primaryPrompt })
	// The input always starts at column 0 after a printed output, so the
	// prompt width is exact; asking the terminal (ESC[6n) would hang on
	// terminals that never answer.
	rl.Config.Set("cursor-position-probe", false)
	// Continuation lines show "... ": the editor indents them by the
	// prompt's width, and the display rewrites that indentation. (Its own
	// multi-line indicators draw a bar on all but the last line.)
	rl.Config.Set("multiline-column", false)
	rl.SyntaxHighlighter = func(line []rune) string {
		return strings.ReplaceAll(string(line), "\n", "\n\r"+continuationPrompt)
	}
	// Tab inserts what the candidates share and lists them; Tab again
	// walks the list.
	rl.Config.Set("menu-complete-display-prefix", true)
	rl.Config.Bind("emacs", inputrc.Unescape(`\C-i`), "menu-complete", false)
	rl.AcceptMultiline = func(line []rune) bool { return accept(string(line)) }
	// A bracketed paste is inserted whole, newlines and blank lines
	// included; Enter then runs it, as in CPython 3.13.
	rl.Config.Set("enable-bracketed-paste", true)
	c := &completer{r: rp.r, s: rp.s}
	rl.Completer = c.complete
	if historyPath != "" {
		if err := openHistory(historyPath); err != nil {
			fmt.Fprintf(stderr, "onetool: history not kept: %v\n", err)
		} else if h, err := readline.NewHistoryFromFile(historyPath); err == nil {
			rl.History.Add("history", h)
		} else {
			fmt.Fprintf(stderr, "onetool: history not kept: %v\n", err)
		}
	}

	// Outside the line editor the terminal sends Ctrl-C as SIGINT: catch
	// it for the whole session, so that it cancels the running input and
	// never ends the REPL.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)

	fmt.Fprintln(rp.out, "onetool REPL. :help for help, Ctrl-D to exit.")
	for {
		select { // a Ctrl-C that came after the last input ended is stale
		case <-interrupt:
		default:
		}
		line, err := readLine(rl)
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			continue // Ctrl-C at the prompt: the line is dropped
		case errors.Is(err, io.EOF):
			fmt.Fprintln(rp.out)
			return nil
		case err != nil:
			return &exitError{code: exitRun, msg: fmt.Sprintf("reading the terminal: %v", err)}
		}
		if rp.run(ctx, line, interrupt) {
			return nil
		}
	}
}

// openHistory makes sure the history file exists, private to the user.
func openHistory(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// readLine reads one input with the line editor, its output going through
// termscroll: the editor redraws with relative cursor moves, and a
// "cursor down" on the bottom row does not move, which made each redraw
// there write the prompt over the last line of output. termscroll makes
// those moves scroll. The editor writes to os.Stdout and has no option for
// another writer, so os.Stdout is a pipe to the filter while it reads;
// nothing else writes to os.Stdout meanwhile (outputs are printed between
// reads, to the terminal directly).
func readLine(rl *readline.Shell) (string, error) {
	stdout := os.Stdout
	r, w, err := os.Pipe()
	if err != nil {
		return rl.Readline() // no pipe to spare: edit unfiltered rather than not at all
	}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		tw := termscroll.NewWriter(stdout)
		_, _ = io.Copy(tw, r)
		_ = tw.Flush()
		r.Close()
	}()
	os.Stdout = w
	defer func() {
		os.Stdout = stdout
		w.Close()
		<-copied // all the editor wrote is on the terminal before any output
	}()
	return rl.Readline()
}
