package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// envFile uses variables of the environment in every kind of place: where
// a value is a credential (url, headers, args, env, a pack's settings, the
// store, a token) and where it is not (paths, numbers, switches, names,
// addresses, descriptions).
const envFile = `
servers:
  api:
    url: https://mcp.example.com/${URL_KEY}/mcp?team=${TEAM}
    headers: {Authorization: "Bearer ${API_TOKEN}", X-Key: "${SHORT_KEY}"}
    description: "API of ${TEAM_NAME}"
    timeout: ${TIMEOUT}
  local:
    command: ${TOOLS}/server
    args: ["--key", "${CLI_KEY}", "--port", "${PORT}"]
    env: {DB_PASS: "${DB_PASS}"}
    cwd: ${WORKDIR}
packs:
  file: {allowed_dirs: ["${WORKDIR}/data"]}
  web: {api_key: "${WEB_KEY}"}
store: redis://:${REDIS_PASS}@localhost:6379/0
limits:
  max_steps: ${STEPS}
serve:
  http: 127.0.0.1:${PORT}
  auth:
    tokens: [{name: "${PRINCIPAL}", token: "${ALICE_TOKEN}", policy: all}]
policies:
  all: {allow: ["*"]}
`

var envValues = env{
	"URL_KEY":     "zap-8c1f2e3d4b5a6978",
	"TEAM":        "blue",
	"API_TOKEN":   "ghp_fromTheEnvironment42",
	"TEAM_NAME":   "Team Blue",
	"TIMEOUT":     "45",
	"TOOLS":       "/opt/tools",
	"CLI_KEY":     "cli-9f8e7d6c5b4a",
	"PORT":        "8080",
	"DB_PASS":     "hunter2-but-longer",
	"WORKDIR":     "/srv/work",
	"WEB_KEY":     "wk_live_0011223344",
	"REDIS_PASS":  "r3d1s-pass-word",
	"STEPS":       "5000",
	"PRINCIPAL":   "alice",
	"ALICE_TOKEN": "tok-alice-aaaabbbbcccc",
	"SHORT_KEY":   "s3cr3t",
}

// SPEC §8.3: values from the environment are secrets like those of
// secrets.yaml where the configuration uses them as credentials: masked in
// the effective configuration and redacted from output; where it uses
// them as paths, numbers, names or addresses they are shown, and not
// searched for in output.
func TestEnvironmentValuesAreSecrets(t *testing.T) {
	c, _, err := loadYAML(t, envFile, nil, envValues)
	if err != nil {
		t.Fatal(err)
	}
	eff := string(c.Effective())
	for _, name := range []string{"URL_KEY", "API_TOKEN", "CLI_KEY", "DB_PASS", "WEB_KEY", "REDIS_PASS", "ALICE_TOKEN", "TEAM"} {
		if v := envValues[name]; strings.Contains(eff, v) && name != "TEAM" {
			t.Errorf("the effective configuration shows %s (%s):\n%s", name, v, eff)
		}
		if !strings.Contains(eff, "[secret:"+name+"]") && name != "TEAM" {
			t.Errorf("no [secret:%s] in:\n%s", name, eff)
		}
	}
	for _, shown := range []string{
		"/opt/tools/server", "cwd: /srv/work", "/srv/work/data", "max_steps: 5000", "timeout: 45s",
		"http: 127.0.0.1:8080", "API of Team Blue", "name: alice",
	} {
		if !strings.Contains(eff, shown) {
			t.Errorf("the effective configuration does not show %q:\n%s", shown, eff)
		}
	}
	if !strings.Contains(eff, "# Secrets (values hidden) from the environment: ") {
		t.Errorf("no header naming the variables:\n%s", eff)
	}
	// The url hides its key (a secret in its path) and its query values.
	if want := "url: https://mcp.example.com/[secret:URL_KEY]/mcp?team=xxxxx"; !strings.Contains(eff, want) {
		t.Errorf("want %q in:\n%s", want, eff)
	}

	// Redacted from output: the credentials, of eight characters or more
	// where a value may be something else (a URL, an argument), of any
	// length the file's secrets are where a value is nothing but a
	// credential (a header). Not: values only used as paths or numbers,
	// and short values elsewhere ("8080", used as an argument too, is a
	// port far more often than a secret).
	names := c.Secrets.EnvNames()
	for _, name := range []string{"URL_KEY", "API_TOKEN", "CLI_KEY", "DB_PASS", "WEB_KEY", "REDIS_PASS", "ALICE_TOKEN", "SHORT_KEY"} {
		if !slices.Contains(names, name) {
			t.Errorf("%s is not a secret: %v", name, names)
		}
		if got := c.Secrets.Redact("x " + envValues[name] + " y"); got != "x [secret:"+name+"] y" {
			t.Errorf("Redact of %s: %q", name, got)
		}
	}
	for _, name := range []string{"TOOLS", "WORKDIR", "STEPS", "TIMEOUT", "TEAM_NAME", "PRINCIPAL"} {
		if slices.Contains(names, name) {
			t.Errorf("%s, used only where a value is not a credential, is a secret", name)
		}
	}
	for _, plain := range []string{"/srv/work/data/report.txt", "port 8080", "team blue"} {
		if got := c.Secrets.Redact(plain); got != plain {
			t.Errorf("Redact(%q) = %q", plain, got)
		}
	}
	if s := c.Secrets.String(); strings.Contains(s, "hunter2") || !strings.Contains(s, "DB_PASS") {
		t.Errorf("String = %q", s)
	}
}

