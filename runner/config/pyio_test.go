package config

import (
	"slices"
	"strings"
	"testing"
)

// limits.max_io_ops and security.environ (issue 31) are read, shown in
// the effective configuration, and checked like every key.
func TestIOKeys(t *testing.T) {
	c, _ := mustLoad(t, "limits:\n  max_io_ops: 5000\nsecurity:\n  environ: [LANG, TZ, MY_VAR_2]\n")
	if c.Limits.MaxIOOps == nil || *c.Limits.MaxIOOps != 5000 || !slices.Equal(c.Security.Environ, []string{"LANG", "TZ", "MY_VAR_2"}) {
		t.Fatalf("max_io_ops %v, environ %v", c.Limits.MaxIOOps, c.Security.Environ)
	}
	eff := string(c.Effective())
	if !strings.Contains(eff, "max_io_ops: 5000") || !strings.Contains(eff, "environ:") || !strings.Contains(eff, "- MY_VAR_2") {
		t.Errorf("effective configuration:\n%s", eff)
	}
	if c, _ := mustLoad(t, "version: 1\n"); c.Security.Environ != nil || c.Limits.MaxIOOps != nil {
		t.Error("defaults are not empty")
	}
	for _, tt := range []struct{ yaml, want string }{
		{"limits:\n  max_io_ops: 0\n", "max_io_ops"},
		{"limits:\n  max_io_ops: lots\n", "max_io_ops"},
		{"security:\n  environ: LANG\n", "want a list of strings"},
		{"security:\n  environ: [LANG, 'A B']\n", `"A B" is not an environment variable name`},
		{"security:\n  environ: [9LIVES]\n", "not starting with a digit"},
		{"security:\n  environs: [LANG]\n", "environs"},
	} {
		_, _, err := loadYAML(t, tt.yaml, nil, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an error with %q", tt.yaml, err, tt.want)
		}
	}
}
