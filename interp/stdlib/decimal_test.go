package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialDecimal checks decimal.Decimal against CPython
// (testdata/decimal_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialDecimal -update).
func TestDifferentialDecimal(t *testing.T) {
	pydiff.Check(t, "testdata/decimal_cases.txt", *update, eval)
}

// Precision and exponents are CPython's (up to 10**18), but the digits a
// run computes are bounded: each operation is charged by the size of its
// numbers, and a result beyond the budget ends the run instead of
// exhausting the machine.
func TestDecimalBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import decimal\ndecimal.getcontext().prec = 10 ** 9\nx = decimal.Decimal(1) / decimal.Decimal(3)",
		"import decimal\ndecimal.getcontext().prec = 999999999\nx = decimal.Decimal(2).sqrt()",
		"import decimal\ndecimal.getcontext().prec = 100000\nx = decimal.Decimal(2) ** 100000",
		"import decimal\nx = decimal.Decimal('9' * 10 ** 7)",
		"import decimal\nx = decimal.Decimal('1e500000').to_integral()\ny = int(decimal.Decimal('1e900000000'))",
		"import decimal\nx = '{:.999999999f}'.format(decimal.Decimal(1))",
		"import decimal\nx = decimal.Decimal(1)\nfor i in range(10 ** 9):\n    x = x * 3 + decimal.Decimal('0.1')",
		"import decimal\nc = decimal.Context(prec=10 ** 6, Emax=10 ** 17)\nx = c.power(decimal.Decimal(7), 10 ** 16)",
		"import decimal\nx = decimal.Decimal('1e999999') .quantize(decimal.Decimal(1), context=decimal.Context(prec=10**9, Emax=10**9))",
	)
}

// A huge exponent is only a number: it is not expanded into digits.
func TestDecimalHugeExponent(t *testing.T) {
	for code, want := range map[string]string{
		"import decimal\ntry:\n    decimal.Decimal('1e999999999') ** 1000000\nexcept decimal.Overflow as e:\n    print('overflow')": "overflow",
		"import decimal\nprint(decimal.Decimal('1e99999') * decimal.Decimal('1e-99999'))":                                           "1",
		// exp, ln, log10 and fractional powers are series: their precision
		// is bounded on its own, with an error that says so.
		"import decimal\ndecimal.getcontext().prec = 100000\ntry:\n    decimal.Decimal(3).ln()\nexcept ValueError as e:\n    print('refused')": "refused",
	} {
		res, err := run(code, interp.Options{MaxSteps: 1e6, MaxMemory: 16 << 20})
		if err != nil || res.Printed != want {
			t.Errorf("%s: %v %v, want %s", code, res, err, want)
		}
	}
}

// The worst inputs of decimal at a server's budgets: precisions and
// exponents far past limits.max_int_digits, ints made of huge Decimals,
// formats whose text is far longer than the Decimal.
func TestDecimalStop(t *testing.T) {
	checkStops(t,
		stopCase{"decimal.getcontext().prec = 10**9\ndecimal.Decimal(1) / decimal.Decimal(3)", wantInt},
		stopCase{"decimal.getcontext().prec = 10**9\ndecimal.Decimal(2).sqrt()", wantInt},
		stopCase{"decimal.getcontext().prec = 10**9\ndecimal.Decimal(2) ** 10**7", wantInt},
		stopCase{"decimal.getcontext().prec = 10**9\ndecimal.Decimal('1e999999') + 1", wantInt},
		stopCase{"int(decimal.Decimal('1e999999'))", wantInt},
		stopCase{"int(decimal.Decimal('1e999999').to_integral_value())", wantInt},
		stopCase{"decimal.Decimal('1e99999999').as_integer_ratio()", wantInt},
		stopCase{"math.floor(decimal.Decimal('1e999999'))", wantInt},
		stopCase{"'{:f}'.format(decimal.Decimal('1e999999999'))", wantMemory},
		stopCase{"'{:f}'.format(decimal.Decimal('1e-99999999'))", wantMemory},
		stopCase{"'{:,f}'.format(decimal.Decimal('1e99999999'))", wantMemory},
		stopCase{"x = decimal.Decimal('1e-9999999')\nfor _ in range(10**9):\n    '{:f}'.format(x)", wantTime},
	)
}
