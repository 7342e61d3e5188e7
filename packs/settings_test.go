package packs

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

func TestReadSettings(t *testing.T) {
	known := []string{"max_rows", "timeout", "urls"}
	tests := []struct {
		settings map[string]any
		visited  string // keys visit saw, in order
		want     string // the whole error; "" for none
	}{
		{nil, "", ""},
		{map[string]any{"timeout": int64(1), "max_rows": int64(2)}, "max_rows timeout", ""},
		{map[string]any{"timeout": nil}, "", ""},
		{map[string]any{"timeot": int64(1)}, "", "packs.x.timeot: unknown setting: did you mean timeout? The x pack reads max_rows, timeout, urls"},
		{map[string]any{"colour": nil}, "", "packs.x.colour: unknown setting; the x pack reads max_rows, timeout, urls"},
		{map[string]any{"max_rows": "bad", "timeout": "bad"}, "max_rows timeout", "packs.x.max_rows: bad max_rows\npacks.x.timeout: bad timeout"},
		{map[string]any{"urls": "bad"}, "urls", "packs.x.urls: no scheme\npacks.x.urls.b: empty\npacks.x.urls: wrapped: one; two"},
	}
	for _, tt := range tests {
		var visited []string
		err := ReadSettings("x", tt.settings, known, func(key string, v any) error {
			visited = append(visited, key)
			switch {
			case key == "urls":
				return errors.Join(errors.New("no scheme"), errors.Join(Subkey("b", errors.New("empty")), Subkey("c", nil)),
					fmt.Errorf("wrapped: %w; %w", errors.New("one"), errors.New("two")))
			case v == "bad":
				return errors.New("bad " + key)
			}
			return nil
		})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want || strings.Join(visited, " ") != tt.visited {
			t.Errorf("%v: visited %q, error\n%s\nwant %q and\n%s", tt.settings, visited, got, tt.visited, tt.want)
		}
		if n := len(splitJoined(err)); err != nil && n != strings.Count(tt.want, "\n")+1 {
			t.Errorf("%v: %d errors, want one per line", tt.settings, n)
		}
	}
}

func TestSettingValues(t *testing.T) {
	dur := func(v any) (any, error) { return SettingDuration(v, time.Hour) }
	size := func(v any) (any, error) { return SettingSize(v, 512<<20) }
	count := func(v any) (any, error) { return SettingInt(v, "a number of rows", 1, 100) }
	tests := []struct {
		read func(any) (any, error)
		in   any
		want any    // when no error
		err  string // the error
	}{
		{dur, "20s", 20 * time.Second, ""},
		{dur, " 1m30s ", 90 * time.Second, ""},
		{dur, "10", 10 * time.Second, ""},
		{dur, int64(5), 5 * time.Second, ""},
		{dur, 2.5, 2500 * time.Millisecond, ""},
		{dur, "1h", time.Hour, ""},
		{dur, "fast", nil, `want a duration such as "20s" or "1m", or a number of seconds, got "fast"`},
		{dur, true, nil, `want a duration such as "20s" or "1m", or a number of seconds, got the boolean true`},
		{dur, math.NaN(), nil, `want a duration such as "20s" or "1m", or a number of seconds, got the number NaN`},
		{dur, int64(0), nil, "want a duration above 0, got 0"},
		{dur, "-5s", nil, `want a duration above 0, got "-5s"`},
		{dur, "0.0000000001", nil, `want a duration above 0, got "0.0000000001"`},
		{dur, "2h", nil, `want a duration up to 1h, got "2h"`},
		{dur, "99999999999999", nil, `want a duration up to 1h, got "99999999999999"`},
		{dur, 1e300, nil, "want a duration up to 1h, got 1e+300"},
		{size, int64(1000), int64(1000), ""},
		{size, float64(64), int64(64), ""},
		{size, "2 MB", int64(2_000_000), ""},
		{size, "5mib", int64(5 << 20), ""},
		{size, "1_000", int64(1000), ""},
		{size, "lots", nil, `want a size in bytes (an int, or like "5MiB", "512KB"), got "lots": no number`},
		{size, "5M", nil, `got "5M": ambiguous unit "M": write MB (powers of 1000) or MiB (powers of 1024)`},
		{size, []any{}, nil, `want a size in bytes (an int, or like "5MiB", "512KB"), got a list`},
		{size, int64(-1), nil, "want a size of at least 1 byte, got -1"},
		{size, "0.5B", nil, `want a size of at least 1 byte, got "0.5B"`},
		{size, "10GiB", nil, `want a size up to 512MiB, got "10GiB"`},
		{size, "99999999999TiB", nil, `want a size up to 512MiB, got "99999999999TiB"`},
		{count, int64(5), int64(5), ""},
		{count, float64(100), int64(100), ""},
		{count, int64(0), nil, "want a number of rows from 1 to 100, got 0"},
		{count, 2.5, nil, "want a number of rows from 1 to 100, got the number 2.5"},
		{count, "3", nil, `want a number of rows from 1 to 100, got the string "3"`},
		{count, float64(1 << 60), nil, "want a number of rows from 1 to 100, got the number 1.152921504606847e+18"},
	}
	for _, tt := range tests {
		got, err := tt.read(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%v: %v, %v; want %v", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.err)):
			t.Errorf("%v: %v, %v; want error %q", tt.in, got, err, tt.err)
		}
	}
}

func TestShowSetting(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{"yes", `the string "yes"`},
		{strings.Repeat("é", 40), `the string "` + strings.Repeat("é", 30) + `…"`},
		{true, "the boolean true"},
		{int64(3), "the number 3"},
		{1.5, "the number 1.5"},
		{[]any{}, "a list"},
		{map[string]any{}, "a mapping"},
		{ordered.NewMap(0), "a mapping"},
		{struct{}{}, "a struct {}"},
	}
	for _, tt := range tests {
		if got := ShowSetting(tt.in); got != tt.want {
			t.Errorf("ShowSetting(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
