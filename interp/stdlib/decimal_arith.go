package stdlib

import (
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Decimal arithmetic: operators and methods, each rounding with a context
// (the run's current one unless a method is given context=) and raising
// the signals that context traps, as CPython's.

// compute runs one operation of apd under ctx: it refuses a precision
// beyond the run's bounds, charges work, turns a panic or an error of
// apd into InvalidOperation, and raises the trapped signals.
func (r *decRun) compute(ctx *decContext, work uint64, f func(c *apd.Context, z *apd.Decimal) (apd.Condition, error)) (z *decimalValue, err error) {
	if ctx.frozen {
		ctx = ctx.copy() // the module's templates are shared by all runs: never written
	}
	c, err := r.apdContext(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.budget.Charge(work + decWork(ctx.prec)); err != nil {
		return nil, err
	}
	z = &decimalValue{run: r}
	var cond apd.Condition
	func() {
		defer func() {
			if p := recover(); p != nil {
				cond, err = apd.InvalidOperation, nil
			}
		}()
		cond, err = f(c, &z.d)
	}()
	s := signals(cond)
	if err != nil && cond&(apd.SystemOverflow|apd.SystemUnderflow) == 0 {
		s |= sigInvalid // apd gave up (too many iterations): no result
	}
	if cond&(apd.SystemOverflow|apd.SystemUnderflow) != 0 || err != nil {
		// Beyond apd's exponents (±100000) or its series: no value to
		// return, trapped or not.
		ctx.flags |= s.flags()
		s &= sigOverflow | sigUnderflow | sigInvalid
		if s&sigOverflow != 0 {
			s = sigOverflow
		}
		saved := ctx.traps
		ctx.traps |= s
		err = ctx.raise(s)
		ctx.traps = saved
		return nil, err
	}
	if err := ctx.raise(s); err != nil {
		return nil, err
	}
	return z, nil
}

// decOperand is an operand of Decimal's arithmetic: a Decimal, an int or
// a bool; nil for anything else.
func decOperand(v starlark.Value) *apd.Decimal {
	switch x := v.(type) {
	case *decimalValue:
		return &x.d
	case starlark.Int, starlark.Bool:
		return intDecimal(x)
	}
	return nil
}

// adjusted is the exponent of d's most significant digit.
func adjusted(d *apd.Decimal) int64 { return int64(d.Exponent) + d.NumDigits() - 1 }

// farSmaller replaces y, an addend too small to change more than the
// rounding of x + y at precision prec, by one that rounds x + y alike
// but whose digits are few: 1E+99999 + 1E-99999 need not make 200,000
// digits (apd would refuse them).
func farSmaller(x, y *apd.Decimal, prec int64) *apd.Decimal {
	if x.Form != apd.Finite || y.Form != apd.Finite || x.IsZero() {
		return y
	}
	limit := min(adjusted(x)-prec-2, int64(x.Exponent)-1)
	if y.IsZero() {
		if int64(y.Exponent) < limit {
			return &apd.Decimal{Negative: y.Negative, Exponent: int32(limit)}
		}
		return y
	}
	if adjusted(y) < limit {
		z := apd.New(1, int32(limit))
		z.Negative = y.Negative
		return z
	}
	return y
}

// binaryWork is the work of an operation on x and y.
func binaryWork(x, y *apd.Decimal) uint64 {
	n := max(x.NumDigits(), y.NumDigits())
	if x.Form == apd.Finite && y.Form == apd.Finite {
		n += min(abs64(int64(x.Exponent)-int64(y.Exponent)), 4*decApdExp)
	}
	return decWork(n)
}

// productWork is the work of a product, quotient or power of x and y:
// their exponents only add, so their digits alone count.
func productWork(x, y *apd.Decimal) uint64 { return decWork(max(x.NumDigits(), y.NumDigits())) }

func (r *decRun) add(ctx *decContext, x, y *apd.Decimal, subtract bool) (*decimalValue, error) {
	x, y = farSmaller(y, x, ctx.prec), farSmaller(x, y, ctx.prec)
	return r.compute(ctx, binaryWork(x, y), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
		if subtract {
			return c.Sub(z, x, y)
		}
		return c.Add(z, x, y)
	})
}

// divide is x / y; with integer, x // y (truncated), with rem, x % y (the
// sign of x), as CPython's Decimal has them.
func (r *decRun) divide(ctx *decContext, x, y *apd.Decimal, op syntax.Token) (*decimalValue, error) {
	if (op == syntax.SLASHSLASH || op == syntax.PERCENT) && x.Form == apd.Finite && y.Form == apd.Finite && !y.IsZero() && !x.IsZero() {
		// A quotient of more digits than the precision is
		// DivisionImpossible: known without making it.
		if adjusted(x)-adjusted(y) > ctx.prec+1 {
			return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) {
				return apd.DivisionImpossible, nil
			})
		}
	}
	return r.compute(ctx, productWork(x, y), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
		switch op {
		case syntax.SLASHSLASH:
			return c.QuoInteger(z, x, y)
		case syntax.PERCENT:
			return c.Rem(z, x, y)
		}
		cond, err := c.Quo(z, x, y)
		if err == nil && x.Form == apd.Finite && y.Form == apd.Finite {
			toIdeal(z, cond, int64(x.Exponent)-int64(y.Exponent))
		}
		return cond, err
	})
}

