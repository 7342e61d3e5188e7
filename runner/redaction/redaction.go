// Package redaction hides secret values in what the runner hands out
// (SPEC §8.3), at the two boundaries a value crosses:
//
//   - entering a program: a tool's result and error, whatever pack or
//     server made them, before the program sees them (Entering,
//     EnteringError), so that no encoding the program applies afterwards
//     can carry a secret out;
//   - leaving a run: the run's value before it is formatted (Starlark),
//     its Go form (Value) and its error (Error), a second line for what
//     reached the program some other way.
//
// Each walks a value and passes every string in it, keys included,
// through config.Secrets.Redact, which knows the forms a secret takes.
// The walks are bounded, as every walk of a program's values must be.
package redaction

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/config"
)

// The walks below are bounded, as every walk of a program's values must be
// (a value can nest 1,000 levels deep or share one sub-value at every
// level, which makes a walk exponential). Past a bound the walk of a
// Starlark value gives up and leaves the value as it was: its text is
// redacted all the same, in every encoding, so giving up costs only the
// forms text redaction cannot see. The Go value is a tree that ToGo or a
// decoder built, so walking it costs what building it did; its bounds are
// wider, and only a value that exceeds them (which the memory budget
// prevents) is withheld.
const (
	maxDepth    = 1000     // the depth interp.ToGo accepts
	maxVisits   = 1 << 21  // Starlark values visited, shared ones at every visit
	maxBytes    = 64 << 20 // text searched: a long string shared a million times is not read a million times
	maxGoVisits = 1 << 24
	maxGoBytes  = 1 << 30
)

// errGaveUp ends a walk that met a bound.
var errGaveUp = errors.New("value too deep or too large to redact")

// valueRedactor walks one value, counting what it has seen.
type valueRedactor struct {
	s                   *config.Secrets
	ctx                 context.Context // nil: no deadline
	visits, bytes       int
	maxVisits, maxBytes int
	last, out           string // the latest string redacted: values repeat one string often
}

// Starlark returns v with secret values hidden in every string and bytes
// value inside it, dict keys and struct field names included, before the
// value is formatted as text. It copies what it changes and shares the
// rest, never modifying v (which may be frozen or shared); it returns v
// itself when nothing needed hiding, or when it gave up.
func Starlark(s *config.Secrets, v starlark.Value) starlark.Value {
	w := &valueRedactor{s: s, maxVisits: maxVisits, maxBytes: maxBytes}
	out, _, err := w.starlark(v, 0)
	if err != nil {
		return v
	}
	return out
}

func (w *valueRedactor) visit(depth int) error {
	if w.visits++; w.visits > w.maxVisits || depth > maxDepth {
		return errGaveUp
	}
	if w.ctx != nil && w.visits%4096 == 0 {
		return w.ctx.Err()
	}
	return nil
}

// redact redacts one string of the value.
func (w *valueRedactor) redact(text string) (string, bool, error) {
	if text == w.last {
		return w.out, w.out != text, nil
	}
	if w.bytes += len(text); w.bytes > w.maxBytes {
		return "", false, errGaveUp
	}
	ctx := w.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	out, err := w.s.RedactContext(ctx, text)
	if err != nil {
		return "", false, err
	}
	w.last, w.out = text, out
	return w.out, w.out != text, nil
}

// starlark returns the redacted form of v and whether it differs from v.
func (w *valueRedactor) starlark(v starlark.Value, depth int) (starlark.Value, bool, error) {
	if err := w.visit(depth); err != nil {
		return nil, false, err
	}
	switch x := v.(type) {
	case starlark.String:
		r, changed, err := w.redact(string(x))
		return interp.MakeString(r), changed, err
	case *interp.Unicode:
		r, changed, err := w.redact(x.Text())
		return interp.MakeString(r), changed, err
	case starlark.Bytes:
		r, changed, err := w.redact(string(x))
		return starlark.Bytes(r), changed, err
	case interp.Bytes:
		r, changed, err := w.redact(string(x))
		return interp.Bytes(r), changed, err
	case *starlark.List:
		elems, changed, err := w.elems(x.Len(), x.Index, depth)
		if !changed || err != nil {
			return v, false, err
		}
		return starlark.NewList(elems), true, nil
	case starlark.Tuple:
		elems, changed, err := w.elems(len(x), func(i int) starlark.Value { return x[i] }, depth)
		if !changed || err != nil {
			return v, false, err
		}
		return starlark.Tuple(elems), true, nil
	case *starlark.Set:
		all := make([]starlark.Value, 0, x.Len())
		for e := range starlark.Elements(x) {
			all = append(all, e)
		}
		elems, changed, err := w.elems(len(all), func(i int) starlark.Value { return all[i] }, depth)
		if !changed || err != nil {
			return v, false, err
		}
		set := starlark.NewSet(len(elems))
		for _, e := range elems {
			if err := set.Insert(e); err != nil {
				return nil, false, errGaveUp
			}
		}
		return set, true, nil
	case *starlark.Dict:
		items := x.Items()
		flat := make([]starlark.Value, 0, 2*len(items))
		for _, kv := range items {
			flat = append(flat, kv[0], kv[1])
		}
		elems, changed, err := w.elems(len(flat), func(i int) starlark.Value { return flat[i] }, depth)
		if !changed || err != nil {
			return v, false, err
		}
		d := starlark.NewDict(len(items))
		for i := 0; i < len(elems); i += 2 {
			if err := d.SetKey(elems[i], elems[i+1]); err != nil {
				return nil, false, errGaveUp
			}
		}
		return d, true, nil
	case *starlarkstruct.Struct:
		names := x.AttrNames()
		fields := make([]starlark.Value, 0, 2*len(names))
		for i := range names {
			name, e := x.AttrAt(i)
			fields = append(fields, starlark.String(name), e)
		}
		elems, changed, err := w.elems(len(fields), func(i int) starlark.Value { return fields[i] }, depth)
		if !changed || err != nil {
			return v, false, err
		}
		kwargs := make([]starlark.Tuple, 0, len(names))
		for i := 0; i < len(elems); i += 2 {
			kwargs = append(kwargs, starlark.Tuple{elems[i], elems[i+1]})
		}
		return starlarkstruct.FromKeywords(x.Constructor(), kwargs), true, nil
	case interp.StarlarkValuer:
		// A value that converts as another (a deque as its list, an
		// instance of a program's class as its fields or its repr): a
		// secret in that form replaces the value by its redacted form.
		r, changed, err := w.starlark(x.StarlarkValue(), depth+1)
		if !changed || err != nil {
			return v, false, err
		}
		return r, true, nil
	case interp.GoValuer:
		// A value that knows its Go form (a path object): when that form
		// holds a secret, the redacted Go form stands in for it, which
		// formats as the value would have.
		g, err := goValue(x)
		if err != nil {
			return nil, false, errGaveUp
		}
		r, changed, err := w.goValue(g, depth)
		if !changed || err != nil {
			return v, false, err
		}
		sv, err := interp.FromGo(r)
		if err != nil {
			return nil, false, errGaveUp
		}
		return sv, true, nil
	}
	return v, false, nil // numbers, None, functions…: no text of their own to redact
}

