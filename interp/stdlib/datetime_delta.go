package stdlib

import (
	"math"
	"math/big"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// timedelta is datetime.timedelta, normalized as CPython's: days, then
// 0 <= us < one day (its seconds and microseconds together).
type timedelta struct {
	days int64
	us   int64
}

var (
	_ starlark.HasBinary  = (*timedelta)(nil)
	_ starlark.HasUnary   = (*timedelta)(nil)
	_ starlark.Comparable = (*timedelta)(nil)
	_ starlark.HasAttrs   = (*timedelta)(nil)
	_ interp.HasStr       = (*timedelta)(nil)
	_ interp.GoValuer     = (*timedelta)(nil)
)

const maxDeltaDays = 999999999

// makeDelta normalizes a total of microseconds, or fails with CPython's
// OverflowError when it is beyond timedelta's range.
func makeDelta(total *big.Int) (*timedelta, error) {
	d, us := new(big.Int).DivMod(total, big.NewInt(usPerDay), new(big.Int))
	if !d.IsInt64() || d.Int64() > maxDeltaDays || d.Int64() < -maxDeltaDays {
		if d.IsInt64() && d.Int64() >= math.MinInt32 && d.Int64() <= math.MaxInt32 {
			return nil, pyrt.Errorf("OverflowError", "days=%d; must have magnitude <= %d", d.Int64(), maxDeltaDays)
		}
		return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
	}
	return &timedelta{days: d.Int64(), us: us.Int64()}, nil
}

func deltaOf(us int64) *timedelta {
	td, _ := makeDelta(big.NewInt(us)) // any int64 is in range
	return td
}

// total is the delta in microseconds.
func (td *timedelta) total() *big.Int {
	t := big.NewInt(td.days)
	t.Mul(t, big.NewInt(usPerDay))
	return t.Add(t, big.NewInt(td.us))
}

// total64 is the delta in microseconds when that fits an int64 (every
// delta between datetimes does).
func (td *timedelta) total64() (int64, bool) {
	t := td.total()
	return t.Int64(), t.IsInt64()
}

func newTimedelta(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	names := []string{"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}
	factors := []int64{usPerDay, usPerSec, 1, 1000, 60 * usPerSec, 3600 * usPerSec, 7 * usPerDay}
	vals, err := bindArgsC("__new__", args, kwargs, names, 0)
	if err != nil {
		return nil, err
	}
	// As CPython's constructor adds them: the whole parts exactly, each
	// float's fraction of a unit as a float whose whole microseconds are
	// added, and what is left of those fractions rounded at the end, half
	// to even.
	sum := new(big.Int)
	leftover := 0.0
	for i, v := range vals {
		factor := big.NewInt(factors[i])
		switch x := v.(type) {
		case nil:
		case starlark.Int:
			if x.BigInt().BitLen() > 128 {
				return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
			}
			sum.Add(sum, new(big.Int).Mul(x.BigInt(), factor))
		case starlark.Bool:
			if x {
				sum.Add(sum, factor)
			}
		case starlark.Float:
			f := float64(x)
			if math.IsNaN(f) {
				return nil, pyrt.Errorf("ValueError", "cannot convert float NaN to integer")
			}
			if math.IsInf(f, 0) {
				return nil, pyrt.Errorf("OverflowError", "cannot convert float infinity to integer")
			}
			whole, frac := math.Modf(f)
			if math.Abs(whole) > 1e30 {
				return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
			}
			w, _ := new(big.Float).SetFloat64(whole).Int(nil)
			sum.Add(sum, w.Mul(w, factor))
			if frac != 0 {
				pw, pf := math.Modf(float64(factors[i]) * frac)
				sum.Add(sum, big.NewInt(int64(pw)))
				leftover += pf
			}
		default:
			return nil, pyrt.Errorf("TypeError", "unsupported type for timedelta %s component: %s", names[i], pyrt.TypeName(v))
		}
	}
	if leftover != 0 {
		whole := math.Round(leftover)
		if math.Abs(whole-leftover) == 0.5 {
			odd := float64(sum.Bit(0)) // sum's parity decides the tie, as CPython's
			if sum.Sign() < 0 {
				odd = float64(new(big.Int).Abs(sum).Bit(0))
			}
			whole = 2*math.Round((leftover+odd)*0.5) - odd
		}
		sum.Add(sum, big.NewInt(int64(whole)))
	}
	return makeDelta(sum)
}

func (td *timedelta) Type() string         { return "datetime.timedelta" }
func (td *timedelta) Freeze()              {}
func (td *timedelta) Truth() starlark.Bool { return td.days != 0 || td.us != 0 }
func (td *timedelta) Hash() (uint32, error) {
	return uint32(td.days*2654435761) ^ uint32(td.us) ^ uint32(td.us>>32), nil
}

// String is repr(td): datetime.timedelta(days=1, seconds=3600).
func (td *timedelta) String() string {
	secs, us := td.us/usPerSec, td.us%usPerSec
	var parts []string
	if td.days != 0 {
		parts = append(parts, "days="+itoa(td.days))
	}
	if secs != 0 {
		parts = append(parts, "seconds="+itoa(secs))
	}
	if us != 0 {
		parts = append(parts, "microseconds="+itoa(us))
	}
	if len(parts) == 0 {
		return "datetime.timedelta(0)"
	}
	return "datetime.timedelta(" + strings.Join(parts, ", ") + ")"
}

// Str is str(td): "1 day, 1:00:00", "-1 day, 23:59:59.500000".
func (td *timedelta) Str() string {
	var sb strings.Builder
	if td.days != 0 {
		sb.WriteString(itoa(td.days))
		if td.days == 1 || td.days == -1 {
			sb.WriteString(" day, ")
		} else {
			sb.WriteString(" days, ")
		}
	}
	s := td.us / usPerSec
	sb.WriteString(itoa(s / 3600))
	sb.WriteString(":" + pad(s/60%60, 2) + ":" + pad(s%60, 2))
	if us := td.us % usPerSec; us != 0 {
		sb.WriteString("." + pad(us, 6))
	}
	return sb.String()
}

// GoValue is the delta's total seconds, a number: what a result shows
// for a duration (str's "1 day, 1:00:00" would be a text to parse again).
func (td *timedelta) GoValue() (any, error) {
	t := new(big.Rat).SetFrac(td.total(), big.NewInt(usPerSec))
	f, _ := t.Float64()
	return f, nil
}

func itoa(n int64) string { return big.NewInt(n).String() }

var deltaMethods = map[string]method[*timedelta]{
	"total_seconds": nullary("total_seconds", func(td *timedelta) starlark.Value {
		f, _ := td.GoValue()
		return starlark.Float(f.(float64))
	}),
}

func (td *timedelta) Attr(name string) (starlark.Value, error) {
	v, err := td.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("datetime.timedelta", name)
	}
	return v, err
}

func (td *timedelta) attr(name string) (starlark.Value, error) {
	switch name {
	case "days":
		return starlark.MakeInt64(td.days), nil
	case "seconds":
		return starlark.MakeInt64(td.us / usPerSec), nil
	case "microseconds":
		return starlark.MakeInt64(td.us % usPerSec), nil
	}
	return bindMethod(deltaMethods, td, name), nil
}

func (td *timedelta) AttrNames() []string {
	return methodNames(deltaMethods, "days", "seconds", "microseconds")
}

func (td *timedelta) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	u := y.(*timedelta)
	c := td.total().Cmp(u.total())
	return interp.CompareOp(op, c, td, y)
}

