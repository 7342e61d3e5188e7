package web

import (
	"errors"
	"fmt"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// settingKeys are the keys of the packs.web section ParseSettings reads.
var settingKeys = []string{"allow_hosts", "deny_hosts", "max_bytes", "max_redirects", "timeout"}

// ParseSettings turns the extra keys of the packs.web section (decoded
// YAML: string, int64, float64, bool, nil, []any, map[string]any) into
// Options:
//
//	allow_hosts, deny_hosts: lists of host names, "*.example.com"
//	    wildcards ("*" alone: every public host, allow_hosts only),
//	    addresses and CIDRs ("10.0.0.0/8"); non-public addresses are
//	    reached only when allow_hosts names them exactly
//	max_bytes: a byte count, or a size such as "5MiB", "512KB", "2 MB"
//	timeout: a duration such as "20s" or "1m30s", or a number of seconds
//	max_redirects: a count, 0 to follow none
//
// A key set to null keeps its default. Unknown keys and wrong values are
// errors, all of them joined, each naming its key as "packs.web.<key>".
func ParseSettings(settings map[string]any) (Options, error) {
	var o Options
	err := packs.ReadSettings("web", settings, settingKeys, func(key string, v any) error {
		var err error
		switch key {
		case "allow_hosts":
			o.AllowHosts, err = hostList(v)
		case "deny_hosts":
			o.DenyHosts, err = hostList(v)
		case "max_bytes":
			o.MaxBytes, err = packs.SettingSize(v, maxMaxBytes)
		case "timeout":
			o.Timeout, err = packs.SettingDuration(v, time.Hour)
		case "max_redirects":
			var n int64
			n, err = packs.SettingInt(v, "a number of redirects", 0, maxMaxRedirects)
			switch {
			case err != nil:
			case n == 0:
				o.MaxRedirects = -1 // Options: negative follows none
			default:
				o.MaxRedirects = int(n)
			}
		}
		return err
	})
	return o, err
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
		return nil, fmt.Errorf("want a list of hosts (example.com, *.example.com, 10.0.0.0/8), got %s", packs.ShowSetting(v))
	}
	out := make([]string, 0, len(items))
	var errs []error
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			errs = append(errs, fmt.Errorf("item %d: want a host as a string, got %s", i, packs.ShowSetting(it)))
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
