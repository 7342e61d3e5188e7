package pyrt

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// The methods and attributes of int and float that go.starlark.net's
// numbers lack: float.is_integer(), as_integer_ratio(), bit_count(),
// conjugate(), float.hex() and float.fromhex(), and the attributes real,
// imag, numerator and denominator (read through dunderHelper).

func addNumberMethods(ms methodSet) {
	ms.add(kindFloat, "is_integer", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("float.is_integer", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		f := float64(recv.(starlark.Float))
		return starlark.Bool(!math.IsInf(f, 0) && f == math.Trunc(f)), nil
	})
	ms.add(kindFloat, "as_integer_ratio", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("float.as_integer_ratio", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		f := float64(recv.(starlark.Float))
		switch {
		case math.IsInf(f, 0):
			return nil, exception("OverflowError", "cannot convert Infinity to integer ratio")
		case math.IsNaN(f):
			return nil, valueError("cannot convert NaN to integer ratio")
		}
		r := new(big.Rat).SetFloat64(f)
		return starlark.Tuple{starlark.MakeBigInt(r.Num()), starlark.MakeBigInt(r.Denom())}, nil
	})
	ms.add(kindInt, "as_integer_ratio", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("int.as_integer_ratio", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		n, _ := asIntValue(recv)
		return starlark.Tuple{starlark.MakeBigInt(n), starlark.MakeInt(1)}, nil
	})
	ms.add(kindInt, "bit_count", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("int.bit_count", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		n, _ := asIntValue(recv)
		count := 0
		for _, w := range new(big.Int).Abs(n).Bits() {
			for ; w != 0; w &= w - 1 {
				count++
			}
		}
		return starlark.MakeInt(count), nil
	})
	ms.add(kindInt, "conjugate", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("int.conjugate", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		n, _ := asIntValue(recv)
		return starlark.MakeBigInt(n), nil
	})
	ms.add(kindFloat, "conjugate", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("float.conjugate", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return recv, nil
	})
	ms.add(kindFloat, "hex", func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := arity("float.hex", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return starlark.String(floatHex(float64(recv.(starlark.Float)))), nil
	})
}

// floatHex is float.hex(): 0x, the leading bit, 13 hex digits of the
// fraction, and the binary exponent.
func floatHex(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	sign := ""
	if math.Signbit(f) {
		sign = "-"
	}
	bits := math.Float64bits(f)
	exp := int(bits>>52) & 0x7ff
	frac := bits & (1<<52 - 1)
	switch {
	case exp == 0 && frac == 0:
		return sign + "0x0.0p+0"
	case exp == 0: // subnormal
		return fmt.Sprintf("%s0x0.%013xp-1022", sign, frac)
	}
	return fmt.Sprintf("%s0x1.%013xp%+d", sign, frac, exp-1023)
}

// floatFromhex is float.fromhex(s).
func floatFromhex(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := arity("fromhex", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	s, ok := interp.AsText(args[0])
	if !ok {
		return nil, typeError("bad argument type for built-in operation")
	}
	invalid := valueError("invalid hexadecimal floating-point string")
	t := strings.TrimSpace(s)
	sign := ""
	if t != "" && (t[0] == '+' || t[0] == '-') {
		sign, t = t[:1], t[1:]
	}
	switch strings.ToLower(t) {
	case "inf", "infinity":
		return starlark.Float(math.Inf(map[string]int{"": 1, "+": 1, "-": -1}[sign])), nil
	case "nan":
		return starlark.Float(math.NaN()), nil
	}
	if len(t) >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		t = t[2:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "p")
	digits := 0
	for i, c := range mant {
		switch {
		case c == '.' && !strings.Contains(mant[:i], "."):
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
			digits++
		default:
			return nil, invalid
		}
	}
	if digits == 0 {
		return nil, invalid
	}
	if hasExp {
		e := strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-")
		if e == "" || strings.Trim(e, "0123456789") != "" || len(e) > 9 {
			return nil, invalid
		}
	} else {
		exp = "0"
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	f, err := strconv.ParseFloat(sign+"0x"+mant+"p"+exp, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) && math.IsInf(f, 0) {
			return nil, exception("OverflowError", "hexadecimal value too large to represent as a float")
		}
		if !errors.As(err, &ne) || !errors.Is(ne.Err, strconv.ErrRange) {
			return nil, invalid
		}
	}
	return starlark.Float(f), nil
}

// numberAttr is the attribute real, imag, numerator or denominator of a
// number; nil when x is not a number or name not one of these.
func numberAttr(x starlark.Value, name string) starlark.Value {
	switch v := x.(type) {
	case starlark.Int, starlark.Bool:
		n, _ := asIntValue(v)
		switch name {
		case "real", "numerator":
			return starlark.MakeBigInt(n)
		case "imag":
			return starlark.MakeInt(0)
		case "denominator":
			return starlark.MakeInt(1)
		}
	case starlark.Float:
		switch name {
		case "real":
			return v
		case "imag":
			return starlark.Float(0)
		}
	}
	return nil
}