func (td *timedelta) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return makeDelta(new(big.Int).Neg(td.total()))
	case syntax.PLUS:
		return td, nil
	}
	return nil, nil
}

// Abs is abs(td).
func (td *timedelta) Abs() (starlark.Value, error) {
	if td.days < 0 {
		return td.Unary(syntax.MINUS)
	}
	return td, nil
}

func (td *timedelta) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	x := starlark.Value(td)
	if side == starlark.Right {
		x, y = y, x
	}
	a, aIs := x.(*timedelta)
	b, bIs := y.(*timedelta)
	if isA[*date](x) || isA[*date](y) || isA[*datetime](x) || isA[*datetime](y) {
		return nil, nil // the date's or datetime's own Binary answers
	}
	switch op {
	case syntax.PLUS, syntax.MINUS:
		if aIs && bIs {
			t := a.total()
			if op == syntax.PLUS {
				return makeDelta(t.Add(t, b.total()))
			}
			return makeDelta(t.Sub(t, b.total()))
		}
	case syntax.STAR:
		if aIs && !bIs {
			return deltaMul(a, y)
		}
		if bIs && !aIs {
			return deltaMul(b, x)
		}
	case syntax.SLASH:
		if aIs {
			return deltaDiv(a, y)
		}
	case syntax.SLASHSLASH:
		if aIs {
			return deltaFloorDiv(a, y)
		}
	case syntax.PERCENT:
		if aIs && bIs {
			if b.Truth() == starlark.False {
				return nil, pyrt.Errorf("ZeroDivisionError", "integer division or modulo by zero")
			}
			m := new(big.Int)
			new(big.Int).DivMod(a.total(), b.total(), m)
			if m.Sign() != 0 && b.total().Sign() < 0 {
				m.Add(m, b.total()) // Euclid's remainder → Python's, with the divisor's sign
			}
			return makeDelta(m)
		}
	}
	return nil, dtUnsupported(op.String(), x, y)
}

