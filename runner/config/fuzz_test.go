package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzSecret is the value of the one secret FuzzLoad provides.
const fuzzSecret = "tok-secret-value"

// fuzzTimeout bounds one input: load, render, load again. Real files take
// about a millisecond; a hang shows up as a failure, not a stuck fuzzer.
const fuzzTimeout = 10 * time.Second

// FuzzLoad loads arbitrary bytes as onetool.yaml. Properties: Load never
// panics and finishes in bounded time; every problem is a *Error; a secret
// value never appears in an error or in Effective unless the input itself
// contains it; and Effective loads again to the same Effective.
//
// The seed corpus is testdata/fuzz/FuzzLoad. Run with:
//
//	go test -run '^$' -fuzz FuzzLoad -fuzztime 60s ./runner/config/
func FuzzLoad(f *testing.F) {
	f.Add([]byte(full))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"secrets.yaml": "TOKEN: " + fuzzSecret + "\n", "onetool.yaml": string(data)})
		failure := make(chan string, 1)
		go func() { failure <- checkLoad(dir, data) }()
		select {
		case msg := <-failure:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(fuzzTimeout):
			t.Fatalf("no result after %v for input %q", fuzzTimeout, data)
		}
	})
}

// checkLoad runs the properties of FuzzLoad on dir/onetool.yaml and
// returns what went wrong, or "". It runs on its own goroutine, so it
// reports instead of calling t.Fatal.
func checkLoad(dir string, data []byte) string {
	o := LoadOptions{HomeDir: filepath.Join(dir, "home"), WorkDir: dir,
		LookupEnv: env{"N": "5", "ON": "true", "WORD": "hello", "EMPTY": ""}.lookup}
	leakable := strings.Contains(string(data), fuzzSecret)

	c, err := Load(filepath.Join(dir, "onetool.yaml"), o)
	if err != nil {
		var joined interface{ Unwrap() []error }
		if errors.As(err, &joined) {
			for _, e := range joined.Unwrap() {
				var ce *Error
				if !errors.As(e, &ce) {
					return fmt.Sprintf("problem %T is not a *Error: %v", e, e)
				}
			}
		}
		if !leakable && strings.Contains(err.Error(), fuzzSecret) {
			return fmt.Sprintf("secret in error: %v", err)
		}
		return ""
	}
	eff := c.Effective()
	if !leakable && strings.Contains(string(eff), fuzzSecret) {
		return fmt.Sprintf("secret in Effective:\n%s", eff)
	}
	// Written elsewhere and loaded without secrets, the effective
	// configuration must read back to itself.
	other := filepath.Join(dir, "again")
	if err := os.MkdirAll(other, 0o755); err != nil {
		return err.Error()
	}
	if err := os.WriteFile(filepath.Join(other, "onetool.yaml"), eff, 0o644); err != nil {
		return err.Error()
	}
	o.WorkDir = other
	c2, err := Load(filepath.Join(other, "onetool.yaml"), o)
	if err != nil {
		return fmt.Sprintf("Load(Effective()) failed: %v\ninput:\n%s\neffective:\n%s", err, data, eff)
	}
	if a, b := withoutComments(eff), withoutComments(c2.Effective()); a != b {
		return fmt.Sprintf("Effective does not round-trip\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", data, a, b)
	}
	return ""
}
