package yamltree

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MaxErrors caps what ErrorList.Err reports: a hostile or badly broken
// file must not produce megabytes of messages.
const MaxErrors = 50

// ErrorList collects the problems of one load, in the order found, as
// the caller's own error type E.
type ErrorList[E error] struct {
	errs []E
}

// Add records a problem.
func (l *ErrorList[E]) Add(e E) { l.errs = append(l.errs, e) }

// Len is how many problems were recorded.
func (l *ErrorList[E]) Len() int { return len(l.errs) }

// Err returns the problems as an errors.Join, or nil when there are none.
// They are sorted by compare, stably: problems that compare equal stay in
// the order found. With dedup, a problem whose text is the same as the
// one before it is dropped. At most MaxErrors are returned, and then
// more("N more problems not shown") for the rest.
func (l *ErrorList[E]) Err(compare func(a, b E) int, dedup bool, more func(msg string) E) error {
	if len(l.errs) == 0 {
		return nil
	}
	es := slices.Clone(l.errs)
	slices.SortStableFunc(es, compare)
	if dedup {
		es = slices.CompactFunc(es, func(a, b E) bool { return a.Error() == b.Error() })
	}
	out := make([]error, 0, min(len(es), MaxErrors)+1)
	for i, e := range es {
		if i == MaxErrors {
			out = append(out, more(fmt.Sprintf("%d more problems not shown", len(es)-MaxErrors)))
			break
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// Where is the start of a message about a problem: "file:line: path: ".
// The line is left out when it is 0, the file and line when file is "",
// and the path when it is "".
func Where(file string, line int, path string) string {
	var b strings.Builder
	if file != "" {
		b.WriteString(file)
		if line > 0 {
			b.WriteString(":" + strconv.Itoa(line))
		}
		b.WriteString(": ")
	}
	if path != "" {
		b.WriteString(path + ": ")
	}
	return b.String()
}

// ShowFile gives file as messages show it: relative to workDir when that
// is shorter, else as it is. A file or workDir of "" is left as it is, and
// so is a file that cannot be made relative to workDir (one is absolute
// and the other not).
func ShowFile(workDir, file string) string {
	if workDir == "" || file == "" {
		return file
	}
	if rel, err := filepath.Rel(workDir, file); err == nil && len(rel) < len(file) {
		return rel
	}
	return file
}
