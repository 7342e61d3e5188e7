package toolpack

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/internal/yamltree"
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
	file := e.File
	if e.shown != "" {
		file = e.shown
	}
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return yamltree.Where(file, e.Line, e.Field) + msg
}

// Unwrap returns the cause, so that errors.Is(err, fs.ErrNotExist) or
// errors.As(err, new(*packs.SchemaError)) see through a load error.
func (e *ToolpackValidationError) Unwrap() error { return e.Err }

// Is makes every ToolpackValidationError match ErrInvalidToolpack.
func (e *ToolpackValidationError) Is(target error) bool { return target == ErrInvalidToolpack }

// problems collects the errors of one load.
type problems struct {
	workDir string // for showing files relative to it; "" shows them as given
	list    yamltree.ErrorList[*ToolpackValidationError]
}

// add records a problem; file and field may be empty.
func (p *problems) add(e *ToolpackValidationError) {
	if s := p.show(e.File); s != e.File {
		e.shown = s
	}
	p.list.Add(e)
}

// show gives file as messages show it: relative to the working directory
// when that is shorter, as the config loader shows its files. (workDir is
// absolute, so a relative file is shown as given.)
func (p *problems) show(file string) string { return yamltree.ShowFile(p.workDir, file) }

// at records a problem with a value at a line of file.
func (p *problems) at(file string, line int, field path, format string, args ...any) {
	p.add(&ToolpackValidationError{File: file, Line: line, Field: field.String(), Msg: fmt.Sprintf(format, args...)})
}

// count is how many problems were recorded so far; a toolpack whose
// decoding raised it is not loaded.
func (p *problems) count() int { return p.list.Len() }

// err returns the problems sorted by file and line as an errors.Join of
// *ToolpackValidationError, or nil when there are none. Within one line,
// problems stay in the order they were found, which follows the order of
// the fields in the file; none is dropped as a duplicate (a toolpack file
// is read once, unlike an included configuration file).
func (p *problems) err() error {
	return p.list.Err(func(a, b *ToolpackValidationError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	}, false, func(msg string) *ToolpackValidationError { return &ToolpackValidationError{Msg: msg} })
}

// path is the dotted field of a value: "examples[1].code".
type path = yamltree.Path
