package web

import (
	"strings"
	"testing"
	"time"
)

func TestParseSettings(t *testing.T) {
	o, err := ParseSettings(map[string]any{
		"allow_hosts":   []any{"example.com", "*.example.org", "10.0.0.0/8"},
		"deny_hosts":    []any{"169.254.0.0/16"},
		"max_bytes":     "2MiB",
		"timeout":       "1m30s",
		"max_redirects": int64(3),
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.AllowHosts, " ") != "example.com *.example.org 10.0.0.0/8" || strings.Join(o.DenyHosts, " ") != "169.254.0.0/16" ||
		o.MaxBytes != 2<<20 || o.Timeout != 90*time.Second || o.MaxRedirects != 3 {
		t.Errorf("got %+v", o)
	}

	o, err = ParseSettings(nil)
	if err != nil || o.MaxBytes != 0 || o.Timeout != 0 || o.AllowHosts != nil {
		t.Errorf("empty: %+v, %v", o, err)
	}
	// null keeps the default.
	if o, err := ParseSettings(map[string]any{"timeout": nil, "allow_hosts": nil}); err != nil || o.Timeout != 0 {
		t.Errorf("null: %+v, %v", o, err)
	}

	sizes := map[any]int64{int64(1000): 1000, "1000": 1000, "512KB": 512000, "512 KiB": 512 << 10, "5mib": 5 << 20, "1.5MB": 1500000, "1_000": 1000, float64(64): 64, "2 MB": 2000000}
	for in, want := range sizes {
		o, err := ParseSettings(map[string]any{"max_bytes": in})
		if err != nil || o.MaxBytes != want {
			t.Errorf("max_bytes %v: %d, %v; want %d", in, o.MaxBytes, err, want)
		}
	}
	timeouts := map[any]time.Duration{"20s": 20 * time.Second, "500ms": 500 * time.Millisecond, int64(5): 5 * time.Second, 2.5: 2500 * time.Millisecond, "10": 10 * time.Second}
	for in, want := range timeouts {
		o, err := ParseSettings(map[string]any{"timeout": in})
		if err != nil || o.Timeout != want {
			t.Errorf("timeout %v: %s, %v; want %s", in, o.Timeout, err, want)
		}
	}
	if o, _ := ParseSettings(map[string]any{"max_redirects": int64(0)}); o.MaxRedirects >= 0 {
		t.Errorf("max_redirects 0 → %d, want negative (none)", o.MaxRedirects)
	}
}

func TestParseSettingsErrors(t *testing.T) {
	tests := []struct {
		settings map[string]any
		want     []string
	}{
		{map[string]any{"maxbytes": int64(5)}, []string{"packs.web.maxbytes: unknown setting: did you mean max_bytes?", "allow_hosts, deny_hosts, max_bytes, max_redirects, timeout"}},
		{map[string]any{"proxy": "http://p"}, []string{"packs.web.proxy: unknown setting; the web pack reads allow_hosts"}},
		{map[string]any{"allow": []any{"x"}}, []string{"packs.web.allow: unknown setting: did you mean allow_hosts?"}},
		{map[string]any{"allow_hosts": "example.com"}, []string{`packs.web.allow_hosts: want a list of hosts, got the string "example.com": write ["example.com"]`}},
		{map[string]any{"allow_hosts": map[string]any{"a": "b"}}, []string{"packs.web.allow_hosts: want a list of hosts", "got a mapping"}},
		{map[string]any{"deny_hosts": []any{"ok.com", int64(3)}}, []string{"packs.web.deny_hosts: item 1: want a host as a string, got the number 3"}},
		{map[string]any{"deny_hosts": []any{"https://example.com/x"}}, []string{"packs.web.deny_hosts: item 0:", "is not a host", "without scheme"}},
		{map[string]any{"deny_hosts": []any{"10.0.0.0/33"}}, []string{"item 0:", "CIDR"}},
		{map[string]any{"deny_hosts": []any{"a.*.com"}}, []string{"item 0:", "*.example.com"}},
		{map[string]any{"deny_hosts": []any{""}}, []string{"item 0: an empty host"}},
		{map[string]any{"max_bytes": int64(-1)}, []string{"packs.web.max_bytes: want a size of at least 1 byte, got -1"}},
		{map[string]any{"max_bytes": "5XB"}, []string{"packs.web.max_bytes:", `"5XB"`, "unknown unit"}},
		{map[string]any{"max_bytes": true}, []string{"packs.web.max_bytes: want a size in bytes", "got the boolean true"}},
		{map[string]any{"max_bytes": "10GiB"}, []string{"packs.web.max_bytes: want a size up to 512MiB, got \"10GiB\""}},
		{map[string]any{"timeout": "fast"}, []string{`packs.web.timeout: want a duration such as "20s"`, `got "fast"`}},
		{map[string]any{"timeout": int64(0)}, []string{"packs.web.timeout: want a duration above 0, got 0"}},
		{map[string]any{"timeout": "-5s"}, []string{"packs.web.timeout: want a duration above 0"}},
		{map[string]any{"timeout": "2h"}, []string{"up to 1h"}},
		{map[string]any{"timeout": []any{}}, []string{"packs.web.timeout:", "got a list"}},
		{map[string]any{"max_redirects": 1.5}, []string{"packs.web.max_redirects: want a number of redirects", "got the number 1.5"}},
		{map[string]any{"max_redirects": "3"}, []string{"packs.web.max_redirects:", `got the string "3"`}},
		{map[string]any{"max_redirects": int64(-1)}, []string{"packs.web.max_redirects: want a number of redirects from 0 to 50, got -1"}},
		// Every error, sorted by key.
		{map[string]any{"timeout": "x", "max_bytes": "y"}, []string{"packs.web.max_bytes:", "\npacks.web.timeout:"}},
	}
	for _, tc := range tests {
		_, err := ParseSettings(tc.settings)
		if err == nil {
			t.Errorf("%v: no error", tc.settings)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v:\n%v\nwant %q", tc.settings, err, w)
			}
		}
	}
}
