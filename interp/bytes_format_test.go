package interp

import "testing"

// Sizes reach users in every limit message: limits are round and shown
// exactly, measured sizes to a tenth of their unit.
func TestFormatSizes(t *testing.T) {
	for _, c := range []struct {
		n              int64
		format, approx string
	}{
		{1, "1 byte", "1 byte"},
		{300, "300 bytes", "300 bytes"},
		{1 << 10, "1 KiB", "1.0 KiB"},
		{1536, "1536 bytes", "1.5 KiB"},
		{256 << 20, "256 MiB", "256.0 MiB"},
		{(256 << 20) + 1, "268435457 bytes", "256.0 MiB"},
		{3 << 30, "3 GiB", "3.0 GiB"},
		{5<<30 + 1<<29, "5632 MiB", "5.5 GiB"},
	} {
		if got := FormatBytes(c.n); got != c.format {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.format)
		}
		if got := ApproxBytes(c.n); got != c.approx {
			t.Errorf("ApproxBytes(%d) = %q, want %q", c.n, got, c.approx)
		}
	}
}
