package interp

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Text of values, under a budget. Starlark's own String methods recurse
// without bound and revisit shared parts: a tuple doubled forty times is
// forty small values whose text has 2**40 parts, and a list nested a
// million deep takes quadratic time to print. Every str(), repr(),
// print() and result onetool renders goes through the writer below
// instead, which charges each value it visits to the run's Budget (shared
// parts count at every visit), stops at the run's memory budget, and
// refuses values nested more than MaxDepth levels.

// MaxDepth is how deeply values may nest wherever onetool walks them:
// rendering, conversion, JSON, copying. It turns a value that contains
// itself, or one nested a million deep, into a clear error instead of a
// Go stack overflow.
const MaxDepth = maxDepth

// ErrTooDeep is the cause of a value nested more than MaxDepth levels.
var ErrTooDeep = fmt.Errorf("value nested more than %d levels deep", maxDepth)

// Values are written as Python writes them: 'text' quoted by
// QuoteString, floats by FloatRepr, {1, 2} for a set, (1,) for a tuple of
// one.

// SetOrder, when set, gives the elements of a set in the order its text
// shows them, or nil for the order of insertion: the Python front end
// shows them in the order CPython walks its hash table.
var SetOrder func(b *Budget, s *starlark.Set) ([]starlark.Value, error)

// Repr returns the text repr() gives for v: strings quoted.
func Repr(b *Budget, v starlark.Value) (string, error) {
	w := TextWriter{Budget: b}
	if err := w.Repr(v); err != nil {
		return "", err
	}
	return w.String(), nil
}

// Str returns the text str() gives for v: a string is itself, anything
// else its repr.
func Str(b *Budget, v starlark.Value) (string, error) {
	if _, ok := v.(StrValue); !ok {
		if s, ok := AsText(v); ok {
			return s, b.Charge(uint64(len(s)) / 64)
		}
	}
	if t, ok := v.(TextValue); ok { // an instance of a str subclass too: its __str__
		w := TextWriter{Budget: b}
		if err := t.WriteText(&w, true, 0); err != nil {
			return "", err
		}
		return w.String(), nil
	}
	if s, ok := v.(HasStr); ok {
		text := s.Str()
		return text, b.Charge(uint64(len(text)) / 64)
	}
	return Repr(b, v)
}

// TextValue is a value that writes its own str() (str true) or repr()
// through w, so that the values it holds are walked under the same
// budget, depth limit and cycle check as the value around it: an
// exception holding its arguments, which may hold it back.
type TextValue interface {
	starlark.Value
	WriteText(w *TextWriter, str bool, depth int) error
}

// Nested appends the repr() of v, a part of a TextValue at depth.
func (w *TextWriter) Nested(v starlark.Value, depth int) error { return w.value(v, depth) }

// HasStr is a value whose str() is not its repr(): an exception's str()
// is its message.
type HasStr interface {
	starlark.Value
	Str() string
}

// A TextWriter accumulates the text of values under a Budget. The zero
// value with a Budget set is ready to use; a nil Budget bounds nothing but
// depth.
type TextWriter struct {
	Budget *Budget
	buf    strings.Builder
	path   []starlark.Value // the mutable containers being written, for cycles
}

// String returns the text written so far.
func (w *TextWriter) String() string { return w.buf.String() }

// Len returns the length of the text written so far.
func (w *TextWriter) Len() int { return w.buf.Len() }

// WriteString appends s as it is, charging its length.
func (w *TextWriter) WriteString(s string) error {
	if err := w.room(len(s)); err != nil {
		return err
	}
	w.buf.WriteString(s)
	return w.grew(len(s))
}

// room refuses, with the memory error, n more bytes of text when the
// buffer they would make it grow to could not fit the memory budget: a
// text that repeats one long string (repr of [s] * 1000) is far larger
// than the values, and is refused before its buffer doubles past the
// budget, not after.
func (w *TextWriter) room(n int) error {
	if w.Budget == nil {
		return nil
	}
	need := w.buf.Len() + n
	if need <= w.buf.Cap() {
		return nil
	}
	return w.Budget.Fits(int64(max(need, 2*w.buf.Cap())))
}

// Str appends the str() of v.
func (w *TextWriter) Str(v starlark.Value) error {
	if _, ok := v.(StrValue); !ok {
		if s, ok := AsText(v); ok {
			return w.WriteString(s)
		}
	}
	if t, ok := v.(TextValue); ok {
		return t.WriteText(w, true, 0)
	}
	if s, ok := v.(HasStr); ok {
		return w.WriteString(s.Str())
	}
	return w.Repr(v)
}

// quoted appends the repr of a str, its work charged first: quoting
// looks at every character, and escapes may make the text four times
// longer.
func (w *TextWriter) quoted(s string) error {
	if err := w.room(len(s) + 2); err != nil {
		return err
	}
	if err := w.Budget.Charge(uint64(len(s)) / 16); err != nil {
		return err
	}
	if err := w.Budget.Alloc(int64(len(s)) + 2); err != nil {
		return err
	}
	if err := w.Budget.Room(int64(len(s)) + 2); err != nil {
		return err
	}
	q, err := quoteString(w.Budget, s)
	if err != nil {
		return err
	}
	return w.WriteString(q)
}

