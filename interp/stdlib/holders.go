package stdlib

import (
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// What the values of the modules hold, for the memory meter: a value the
// meter does not know counts nothing beyond its slot, so a list of a
// thousand Counters, matches or Fractions, each holding a megabyte no
// other value holds, would pass the run's budget unseen. Every module
// value that holds values of the program, or memory of its own that
// grows with its input, is an interp.Holder. (Counter and the other
// collections, deque, ChainMap, namedtuple values, SequenceMatcher,
// tee's buffer, io.StringIO and BytesIO, the logging objects, partial
// and lru_cache, and a started heapq.merge's state are Holders where
// they are defined.)

var (
	_ interp.Holder = (*Match)(nil)
	_ interp.Holder = (*Pattern)(nil)
	_ interp.Holder = (*template)(nil)
	_ interp.Holder = (*csvReader)(nil)
	_ interp.Holder = (*csvWriter)(nil)
	_ interp.Holder = (*csvDictReader)(nil)
	_ interp.Holder = (*csvDictWriter)(nil)
	_ interp.Holder = (*textWrapper)(nil)
	_ interp.Holder = (*timezone)(nil)
	_ interp.Holder = (*logFormatter)(nil)
	_ interp.Holder = (*jsonCoder)(nil)
	_ interp.Holder = (*fraction)(nil)
	_ interp.Holder = (*decimalValue)(nil)
	_ interp.Holder = (*ntType)(nil)
	_ interp.Holder = (*randomValue)(nil)
	_ interp.Holder = (*opCallable)(nil)
	_ interp.Holder = (*logFilter)(nil)
	_ interp.Holder = (*dialectValue)(nil)
)

// Held visits the text matched (a match keeps it, as CPython's does).
func (m *Match) Held(visit func(starlark.Value)) {
	visit(m.sub.v)
	visit(heldMem(m.loc))
	visit(heldMem(m.spans))
}

// Held visits the pattern's text (its compiled forms are bounded by it).
func (p *Pattern) Held(visit func(starlark.Value)) {
	if p.srcVal != nil {
		visit(p.srcVal)
	}
}

// Held visits the template's text.
func (t *template) Held(visit func(starlark.Value)) {
	if t.src != nil {
		visit(t.src)
	}
}

// Held visits the lines a reader reads and its record in progress.
func (r *csvReader) Held(visit func(starlark.Value)) {
	if r.src != nil {
		visit(r.src)
	}
	r.held(visit)
}

// Held visits the write method (and the file it is bound to).
func (w *csvWriter) Held(visit func(starlark.Value)) {
	if w.write != nil {
		visit(w.write)
	}
}

func (r *csvDictReader) Held(visit func(starlark.Value)) {
	visit(r.r)
	for _, v := range [...]starlark.Value{r.fieldnames, r.restkey, r.restval} {
		if v != nil {
			visit(v)
		}
	}
}

func (w *csvDictWriter) Held(visit func(starlark.Value)) {
	visit(w.w)
	for _, v := range [...]starlark.Value{w.fieldnames, w.restval} {
		if v != nil {
			visit(v)
		}
	}
}

// Held visits the wrapper's texts: its indents and placeholder, as runes
// and as text.
func (t *textWrapper) Held(visit func(starlark.Value)) {
	w := t.w
	visit(heldMem(w.initialIndent))
	visit(heldMem(w.subsequentIndent))
	visit(heldMem(w.placeholder))
	visit(starlark.String(w.initialText))
	visit(starlark.String(w.subsequentText))
	visit(starlark.String(w.ph))
}

// Held visits the zone's name.
func (z *timezone) Held(visit func(starlark.Value)) { visit(starlark.String(z.name)) }

// Held visits the format and the date format.
func (f *logFormatter) Held(visit func(starlark.Value)) {
	visit(starlark.String(f.fmt))
	if f.datefmt != nil {
		visit(f.datefmt)
	}
}

// Held visits the options given.
func (c *jsonCoder) Held(visit func(starlark.Value)) {
	for _, kv := range c.kwargs {
		visit(kv)
	}
}

// Held visits the words of the numerator and the denominator.
func (f *fraction) Held(visit func(starlark.Value)) {
	visit(heldMem(f.r.Num().Bits()))
	visit(heldMem(f.r.Denom().Bits()))
}

// Held visits the words of the coefficient.
func (d *decimalValue) Held(visit func(starlark.Value)) { visit(heldMem(d.d.Coeff.Bits())) }

// Held visits the field names and the defaults.
func (t *ntType) Held(visit func(starlark.Value)) {
	for _, f := range t.fields {
		visit(starlark.String(f))
	}
	visit(t.defaults)
}

// Held visits the generator's state (2.5 KB).
func (r *randomValue) Held(visit func(starlark.Value)) { visit(heldMem(r.g.state[:])) }

// Held visits the keys, names or arguments given.
func (o *opCallable) Held(visit func(starlark.Value)) {
	visit(o.args)
	for _, kv := range o.kw {
		visit(kv)
	}
}

// Held visits the logger name it passes.
func (f *logFilter) Held(visit func(starlark.Value)) { visit(starlark.String(f.name)) }

// Held visits the line terminator (the other fields are characters).
func (d *dialectValue) Held(visit func(starlark.Value)) {
	visit(starlark.String(d.d.lineterminator))
}