// toIdeal gives an exact result z (cond has no Inexact) the exponent
// nearest the ideal one that keeps its value, as the specification has
// division, square roots and powers: 1/4 is 0.25, not
// 0.2500000000000000000000000000.
func toIdeal(z *apd.Decimal, cond apd.Condition, ideal int64) {
	if cond&apd.Inexact != 0 || z.Form != apd.Finite {
		return
	}
	if z.IsZero() {
		if int64(z.Exponent) < ideal {
			z.Exponent = int32(ideal)
		}
		return
	}
	e := int64(z.Exponent)
	if e >= ideal {
		return
	}
	c := digits(z)
	n := len(c) - len(strings.TrimRight(c, "0"))
	n = int(min(int64(n), ideal-e))
	if n == 0 {
		return
	}
	z.Coeff.SetString(c[:len(c)-n], 10)
	z.Exponent = int32(e + int64(n))
}

// isIntegral reports a finite d with no fraction.
func isIntegral(d *apd.Decimal) bool {
	if d.Form != apd.Finite {
		return false
	}
	if d.Exponent >= 0 || d.IsZero() {
		return true
	}
	var integ, frac apd.Decimal
	d.Modf(&integ, &frac)
	return frac.IsZero()
}

func (r *decRun) power(ctx *decContext, x, y *apd.Decimal) (*decimalValue, error) {
	work := productWork(x, y)
	if isIntegral(y) {
		// Repeated squaring: a few products per bit of y.
		bits := int64(y.NumDigits()+int64(max(y.Exponent, 0))) * 4
		work += decWork(ctx.prec) * uint64(min(bits, 1<<20))
	} else {
		if ctx.prec > decMaxSlowPrec && x.Form == apd.Finite && y.Form == apd.Finite {
			return nil, slowPrecError("power", ctx.prec)
		}
		work += slowWork(ctx.prec)
	}
	if x.Form == apd.Finite && y.Form == apd.Finite && x.IsZero() && y.IsZero() {
		return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
	}
	if y.Form == apd.Infinite && !decIsNaN(x) {
		return r.infinitePower(ctx, x, y)
	}
	return r.compute(ctx, work, func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
		cond, err := c.Pow(z, x, y)
		if err == nil && x.Form == apd.Finite && isIntegral(y) && y.Negative {
			// 1 / x**n: a quotient's ideal exponent.
			if n, e := y.Int64(); e == nil {
				toIdeal(z, cond, int64(x.Exponent)*n)
			}
		}
		return cond, err
	})
}

// infinitePower is x ** ±Infinity: 0, 1 or Infinity by the size of x;
// a negative x has none.
func (r *decRun) infinitePower(ctx *decContext, x, y *apd.Decimal) (*decimalValue, error) {
	if x.Negative && !(x.Form == apd.Finite && x.IsZero()) {
		return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
	}
	c := 1
	if x.Form == apd.Finite {
		c = new(apd.Decimal).Abs(x).Cmp(apd.New(1, 0))
	}
	if c == 0 {
		// 1 ** Infinity is 1 to the precision, inexact.
		return r.compute(ctx, 1, func(ac *apd.Context, z *apd.Decimal) (apd.Condition, error) {
			z.Coeff.SetString("1"+strings.Repeat("0", int(ctx.prec-1)), 10)
			z.Exponent = int32(1 - ctx.prec)
			return apd.Inexact | apd.Rounded, nil
		})
	}
	if (c > 0) == !y.Negative {
		return r.dec(&apd.Decimal{Form: apd.Infinite}), nil
	}
	return r.dec(&apd.Decimal{}), nil
}

func slowPrecError(fn string, prec int64) error {
	return pyrt.Errorf("ValueError", "decimal: %s is computed to at most %d digits here (the context's precision is %d)", fn, decMaxSlowPrec, prec)
}

// unary is minus (-d), plus (+d) and abs: 0 - d or 0 + d with the zero of
// d's exponent, rounded, as the specification has them.
func (r *decRun) unary(ctx *decContext, x *apd.Decimal, negate bool) (*decimalValue, error) {
	zero := &apd.Decimal{Exponent: x.Exponent}
	if x.Form != apd.Finite {
		zero.Exponent = 0
	}
	return r.compute(ctx, decWork(x.NumDigits()), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
		if negate {
			return c.Sub(z, zero, x)
		}
		return c.Add(z, zero, x)
	})
}

