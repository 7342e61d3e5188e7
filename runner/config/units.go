package config

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Duration is a time.Duration written in YAML as "30s", "1m30s" or a bare
// number of seconds (30, 1.5). It is never negative.
type Duration time.Duration

// String gives the form [ParseDuration] reads back: "30s", "1m30s".
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText makes Duration print as "30s" in YAML and JSON.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText accepts what [ParseDuration] accepts.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// errDurationSyntax is the hint shared by every unreadable duration.
var errDurationSyntax = errors.New(`want a duration such as "30s", "1m30s" or a number of seconds`)

var errNegativeDuration = errors.New("a duration must not be negative")

// ParseDuration reads "30s", "1m30s", "250ms" (Go syntax) or a bare
// decimal number of seconds such as "30" or "1.5".
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if isDecimal(s) {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return 0, errDurationSyntax
		}
		r.Mul(r, big.NewRat(int64(time.Second), 1))
		n := new(big.Int).Quo(r.Num(), r.Denom())
		if !n.IsInt64() {
			return 0, errors.New("duration too long")
		}
		return Duration(n.Int64()), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		// time's message repeats the input, which may hold a secret.
		return 0, errDurationSyntax
	}
	if d < 0 {
		return 0, errNegativeDuration
	}
	return Duration(d), nil
}

// ByteSize is a number of bytes, written in YAML as an integer (1048576) or
// with a unit: B, KB/MB/GB/TB (powers of 1000) or KiB/MiB/GiB/TiB (powers
// of 1024, also Ki/Mi/Gi/Ti), case-insensitive, with an optional fraction
// ("1.5MB") and optional space ("512 KiB").
type ByteSize int64

// String gives the shortest exact form [ParseByteSize] reads back,
// preferring binary units: "1MiB", "1500KB", "100B".
func (b ByteSize) String() string {
	if b == 0 {
		return "0B"
	}
	for _, u := range []struct {
		name string
		size int64
	}{
		{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9},
		{"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3},
	} {
		if int64(b)%u.size == 0 {
			return fmt.Sprintf("%d%s", int64(b)/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", int64(b))
}

// MarshalText makes ByteSize print as "1MiB" in YAML and JSON.
func (b ByteSize) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText accepts what [ParseByteSize] accepts.
func (b *ByteSize) UnmarshalText(t []byte) error {
	v, err := ParseByteSize(string(t))
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// errSizeSyntax is the hint shared by every unreadable size.
var errSizeSyntax = errors.New(`want a size such as 1048576, "512KiB", "1MiB" or "1.5MB"`)

// ParseByteSize reads a size: "1048576", "100B", "512KiB", "1.5MB",
// "2 GiB". Single-letter units ("512M") are refused because tools disagree
// on whether they mean 10^6 or 2^20. Fractions of a byte are dropped.
func ParseByteSize(s string) (ByteSize, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	if !isDecimal(num) {
		return 0, errSizeSyntax
	}
	var mult int64
	switch strings.ToLower(unit) {
	case "", "b":
		mult = 1
	case "kb":
		mult = 1e3
	case "mb":
		mult = 1e6
	case "gb":
		mult = 1e9
	case "tb":
		mult = 1e12
	case "kib", "ki":
		mult = 1 << 10
	case "mib", "mi":
		mult = 1 << 20
	case "gib", "gi":
		mult = 1 << 30
	case "tib", "ti":
		mult = 1 << 40
	case "k", "m", "g", "t":
		u := strings.ToUpper(unit)
		return 0, fmt.Errorf("ambiguous unit %q: write %sB (powers of 1000) or %siB (powers of 1024)", unit, u, u)
	default:
		return 0, errSizeSyntax
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, errSizeSyntax
	}
	r.Mul(r, big.NewRat(mult, 1))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	if !n.IsInt64() {
		return 0, errors.New("size too large")
	}
	return ByteSize(n.Int64()), nil
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
