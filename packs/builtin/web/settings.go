package web

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// settingKeys are the keys of the packs.web section ParseSettings reads.
var settingKeys = []string{"allow_hosts", "deny_hosts", "max_bytes", "max_redirects", "timeout"}

// ParseSettings turns the extra keys of the packs.web section (decoded
// YAML: string, int64, float64, bool, nil, []any, map[string]any) into
// Options:
//
//	allow_hosts, deny_hosts: lists of host names, "*.example.com"
//	    wildcards, addresses and CIDRs ("10.0.0.0/8")
//	max_bytes: a byte count, or a size such as "5MiB", "512KB", "2 MB"
//	timeout: a duration such as "20s" or "1m30s", or a number of seconds
//	max_redirects: a count, 0 to follow none
//
// A key set to null keeps its default. Unknown keys and wrong values are
// errors, all of them joined, each naming its key as "packs.web.<key>".
func ParseSettings(settings map[string]any) (Options, error) {
	var o Options
	var errs []error
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := settings[k]
		if v == nil && slices.Contains(settingKeys, k) {
			continue
		}
		var err error
		switch k {
		case "allow_hosts":
			o.AllowHosts, err = hostList(v)
		case "deny_hosts":
			o.DenyHosts, err = hostList(v)
		case "max_bytes":
			o.MaxBytes, err = parseSize(v)
		case "timeout":
			o.Timeout, err = parseTimeout(v)
		case "max_redirects":
			var n int64
			n, err = wholeNumber(v)
			switch {
			case err != nil:
				err = fmt.Errorf("want a number of redirects (0 to %d), got %s", maxMaxRedirects, shownValue(v))
			case n < 0 || n > maxMaxRedirects:
				err = fmt.Errorf("want a number of redirects from 0 to %d, got %d", maxMaxRedirects, n)
			case n == 0:
				o.MaxRedirects = -1 // Options: negative follows none
			default:
				o.MaxRedirects = int(n)
			}
		default:
			msg := "unknown setting; the web pack reads " + strings.Join(settingKeys, ", ")
			if s := closest(k, settingKeys); s != "" {
				msg = fmt.Sprintf("unknown setting: did you mean %s? The web pack reads %s", s, strings.Join(settingKeys, ", "))
			}
			err = errors.New(msg)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("packs.web.%s: %w", k, err))
		}
	}
	return o, errors.Join(errs...)
}

// hostList reads a list of host patterns, checking each.
func hostList(v any) ([]string, error) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case []string:
		for _, s := range x {
			items = append(items, s)
		}
	case string:
		return nil, fmt.Errorf("want a list of hosts, got the string %q: write [%q]", short(x), short(x))
	default:
		return nil, fmt.Errorf("want a list of hosts (example.com, *.example.com, 10.0.0.0/8), got %s", shownValue(v))
	}
	out := make([]string, 0, len(items))
	var errs []error
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			errs = append(errs, fmt.Errorf("item %d: want a host as a string, got %s", i, shownValue(it)))
			continue
		}
		if _, err := parseHostRule(s); err != nil {
			errs = append(errs, fmt.Errorf("item %d: %w; write a host (example.com), a wildcard (*.example.com) or a CIDR (10.0.0.0/8)", i, err))
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// parseSize reads max_bytes: an int, or a number with a unit.
func parseSize(v any) (int64, error) {
	const want = `want a size in bytes (an int, or like "5MiB", "512KB")`
	var n float64
	switch x := v.(type) {
	case int64:
		n = float64(x)
	case int:
		n = float64(x)
	case float64:
		n = x
	case string:
		f, err := sizeString(x)
		if err != nil {
			return 0, fmt.Errorf("%s, got %q: %v", want, short(x), err)
		}
		n = f
	default:
		return 0, fmt.Errorf("%s, got %s", want, shownValue(v))
	}
	if math.IsNaN(n) || n < 1 {
		return 0, fmt.Errorf("want a size of at least 1 byte, got %s", shownValue(v))
	}
	if n > maxMaxBytes {
		return 0, fmt.Errorf("want a size up to %s, got %s", sizeText(maxMaxBytes), shownValue(v))
	}
	return int64(n), nil
}

var sizeUnits = map[string]float64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"k": 1e3, "kb": 1e3, "kib": 1 << 10,
	"m": 1e6, "mb": 1e6, "mib": 1 << 20,
	"g": 1e9, "gb": 1e9, "gib": 1 << 30,
}

func sizeString(s string) (float64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == '_') {
		i++
	}
	num, unit := strings.ReplaceAll(t[:i], "_", ""), strings.ToLower(strings.TrimSpace(t[i:]))
	if num == "" {
		return 0, errors.New("no number")
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", num)
	}
	mult, ok := sizeUnits[unit]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q (use B, KB, KiB, MB, MiB, GB, GiB)", t[i:])
	}
	return f * mult, nil
}

// parseTimeout reads timeout: a duration string or seconds.
func parseTimeout(v any) (time.Duration, error) {
	const want = `want a duration such as "20s" or "1m", or a number of seconds`
	var d time.Duration
	switch x := v.(type) {
	case string:
		s := strings.TrimSpace(x)
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil {
				return 0, fmt.Errorf("%s, got %q", want, short(x))
			}
			d = seconds(f)
		}
	case int64:
		d = seconds(float64(x))
	case int:
		d = seconds(float64(x))
	case float64:
		d = seconds(x)
	default:
		return 0, fmt.Errorf("%s, got %s", want, shownValue(v))
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a duration above 0, got %s", shownValue(v))
	}
	if d > time.Hour {
		return 0, fmt.Errorf("want a duration up to 1h, got %s", shownValue(v))
	}
	return d, nil
}

func seconds(f float64) time.Duration {
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > 1e6 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(f * float64(time.Second))
}

// wholeNumber reads an int (or a float without fraction).
func wholeNumber(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), nil
		}
	}
	return 0, errors.New("not a whole number")
}

// shownValue describes a settings value for an error: its YAML-ish text
// and type.
func shownValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(short(x))
	case bool:
		return fmt.Sprintf("%v (a boolean)", x)
	case int64, int:
		return fmt.Sprintf("%d", x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}

// closest is the key within edit distance 2 of k, if any.
func closest(k string, keys []string) string {
	best, bestD := "", 3
	for _, c := range keys {
		if d := editDistance(strings.ToLower(k), c); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		// allow, deny, bytes, redirects: a key that is a part of one.
		for _, c := range keys {
			if len(k) >= 4 && strings.Contains(c, strings.ToLower(k)) {
				return c
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