func decUnsupported(op string, x, y starlark.Value) error {
	if op == "**" {
		op = "** or pow()"
	}
	return pyrt.Errorf("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, pyrt.TypeName(x), pyrt.TypeName(y))
}

func (v *decimalValue) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	var xv, yv starlark.Value = v, y
	if side == starlark.Right {
		xv, yv = y, v
	}
	o := decOperand(y)
	if o == nil {
		if op == syntax.IN || op == syntax.NOT_IN {
			return nil, nil
		}
		return nil, decUnsupported(op.String(), xv, yv)
	}
	x, w := &v.d, o
	if side == starlark.Right {
		x, w = o, &v.d
	}
	r, ctx := v.run, v.run.ctx
	switch op {
	case syntax.PLUS:
		return r.add(ctx, x, w, false)
	case syntax.MINUS:
		return r.add(ctx, x, w, true)
	case syntax.STAR:
		return r.compute(ctx, productWork(x, w), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
			return c.Mul(z, x, w)
		})
	case syntax.SLASH, syntax.SLASHSLASH, syntax.PERCENT:
		return r.divide(ctx, x, w, op)
	case syntax.STARSTAR:
		return r.power(ctx, x, w)
	}
	return nil, decUnsupported(op.String(), xv, yv)
}

func (v *decimalValue) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return v.run.unary(v.run.ctx, &v.d, true)
	case syntax.PLUS:
		return v.run.unary(v.run.ctx, &v.d, false)
	}
	return nil, pyrt.Errorf("TypeError", "bad operand type for unary %s: 'decimal.Decimal'", op)
}

// Abs is abs(d), rounded.
func (v *decimalValue) Abs() (starlark.Value, error) {
	return v.run.unary(v.run.ctx, &v.d, v.d.Negative)
}

// quantize is d rounded to the exponent exp, with the rounding mode
// rounding ("" for the context's).
func (r *decRun) quantize(ctx *decContext, x *apd.Decimal, exp int64, rounding string) (*decimalValue, error) {
	if rounding != "" {
		c := *ctx
		c.rounding = rounding
		defer func() { ctx.flags |= c.flags }()
		ctx = &c
	}
	if x.Form == apd.Finite {
		// A result of more digits than the precision, or an exponent
		// apd cannot reach, is InvalidOperation: known without making it.
		if exp > ctx.emax || exp < ctx.emin-ctx.prec+1 || !x.IsZero() && adjusted(x)-exp+1 > ctx.prec || abs64(exp) > decApdExp {
			return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) {
				return apd.InvalidOperation, nil
			})
		}
	}
	return r.compute(ctx, decWork(x.NumDigits()+abs64(int64(x.Exponent)-exp)), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
		return c.Quantize(z, x, int32(exp))
	})
}

// decArg reads an operand of a method: a Decimal or an int.
func decArg(v starlark.Value) (*apd.Decimal, error) {
	if d := decOperand(v); d != nil {
		return d, nil
	}
	return nil, pyrt.Errorf("TypeError", "conversion from %s to Decimal is not supported", pyrt.TypeName(v))
}

// roundingArg reads a rounding= argument: None or one of the modes.
func roundingArg(v starlark.Value) (string, error) {
	if v == nil || v == starlark.None {
		return "", nil
	}
	s, ok := interp.AsText(v)
	if _, known := roundingModes[s]; !ok || !known {
		return "", roundingError()
	}
	return s, nil
}

// decMethod is a method of Decimal taking the parameters names (the
// first required ones given), whose last may be context=.
type decMethod struct {
	params   []string
	required int
	fn       func(r *decRun, ctx *decContext, x *decimalValue, args []starlark.Value) (starlark.Value, error)
}

