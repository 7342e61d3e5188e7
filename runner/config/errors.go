package config

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Error is one problem in a configuration file. Load returns every Error
// it finds, joined with errors.Join and sorted by file and line; use
// errors.As to get the first, or unwrap the join to get them all.
type Error struct {
	File   string // absolute path of the file at fault; "" when none applies
	Line   int    // 1-based; 0 when the problem concerns the whole file
	Column int    // 1-based; 0 when unknown
	Key    string // dotted key such as "servers.gh.args[1]"; "" for file-level problems
	Msg    string // what is wrong, for people
	Err    error  // underlying cause, if any (an *fs.PathError, …)
	// Unset is NAME when the problem is a ${NAME} that neither the
	// secrets nor the environment define (and that has no default); ""
	// for every other problem. `onetool doctor` uses it to go on checking
	// what does not depend on the value.
	Unset string

	shown string // File relative to the working directory, when shorter
}

// Error formats as "onetool.yaml:12: limits.timout: unknown key; did you
// mean 'timeout'?".
func (e *Error) Error() string {
	file := e.File
	if e.shown != "" {
		file = e.shown
	}
	where := yamltree.Where(file, e.Line, e.Key)
	switch {
	case e.Msg == "" && e.Err != nil:
		return where + e.Err.Error()
	case e.Err != nil:
		return where + e.Msg + ": " + e.Err.Error()
	}
	return where + e.Msg
}

// Unwrap returns the underlying cause, so errors.Is(err, fs.ErrNotExist)
// works through a load error.
func (e *Error) Unwrap() error { return e.Err }

// maxErrors caps what one load reports: a hostile or badly broken file
// must not produce megabytes of messages.
const maxErrors = yamltree.MaxErrors

// errList collects the problems of one load.
type errList struct {
	workDir string
	errs    yamltree.ErrorList[*Error]
	// secrets, when set, says what no message may show, once every
	// variable has been read (see err).
	secrets func() *Secrets
	added   []*Error
}

// show gives file as users should see it: relative to the working
// directory when that is shorter.
func (l *errList) show(file string) string { return yamltree.ShowFile(l.workDir, file) }

// shownFrom sets how e's file is shown, for errors made outside a load.
func shownFrom(workDir string, e *Error) *Error {
	e.shown = (&errList{workDir: workDir}).show(e.File)
	return e
}

func (l *errList) add(e *Error) {
	if e.shown == "" {
		e.shown = l.show(e.File)
	}
	l.errs.Add(e)
	l.added = append(l.added, e)
}

// scrub hides the values of s in e's message and cause.
func scrub(s *Secrets, e *Error) *Error {
	if s == nil {
		return e
	}
	e.Msg = s.Redact(e.Msg)
	if e.Err != nil {
		if text := s.Redact(e.Err.Error()); text != e.Err.Error() {
			e.Err = &scrubbedError{text: text, err: e.Err}
		}
	}
	return e
}

// scrubbedError reads as its cause with secret values hidden; errors.Is
// and errors.As still reach the cause.
type scrubbedError struct {
	text string
	err  error
}

func (e *scrubbedError) Error() string { return e.text }
func (e *scrubbedError) Unwrap() error { return e.err }

// at records a problem at a position.
func (l *errList) at(p pos, key keyPath, format string, args ...any) {
	l.add(&Error{File: p.File, Line: p.Line, Column: p.Column, Key: key.String(), Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) any() bool { return l.errs.Len() > 0 }

// err returns the problems sorted by file and line, duplicates dropped (a
// file included twice reports its problems once), as an errors.Join of
// *Error; nil when there are none. Ties are broken by column, key and
// message, so that duplicates meet and are dropped.
func (l *errList) err() error {
	if l.secrets != nil {
		s := l.secrets()
		for _, e := range l.added {
			scrub(s, e)
		}
	}
	return l.errs.Err(func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Msg, b.Msg))
	}, true, func(msg string) *Error { return &Error{Msg: msg} })
}

// keyPath is the dotted key of a value: "servers.gh.args[1]".
type keyPath = yamltree.Path

// keyID is an unambiguous form of p for map keys, even when names contain
// dots.
func keyID(p keyPath) string { return strings.Join(p, "\x00") }
