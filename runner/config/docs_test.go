package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDocsExample loads the complete example of docs/configuration.md, so
// the documentation cannot drift from what Load accepts, and checks that
// it shows every key this package knows.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## A complete example")
	if !ok {
		t.Fatal("no complete example in docs/configuration.md")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	example, _, _ := strings.Cut(rest, "```\n")

	dir, o := testDir(t, map[string]string{
		"onetool.yaml":                example,
		"shared/team.yaml":            "limits: {timeout: 45s}\n",
		"home/.onetool/personal.yaml": "{}\n",
		"secrets.yaml":                "GITHUB_TOKEN: ghp_example_token\nALICE_TOKEN: alice-example-token\nMETRICS_TOKEN: metrics-example-token\n",
	}, env{})
	c, err := Load(filepath.Join(dir, "onetool.yaml"), o)
	if err != nil {
		t.Fatalf("the documented example does not load:\n%v", err)
	}
	if time.Duration(*c.Limits.Timeout) != DefaultTimeout || *c.Limits.MaxOutput != DefaultMaxOutput || *c.Limits.MaxMemory != DefaultMaxMemory ||
		*c.Limits.MaxToolCalls != DefaultMaxToolCalls || *c.Limits.MaxParallel != DefaultMaxParallel ||
		*c.Output.MaxInline != DefaultMaxInline || *c.Limits.MaxSteps != DefaultMaxSteps ||
		*c.Limits.MaxIntDigits != DefaultMaxIntDigits || time.Duration(*c.Serve.SessionIdle) != DefaultSessionIdle || *c.Serve.MaxSessions != DefaultMaxSessions ||
		time.Duration(*c.Serve.DrainTimeout) != DefaultDrainTimeout {
		t.Errorf("the example must show the built-in defaults: %+v %+v", c.Limits, c.Output)
	}
	for _, keys := range [][]string{topKeys(), serverKeys(), snippetKeys(), paramKeys(), limitKeys(),
		outputKeys(), serveKeys(), securityKeys(), authKeys(), oauthKeys(), tokenKeys(), policyKeys(), {"enabled", "allowed_dirs", "read_only", "backups"}} {
		for _, k := range keys {
			if !strings.Contains(example, "\n"+k+":") && !strings.Contains(example, " "+k+":") && !strings.Contains(example, "{"+k+":") {
				t.Errorf("the example does not show %s:", k)
			}
		}
	}
}
