package stdlib

import (
	"fmt"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// decimal's contexts and signals. A run has one current context (a
// thread-local, made on first use from DefaultContext's settings), so that
// getcontext().prec = 50 in one run never changes another's. A Decimal
// remembers the run it was made in (decRun), since an operator such as +
// is given no thread: it rounds with the run's current context and
// charges the run's budget.

// signal is a set of decimal's signals and conditions, as bits.
type signal uint16

// The signals, in the order of CPython's signal map (which names the
// class an exception is raised as), then InvalidOperation's conditions.
const (
	sigInvalid signal = 1 << iota
	sigFloat
	sigDivZero
	sigOverflow
	sigUnderflow
	sigSubnormal
	sigInexact
	sigRounded
	sigClamped
	condConversion
	condDivImpossible
	condDivUndefined
	condInvalidContext

	condInvalid = condConversion | condDivImpossible | condDivUndefined | condInvalidContext
)

// signalNames are the names of the signals of a context's flags and
// traps, in the order CPython lists them in the repr of a context.
var signalReprOrder = []signal{sigClamped, sigInvalid, sigDivZero, sigInexact, sigFloat, sigOverflow, sigRounded, sigSubnormal, sigUnderflow}

// signalOrder is the order of CPython's signal map: of a SignalDict's keys.
var signalOrder = []signal{sigInvalid, sigFloat, sigDivZero, sigOverflow, sigUnderflow, sigSubnormal, sigInexact, sigRounded, sigClamped}

// flagsOf folds InvalidOperation's conditions into InvalidOperation: the
// signals a context's flags and traps hold.
func (s signal) flags() signal {
	if s&condInvalid != 0 {
		s = s&^condInvalid | sigInvalid
	}
	return s
}

// decClasses are decimal's exception classes, made once.
type decClasses struct {
	base                                                                        *pyrt.ExcClass // DecimalException
	invalid, conversion, divImpossible, divUndefined, invalidCtx                *pyrt.ExcClass
	divZero, inexact, rounded, subnormal, clamped, overflow, underflow, floatOp *pyrt.ExcClass
	bySignal                                                                    map[signal]*pyrt.ExcClass
}

var decExc = func() *decClasses {
	arith := pyrt.BuiltinClass("ArithmeticError")
	c := &decClasses{base: pyrt.NewModuleSubclass("decimal.DecimalException", arith)}
	c.invalid = pyrt.NewModuleSubclass("decimal.InvalidOperation", c.base)
	c.conversion = pyrt.NewModuleSubclass("decimal.ConversionSyntax", c.invalid)
	c.divImpossible = pyrt.NewModuleSubclass("decimal.DivisionImpossible", c.invalid)
	c.divUndefined = pyrt.NewModuleSubclass("decimal.DivisionUndefined", c.invalid, pyrt.BuiltinClass("ZeroDivisionError"))
	c.invalidCtx = pyrt.NewModuleSubclass("decimal.InvalidContext", c.invalid)
	c.divZero = pyrt.NewModuleSubclass("decimal.DivisionByZero", c.base, pyrt.BuiltinClass("ZeroDivisionError"))
	c.inexact = pyrt.NewModuleSubclass("decimal.Inexact", c.base)
	c.rounded = pyrt.NewModuleSubclass("decimal.Rounded", c.base)
	c.subnormal = pyrt.NewModuleSubclass("decimal.Subnormal", c.base)
	c.clamped = pyrt.NewModuleSubclass("decimal.Clamped", c.base)
	c.overflow = pyrt.NewModuleSubclass("decimal.Overflow", c.inexact, c.rounded)
	c.underflow = pyrt.NewModuleSubclass("decimal.Underflow", c.inexact, c.rounded, c.subnormal)
	c.floatOp = pyrt.NewModuleSubclass("decimal.FloatOperation", c.base, pyrt.BuiltinClass("TypeError"))
	c.bySignal = map[signal]*pyrt.ExcClass{
		sigInvalid: c.invalid, sigFloat: c.floatOp, sigDivZero: c.divZero, sigOverflow: c.overflow,
		sigUnderflow: c.underflow, sigSubnormal: c.subnormal, sigInexact: c.inexact, sigRounded: c.rounded,
		sigClamped: c.clamped, condConversion: c.conversion, condDivImpossible: c.divImpossible,
		condDivUndefined: c.divUndefined, condInvalidContext: c.invalidCtx,
	}
	return c
}()

// signalOf is the signal a class of decimal's stands for in a context's
// flags and traps; false for any other value.
func signalOf(v starlark.Value) (signal, bool) {
	c, ok := v.(*pyrt.ExcClass)
	if !ok {
		return 0, false
	}
	for _, s := range signalOrder {
		if decExc.bySignal[s] == c {
			return s, true
		}
	}
	return 0, false
}

// The rounding modes: their names are their values, as in CPython.
var roundingModes = map[string]apd.Rounder{
	"ROUND_CEILING":   apd.RoundCeiling,
	"ROUND_FLOOR":     apd.RoundFloor,
	"ROUND_UP":        apd.RoundUp,
	"ROUND_DOWN":      apd.RoundDown,
	"ROUND_HALF_UP":   apd.RoundHalfUp,
	"ROUND_HALF_DOWN": apd.RoundHalfDown,
	"ROUND_HALF_EVEN": apd.RoundHalfEven,
	"ROUND_05UP":      apd.Round05Up,
}

func roundingError() error {
	return pyrt.Errorf("TypeError", "valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]")
}

// Bounds of a context's settings. CPython's are 10**18 - 1; here the
// precision is bounded by limits.max_int_digits (an exact value may have
// that many digits), and exponents by what apd computes with.
const (
	decMaxPrec = 999999999999999999
	decMaxEmax = 999999999999999999
	decMinEmin = -999999999999999999
	// decApdExp is the largest magnitude of an exponent apd computes with.
	decApdExp = apd.MaxExponent
	// decMaxSlowPrec is the most digits exp, ln, log10 and non-integer
	// powers compute: apd's series take 0.2 s at 1000 digits and fail
	// beyond a few thousand.
	decMaxSlowPrec = 1000
)

// decContext is a decimal.Context: its settings, and the signals raised
// since its flags were last cleared.
type decContext struct {
	prec           int64
	rounding       string
	emin, emax     int64
	capitals       int64
	clamp          int64
	traps, flags   signal
	frozen         bool // one of the module's templates: copied, never changed
	flagsV, trapsV *signalDict
}

var (
	_ starlark.HasAttrs    = (*decContext)(nil)
	_ starlark.HasSetField = (*decContext)(nil)
)

func defaultContext() *decContext {
	return &decContext{prec: 28, rounding: "ROUND_HALF_EVEN", emin: -999999, emax: 999999, capitals: 1,
		traps: sigInvalid | sigDivZero | sigOverflow}
}

func (c *decContext) copy() *decContext {
	n := *c
	n.frozen, n.flagsV, n.trapsV = false, nil, nil
	return &n
}

func (c *decContext) Type() string         { return "decimal.Context" }
func (c *decContext) Freeze()              {}
func (c *decContext) Truth() starlark.Bool { return true }
func (c *decContext) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: 'decimal.Context'")
}
func (c *decContext) PyClass() starlark.Value {
	return decContextClass
}

