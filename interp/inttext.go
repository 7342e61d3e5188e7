package interp

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"go.starlark.net/starlark"
)

// Decimal text of integers, under CPython 3.11's limit on int–str
// conversion (sys.int_max_str_digits, default 4,300 digits): converting
// an int of more digits to decimal text, or decimal text of more digits to
// an int, is a ValueError the program can catch, as in CPython. Both
// directions are quadratic in the number of digits, which is why CPython
// has the limit. Conversions to and from bases that are powers of two
// (hex, oct, bin, format(x, "x"), int(s, 16)) are linear and unlimited.
//
// The limit is the run's (a session's, for all its inputs): a program
// changes it with sys.set_int_max_str_digits, and that never reaches other
// runs. IntText and CheckIntText are the one place every conversion in
// onetool asks: str, repr, print, f-strings, format, %, json, the result.

// DefaultIntMaxStrDigits is CPython 3.11's default of
// sys.int_max_str_digits.
const DefaultIntMaxStrDigits = 4300

// IntMaxStrDigitsThreshold is the smallest limit other than 0 (no limit)
// that sys.set_int_max_str_digits accepts (CPython's
// sys.int_info.str_digits_check_threshold).
const IntMaxStrDigitsThreshold = 640

// IntTextError is the ValueError of a conversion between an int and
// decimal text beyond the run's limit, with CPython's text.
type IntTextError struct {
	Limit  int
	Digits int // the digits of the text parsed; 0 for an int to text
}

// PythonClass names the Python exception class of the error.
func (e *IntTextError) PythonClass() string { return "ValueError" }

func (e *IntTextError) Error() string {
	if e.Digits > 0 {
		return fmt.Sprintf("ValueError: Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", e.Limit, e.Digits)
	}
	return fmt.Sprintf("ValueError: Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", e.Limit)
}

// IntMaxStrDigits is the run's limit on int–str conversion in decimal
// digits (sys.get_int_max_str_digits()); 0 means none.
func (b *Budget) IntMaxStrDigits() int {
	if b == nil || b.lim == nil || b.lim.strDigits == nil {
		return DefaultIntMaxStrDigits
	}
	return b.lim.strDigits.get()
}

// SetIntMaxStrDigits sets the run's limit on int–str conversion
// (sys.set_int_max_str_digits(n)): 0 removes it; any other value must be
// at least IntMaxStrDigitsThreshold. It lasts for the run, or for the
// session whose input the run is. The error is CPython's ValueError.
func (b *Budget) SetIntMaxStrDigits(n int64) error {
	if n > math.MaxInt32 || n < math.MinInt32 {
		return &pyOverflowError{"Python int too large to convert to C int"}
	}
	if n != 0 && n < IntMaxStrDigitsThreshold {
		return &pyValueError{fmt.Sprintf("maxdigits must be 0 or larger than %d", IntMaxStrDigitsThreshold)}
	}
	if b != nil && b.lim != nil && b.lim.strDigits != nil {
		b.lim.strDigits.set(int(n))
	}
	return nil
}

// intStrDigits holds a run's or a session's limit on int–str conversion.
type intStrDigits struct {
	changed bool
	digits  int
}

func (d *intStrDigits) get() int {
	if !d.changed {
		return DefaultIntMaxStrDigits
	}
	return d.digits
}

func (d *intStrDigits) set(n int) { d.changed, d.digits = true, n }

// pyValueError and pyOverflowError are errors a program sees as those
// Python classes.
type pyValueError struct{ msg string }

func (e *pyValueError) PythonClass() string { return "ValueError" }
func (e *pyValueError) Error() string       { return "ValueError: " + e.msg }

type pyOverflowError struct{ msg string }

func (e *pyOverflowError) PythonClass() string { return "OverflowError" }
func (e *pyOverflowError) Error() string       { return "OverflowError: " + e.msg }

// log10of2 is the decimal digits per bit.
const log10of2 = 0.30102999566398120

// IntText returns the decimal text of x, as str(x) makes it: an
// *IntTextError when x has more digits than the run's limit on int–str
// conversion allows, found before the conversion (which is quadratic)
// when the size alone tells. It is the one way onetool turns an int of a
// program into decimal text.
func IntText(b *Budget, x starlark.Int) (string, error) {
	if n, ok := x.Int64(); ok {
		return strconv.FormatInt(n, 10), nil
	}
	return BigIntText(b, x.BigInt())
}

// BigIntText is IntText for a *big.Int.
func BigIntText(b *Budget, x *big.Int) (string, error) {
	limit := b.IntMaxStrDigits()
	bits := x.BitLen()
	if limit > 0 {
		// |x| >= 2**(bits-1): its digits are at least (bits-1)*log10(2)+1.
		if least := int(float64(bits-1)*log10of2) + 1; least > limit {
			return "", &IntTextError{Limit: limit}
		}
	}
	// Conversion takes time quadratic in the digits (a 5,000-digit int
	// is some microseconds); charged as such.
	words := uint64(bits/64 + 1)
	if err := b.Charge(words * words / 8); err != nil {
		return "", err
	}
	text := x.Text(10)
	if limit > 0 {
		digits := len(text)
		if x.Sign() < 0 {
			digits--
		}
		if digits > limit {
			return "", &IntTextError{Limit: limit}
		}
	}
	return text, nil
}

// CheckIntText refuses, with CPython's ValueError, decimal text of more
// digits (signs, spaces and underscores not counted) than the run's limit
// on int–str conversion allows; the caller asks before it parses. Texts
// in a base that is a power of two are not limited and need not ask.
func CheckIntText(b *Budget, digits int) error {
	if limit := b.IntMaxStrDigits(); limit > 0 && digits > limit {
		return &IntTextError{Limit: limit, Digits: digits}
	}
	return nil
}