func decMethods() map[string]decMethod {
	unary := func(f func(r *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error)) decMethod {
		return decMethod{params: []string{"context"}, fn: func(r *decRun, ctx *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return f(r, ctx, x)
		}}
	}
	pred := func(f func(d *apd.Decimal) bool) decMethod {
		return decMethod{fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return starlark.Bool(f(&x.d)), nil
		}}
	}
	predCtx := func(f func(ctx *decContext, d *apd.Decimal) bool) decMethod {
		return decMethod{params: []string{"context"}, fn: func(_ *decRun, ctx *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return starlark.Bool(f(ctx, &x.d)), nil
		}}
	}
	slow := func(name string, f func(c *apd.Context, z, x *apd.Decimal) (apd.Condition, error)) decMethod {
		return unary(func(r *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error) {
			if ctx.prec > decMaxSlowPrec && x.d.Form == apd.Finite {
				return nil, slowPrecError(name+"()", ctx.prec)
			}
			return r.compute(ctx, slowWork(ctx.prec)+decWork(x.d.NumDigits()), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
				cond, err := f(c, z, &x.d)
				if err == nil && cond&apd.Inexact != 0 && z.Form == apd.Finite && !z.IsZero() && z.NumDigits() < ctx.prec {
					// An inexact result has all the precision's digits, as
					// CPython's: exp(1E-30) is 1.000…0, not apd's 1.
					n := ctx.prec - z.NumDigits()
					z.Coeff.Mul(&z.Coeff, new(apd.BigInt).Exp(apd.NewBigInt(10), apd.NewBigInt(n), nil))
					z.Exponent -= int32(n)
				}
				return cond, err
			})
		})
	}
	binary := func(f func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error)) decMethod {
		return decMethod{params: []string{"other", "context"}, required: 1, fn: func(r *decRun, ctx *decContext, x *decimalValue, args []starlark.Value) (starlark.Value, error) {
			y, err := decArg(args[0])
			if err != nil {
				return nil, err
			}
			return f(r, ctx, &x.d, y)
		}}
	}
	integral := func(exact bool) decMethod {
		return decMethod{params: []string{"rounding", "context"}, fn: func(r *decRun, ctx *decContext, x *decimalValue, args []starlark.Value) (starlark.Value, error) {
			rounding, err := roundingArg(args[0])
			if err != nil {
				return nil, err
			}
			if x.d.Form != apd.Finite || x.d.Exponent >= 0 {
				if x.d.Form == apd.NaNSignaling {
					return r.unary(ctx, &x.d, false)
				}
				return x, nil
			}
			z, err := r.quantize(ctx, &x.d, 0, rounding)
			if err != nil || exact {
				return z, err
			}
			return z, nil
		}}
	}
	return map[string]decMethod{
		"adjusted": {fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			if x.d.Form != apd.Finite {
				return starlark.MakeInt(0), nil
			}
			return starlark.MakeInt64(adjusted(&x.d)), nil
		}},
		"as_tuple": {fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return decAsTuple(&x.d), nil
		}},
		"as_integer_ratio": {fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			switch x.d.Form {
			case apd.NaN, apd.NaNSignaling:
				return nil, pyrt.Errorf("ValueError", "cannot convert NaN to integer ratio")
			case apd.Infinite:
				return nil, pyrt.Errorf("OverflowError", "cannot convert Infinity to integer ratio")
			}
			if err := checkRatDigits(x.run, &x.d); err != nil {
				return nil, err
			}
			q := decRat(&x.d)
			return starlark.Tuple{starlark.MakeBigInt(q.Num()), starlark.MakeBigInt(q.Denom())}, nil
		}},
		"canonical": {fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return x, nil
		}},
		"conjugate": {fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return x, nil
		}},
		"copy_abs": {fn: func(r *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			z := r.dec(&x.d)
			z.d.Negative = false
			return z, nil
		}},
		"copy_negate": {fn: func(r *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			z := r.dec(&x.d)
			z.d.Negative = !z.d.Negative
			return z, nil
		}},
		"copy_sign": binary(func(r *decRun, _ *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			z := r.dec(x)
			z.d.Negative = y.Negative
			return z, nil
		}),
		"compare": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.compare(ctx, x, y, false)
		}),
		"compare_signal": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.compare(ctx, x, y, true)
		}),
		"max": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.minMax(ctx, x, y, true, false)
		}),
		"min": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.minMax(ctx, x, y, false, false)
		}),
		"max_mag": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.minMax(ctx, x, y, true, true)
		}),
		"min_mag": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.minMax(ctx, x, y, false, true)
		}),
		"remainder_near": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			return r.remainderNear(ctx, x, y)
		}),
		"same_quantum": binary(func(_ *decRun, _ *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			if x.Form != apd.Finite || y.Form != apd.Finite {
				return starlark.Bool(x.Form == y.Form || decIsNaN(x) && decIsNaN(y)), nil
			}
			return starlark.Bool(x.Exponent == y.Exponent), nil
		}),
		"scaleb": binary(func(r *decRun, ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
			if !isIntegral(y) || y.Exponent != 0 && !y.IsZero() {
				return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
			}
			n, err := y.Int64()
			if err != nil || n > 2*(ctx.emax+ctx.prec) || n < -2*(ctx.emax+ctx.prec) {
				return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
			}
			z := *x
			z.Coeff.Set(&x.Coeff)
			if x.Form == apd.Finite {
				e := int64(x.Exponent) + n
				if abs64(e) > decApdExp {
					return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.SystemOverflow | apd.Overflow, nil })
				}
				z.Exponent = int32(e)
			}
			return r.unary(ctx, &z, false)
		}),
		"fma": {params: []string{"other", "third", "context"}, required: 2, fn: func(r *decRun, ctx *decContext, x *decimalValue, args []starlark.Value) (starlark.Value, error) {
			y, err := decArg(args[0])
			if err != nil {
				return nil, err
			}
			t, err := decArg(args[1])
			if err != nil {
				return nil, err
			}
			exact := *ctx
			exact.prec = r.maxDigits()
			exact.traps, exact.flags = 0, 0
			p, err := r.compute(&exact, binaryWork(&x.d, y), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
				c.Precision = 0 // exact
				return c.Mul(z, &x.d, y)
			})
			if err != nil {
				return nil, err
			}
			ctx.flags |= exact.flags &^ (sigInexact | sigRounded)
			if exact.flags&sigInvalid != 0 {
				return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
			}
			return r.add(ctx, &p.d, t, false)
		}},
		"is_canonical": pred(func(*apd.Decimal) bool { return true }),
		"is_finite":    pred(func(d *apd.Decimal) bool { return d.Form == apd.Finite }),
		"is_infinite":  pred(func(d *apd.Decimal) bool { return d.Form == apd.Infinite }),
		"is_nan":       pred(decIsNaN),
		"is_qnan":      pred(func(d *apd.Decimal) bool { return d.Form == apd.NaN }),
		"is_snan":      pred(func(d *apd.Decimal) bool { return d.Form == apd.NaNSignaling }),
		"is_signed":    pred(func(d *apd.Decimal) bool { return d.Negative }),
		"is_zero":      pred(func(d *apd.Decimal) bool { return d.Form == apd.Finite && d.IsZero() }),
		"is_normal": predCtx(func(ctx *decContext, d *apd.Decimal) bool {
			return d.Form == apd.Finite && !d.IsZero() && adjusted(d) >= ctx.emin
		}),
		"is_subnormal": predCtx(func(ctx *decContext, d *apd.Decimal) bool {
			return d.Form == apd.Finite && !d.IsZero() && adjusted(d) < ctx.emin
		}),
		"exp": slow("exp", (*apd.Context).Exp),
		"ln":  slow("ln", (*apd.Context).Ln),
		"log10": slow("log10", func(c *apd.Context, z, x *apd.Decimal) (apd.Condition, error) {
			if x.Form == apd.Finite && !x.Negative && !x.IsZero() && strings.TrimRight(digits(x), "0") == "1" {
				// A power of ten: its exponent, exactly.
				z.Set(apd.New(adjusted(x), 0))
				return 0, nil
			}
			return c.Log10(z, x)
		}),
		"logb": unary(func(r *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error) {
			switch {
			case decIsNaN(&x.d):
				return r.unary(ctx, &x.d, false)
			case x.d.Form == apd.Infinite:
				return r.dec(&apd.Decimal{Form: apd.Infinite}), nil
			case x.d.IsZero():
				return r.compute(ctx, 1, func(_ *apd.Context, z *apd.Decimal) (apd.Condition, error) {
					z.Form, z.Negative = apd.Infinite, true
					return apd.DivisionByZero, nil
				})
			}
			return r.dec(apd.New(adjusted(&x.d), 0)), nil
		}),
		"sqrt": unary(func(r *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error) {
			return r.compute(ctx, decWork(ctx.prec)*40+decWork(x.d.NumDigits()), func(c *apd.Context, z *apd.Decimal) (apd.Condition, error) {
				cond, err := c.Sqrt(z, &x.d)
				if err == nil && x.d.Form == apd.Finite {
					e := int64(x.d.Exponent)
					ideal := e / 2
					if e < 0 && e%2 != 0 {
						ideal-- // the floor of e/2
					}
					toIdeal(z, cond, ideal)
				}
				return cond, err
			})
		}),
		"normalize": unary(func(r *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error) {
			z, err := r.unary(ctx, &x.d, false)
			if err != nil || z.d.Form != apd.Finite {
				return z, err
			}
			if z.d.IsZero() {
				z.d.Exponent = 0
				z.d.Negative = x.d.Negative
				return z, nil
			}
			var red apd.Decimal
			red.Reduce(&z.d)
			red.Negative = z.d.Negative
			if int64(red.Exponent) > ctx.emax-ctx.prec+1 && ctx.clamp == 1 {
				return z, nil
			}
			z.d.Set(&red)
			return z, nil
		}),
		"number_class": unary(func(_ *decRun, ctx *decContext, x *decimalValue) (starlark.Value, error) {
			return starlark.String(numberClass(ctx, &x.d)), nil
		}),
		"quantize": {params: []string{"exp", "rounding", "context"}, required: 1, fn: func(r *decRun, ctx *decContext, x *decimalValue, args []starlark.Value) (starlark.Value, error) {
			e, err := decArg(args[0])
			if err != nil {
				return nil, err
			}
			rounding, err := roundingArg(args[1])
			if err != nil {
				return nil, err
			}
			switch {
			case decIsNaN(&x.d) || decIsNaN(e):
				return r.add(ctx, &x.d, e, false) // the NaN, signaling or not
			case x.d.Form == apd.Infinite && e.Form == apd.Infinite:
				return r.dec(&x.d), nil
			case x.d.Form == apd.Infinite || e.Form == apd.Infinite:
				return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
			}
			return r.quantize(ctx, &x.d, int64(e.Exponent), rounding)
		}},
		"radix": {fn: func(r *decRun, _ *decContext, _ *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return r.dec(apd.New(10, 0)), nil
		}},
		"to_eng_string": {params: []string{"context"}, fn: func(_ *decRun, _ *decContext, x *decimalValue, _ []starlark.Value) (starlark.Value, error) {
			return starlark.String(sciString(&x.d, true)), nil
		}},
		"to_integral":       integral(false),
		"to_integral_value": integral(false),
		"to_integral_exact": integral(true),
	}
}

