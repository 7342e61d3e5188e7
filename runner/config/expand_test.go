package config

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"
)

func TestExpand(t *testing.T) {
	x := &expander{
		secrets:   newSecrets("", map[string]string{"TOKEN": "s3cret-value", "SHARED": "from-secrets", "EMPTY_SECRET": ""}),
		lookupEnv: env{"HOME_DIR": "/home/u", "SHARED": "from-env", "EMPTY": "", "NESTED": "${TOKEN}"}.lookup,
	}
	// masked hides secrets and values from the environment (messages,
	// secret places); shown only secrets (where a value is not a
	// credential, see decoder.shown). When shown is "", it is masked.
	tests := []struct {
		in, value, masked, shown, err string
	}{
		{in: "plain", value: "plain", masked: "plain"},
		{in: "${HOME_DIR}/x", value: "/home/u/x", masked: "[secret:HOME_DIR]/x", shown: "/home/u/x"},
		{in: "Bearer ${TOKEN}", value: "Bearer s3cret-value", masked: "Bearer [secret:TOKEN]"},
		{in: "${SHARED}", value: "from-secrets", masked: "[secret:SHARED]"}, // secrets before the environment
		{in: "${UNSET:-fallback}", value: "fallback", masked: "fallback"},
		{in: "${EMPTY:-fallback}", value: "fallback", masked: "fallback"}, // :- also replaces empty values
		{in: "${EMPTY}", value: "", masked: ""},                           // nothing to hide
		{in: "${EMPTY_SECRET:-d}", value: "d", masked: "d"},
		{in: "${UNSET:-}", value: "", masked: ""},
		{in: "${UNSET:-${HOME_DIR}}", value: "/home/u", masked: "[secret:HOME_DIR]", shown: "/home/u"},
		{in: "${UNSET:-${TOKEN}}", value: "s3cret-value", masked: "[secret:TOKEN]"},
		{in: "${TOKEN}@${HOME_DIR}", value: "s3cret-value@/home/u", masked: "[secret:TOKEN]@[secret:HOME_DIR]", shown: "[secret:TOKEN]@/home/u"},
		{in: "${UNSET:-a:-b}", value: "a:-b", masked: "a:-b"},
		{in: "$${HOME_DIR}", value: "${HOME_DIR}", masked: "${HOME_DIR}"},
		{in: "$$${HOME_DIR}", value: "$${HOME_DIR}", masked: "$${HOME_DIR}"},
		{in: "cost: $5 and $", value: "cost: $5 and $", masked: "cost: $5 and $"},
		{in: "$HOME_DIR", value: "$HOME_DIR", masked: "$HOME_DIR"},                         // only the braced form expands
		{in: "${NESTED}", value: "${TOKEN}", masked: "[secret:NESTED]", shown: "${TOKEN}"}, // values are not expanded again
		{in: "${UNSET:-x}}", value: "x}", masked: "x}"},
		{in: "${UNSET}", err: "variable ${UNSET} is not set: define it in secrets.yaml or the environment, or give a default: ${UNSET:-value}"},
		{in: "abc ${HOME_DIR", err: "unterminated ${ (no closing }); write $${ for a literal ${"},
		{in: "${}", err: `"" is not a variable name: want ${NAME} or ${NAME:-default}, NAME made of letters, digits and _`},
		{in: "${A B}", err: `"A B" is not a variable name: want ${NAME} or ${NAME:-default}, NAME made of letters, digits and _`},
		{in: "${1A}", err: `"1A" is not a variable name`},
		{in: strings.Repeat("${U:-", 20) + strings.Repeat("}", 20), err: "${...} nested more than 8 deep"},
	}
	for _, tt := range tests {
		got, err := x.expand(tt.in)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("%q: err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if tt.shown == "" {
			tt.shown = tt.masked
		}
		if got.value != tt.value || got.masked != tt.masked || got.shown != tt.shown {
			t.Errorf("%q → %q (masked %q, shown %q), want %q (masked %q, shown %q)", tt.in, got.value, got.masked, got.shown, tt.value, tt.masked, tt.shown)
		}
	}
}

// TestEscapeRoundTrip: escaped text expands back to itself.
func TestEscapeRoundTrip(t *testing.T) {
	x := &expander{}
	for _, s := range []string{"", "${A}", "$${A}", "$$${", "$", "a$", "${", "$$", "x${y}z${", "}${:-}"} {
		got, err := x.expand(escapeDollar(s))
		if err != nil || got.value != s {
			t.Errorf("%q → %q → %q, %v", s, escapeDollar(s), got.value, err)
		}
	}
}