func signalList(s signal) string {
	var names []string
	for _, sig := range signalReprOrder {
		if s&sig != 0 {
			names = append(names, decExc.bySignal[sig].Name())
		}
	}
	return "[" + strings.Join(names, ", ") + "]"
}

func (c *decContext) String() string {
	return fmt.Sprintf("Context(prec=%d, rounding=%s, Emin=%d, Emax=%d, capitals=%d, clamp=%d, flags=%s, traps=%s)",
		c.prec, c.rounding, c.emin, c.emax, c.capitals, c.clamp, signalList(c.flags), signalList(c.traps))
}

var contextFields = []string{"prec", "rounding", "Emin", "Emax", "capitals", "clamp", "flags", "traps"}

func (c *decContext) AttrNames() []string {
	return methodNames(contextMethods, contextFields...)
}

func (c *decContext) Attr(name string) (starlark.Value, error) {
	switch name {
	case "prec":
		return starlark.MakeInt64(c.prec), nil
	case "rounding":
		return starlark.String(c.rounding), nil
	case "Emin":
		return starlark.MakeInt64(c.emin), nil
	case "Emax":
		return starlark.MakeInt64(c.emax), nil
	case "capitals":
		return starlark.MakeInt64(c.capitals), nil
	case "clamp":
		return starlark.MakeInt64(c.clamp), nil
	case "flags":
		if c.flagsV == nil {
			c.flagsV = &signalDict{ctx: c, flags: true}
		}
		return c.flagsV, nil
	case "traps":
		if c.trapsV == nil {
			c.trapsV = &signalDict{ctx: c}
		}
		return c.trapsV, nil
	}
	if m := bindMethod(contextMethods, c, name); m != nil {
		return m, nil
	}
	return nil, numNoAttr("decimal.Context", name)
}

