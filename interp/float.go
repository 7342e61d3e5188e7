package interp

import (
	"math"
	"strconv"
	"strings"
)

// FloatRepr is Python's repr() of a float: "0.1", "1e+16", "-0.0",
// "inf", "nan".
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.Signbit(f):
		return "-" + floatRepr(-f)
	}
	return floatRepr(f)
}

// floatRepr is Python's repr() of a non-negative finite float: the
// shortest text that reads back as the same float, in fixed-point when
// its exponent is from -4 to 15, with ".0" on whole numbers.
func floatRepr(a float64) string {
	e := strconv.FormatFloat(a, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		if len(digits) > 1 {
			mant = digits[:1] + "." + digits[1:]
		} else {
			mant = digits
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "e" + sign + twoDigits(exp)
	}
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return digits[:exp+1] + "." + digits[exp+1:]
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