func TestExpansionInConfig(t *testing.T) {
	c, _, err := loadYAML(t, `
limits:
  max_steps: ${STEPS}
  timeout: ${TIMEOUT:-45s}
  max_parallel: ${UNSET:-3}
servers:
  gh:
    url: ${GH_URL:-https://api.github.com/mcp}
    headers:
      Authorization: Bearer ${GH_TOKEN}
    enabled: ${GH_ON:-false}
    description: "costs $${PRICE}"
snippets:
  s:
    description: for ${USER_NAME}
    params:
      p: {default: "${USER_NAME}"}
    body: |
      x = "${NOT_EXPANDED}"
      y = "$${kept}"
projects:
  home: ${HOMEDIR}/src
packs:
  web:
    api_key: ${GH_TOKEN}
    list: ["${USER_NAME}"]
`, map[string]string{"secrets.yaml": "GH_TOKEN: ghp_abcdef123\n"}, env{"STEPS": "500", "USER_NAME": "ann", "HOMEDIR": "/home/ann"})
	if err != nil {
		t.Fatal(err)
	}
	// Unquoted values are typed after expansion.
	if *c.Limits.MaxSteps != 500 || *c.Limits.Timeout != Duration(45*time.Second) || *c.Limits.MaxParallel != 3 {
		t.Errorf("limits %+v", c.Limits)
	}
	gh := c.Servers["gh"]
	if gh.URL != "https://api.github.com/mcp" || gh.Headers["Authorization"] != "Bearer ghp_abcdef123" || gh.IsEnabled() || gh.Description != "costs ${PRICE}" {
		t.Errorf("gh = %+v", gh)
	}
	s := c.Snippets["s"]
	if s.Description != "for ann" || s.Params[0].Default != "ann" {
		t.Errorf("snippet description/default not expanded: %+v", s)
	}
	if s.Body != "x = \"${NOT_EXPANDED}\"\ny = \"$${kept}\"\n" {
		t.Errorf("snippet body must be kept as written, got %q", s.Body)
	}
	if c.Projects["home"] != "/home/ann/src" {
		t.Errorf("project %q", c.Projects["home"])
	}
	if c.Packs["web"].Settings["api_key"] != "ghp_abcdef123" || c.Packs["web"].Settings["list"].([]any)[0] != "ann" {
		t.Errorf("pack settings %v", c.Packs["web"].Settings)
	}
}

func TestExpansionProblems(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"servers:\n  gh:\n    url: ${GH_URL}\n", "onetool.yaml:3: servers.gh.url: variable ${GH_URL} is not set: define it in secrets.yaml or the environment, or give a default: ${GH_URL:-value}"},
		{"projects:\n  p: ${HOME\n", "onetool.yaml:2: projects.p: unterminated ${ (no closing }); write $${ for a literal ${"},
		{"limits:\n  max_steps: \"${N}\"\n", `onetool.yaml:2: limits.max_steps: want an integer, got "7"`}, // quoted: stays a string
		{"limits:\n  max_steps: ${UNSET_N:-many}\n", `onetool.yaml:2: limits.max_steps: want an integer, got "many"`},
	}
	for _, tt := range tests {
		_, _, err := loadYAML(t, tt.yaml, nil, env{"N": "7"})
		wantProblems(t, err, tt.want)
	}
}

// An unset ${NAME} names its variable in Error.Unset, so that a caller
// (onetool doctor) can tell it from other problems; every other problem
// leaves Unset empty.
func TestUnsetNamesTheVariable(t *testing.T) {
	_, _, err := loadYAML(t, "servers:\n  gh:\n    url: https://x.example/mcp\n    headers: {Authorization: \"Bearer ${GH_TOKEN}\"}\nprojects:\n  p: ${ROOT:-/tmp}/${SUB}\nlimits: {timout: 3s}\n", nil, nil)
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		t.Fatalf("want a joined error, got %v", err)
	}
	got := map[string]string{}
	for _, e := range joined.Unwrap() {
		var ce *Error
		if !errors.As(e, &ce) {
			t.Fatalf("not a *Error: %v", e)
		}
		got[ce.Key] = ce.Unset
	}
	want := map[string]string{"servers.gh.headers.Authorization": "GH_TOKEN", "projects.p": "SUB", "limits.timout": ""}
	if !maps.Equal(got, want) {
		t.Errorf("Unset by key = %v, want %v", got, want)
	}
}

// Every entry of a pack's settings, nested or in a list, has its line,
// for the problems a pack (or onetool doctor) finds with one entry.
func TestPackSettingEntriesHaveLines(t *testing.T) {
	c, _ := mustLoad(t, "packs:\n  db:\n    databases:\n      main: sqlite:app.db\n      logs: sqlite:logs.db\n    list: [a, b]\n")
	for key, want := range map[string]string{
		"packs.db.databases.logs": "onetool.yaml:5: packs.db.databases.logs",
		"packs.db.list[1]":        "onetool.yaml:6: packs.db.list[1]",
	} {
		if got := c.Where(key); got != want {
			t.Errorf("Where(%q) = %q, want %q", key, got, want)
		}
	}
}
