package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestRedact(t *testing.T) {
	s := newSecrets("", map[string]string{
		"TOKEN": "abc123xyz",
		"LONG":  "abc123xyz-and-more",
		"SHORT": "abc", // under four characters: never replaced
		"A":     "aaaa",
		"OVER1": "hello-wor",
		"OVER2": "world-wide",
	})
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing here", "nothing here"},
		{"token=abc123xyz;", "token=[secret:TOKEN];"},
		{"abc123xyz abc123xyz", "[secret:TOKEN] [secret:TOKEN]"},
		{"x abc123xyz-and-more y", "x [secret:LONG] y"}, // the longest match wins
		{"abc", "abc"},
		{"aaaaa", "[secret:A]"}, // overlapping occurrences are hidden as one
		{"hello-world-wide!", "[secret:OVER1][secret:OVER2]!"}, // overlapping secrets: both hidden entirely
	}
	for _, tt := range tests {
		if got := s.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var none *Secrets
	if none.Redact("abc123xyz") != "abc123xyz" || none.Names() != nil {
		t.Error("a nil *Secrets must be usable")
	}
}

func TestSecretsNeverPrint(t *testing.T) {
	s := newSecrets("/x/secrets.yaml", map[string]string{"TOKEN": "v3ry-s3cret"})
	c := Default()
	c.Secrets = s
	j, _ := json.Marshal(c)
	y, _ := yaml.Marshal(s)
	for _, out := range []string{
		fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q", s, s, s, s, s),
		fmt.Sprintf("%+v", *c), string(j), string(y), string(c.Effective()),
	} {
		if strings.Contains(out, "v3ry-s3cret") {
			t.Errorf("secret leaked: %s", out)
		}
	}
	if got := fmt.Sprint(s); got != "secrets(TOKEN)" {
		t.Errorf("String = %q", got)
	}
	if v, ok := s.Lookup("TOKEN"); !ok || v != "v3ry-s3cret" {
		t.Error("Lookup")
	}
}

func TestSecretsFile(t *testing.T) {
	// Beside the config file.
	c, dir, err := loadYAML(t, "{}\n", map[string]string{"secrets.yaml": "B: two\nA: 'one'\nPIN: 0042\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Secrets.Names(), []string{"A", "B", "PIN"}) || c.Secrets.File() != filepath.Join(dir, "secrets.yaml") {
		t.Errorf("names %v file %q", c.Secrets.Names(), c.Secrets.File())
	}
	if v, _ := c.Secrets.Lookup("PIN"); v != "0042" {
		t.Errorf("PIN = %q: values are taken as written", v)
	}

	// No secrets file: nil.
	c, _ = mustLoad(t, "{}\n")
	if c.Secrets != nil {
		t.Errorf("Secrets = %v", c.Secrets)
	}

	// --secrets: relative to the working directory, and required.
	dir, o := testDir(t, map[string]string{"cfg/onetool.yaml": "servers: {x: {url: \"${URL}\"}}\n", "private/s.yaml": "URL: https://h/mcp\n"}, nil)
	o.SecretsPath = "private/s.yaml"
	c, err = Load(filepath.Join(dir, "cfg/onetool.yaml"), o)
	if err != nil || c.Servers["x"].URL != "https://h/mcp" {
		t.Fatalf("%v %v", c, err)
	}
	o.SecretsPath = "private/missing.yaml"
	if _, err = Load(filepath.Join(dir, "cfg/onetool.yaml"), o); err == nil || !strings.Contains(err.Error(), "private/missing.yaml: cannot read the secrets file") {
		t.Errorf("missing --secrets: %v", err)
	}
	// Without a config file, --secrets still loads (for redaction).
	o.SecretsPath = "private/s.yaml"
	c, err = Load("", o)
	if err != nil || !reflect.DeepEqual(c.Secrets.Names(), []string{"URL"}) {
		t.Errorf("%v %v", c, err)
	}
}

func TestSecretsFileProblems(t *testing.T) {
	tests := []struct{ secrets, want string }{
		{"- a\n", "secrets.yaml:1: a secrets file is a mapping of NAME: value, got a list"},
		{"TOKEN: {a: hidden-value}\n", "secrets.yaml:1: TOKEN: want a string value, got a mapping"},
		{"TOKEN:\n", "secrets.yaml:1: TOKEN: want a string value, got null"},
		{"my-token: x\n", "secrets.yaml:1: my-token: a secret name is letters, digits and _, not starting with a digit, so that ${my-token} can name it"},
		{"A: [\n", "secrets.yaml:1: YAML syntax error: did not find expected node content"},
	}
	for _, tt := range tests {
		_, _, err := loadYAML(t, "{}\n", map[string]string{"secrets.yaml": tt.secrets}, nil)
		wantProblems(t, err, tt.want)
		if err != nil && strings.Contains(err.Error(), "hidden-value") {
			t.Errorf("a secret value is shown: %v", err)
		}
	}
}

func TestSecretNotShownInErrors(t *testing.T) {
	_, _, err := loadYAML(t, "limits:\n  max_steps: ${TOKEN}\nservers:\n  x: {url: \"${TOKEN}\"}\n",
		map[string]string{"secrets.yaml": "TOKEN: hunter2-secret\n"}, nil)
	wantProblems(t, err,
		`onetool.yaml:2: limits.max_steps: want an integer, got "[secret:TOKEN]"`,
		`onetool.yaml:4: servers.x.url: want an http:// or https:// URL`)
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("secret in error: %v", err)
	}
}