// elems redacts the n values at(0)…at(n-1), returning a new slice only
// when one of them changed.
func (w *valueRedactor) elems(n int, at func(int) starlark.Value, depth int) ([]starlark.Value, bool, error) {
	var out []starlark.Value
	for i := range n {
		e := at(i)
		r, changed, err := w.starlark(e, depth+1)
		if err != nil {
			return nil, false, err
		}
		if changed && out == nil {
			out = make([]starlark.Value, n)
			for j := range i {
				out[j] = at(j)
			}
		}
		if out != nil {
			out[i] = r
		}
	}
	return out, out != nil, nil
}

// goValue calls GoValue, turning a panic in a pack's code into an error.
func goValue(x interp.GoValuer) (g any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("GoValue panicked: %v", p)
		}
	}()
	return x.GoValue()
}

// Value returns v, the Go form of a run's value, with secret values hidden
// in every string, keys included. When the walk gives up it returns nil:
// a value that could not be checked is not handed out (the run's text
// still is, redacted).
//
// The walk stops, giving nil, when ctx ends: a value of hundreds of
// megabytes takes seconds to search.
func Value(ctx context.Context, s *config.Secrets, v any) any {
	w := &valueRedactor{s: s, ctx: ctx, maxVisits: maxGoVisits, maxBytes: maxGoBytes}
	r, _, err := w.goValue(v, 0)
	if err != nil {
		return nil
	}
	return r
}

// goValue returns the redacted form of v and whether it differs from v.
func (w *valueRedactor) goValue(v any, depth int) (any, bool, error) {
	if err := w.visit(depth); err != nil {
		return nil, false, err
	}
	switch x := v.(type) {
	case string:
		r, changed, err := w.redact(x)
		if !changed || err != nil {
			return v, false, err // v as it was: boxing r again would allocate
		}
		return r, true, nil
	case []any:
		var out []any
		for i, e := range x {
			r, changed, err := w.goValue(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = r
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case *ordered.Map:
		// The copy is made at the first change only: most values hold
		// no secret, and a walk that changes nothing allocates nothing.
		var m *ordered.Map
		i := 0
		var err error
		x.Range(func(k string, e any) bool {
			var r any
			var c, ck bool
			var rk string
			if r, c, err = w.goValue(e, depth+1); err != nil {
				return false
			}
			if rk, ck, err = w.redact(k); err != nil {
				return false
			}
			if (c || ck) && m == nil {
				m = ordered.NewMap(x.Len())
				j := 0
				x.Range(func(k string, e any) bool {
					if j++; j > i {
						return false
					}
					m.Set(k, e)
					return true
				})
			}
			if m != nil {
				m.Set(rk, r)
			}
			i++
			return true
		})
		if err != nil || m == nil {
			return v, false, err
		}
		return m, true, nil
	case map[string]any:
		var m map[string]any
		for k, e := range x {
			r, c, err := w.goValue(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			rk, ck, err := w.redact(k)
			if err != nil {
				return nil, false, err
			}
			if (c || ck) && m == nil {
				m = make(map[string]any, len(x))
				for k2, e2 := range x {
					m[k2] = e2
				}
				delete(m, k)
			}
			if m != nil {
				if rk != k {
					delete(m, k)
				}
				m[rk] = r
			}
		}
		if m == nil {
			return v, false, nil
		}
		return m, true, nil
	}
	return w.entering(v, depth) // the other types a tool's result may hold
}

// Error returns err, or when its text holds a secret, an error that reads
// as err with the secret hidden, for Go callers: errors.Is and errors.As
// still reach the cause. (A program gets EnteringError instead.)
func Error(s *config.Secrets, err error) error {
	if err == nil {
		return nil
	}
	if text := s.Redact(err.Error()); text != err.Error() {
		return &redactedError{text: text, err: err}
	}
	return err
}

// redactedError reads as its cause with secret values hidden; errors.Is
// and errors.As still reach the cause.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
