package redaction

import (
	"encoding/json"
	"errors"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/config"
)

// ErrUnchecked is the error of a tool result too large or too deep to be
// checked for secrets: it is not handed to the program.
var ErrUnchecked = errors.New("the result is too large or too deep to check for secrets")

// Entering returns v, a tool's result about to be handed to a program
// (the Go value interp.FromGo converts), with every secret hidden in every
// string in it, keys included. It copies what it changes and returns v
// itself when nothing needed hiding, which is the cost of a walk and one
// search per string; with no secrets, nothing. A value too large or too
// deep to check is refused (ErrUnchecked) rather than handed over.
func Entering(s *config.Secrets, v any) (any, error) {
	if s == nil {
		return v, nil
	}
	w := &valueRedactor{s: s, maxVisits: maxGoVisits, maxBytes: maxGoBytes}
	r, _, err := w.entering(v, 0)
	if err != nil {
		return nil, ErrUnchecked
	}
	return r, nil
}

// entering returns the redacted form of v and whether it differs from v,
// for every type interp.FromGo converts.
func (w *valueRedactor) entering(v any, depth int) (any, bool, error) {
	switch v.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, json.Number, time.Time:
		return v, false, nil // no text of their own
	case string, []any, *ordered.Map, map[string]any:
		return w.goValue(v, depth) // the common case: what ordered.Decode and the packs make
	}
	if err := w.visit(depth); err != nil {
		return nil, false, err
	}
	switch x := v.(type) {
	case []byte:
		r, changed, err := w.redact(string(x))
		if !changed || err != nil {
			return v, false, err
		}
		return []byte(r), true, nil
	case []string:
		var out []string
		for i, e := range x {
			r, changed, err := w.redact(e)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = append([]string(nil), x...)
			}
			if out != nil {
				out[i] = r
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case []map[string]any:
		var out []any
		for i, e := range x {
			r, changed, err := w.goValue(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = make([]any, len(x))
				for j := range i {
					out[j] = x[j]
				}
			}
			if out != nil {
				out[i] = r
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case starlark.Value:
		return w.starlark(x, depth)
	}
	// Anything else (a struct, a typed slice or map, a JSON or text
	// marshaler) FromGo converts by reflection or through its JSON: check
	// that conversion, and when it held a secret, hand over its redacted
	// Go form instead, which converts the same way.
	sv, err := interp.FromGo(v)
	if err != nil {
		return v, false, nil // the program's side fails to convert it anyway
	}
	r, changed, err := w.starlark(sv, depth)
	if !changed || err != nil {
		return v, false, err
	}
	g, err := interp.ToGo(r)
	if err != nil {
		return nil, false, errGaveUp
	}
	return g, true, nil
}

// EnteringError returns err, a tool's failure about to be handed to a
// program — which reads its text (except ToolError as e: str(e)) — with
// every secret hidden in its text. When the text held one, the error
// returned reads as err does with the secrets hidden, matches what err
// matches with errors.Is and keeps its Python class, but errors.As reaches
// none of err's parts: their fields may hold the secret.
func EnteringError(s *config.Secrets, err error) error {
	if s == nil || err == nil {
		return err
	}
	msg := err.Error()
	text := s.Redact(msg)
	if text == msg {
		return err
	}
	e := &programError{text: text, err: err}
	var classed interface{ PythonClass() string }
	if errors.As(err, &classed) {
		return &classedProgramError{*e, classed.PythonClass()}
	}
	return e
}

// programError is an error as a program may see it.
type programError struct {
	text string
	err  error
}

func (e *programError) Error() string { return e.text }

// Is reports whether the hidden cause matches target.
func (e *programError) Is(target error) bool { return errors.Is(e.err, target) }

// classedProgramError is a programError of a known Python class.
type classedProgramError struct {
	programError
	class string
}

// PythonClass is the exception class a Python program catches it as.
func (e *classedProgramError) PythonClass() string { return e.class }

// Is reports whether the hidden cause matches target.
func (e *classedProgramError) Is(target error) bool { return errors.Is(e.err, target) }