// ctxInt reads an integer setting.
func ctxInt(v starlark.Value) (int64, error) {
	switch x := v.(type) {
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return 0, pyrt.Errorf("OverflowError", "Python int too large to convert to C ssize_t")
		}
		return n, nil
	}
	return 0, pyrt.Errorf("TypeError", "an integer is required")
}

func (c *decContext) SetField(name string, v starlark.Value) error {
	if c.frozen {
		return pyrt.Errorf("AttributeError", "decimal's template contexts cannot be changed in onetool: change getcontext(), or setcontext(Context(...))")
	}
	switch name {
	case "prec", "Emin", "Emax", "capitals", "clamp":
		n, err := ctxInt(v)
		if err != nil {
			return err
		}
		switch name {
		case "prec":
			if n < 1 || n > decMaxPrec {
				return pyrt.Errorf("ValueError", "valid range for prec is [1, MAX_PREC]")
			}
			c.prec = n
		case "Emin":
			if n > 0 || n < decMinEmin {
				return pyrt.Errorf("ValueError", "valid range for Emin is [MIN_EMIN, 0]")
			}
			c.emin = n
		case "Emax":
			if n < 0 || n > decMaxEmax {
				return pyrt.Errorf("ValueError", "valid range for Emax is [0, MAX_EMAX]")
			}
			c.emax = n
		case "capitals":
			if n != 0 && n != 1 {
				return pyrt.Errorf("ValueError", "valid values for capitals are 0 or 1")
			}
			c.capitals = n
		case "clamp":
			if n != 0 && n != 1 {
				return pyrt.Errorf("ValueError", "valid values for clamp are 0 or 1")
			}
			c.clamp = n
		}
		return nil
	case "rounding":
		s, ok := interp.AsText(v)
		if _, known := roundingModes[s]; !ok || !known {
			return roundingError()
		}
		c.rounding = s
		return nil
	case "flags", "traps":
		s, err := signalSet(v)
		if err != nil {
			return err
		}
		if name == "flags" {
			c.flags = s
		} else {
			c.traps = s
		}
		return nil
	}
	return numNoAttr("decimal.Context", name)
}

func signalKeyError() error {
	return pyrt.Errorf("KeyError", "%s", interp.QuoteString("valid values for signals are:\n  [InvalidOperation, FloatOperation, DivisionByZero,\n   Overflow, Underflow, Subnormal, Inexact, Rounded,\n   Clamped]"))
}

