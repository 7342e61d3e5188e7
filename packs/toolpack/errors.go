package toolpack

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrInvalidToolpack is matched (errors.Is) by every
// *ToolpackValidationError, so callers can tell a bad toolpack from other
// failures without parsing text.
var ErrInvalidToolpack = errors.New("invalid toolpack")

// ToolpackValidationError is a toolpack file that cannot be loaded, or one
// problem in it. Its text names the file, the line when known, and the
// field:
//
//	toolpacks/slugify.yaml:7: execution.module: want "file.star:function", got "slugify.star"
type ToolpackValidationError struct {
	// File is the toolpack file (or, for a directory that cannot be read,
	// the directory), as the loader was given it.
	File string
	// Line is the 1-based line of the value at fault; 0 when the problem
	// concerns the whole file.
	Line int
	// Field is the dotted path of the value at fault: "id",
	// "execution.module", "examples[1].code". In a file holding a list of
	// toolpacks it starts with the index: "[2].description". It is "" for
	// problems with the file itself (unreadable, not YAML).
	Field string
	// Msg says what is wrong, for people. It is complete on its own: when
	// Err is set too, Msg already tells what Err says.
	Msg string
	Err error // the underlying cause, if any, for errors.Is and errors.As

	shown string // File relative to the working directory, when shorter
}

// Error formats as "file:line: field: message", leaving out what is
// unknown.
func (e *ToolpackValidationError) Error() string {
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
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	if e.Msg == "" && e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Unwrap returns the cause, so that errors.Is(err, fs.ErrNotExist) or
// errors.As(err, new(*packs.SchemaError)) see through a load error.
func (e *ToolpackValidationError) Unwrap() error { return e.Err }

// Is makes every ToolpackValidationError match ErrInvalidToolpack.
func (e *ToolpackValidationError) Is(target error) bool { return target == ErrInvalidToolpack }

// maxErrors caps what one load reports: a directory of badly broken files
// must not produce megabytes of messages.
const maxErrors = 50

// problems collects the errors of one load.
type problems struct {
	workDir string // for showing files relative to it; "" shows them as given
	list    []*ToolpackValidationError
}

// add records a problem; file and field may be empty.
func (p *problems) add(e *ToolpackValidationError) {
	if s := p.show(e.File); s != e.File {
		e.shown = s
	}
	p.list = append(p.list, e)
}

// show gives file as messages show it: relative to the working directory
// when that is shorter, as the config loader shows its files.
func (p *problems) show(file string) string {
	if p.workDir == "" || !filepath.IsAbs(file) {
		return file
	}
	if rel, err := filepath.Rel(p.workDir, file); err == nil && len(rel) < len(file) {
		return rel
	}
	return file
}

// at records a problem with a value at a line of file.
func (p *problems) at(file string, line int, field path, format string, args ...any) {
	p.add(&ToolpackValidationError{File: file, Line: line, Field: field.String(), Msg: fmt.Sprintf(format, args...)})
}

// count is how many problems were recorded so far; a toolpack whose
// decoding raised it is not loaded.
func (p *problems) count() int { return len(p.list) }

// err returns the problems sorted by file and line as an errors.Join of
// *ToolpackValidationError, or nil when there are none.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	es := slices.Clone(p.list)
	// Stable: within one line, problems stay in the order they were found,
	// which follows the order of the fields in the file.
	slices.SortStableFunc(es, func(a, b *ToolpackValidationError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	out := make([]error, 0, min(len(es), maxErrors)+1)
	for i, e := range es {
		if i == maxErrors {
			out = append(out, &ToolpackValidationError{Msg: fmt.Sprintf("%d more problems not shown", len(es)-maxErrors)})
			break
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// path is the dotted field of a value: segments are mapping keys, and
// list indexes written "[3]".
type path []string

// String is the form used in messages: "examples[1].code".
func (p path) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// with returns a new path one key deeper; it never shares p's array, so
// sibling paths cannot overwrite each other.
func (p path) with(key string) path {
	q := make(path, len(p), len(p)+1)
	copy(q, p)
	return append(q, key)
}

// index returns a new path one list element deeper.
func (p path) index(i int) path { return p.with("[" + strconv.Itoa(i) + "]") }
