package config

import (
	"errors"
	"time"

	"github.com/onetool-dev/onetool/internal/units"
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
	d, err := units.ParseDuration(s)
	switch {
	case errors.Is(err, units.ErrSyntax):
		return 0, errDurationSyntax
	case errors.Is(err, units.ErrNegative):
		return 0, errNegativeDuration
	case err != nil:
		return 0, err
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
func (b ByteSize) String() string { return units.FormatByteSize(int64(b)) }

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
	n, err := units.ParseByteSize(s)
	if errors.Is(err, units.ErrSyntax) {
		return 0, errSizeSyntax
	}
	return ByteSize(n), err
}
