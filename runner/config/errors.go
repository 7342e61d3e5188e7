package config

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

	shown string // File relative to the working directory, when shorter
}

// Error formats as "onetool.yaml:12: limits.timout: unknown key; did you
// mean 'timeout'?".
func (e *Error) Error() string {
	var b strings.Builder
	file := e.File
	if e.shown != "" {
		file = e.shown
	}
	if file != "" {
		b.WriteString(file)
		if e.Line > 0 {
			b.WriteString(":" + strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	switch {
	case e.Msg == "" && e.Err != nil:
		b.WriteString(e.Err.Error())
	case e.Err != nil:
		b.WriteString(e.Msg + ": " + e.Err.Error())
	default:
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Unwrap returns the underlying cause, so errors.Is(err, fs.ErrNotExist)
// works through a load error.
func (e *Error) Unwrap() error { return e.Err }

// maxErrors caps what one load reports: a hostile or badly broken file
// must not produce megabytes of messages.
const maxErrors = 50

// pos is where a value or key was written.
type pos struct {
	file      string
	line, col int
}

// errList collects the problems of one load.
type errList struct {
	workDir string
	errs    []*Error
}

// show gives file as users should see it: relative to the working
// directory when that is shorter.
func (l *errList) show(file string) string {
	if l.workDir == "" || file == "" {
		return file
	}
	if rel, err := filepath.Rel(l.workDir, file); err == nil && len(rel) < len(file) {
		return rel
	}
	return file
}

// shownFrom sets how e's file is shown, for errors made outside a load.
func shownFrom(workDir string, e *Error) *Error {
	e.shown = (&errList{workDir: workDir}).show(e.File)
	return e
}

func (l *errList) add(e *Error) {
	if e.shown == "" {
		e.shown = l.show(e.File)
	}
	l.errs = append(l.errs, e)
}

// at records a problem at a position.
func (l *errList) at(p pos, key keyPath, format string, args ...any) {
	l.add(&Error{File: p.file, Line: p.line, Column: p.col, Key: key.String(), Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) any() bool { return len(l.errs) > 0 }

// err returns the problems sorted by file and line, duplicates dropped (a
// file included twice reports its problems once), as an errors.Join of
// *Error; nil when there are none.
func (l *errList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	es := slices.Clone(l.errs)
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Msg, b.Msg))
	})
	es = slices.CompactFunc(es, func(a, b *Error) bool { return a.Error() == b.Error() })
	out := make([]error, 0, min(len(es), maxErrors)+1)
	for i, e := range es {
		if i == maxErrors {
			out = append(out, &Error{Msg: fmt.Sprintf("%d more problems not shown", len(es)-maxErrors)})
			break
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// keyPath is the dotted key of a value: segments are mapping keys, and
// list indexes written "[3]".
type keyPath []string

// String is the dotted form used in messages: "servers.gh.args[1]".
func (p keyPath) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// id is an unambiguous form for map keys, even when names contain dots.
func (p keyPath) id() string { return strings.Join(p, "\x00") }

// with returns a new path one key deeper; it never shares p's array, so
// sibling paths cannot overwrite each other.
func (p keyPath) with(key string) keyPath {
	q := make(keyPath, len(p), len(p)+1)
	copy(q, p)
	return append(q, key)
}

// index returns a new path one list element deeper.
func (p keyPath) index(i int) keyPath { return p.with("[" + strconv.Itoa(i) + "]") }