var decimalMethods = decMethods()

// decAsTuple is d.as_tuple(): DecimalTuple(sign, digits, exponent).
func decAsTuple(d *apd.Decimal) starlark.Value {
	sign := 0
	if d.Negative {
		sign = 1
	}
	var ds []starlark.Value
	var exp starlark.Value
	switch d.Form {
	case apd.Infinite:
		exp = starlark.String("F")
		ds = []starlark.Value{starlark.MakeInt(0)}
	case apd.NaN, apd.NaNSignaling:
		exp = starlark.String("n")
		if d.Form == apd.NaNSignaling {
			exp = starlark.String("N")
		}
	default:
		exp = starlark.MakeInt(int(d.Exponent))
	}
	if d.Form == apd.Finite || d.Coeff.Sign() != 0 {
		ds = nil
		for _, c := range digits(d) {
			ds = append(ds, starlark.MakeInt(int(c-'0')))
		}
	}
	return &ntValue{typ: decimalTupleType, vals: starlark.Tuple{starlark.MakeInt(sign), starlark.Tuple(ds), exp}}
}

// checkRatDigits refuses a fraction whose terms would have more digits
// than limits.max_int_digits.
func checkRatDigits(r *decRun, d *apd.Decimal) error {
	if max := int64(r.budget.MaxIntDigits()); max > 0 && abs64(int64(d.Exponent))+d.NumDigits() > max && !d.IsZero() {
		return r.budget.IntLimit()
	}
	return r.budget.Charge(decWork(abs64(int64(d.Exponent)) + d.NumDigits()))
}