// A value from the environment that is also used as a credential is a
// secret everywhere, even where it is also used as a path.
func TestEnvironmentValueUsedTwice(t *testing.T) {
	c, _, err := loadYAML(t, `
servers:
  s: {command: run, args: ["${SHARED_VALUE}"], cwd: "${SHARED_VALUE}"}
`, nil, env{"SHARED_VALUE": "/srv/shared-key-1234"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Secrets.Redact("/srv/shared-key-1234/x"); got != "[secret:SHARED_VALUE]/x" {
		t.Errorf("Redact = %q", got)
	}
}

// Configuration errors never show a value from the environment, wherever
// it is used, whatever the message quotes.
func TestEnvironmentValuesNotInErrors(t *testing.T) {
	for _, tt := range []struct{ file, value string }{
		{"limits:\n  max_steps: ${V}\n", "not-a-number-but-a-token"},
		{"servers: {s: {url: '${V}'}}\n", "ftp://user:pw@example.com/token-9988776655"},
		{"servers: {s: {url: 'ftp://h/${V}'}}\n", "token-9988776655"},
		{"serve: {http: '${V}'}\n", "not an address, a token 12345"},
		{"policies: {p: {allow: ['${V}']}}\n", "[bad-glob-token-1234"},
		{"serve: {auth: {tokens: [{name: '${V}', token: x}]}}\n", "bad name with spaces 1234"},
		{"serve: {auth: {oauth: {issuer: '${V}', audience: 'https://a.example', default_policy: p}}}\npolicies: {p: {allow: ['*']}}\n", "http://issuer.example/?t=secret-123456"},
		{"isolation: '${V}'\n", "not-an-isolation-token"},
		{"projects: {p: '${V}'}\n", "~nosuchuser-token-1234/x"},
	} {
		_, _, err := loadYAML(t, tt.file, nil, env{"V": tt.value})
		if err == nil {
			t.Errorf("%s: no error", tt.file)
			continue
		}
		if strings.Contains(err.Error(), tt.value) || strings.Contains(err.Error(), "token-") {
			t.Errorf("%s: the error shows the value: %v", tt.file, err)
		}
	}
	// Nor do the problems that code using the configuration finds.
	c, _, err := loadYAML(t, "packs: {web: {api_key: '${V}'}}\n", nil, env{"V": "wk-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	p := c.Problem("packs.web.api_key", "bad key %q", "wk-0123456789")
	if errors.As(p, &e); strings.Contains(p.Error(), "wk-0123456789") || !strings.Contains(p.Error(), "[secret:V]") {
		t.Errorf("Problem: %v", p)
	}
}

func TestShownURL(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/mcp"},
		{"https://user:pa55word@mcp.example.com/mcp", "https://user:xxxxx@mcp.example.com/mcp"},
		{"https://user@mcp.example.com/mcp", "https://user@mcp.example.com/mcp"},
		{"https://mcp.example.com/sse?api_key=abc123&x=&flag", "https://mcp.example.com/sse?api_key=xxxxx&x=&flag"},
		{"https://mcp.example.com/a?k=v#frag", "https://mcp.example.com/a?k=xxxxx#frag"},
		{"https://mcp.example.com/${KEY}/sse", "https://mcp.example.com/[secret:KEY]/sse"},
		{"https://u:${KEY}@mcp.example.com/", "https://u:xxxxx@mcp.example.com/"},
	} {
		c, _, err := loadYAML(t, "servers: {s: {url: '"+tt.url+"'}}\n", nil, env{"KEY": "zap-0123456789"})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.ShownURL("s"); got != tt.want {
			t.Errorf("ShownURL(%q) = %q, want %q", tt.url, got, tt.want)
		}
		if eff := string(c.Effective()); !strings.Contains(eff, "url: "+tt.want) {
			t.Errorf("effective configuration of %q:\n%s", tt.url, eff)
		}
	}
	if got := Default().ShownURL("none"); got != "" {
		t.Errorf("no server: %q", got)
	}
}

// Secrets of secrets.yaml and of the environment together: the header
// names both, each its own source.
func TestEffectiveNamesBothSources(t *testing.T) {
	c, dir, err := loadYAML(t, "servers: {s: {url: 'https://h/x', headers: {A: '${FILE_TOKEN}', B: '${ENV_TOKEN}'}}}\n",
		map[string]string{"secrets.yaml": "FILE_TOKEN: from-the-file-1234\n"}, env{"ENV_TOKEN": "from-the-env-5678"})
	if err != nil {
		t.Fatal(err)
	}
	eff := string(c.Effective())
	for _, want := range []string{
		"# Secrets (values hidden) from " + filepath.Join(dir, "secrets.yaml") + ": FILE_TOKEN\n",
		"# Secrets (values hidden) from the environment: ENV_TOKEN\n",
		"A: '[secret:FILE_TOKEN]'", "B: '[secret:ENV_TOKEN]'",
	} {
		if !strings.Contains(eff, want) {
			t.Errorf("want %q in:\n%s", want, eff)
		}
	}
	if got := c.Secrets.Redact("from-the-file-1234 from-the-env-5678"); got != "[secret:FILE_TOKEN] [secret:ENV_TOKEN]" {
		t.Errorf("Redact = %q", got)
	}
}

// An include's path is a path: its variables are not secrets. An error
// about it still does not show their values.
func TestEnvironmentInIncludes(t *testing.T) {
	dir, o := testDir(t, map[string]string{
		"team/team.yaml": "limits: {max_tool_calls: 5}\n",
		"onetool.yaml":   "include: ['${PROFILE_DIR}/team.yaml']\n",
	}, nil)
	o.LookupEnv = env{"PROFILE_DIR": filepath.Join(dir, "team")}.lookup
	c, err := Load(filepath.Join(dir, "onetool.yaml"), o)
	if err != nil {
		t.Fatal(err)
	}
	if names := c.Secrets.EnvNames(); len(names) != 0 || *c.Limits.MaxToolCalls != 5 {
		t.Errorf("env secrets %v, limits %+v", names, c.Limits)
	}
	_, _, err = loadYAML(t, "include: ['${P}']\n", nil, env{"P": "/nonexistent/token-1234.yaml"})
	if err == nil || strings.Contains(err.Error(), "token-1234") {
		t.Errorf("error: %v", err)
	}
}

// TestWithCredentials: the variables a command toolpack passes through
// are added as credentials: redacted from four characters, beside those
// already known, which keep how they were; secrets.yaml's value of a name
// stays the one; the Secrets given is not changed.
func TestWithCredentials(t *testing.T) {
	c, _, err := loadYAML(t, envFile, nil, envValues)
	if err != nil {
		t.Fatal(err)
	}
	before := c.Secrets
	s := before.WithCredentials(map[string]string{"TP_TOKEN": "tpOnlySecret444", "TP_PIN": "4821", "PORT": "8080"})
	for text, want := range map[string]string{
		"x tpOnlySecret444 y":       "x [secret:TP_TOKEN] y",
		"pin 4821":                  "pin [secret:TP_PIN]",
		"port 8080":                 "port [secret:PORT]", // passed to a command as a credential now
		"ghp_fromTheEnvironment42":  "[secret:API_TOKEN]",
		"/srv/work/data/report.txt": "/srv/work/data/report.txt",
	} {
		if got := s.Redact(text); got != want {
			t.Errorf("Redact(%q) = %q, want %q", text, got, want)
		}
	}
	if got := before.Redact("x tpOnlySecret444 4821"); got != "x tpOnlySecret444 4821" {
		t.Errorf("the Secrets given changed: %q", got)
	}
	if !slices.Contains(s.EnvNames(), "TP_TOKEN") || strings.Contains(s.String(), "tpOnly") {
		t.Errorf("names %v, String %q", s.EnvNames(), s.String())
	}
	var nilSecrets *Secrets
	if got := nilSecrets.WithCredentials(map[string]string{"TP_TOKEN": "tpOnlySecret444"}).Redact("tpOnlySecret444"); got != "[secret:TP_TOKEN]" {
		t.Errorf("from no secrets: %q", got)
	}
	if nilSecrets.WithCredentials(nil) != nil {
		t.Error("nothing added: not the same")
	}
}