// signalSet reads the signals of a context's flags or traps: a list of
// signals or a dict of them to truth values.
func signalSet(v starlark.Value) (signal, error) {
	var s signal
	switch x := v.(type) {
	case *signalDict:
		if x.flags {
			return x.ctx.flags, nil
		}
		return x.ctx.traps, nil
	case *starlark.Dict:
		// A dict names every signal, as a context's flags and traps do.
		if x.Len() != len(signalOrder) {
			return 0, pyrt.Errorf("KeyError", "'invalid signal dict'")
		}
		for _, kv := range x.Items() {
			sig, ok := signalOf(kv[0])
			if !ok {
				return 0, pyrt.Errorf("KeyError", "'invalid signal dict'")
			}
			if kv[1].Truth() {
				s |= sig
			}
		}
		return s, nil
	case *starlark.List, starlark.Tuple, *starlark.Set:
		iter := starlark.Iterate(x)
		defer iter.Done()
		var e starlark.Value
		for iter.Next(&e) {
			sig, ok := signalOf(e)
			if !ok {
				return 0, signalKeyError()
			}
			s |= sig
		}
		return s, nil
	}
	return 0, pyrt.Errorf("TypeError", "argument must be a signal dict")
}

// signalDict is a context's flags or traps: a mapping of the signals to
// bools that changes the context.
type signalDict struct {
	ctx   *decContext
	flags bool
}

var (
	_ starlark.Mapping   = (*signalDict)(nil)
	_ starlark.HasSetKey = (*signalDict)(nil)
	_ starlark.Iterable  = (*signalDict)(nil)
	_ starlark.HasAttrs  = (*signalDict)(nil)
)

func (d *signalDict) set() *signal {
	if d.flags {
		return &d.ctx.flags
	}
	return &d.ctx.traps
}

func (d *signalDict) Type() string          { return "SignalDict" }
func (d *signalDict) Freeze()               {}
func (d *signalDict) Truth() starlark.Bool  { return true }
func (d *signalDict) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: 'SignalDict'") }
func (d *signalDict) Len() int              { return len(signalOrder) }

func (d *signalDict) String() string {
	var sb strings.Builder
	sb.WriteString("{")
	for i, s := range signalOrder {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(decExc.bySignal[s].String() + ":" + starlark.Bool(*d.set()&s != 0).String())
	}
	sb.WriteString("}")
	return sb.String()
}

func (d *signalDict) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := signalOf(k)
	if !ok {
		return nil, false, signalKeyError()
	}
	return starlark.Bool(*d.set()&s != 0), true, nil
}

func (d *signalDict) SetKey(k, v starlark.Value) error {
	if d.ctx.frozen {
		return d.ctx.SetField("traps", nil)
	}
	s, ok := signalOf(k)
	if !ok {
		return signalKeyError()
	}
	if v.Truth() {
		*d.set() |= s
	} else {
		*d.set() &^= s
	}
	return nil
}

func (d *signalDict) keys() []starlark.Value {
	out := make([]starlark.Value, len(signalOrder))
	for i, s := range signalOrder {
		out[i] = decExc.bySignal[s]
	}
	return out
}

func (d *signalDict) Iterate() starlark.Iterator { return starlark.NewList(d.keys()).Iterate() }

func (d *signalDict) AttrNames() []string { return []string{"copy", "items", "keys", "values"} }

func (d *signalDict) Attr(name string) (starlark.Value, error) {
	switch name {
	case "keys", "values", "items", "copy":
	default:
		return nil, numNoAttr("SignalDict", name)
	}
	return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		keys := d.keys()
		switch name {
		case "keys":
			return starlark.NewList(keys), nil
		case "values", "items":
			out := make([]starlark.Value, len(keys))
			for i, k := range keys {
				v, _, _ := d.Get(k)
				out[i] = v
				if name == "items" {
					out[i] = starlark.Tuple{k, v}
				}
			}
			return starlark.NewList(out), nil
		}
		dict := starlark.NewDict(len(keys))
		for _, k := range keys {
			v, _, _ := d.Get(k)
			_ = dict.SetKey(k, v)
		}
		return dict, nil
	}), nil
}

// decRun is what a run's Decimals share: its current context and its
// budget.
type decRun struct {
	ctx    *decContext
	budget *interp.Budget
}

const decimalLocal = "onetool.stdlib.decimal"

// runDecimal is the decimal state of the run on thread, made on first use.
func runDecimal(thread *starlark.Thread) *decRun {
	if thread == nil {
		return &decRun{ctx: defaultContext()}
	}
	if r, ok := interp.RunLocal(thread, decimalLocal).(*decRun); ok {
		return r
	}
	r := &decRun{ctx: defaultContext(), budget: interp.BudgetOf(thread)}
	interp.SetRunLocal(thread, decimalLocal, r)
	return r
}