// compare is d.compare(other): Decimal(-1), 0 or 1, or NaN.
func (r *decRun) compare(ctx *decContext, x, y *apd.Decimal, signal bool) (starlark.Value, error) {
	if decIsNaN(x) || decIsNaN(y) {
		if signal {
			return r.compute(ctx, 1, func(_ *apd.Context, z *apd.Decimal) (apd.Condition, error) {
				z.Form = apd.NaN
				return apd.InvalidOperation, nil
			})
		}
		return r.add(ctx, x, y, false)
	}
	return r.dec(apd.New(int64(x.Cmp(y)), 0)), nil
}

// minMax is max, min, max_mag and min_mag: a quiet NaN loses to a
// number; equal values are told apart by sign and exponent, as the
// specification's total order has it.
func (r *decRun) minMax(ctx *decContext, x, y *apd.Decimal, isMax, mag bool) (starlark.Value, error) {
	if x.Form == apd.NaNSignaling || y.Form == apd.NaNSignaling || decIsNaN(x) && decIsNaN(y) {
		return r.add(ctx, x, y, false)
	}
	if decIsNaN(x) {
		return r.unary(ctx, y, false)
	}
	if decIsNaN(y) {
		return r.unary(ctx, x, false)
	}
	a, b := x, y
	if mag {
		a, b = new(apd.Decimal).Abs(x), new(apd.Decimal).Abs(y)
	}
	c := a.Cmp(b)
	if c == 0 && mag {
		c = x.Cmp(y)
	}
	if c == 0 {
		c = x.CmpTotal(y)
	}
	pick := x
	if (c < 0) == isMax {
		pick = y
	}
	if c == 0 {
		pick = x
	}
	return r.unary(ctx, pick, false)
}

