package config

import (
	"testing"
	"time"
)

func TestParseByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want ByteSize
		err  bool
	}{
		{"1048576", 1 << 20, false},
		{"100B", 100, false},
		{"100 b", 100, false},
		{"512KiB", 512 << 10, false},
		{"512ki", 512 << 10, false},
		{"1MiB", 1 << 20, false},
		{"1.5MB", 1_500_000, false},
		{"1.5KiB", 1536, false},
		{"2 GiB", 2 << 30, false},
		{"1kb", 1000, false},
		{"3TB", 3e12, false},
		{"1TiB", 1 << 40, false},
		{"0.5B", 0, false},
		{"512M", 0, true},
		{"", 0, true},
		{"MB", 0, true},
		{"-1MB", 0, true},
		{"1e6", 0, true},
		{"1.MB", 0, true},
		{"1 XB", 0, true},
		{"99999999999TiB", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseByteSize(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseByteSize(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestByteSizeString(t *testing.T) {
	for _, b := range []ByteSize{0, 1, 100, 1000, 1024, 1 << 20, 1_500_000, 1536, 512 << 20, 3e12, 1<<40 + 1} {
		s := b.String()
		back, err := ParseByteSize(s)
		if err != nil || back != b {
			t.Errorf("%d → %q → %d, %v", b, s, back, err)
		}
	}
	if got := ByteSize(1 << 20).String(); got != "1MiB" {
		t.Errorf("1MiB prints as %q", got)
	}
	var b ByteSize
	if err := b.UnmarshalText([]byte("2KiB")); err != nil || b != 2048 {
		t.Errorf("UnmarshalText: %v %v", b, err)
	}
	if txt, _ := b.MarshalText(); string(txt) != "2KiB" {
		t.Errorf("MarshalText = %s", txt)
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"30s", 30 * time.Second, false},
		{"1m30s", 90 * time.Second, false},
		{"250ms", 250 * time.Millisecond, false},
		{"30", 30 * time.Second, false},
		{"1.5", 1500 * time.Millisecond, false},
		{" 2h ", 2 * time.Hour, false},
		{"0", 0, false},
		{"-1s", 0, true},
		{"soon", 0, true},
		{"1d", 0, true},
		{"", 0, true},
		{"99999999999999999999", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || time.Duration(got) != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v", tt.in, got, err)
		}
	}
	var d Duration
	if err := d.UnmarshalText([]byte("1m")); err != nil || d != Duration(time.Minute) {
		t.Errorf("UnmarshalText: %v %v", d, err)
	}
	if txt, _ := d.MarshalText(); string(txt) != "1m0s" {
		t.Errorf("MarshalText = %s", txt)
	}
}