// maxDigits is the most digits a precision or an exact value may have in
// this run: limits.max_int_digits, or a million when there is no bound.
func (r *decRun) maxDigits() int64 {
	if n := r.budget.MaxIntDigits(); n > 0 {
		return int64(n)
	}
	return 1000000
}

// apdContext is ctx as apd computes with it: no traps (the signals are
// raised here, as CPython raises them), exponents within apd's range.
func (r *decRun) apdContext(ctx *decContext) (*apd.Context, error) {
	if ctx.prec > r.maxDigits() {
		return nil, r.budget.IntLimit()
	}
	c := &apd.Context{Precision: uint32(ctx.prec), Rounding: roundingModes[ctx.rounding],
		MaxExponent: int32(min(ctx.emax, decApdExp)), MinExponent: int32(max(ctx.emin, -decApdExp))}
	return c, nil
}

// signals turns apd's conditions into decimal's signals.
func signals(c apd.Condition) signal {
	var s signal
	if c&(apd.SystemOverflow|apd.Overflow) != 0 {
		s |= sigOverflow
	}
	if c&(apd.SystemUnderflow|apd.Underflow) != 0 {
		s |= sigUnderflow
	}
	pairs := []struct {
		c apd.Condition
		s signal
	}{
		{apd.Inexact, sigInexact}, {apd.Subnormal, sigSubnormal}, {apd.Rounded, sigRounded},
		{apd.DivisionUndefined, condDivUndefined}, {apd.DivisionByZero, sigDivZero},
		{apd.DivisionImpossible, condDivImpossible}, {apd.Clamped, sigClamped},
	}
	for _, p := range pairs {
		if c&p.c != 0 {
			s |= p.s
		}
	}
	if c&apd.InvalidOperation != 0 && s&condInvalid == 0 {
		s |= sigInvalid
	}
	return s
}

// raise records the signals s in ctx's flags and raises, as CPython
// does, those that ctx traps: as the class of the first in the signal
// map, with the list of the trapped conditions.
func (ctx *decContext) raise(s signal) error {
	if !ctx.frozen { // the module's templates are shared by all runs: never written
		ctx.flags |= s.flags()
	}
	trapped := s & (ctx.traps | condInvalid)
	if ctx.traps&sigInvalid == 0 {
		trapped &^= condInvalid
	}
	if trapped == 0 {
		return nil
	}
	var list []starlark.Value
	for _, sig := range []signal{sigInvalid, condConversion, condDivImpossible, condDivUndefined, condInvalidContext} {
		if trapped&sig != 0 {
			list = append(list, decExc.bySignal[sig])
		}
	}
	for _, sig := range signalOrder[1:] {
		if trapped&sig != 0 {
			list = append(list, decExc.bySignal[sig])
		}
	}
	class := decExc.invalid
	for _, sig := range signalOrder {
		if trapped.flags()&sig != 0 {
			class = decExc.bySignal[sig]
			break
		}
	}
	e, err := class.CallInternal(nil, starlark.Tuple{starlark.NewList(list)}, nil)
	if err != nil {
		return err
	}
	return e.(interface{ Error() error }).Error()
}

// decWork is the work of an operation on numbers of n digits, in units
// of about one Starlark step.
func decWork(n int64) uint64 {
	if n < 64 {
		return 2
	}
	return uint64(n/8) + uint64(n)*uint64(n)/16384
}

// slowWork is the work of exp, ln, log10 and non-integer powers at a
// precision of p digits (apd's series take about p**2.5 steps).
func slowWork(p int64) uint64 {
	return 2000 + uint64(math.Pow(float64(p), 2.5))
}

// numNoAttr is the AttributeError of a value of the type CPython names
// qual in its messages ('decimal.Decimal' object has no attribute …).
func numNoAttr(qual, name string) error {
	return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s'", qual, name)
}