// remainderNear is x - y*n for n the integer nearest x/y (ties to even).
func (r *decRun) remainderNear(ctx *decContext, x, y *apd.Decimal) (starlark.Value, error) {
	if decIsNaN(x) || decIsNaN(y) {
		return r.add(ctx, x, y, false)
	}
	if x.Form == apd.Infinite || y.Form == apd.Finite && y.IsZero() {
		cond := apd.InvalidOperation
		if x.Form == apd.Finite && x.IsZero() {
			cond = apd.DivisionUndefined
		}
		return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return cond, nil })
	}
	if y.Form == apd.Infinite {
		return r.unary(ctx, x, false)
	}
	if !x.IsZero() && adjusted(x)-adjusted(y) > ctx.prec+1 {
		return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.DivisionImpossible, nil })
	}
	qx, qy := decRat(x), decRat(y)
	q := new(big.Rat).Quo(qx, qy)
	n := ratRoundHalfEven(q)
	if int64(len(new(big.Int).Abs(n).String())) > ctx.prec {
		return r.compute(ctx, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.DivisionImpossible, nil })
	}
	nd := &apd.Decimal{}
	nd.Coeff.SetMathBigInt(new(big.Int).Abs(n))
	nd.Negative = n.Sign() < 0
	prod := &apd.Decimal{}
	exact := &apd.Context{Precision: 0, MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent}
	if _, err := exact.Mul(prod, y, nd); err != nil {
		return nil, err
	}
	z, err := r.add(ctx, x, prod, true)
	if err == nil && z.d.IsZero() {
		z.d.Negative = x.Negative
	}
	return z, err
}

// ratRoundHalfEven is q rounded to the nearest integer, ties to even.
func ratRoundHalfEven(q *big.Rat) *big.Int {
	n, rem := new(big.Int).DivMod(q.Num(), q.Denom(), new(big.Int)) // floor, rem >= 0
	twice := rem.Lsh(rem, 1)
	if c := twice.Cmp(q.Denom()); c > 0 || c == 0 && n.Bit(0) == 1 {
		n.Add(n, big.NewInt(1))
	}
	return n
}

// numberClass is d.number_class(): "+Normal", "-Zero", "NaN", ….
func numberClass(ctx *decContext, d *apd.Decimal) string {
	sign := "+"
	if d.Negative {
		sign = "-"
	}
	switch {
	case d.Form == apd.NaN:
		return "NaN"
	case d.Form == apd.NaNSignaling:
		return "sNaN"
	case d.Form == apd.Infinite:
		return sign + "Infinity"
	case d.IsZero():
		return sign + "Zero"
	case adjusted(d) < ctx.emin:
		return sign + "Subnormal"
	}
	return sign + "Normal"
}

func (v *decimalValue) AttrNames() []string {
	names := []string{"real", "imag"}
	for k := range decimalMethods {
		names = append(names, k)
	}
	return names
}

func (v *decimalValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "real":
		return v, nil
	case "imag":
		return v.run.dec(&apd.Decimal{}), nil
	case "from_float":
		return decimalClass.attrs["from_float"], nil
	case "__class__":
		return nil, nil // x.__class__ is type(x), which the front end answers
	}
	m, ok := decimalMethods[name]
	if !ok {
		return nil, numNoAttr("decimal.Decimal", name)
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		if len(m.params) == 0 {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
		}
		vals, err := bindArgs(name, args, kwargs, m.params, m.required)
		if err != nil {
			return nil, err
		}
		r := v.run
		if thread != nil {
			r = runDecimal(thread)
		}
		ctx := r.ctx
		if n := len(m.params); n > 0 && m.params[n-1] == "context" {
			if ctx, err = ctxArg(r, vals[n-1]); err != nil {
				return nil, err
			}
		}
		return m.fn(r, ctx, v, vals)
	}), nil
}

// ---- Context methods ----

// contextMethods are the Context's methods: its settings' helpers and the
// arithmetic of the specification under it.
var contextMethods = map[string]method[*decContext]{
	"copy": func(_ *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs("copy", args, kwargs); err != nil {
			return nil, err
		}
		return c.copy(), nil
	},
	"clear_flags": func(_ *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs("clear_flags", args, kwargs); err != nil {
			return nil, err
		}
		if !c.frozen { // a template's flags stay clear (raise never sets them)
			c.flags = 0
		}
		return starlark.None, nil
	},
	"clear_traps": func(_ *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs("clear_traps", args, kwargs); err != nil {
			return nil, err
		}
		if c.frozen {
			return nil, c.SetField("traps", nil)
		}
		c.traps = 0
		return starlark.None, nil
	},
	"Etiny": func(_ *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt64(c.emin - c.prec + 1), noArgs("Etiny", args, kwargs)
	},
	"Etop": func(_ *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt64(c.emax - c.prec + 1), noArgs("Etop", args, kwargs)
	},
	"create_decimal": func(thread *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgs("create_decimal", args, kwargs, []string{"num"}, 0)
		if err != nil {
			return nil, err
		}
		r := runDecimal(thread)
		if vals[0] == nil {
			return r.dec(&apd.Decimal{}), nil
		}
		d, err := r.convert(c, vals[0], true)
		if err != nil {
			return nil, err
		}
		if decIsNaN(d) && d.Coeff.Sign() != 0 && d.NumDigits() > c.prec-c.clamp {
			return r.compute(c, 1, func(*apd.Context, *apd.Decimal) (apd.Condition, error) { return apd.InvalidOperation, nil })
		}
		if d.Form != apd.Finite {
			return r.dec(d), nil
		}
		return r.unary(c, d, false)
	},
	"create_decimal_from_float": func(thread *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var f starlark.Value
		if err := starlark.UnpackPositionalArgs("create_decimal_from_float", args, kwargs, 1, &f); err != nil {
			return nil, err
		}
		r := runDecimal(thread)
		switch x := f.(type) {
		case starlark.Float:
			return r.unary(c, floatDecimal(float64(x)), false)
		case starlark.Int, starlark.Bool:
			return r.unary(c, intDecimal(x), false)
		}
		return nil, pyrt.Errorf("TypeError", "argument must be int or float")
	},
}

