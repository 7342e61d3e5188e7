package packs

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/internal/units"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// This file reads the free-form packs.<name> section of onetool.yaml that
// a built-in pack turns into its options. Values are decoded YAML: string,
// int64, float64, bool, nil, []any and map[string]any (or *ordered.Map).

// ReadSettings calls visit for each key of settings in sorted order,
// skipping keys of known set to null (they keep their default). It
// returns every error, joined, each naming its key: visit's as
// "packs.<pack>.<key>: <err>" (a joined error gives one line per part;
// see [Subkey]), and an unknown key's as "packs.<pack>.<key>: unknown
// setting: did you mean X? The <pack> pack reads a, b, c".
func ReadSettings(pack string, settings map[string]any, known []string, visit func(key string, v any) error) error {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []error
	for _, k := range keys {
		v := settings[k]
		var err error
		switch {
		case !slices.Contains(known, k):
			reads := fmt.Sprintf("the %s pack reads %s", pack, strings.Join(known, ", "))
			if s := suggest.Closest(k, known); s != "" {
				err = fmt.Errorf("unknown setting: did you mean %s? T%s", s, reads[1:])
			} else {
				err = errors.New("unknown setting; " + reads)
			}
		case v != nil:
			err = visit(k, v)
		}
		for _, e := range splitJoined(err) {
			key := k
			if s, ok := e.(*subkeyError); ok {
				key, e = k+"."+s.sub, s.err
			}
			errs = append(errs, fmt.Errorf("packs.%s.%s: %w", pack, key, e))
		}
	}
	return errors.Join(errs...)
}

// Subkey marks err as about the part sub of a setting (an entry of a
// mapping): ReadSettings names it "packs.<pack>.<key>.<sub>".
func Subkey(sub string, err error) error {
	if err == nil {
		return nil
	}
	return &subkeyError{sub, err}
}

type subkeyError struct {
	sub string
	err error
}

func (e *subkeyError) Error() string { return e.sub + ": " + e.err.Error() }
func (e *subkeyError) Unwrap() error { return e.err }

// splitJoined lists the errors errors.Join put together in err, nested
// joins too; another error, even one wrapping several, stays whole.
func splitJoined(err error) []error {
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	parts := j.Unwrap()
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Error()
	}
	if strings.Join(texts, "\n") != err.Error() { // fmt.Errorf with several %w
		return []error{err}
	}
	var out []error
	for _, p := range parts {
		out = append(out, splitJoined(p)...)
	}
	return out
}

// SettingDuration reads a duration above zero and up to limit: "20s",
// "1m30s", or a number of seconds (5, 2.5, "10").
func SettingDuration(v any, limit time.Duration) (time.Duration, error) {
	const want = `want a duration such as "20s" or "1m", or a number of seconds`
	var d time.Duration
	switch x := v.(type) {
	case string:
		var err error
		d, err = units.ParseDuration(x)
		switch {
		case errors.Is(err, units.ErrSyntax):
			return 0, fmt.Errorf("%s, got %q", want, shorten(x))
		case errors.Is(err, units.ErrNegative):
			d = 0
		case err != nil:
			d = limit + 1
		}
	case int64, int, float64:
		f := settingFloat(x)
		switch {
		case math.IsNaN(f):
			return 0, fmt.Errorf("%s, got %s", want, ShowSetting(v))
		case f > limit.Seconds():
			d = limit + 1
		case f > 0:
			d = time.Duration(f * float64(time.Second))
		}
	default:
		return 0, fmt.Errorf("%s, got %s", want, ShowSetting(v))
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a duration above 0, got %s", written(v))
	}
	if d > limit {
		return 0, fmt.Errorf("want a duration up to %s, got %s", durationText(limit), written(v))
	}
	return d, nil
}

// SettingSize reads a size of 1 byte up to limit: a number of bytes, or
// a string such as "5MiB", "512KB" or "2 MB" (units as in onetool.yaml;
// "_" between digits, as YAML allows in numbers, is ignored).
func SettingSize(v any, limit int64) (int64, error) {
	const want = `want a size in bytes (an int, or like "5MiB", "512KB")`
	var n float64
	switch x := v.(type) {
	case string:
		i, err := units.ParseByteSize(strings.ReplaceAll(x, "_", ""))
		switch {
		case errors.Is(err, units.ErrTooLarge):
			n = math.Inf(1)
		case err != nil:
			return 0, fmt.Errorf("%s, got %q: %v", want, shorten(x), err)
		default:
			n = float64(i)
		}
	case int64, int, float64:
		n = settingFloat(x)
	default:
		return 0, fmt.Errorf("%s, got %s", want, ShowSetting(v))
	}
	if math.IsNaN(n) || n < 1 {
		return 0, fmt.Errorf("want a size of at least 1 byte, got %s", written(v))
	}
	if n > float64(limit) {
		return 0, fmt.Errorf("want a size up to %s, got %s", units.FormatByteSize(limit), written(v))
	}
	return int64(n), nil
}

// SettingInt reads a whole number from lo to hi; what names it in the
// message, as in "want a number of rows from 1 to 1000".
func SettingInt(v any, what string, lo, hi int64) (int64, error) {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case int:
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			return 0, fmt.Errorf("want %s from %d to %d, got %s", what, lo, hi, ShowSetting(v))
		}
		n = int64(x)
	default:
		return 0, fmt.Errorf("want %s from %d to %d, got %s", what, lo, hi, ShowSetting(v))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("want %s from %d to %d, got %d", what, lo, hi, n)
	}
	return n, nil
}

// ShowSetting describes a wrong value in a message by its type and, for
// scalars, its value: `the string "x"`, "the number 3", "a list".
func ShowSetting(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", shorten(x))
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, int, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any, *ordered.Map:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}

// written shows a value of the right type but out of range as it was
// written: 0, 2.5, "2h".
func written(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(shorten(s))
	}
	return fmt.Sprint(v)
}

// shorten cuts a string shown in a message to about 60 bytes.
func shorten(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// settingFloat is a YAML number as a float64.
func settingFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// durationText shows a limit briefly: "1h", "30m", "1m30s".
func durationText(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
