// Package units reads the durations and byte sizes written in settings:
// "30s", "1m30s" or a number of seconds; 1048576, "512KiB" or "1.5MB". It
// is shared by runner/config (typed fields of onetool.yaml) and packs (the
// free-form packs.<name> sections), so both accept the same forms.
//
// Error messages never repeat the whole input, which may hold a secret.
package units

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// ErrSyntax is wrapped by every error about unreadable input; callers
// that word their own hint test for it with errors.Is.
var ErrSyntax = errors.New("unreadable")

// syntaxError is an unreadable input: what is wrong, wrapping ErrSyntax.
type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return e.msg }
func (e *syntaxError) Unwrap() error { return ErrSyntax }

// ErrNegative, ErrTooLong and ErrTooLarge are readable values out of range.
var (
	ErrNegative = errors.New("a duration must not be negative")
	ErrTooLong  = errors.New("duration too long")
	ErrTooLarge = errors.New("size too large")
)

// ParseDuration reads "30s", "1m30s", "250ms" (Go syntax) or a bare
// decimal number of seconds such as "30" or "1.5". Surrounding space is
// ignored; negative durations are refused.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if isDecimal(s) {
		n, ok := scale(s, int64(time.Second))
		if !ok {
			return 0, ErrTooLong
		}
		return time.Duration(n), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		// time's message repeats the input.
		return 0, &syntaxError{`want a duration such as "30s", "1m30s" or a number of seconds`}
	}
	if d < 0 {
		return 0, ErrNegative
	}
	return d, nil
}

// sizeUnits are the multipliers of ParseByteSize, by lower-case unit.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	"ki": 1 << 10, "mi": 1 << 20, "gi": 1 << 30, "ti": 1 << 40,
}

// ParseByteSize reads a size: "1048576", "100B", "512KiB", "1.5MB",
// "2 GiB". Units are B, KB/MB/GB/TB (powers of 1000) and KiB/MiB/GiB/TiB
// (powers of 1024, also Ki/Mi/Gi/Ti), in any case. Single-letter units
// ("512M") are refused because tools disagree on whether they mean 10^6 or
// 2^20. Fractions of a byte are dropped.
func ParseByteSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	switch {
	case num == "":
		return 0, &syntaxError{"no number"}
	case !isDecimal(num):
		return 0, &syntaxError{fmt.Sprintf("bad number %q", shorten(num))}
	}
	mult, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		switch u := strings.ToUpper(unit); u {
		case "K", "M", "G", "T":
			return 0, fmt.Errorf("ambiguous unit %q: write %sB (powers of 1000) or %siB (powers of 1024)", unit, u, u)
		}
		return 0, &syntaxError{fmt.Sprintf("unknown unit %q (use B, KB, KiB, MB, MiB, GB, GiB, TB or TiB)", shorten(unit))}
	}
	n, ok := scale(num, mult)
	if !ok {
		return 0, ErrTooLarge
	}
	return n, nil
}

// FormatByteSize gives the shortest exact form ParseByteSize reads back,
// preferring binary units: "1MiB", "1500KB", "100B".
func FormatByteSize(n int64) string {
	if n == 0 {
		return "0B"
	}
	for _, u := range []struct {
		name string
		size int64
	}{
		{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9},
		{"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3},
	} {
		if n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// scale is the decimal num times mult, the fraction dropped, and whether
// it fits in an int64. num must pass isDecimal.
func scale(num string, mult int64) (int64, bool) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, false
	}
	r.Mul(r, big.NewRat(mult, 1))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	return n.Int64(), n.IsInt64()
}

// isDecimal reports whether s is digits with at most one fractional part:
// "30", "1.5". It keeps big.Rat from reading exponents, signs or fractions
// such as "1/2".
func isDecimal(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// shorten cuts a part of the input quoted in a message to 40 bytes.
func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	return strings.ToValidUTF8(s[:40], "") + "…"
}