func init() {
	// The arithmetic of a context: ctx.add(x, y) is x + y under ctx.
	binaryOps := map[string]syntax.Token{"add": syntax.PLUS, "subtract": syntax.MINUS, "multiply": syntax.STAR,
		"divide": syntax.SLASH, "divide_int": syntax.SLASHSLASH, "remainder": syntax.PERCENT, "power": syntax.STARSTAR}
	for name, op := range binaryOps {
		name, op := name, op
		contextMethods[name] = func(thread *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var a, b starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 2, &a, &b); err != nil {
				return nil, err
			}
			x, err := ctxOperand(a)
			if err != nil {
				return nil, err
			}
			y, err := ctxOperand(b)
			if err != nil {
				return nil, err
			}
			r := runDecimal(thread)
			switch op {
			case syntax.PLUS, syntax.MINUS:
				return r.add(c, x, y, op == syntax.MINUS)
			case syntax.STAR:
				return r.compute(c, productWork(x, y), func(ac *apd.Context, z *apd.Decimal) (apd.Condition, error) {
					return ac.Mul(z, x, y)
				})
			case syntax.STARSTAR:
				return r.power(c, x, y)
			}
			return r.divide(c, x, y, op)
		}
	}
	contextMethods["abs"] = ctxUnary("abs", func(r *decRun, c *decContext, x *apd.Decimal) (starlark.Value, error) {
		return r.unary(c, x, x.Negative)
	})
	contextMethods["minus"] = ctxUnary("minus", func(r *decRun, c *decContext, x *apd.Decimal) (starlark.Value, error) {
		return r.unary(c, x, true)
	})
	contextMethods["plus"] = ctxUnary("plus", func(r *decRun, c *decContext, x *apd.Decimal) (starlark.Value, error) {
		return r.unary(c, x, false)
	})
	// The methods of a Decimal, with the context as theirs.
	for _, name := range []string{"sqrt", "exp", "ln", "log10", "normalize", "quantize", "compare", "max", "min",
		"to_integral_value", "to_integral_exact", "copy_abs", "copy_negate", "copy_sign", "fma", "logb",
		"remainder_near", "same_quantum", "scaleb", "is_nan", "is_zero", "is_signed", "is_finite", "is_infinite",
		"is_normal", "is_subnormal", "is_qnan", "is_snan", "number_class", "to_eng_string", "max_mag", "min_mag"} {
		name := name
		m := decimalMethods[name]
		contextMethods[name] = func(thread *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return nil, pyrt.Errorf("TypeError", "%s() missing required argument 'x' (pos 1)", name)
			}
			x, err := ctxOperand(args[0])
			if err != nil {
				return nil, err
			}
			params := m.params
			if n := len(params); n > 0 && params[n-1] == "context" {
				params = params[:n-1]
			}
			vals, err := bindArgs(name, args[1:], kwargs, params, m.required)
			if err != nil {
				return nil, err
			}
			r := runDecimal(thread)
			vals = append(vals, nil)
			return m.fn(r, c, r.dec(x), vals)
		}
	}
}

func ctxUnary(name string, f func(r *decRun, c *decContext, x *apd.Decimal) (starlark.Value, error)) method[*decContext] {
	return func(thread *starlark.Thread, c *decContext, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &a); err != nil {
			return nil, err
		}
		x, err := ctxOperand(a)
		if err != nil {
			return nil, err
		}
		return f(runDecimal(thread), c, x)
	}
}

// ctxOperand reads an operand of a context's method: a Decimal or an int.
func ctxOperand(v starlark.Value) (*apd.Decimal, error) {
	if d := decOperand(v); d != nil {
		return d, nil
	}
	return nil, pyrt.Errorf("TypeError", "conversion from %s to Decimal is not supported", pyrt.TypeName(v))
}
