package units

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  error // nil: no error
	}{
		{"30s", 30 * time.Second, nil},
		{"1m30s", 90 * time.Second, nil},
		{"250ms", 250 * time.Millisecond, nil},
		{"30", 30 * time.Second, nil},
		{"1.5", 1500 * time.Millisecond, nil},
		{"0.0000000001", 0, nil},
		{" 2h ", 2 * time.Hour, nil},
		{"0", 0, nil},
		{"-1s", 0, ErrNegative},
		{"-1", 0, ErrSyntax},
		{"soon", 0, ErrSyntax},
		{"1d", 0, ErrSyntax},
		{"1e3", 0, ErrSyntax},
		{".5", 0, ErrSyntax},
		{"", 0, ErrSyntax},
		{"99999999999999", 0, ErrTooLong},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := ParseDuration("secret-token"); strings.Contains(err.Error(), "secret") {
		t.Errorf("the error repeats the input: %v", err)
	}
}

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		err     error  // nil: no error
		message string // part of the error
	}{
		{"1048576", 1 << 20, nil, ""},
		{"100B", 100, nil, ""},
		{"100 b", 100, nil, ""},
		{"512KiB", 512 << 10, nil, ""},
		{"512ki", 512 << 10, nil, ""},
		{"5mib", 5 << 20, nil, ""},
		{"1.5MB", 1_500_000, nil, ""},
		{"1.5KiB", 1536, nil, ""},
		{" 2 GiB ", 2 << 30, nil, ""},
		{"3TB", 3e12, nil, ""},
		{"1TiB", 1 << 40, nil, ""},
		{"0.5B", 0, nil, ""},
		{"", 0, ErrSyntax, "no number"},
		{"lots", 0, ErrSyntax, "no number"},
		{"-1MB", 0, ErrSyntax, "no number"},
		{"1.MB", 0, ErrSyntax, `bad number "1."`},
		{"1..5", 0, ErrSyntax, `bad number "1..5"`},
		{"1e6", 0, ErrSyntax, `unknown unit "e6"`},
		{"5XB", 0, ErrSyntax, `unknown unit "XB"`},
		{"512M", 0, nil, `ambiguous unit "M": write MB (powers of 1000) or MiB (powers of 1024)`},
		{"1k", 0, nil, `ambiguous unit "k": write KB`},
		{"99999999999TiB", 0, ErrTooLarge, "size too large"},
	}
	for _, tt := range tests {
		got, err := ParseByteSize(tt.in)
		wantErr := tt.err != nil || tt.message != ""
		if got != tt.want || (err != nil) != wantErr || tt.err != nil && !errors.Is(err, tt.err) ||
			err != nil && !strings.Contains(err.Error(), tt.message) {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d, %v %q", tt.in, got, err, tt.want, tt.err, tt.message)
		}
	}
}

func TestFormatByteSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0B"}, {1, "1B"}, {100, "100B"}, {1000, "1KB"}, {1024, "1KiB"},
		{1 << 20, "1MiB"}, {1_500_000, "1500KB"}, {1536, "1536B"}, {512 << 20, "512MiB"},
		{3e12, "3TB"}, {1<<40 + 1, "1099511627777B"},
	}
	for _, tt := range tests {
		if got := FormatByteSize(tt.in); got != tt.want {
			t.Errorf("FormatByteSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParse checks both parsers on any input: no panic, no negative
// result, an error or a value (never both), and that what they read prints
// back to a form they read to the same value.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 30s ./internal/units/
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"30s", "1m30s", "250ms", "30", "1.5", " 2h ", "-1s", "1d", "",
		"1048576", "512KiB", "1.5MB", "2 GiB", "512M", "5XB", "1.MB", "1e6",
		"99999999999TiB", "9223372036854775807B", "0.0000000001", "1_000",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParseDuration(s); err != nil {
			if d != 0 {
				t.Errorf("ParseDuration(%q) = %v with error %v", s, d, err)
			}
		} else if d < 0 {
			t.Errorf("ParseDuration(%q) = %v, negative", s, d)
		} else if back, err := ParseDuration(d.String()); err != nil || back != d {
			t.Errorf("ParseDuration(%q) = %v, which reads back as %v, %v", s, d, back, err)
		}
		if n, err := ParseByteSize(s); err != nil {
			if n != 0 {
				t.Errorf("ParseByteSize(%q) = %d with error %v", s, n, err)
			}
		} else if n < 0 {
			t.Errorf("ParseByteSize(%q) = %d, negative", s, n)
		} else if back, err := ParseByteSize(FormatByteSize(n)); err != nil || back != n {
			t.Errorf("ParseByteSize(%q) = %d, which reads back as %d, %v", s, n, back, err)
		}
	})
}