// quotedBytes appends the repr of bytes s, in call(…) unless call is "",
// under the budget (see quoteBytes).
func (w *TextWriter) quotedBytes(call, s string) error {
	if err := w.Budget.Fits(int64(w.buf.Len()) + int64(len(s))); err != nil {
		return err
	}
	q, err := quoteBytes(w.Budget, s)
	if err != nil {
		return err
	}
	if call == "" {
		return w.WriteString(q)
	}
	w.buf.WriteString(call)
	w.buf.WriteByte('(')
	w.buf.WriteString(q)
	return w.WriteString(")")
}

// Repr appends the repr() of v.
func (w *TextWriter) Repr(v starlark.Value) error {
	return w.value(v, 0)
}

// grew charges n more bytes of text and enforces the memory budget on
// the text as a whole.
func (w *TextWriter) grew(n int) error {
	if w.Budget == nil {
		return nil
	}
	if max := w.Budget.MaxMemory(); max > 0 && int64(w.buf.Len()) > max {
		return w.Budget.trip(errMemory)
	}
	return w.Budget.Charge(uint64(n)/64 + 1)
}

func (w *TextWriter) value(v starlark.Value, depth int) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	switch x := v.(type) {
	case nil:
		return w.WriteString("None")
	case starlark.NoneType, starlark.Bool:
		return w.WriteString(x.String())
	case starlark.Float:
		return w.WriteString(FloatRepr(float64(x)))
	case starlark.Int:
		text, err := IntText(w.Budget, x)
		if err != nil {
			return err
		}
		return w.WriteString(text)
	case starlark.String:
		return w.quoted(string(x))
	case *Unicode:
		return w.quoted(x.s)
	case starlark.Bytes:
		return w.quotedBytes("", string(x))
	case Bytes:
		return w.quotedBytes("", string(x))
	case *ByteArray:
		return w.quotedBytes("bytearray", string(x.b))
	case *starlark.List:
		if w.open(x) {
			return w.WriteString("[...]")
		}
		w.buf.WriteByte('[')
		for i := 0; i < x.Len(); i++ {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			if err := w.value(x.Index(i), depth+1); err != nil {
				return err
			}
		}
		w.close()
		return w.WriteString("]")
	case starlark.Tuple:
		w.buf.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			if err := w.value(e, depth+1); err != nil {
				return err
			}
		}
		if len(x) == 1 {
			w.buf.WriteByte(',')
		}
		return w.WriteString(")")
	case *starlark.Dict:
		if w.open(x) {
			return w.WriteString("{...}")
		}
		w.buf.WriteByte('{')
		for i, kv := range x.Items() {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			if err := w.value(kv[0], depth+1); err != nil {
				return err
			}
			w.buf.WriteString(": ")
			if err := w.value(kv[1], depth+1); err != nil {
				return err
			}
		}
		w.close()
		return w.WriteString("}")
	case *starlark.Set:
		if x.Len() == 0 {
			return w.WriteString("set()")
		}
		w.buf.WriteString("{")
		var order []starlark.Value
		if SetOrder != nil {
			var err error
			if order, err = SetOrder(w.Budget, x); err != nil {
				return err
			}
		}
		i := 0
		for e := range x.Elements() {
			if order != nil {
				e = order[i]
			}
			if i > 0 {
				w.buf.WriteString(", ")
			}
			i++
			if err := w.value(e, depth+1); err != nil {
				return err
			}
		}
		return w.WriteString("}")
	case *starlarkstruct.Struct:
		if w.open(x) {
			return w.WriteString("struct(...)")
		}
		ctor := x.Constructor()
		if s, ok := ctor.(starlark.String); ok {
			w.buf.WriteString(string(s))
		} else {
			w.buf.WriteString(ctor.String())
		}
		w.buf.WriteByte('(')
		for i, name := range x.AttrNames() {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			w.buf.WriteString(name)
			w.buf.WriteString(" = ")
			f, _ := x.Attr(name)
			if err := w.value(f, depth+1); err != nil {
				return err
			}
		}
		w.close()
		return w.WriteString(")")
	}
	if t, ok := v.(TextValue); ok {
		return t.WriteText(w, false, depth)
	}
	// Functions, modules, packs, tools, paths: their own text, which holds
	// no user values nested without bound.
	return w.WriteString(v.String())
}

// open reports whether x is already being written (a cycle); otherwise it
// notes x as open. The path is at most maxDepth long, and each check is
// charged by its length.
func (w *TextWriter) open(x starlark.Value) bool {
	for _, p := range w.path {
		if p == x {
			return true
		}
	}
	w.path = append(w.path, x)
	if w.Budget != nil {
		// Charged here rather than returned: a tripped budget stops the
		// walk at the next grew.
		_ = w.Budget.Charge(uint64(len(w.path)) / 32)
	}
	return false
}

func (w *TextWriter) close() { w.path = w.path[:len(w.path)-1] }

// Enter notes x, a TextValue holding values that may hold it back, as
// being written: true when it already is (a cycle: write its short form
// instead, without Leave). Otherwise call Leave once it is written.
func (w *TextWriter) Enter(x starlark.Value) bool { return w.open(x) }

// Leave ends what Enter began.
func (w *TextWriter) Leave() { w.close() }

// IsTooDeep reports whether err is the depth limit of onetool's walkers.
func IsTooDeep(err error) bool { return errors.Is(err, ErrTooDeep) }