// deltaMul is td * n for an int or a float n (rounded half to even).
func deltaMul(td *timedelta, n starlark.Value) (starlark.Value, error) {
	switch x := n.(type) {
	case starlark.Int:
		if x.BigInt().BitLen() > 128 {
			return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
		}
		return makeDelta(new(big.Int).Mul(td.total(), x.BigInt()))
	case starlark.Bool:
		if x {
			return td, nil
		}
		return &timedelta{}, nil
	case starlark.Float:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, pyrt.Errorf("ValueError", "cannot convert float %s to integer ratio", x.String())
		}
		r := new(big.Rat).SetFloat64(f)
		r.Mul(r, new(big.Rat).SetInt(td.total()))
		return makeDelta(roundHalfEven(r))
	}
	return nil, dtUnsupported("*", td, n)
}

func deltaDiv(td *timedelta, y starlark.Value) (starlark.Value, error) {
	switch x := y.(type) {
	case *timedelta:
		if x.Truth() == starlark.False {
			return nil, pyrt.Errorf("ZeroDivisionError", "division by zero")
		}
		f, _ := new(big.Rat).SetFrac(td.total(), x.total()).Float64()
		return starlark.Float(f), nil
	case starlark.Int:
		if x.Sign() == 0 {
			return nil, pyrt.Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		return makeDelta(roundHalfEven(new(big.Rat).SetFrac(td.total(), x.BigInt())))
	case starlark.Float:
		f := float64(x)
		if f == 0 {
			return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, pyrt.Errorf("ValueError", "cannot convert float %s to integer ratio", x.String())
		}
		r := new(big.Rat).SetInt(td.total())
		return makeDelta(roundHalfEven(r.Quo(r, new(big.Rat).SetFloat64(f))))
	}
	return nil, dtUnsupported("/", td, y)
}

func deltaFloorDiv(td *timedelta, y starlark.Value) (starlark.Value, error) {
	floor := func(a, b *big.Int) *big.Int {
		q, m := new(big.Int).DivMod(a, b, new(big.Int))
		if m.Sign() != 0 && b.Sign() < 0 {
			q.Sub(q, big.NewInt(1)) // Euclid's quotient → the floor's
		}
		return q
	}
	switch x := y.(type) {
	case *timedelta:
		if x.Truth() == starlark.False {
			return nil, pyrt.Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		return starlark.MakeBigInt(floor(td.total(), x.total())), nil
	case starlark.Int:
		if x.Sign() == 0 {
			return nil, pyrt.Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		return makeDelta(floor(td.total(), x.BigInt()))
	}
	return nil, dtUnsupported("//", td, y)
}
