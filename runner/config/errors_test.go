package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProblems checks the exact message of every kind of mistake. File
// names are shown relative to the working directory (the test directory).
func TestProblems(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		// Unknown keys, with did-you-mean at every level.
		{"unknown top-level section", "limts: {}\n",
			[]string{"onetool.yaml:1: limts: unknown key; did you mean 'limits'?"}},
		{"unknown nested key", "limits:\n  timout: 5s\n",
			[]string{"onetool.yaml:2: limits.timout: unknown key; did you mean 'timeout'?"}},
		{"unknown server key", "servers:\n  gh:\n    comand: x\n",
			[]string{"onetool.yaml:3: servers.gh.comand: unknown key; did you mean 'command'?"}},
		{"unknown param key", "snippets:\n  s:\n    body: x\n    params:\n      p: {tpye: string}\n",
			[]string{"onetool.yaml:5: snippets.s.params.p.tpye: unknown key; did you mean 'type'?"}},
		{"unknown key, no close match", "serve:\n  zzzzzz: 1\n",
			[]string{"onetool.yaml:2: serve.zzzzzz: unknown key; valid keys here: auth, drain_timeout, http, idle_timeout, log_level, max_body, max_sessions, rate_limit, read_timeout, session_idle, session_memory, session_memory_total, session_state, stateless, structured_content"}},

		// Wrong types.
		{"string for integer", "limits:\n  max_steps: lots\n",
			[]string{`onetool.yaml:2: limits.max_steps: want an integer, got "lots"`}},
		{"quoted number stays a string", "limits:\n  max_parallel: \"4\"\n",
			[]string{`onetool.yaml:2: limits.max_parallel: want an integer, got "4"`}},
		{"fraction for integer", "output:\n  max_inline: 2.5\n",
			[]string{`onetool.yaml:2: output.max_inline: want an integer, got 2.5`}},
		{"mapping for list", "servers:\n  gh:\n    command: x\n    args: {a: b}\n",
			[]string{"onetool.yaml:4: servers.gh.args: want a list of strings, got a mapping"}},
		{"list item not a string", "servers:\n  gh:\n    command: x\n    args: [a, {b: c}]\n",
			[]string{"onetool.yaml:4: servers.gh.args[1]: want a string, got a mapping"}},
		{"list for mapping", "servers:\n  gh:\n    command: x\n    env: [A]\n",
			[]string{"onetool.yaml:4: servers.gh.env: want a mapping of strings, got a list"}},
		{"null env value", "servers:\n  gh:\n    command: x\n    env: {A: }\n",
			[]string{"onetool.yaml:4: servers.gh.env.A: want a string, got null"}},
		{"string for bool", "packs:\n  file:\n    read_only: yes\n",
			[]string{`onetool.yaml:3: packs.file.read_only: want true or false, got "yes"`}},
		{"list for section", "limits: [1]\n",
			[]string{"onetool.yaml:1: limits: want a mapping, got a list"}},
		{"scalar for servers", "servers: github\n",
			[]string{`onetool.yaml:1: servers: want a mapping of server names to settings, got "github"`}},
		{"scalar for a server", "servers:\n  gh: github\n",
			[]string{`onetool.yaml:2: servers.gh: want a mapping with command (stdio) or url (HTTP), got "github"`}},
		{"pack as list", "packs:\n  file: [a]\n",
			[]string{"onetool.yaml:2: packs.file: want a mapping of settings (or true/false), got a list"}},
		{"toolpacks as string", "toolpacks: packs\n",
			[]string{`onetool.yaml:1: toolpacks: want a list of paths, got "packs"`}},
		{"top level is a list", "- a\n- b\n",
			[]string{"onetool.yaml:1: the top level must be a mapping of sections (packs:, servers:, …), got a list"}},
		{"top level is a scalar", "hello\n",
			[]string{`onetool.yaml:1: the top level must be a mapping of sections (packs:, servers:, …), got "hello"`}},

		// Bad values.
		{"bad duration", "limits:\n  timeout: soon\n",
			[]string{`onetool.yaml:2: limits.timeout: want a duration such as "30s", "1m30s" or a number of seconds, got "soon"`}},
		{"negative duration", "limits:\n  timeout: -5s\n",
			[]string{`onetool.yaml:2: limits.timeout: a duration must not be negative, got "-5s"`}},
		{"zero timeout", "limits:\n  timeout: 0s\n",
			[]string{`onetool.yaml:2: limits.timeout: must be more than 0s, got "0s"`}},
		{"bad size", "limits:\n  max_memory: lots\n",
			[]string{`onetool.yaml:2: limits.max_memory: want a size such as 1048576, "512KiB", "1MiB" or "1.5MB", got "lots"`}},
		{"ambiguous size unit", "limits:\n  max_memory: 512M\n",
			[]string{`onetool.yaml:2: limits.max_memory: ambiguous unit "M": write MB (powers of 1000) or MiB (powers of 1024), got "512M"`}},
		{"zero limit", "limits:\n  max_parallel: 0\n",
			[]string{"onetool.yaml:2: limits.max_parallel: must be at least 1, got 0"}},
		{"store neither memory nor redis", "version: 1\nstore: memcached://cache:11211\n",
			[]string{`onetool.yaml:2: store: store "memcached://cache:11211" is neither memory nor a redis:// URL: use "memory" or a Redis URL such as redis://host:6379/0`}},
		{"store with a bad Redis database", "store: redis://:hunter2@redis:6379/x\n",
			[]string{`onetool.yaml:1: store: store "redis://:xxxxx@redis:6379/x" names database "x"; a Redis database is a number from 0 to 15: use "memory" or a Redis URL such as redis://host:6379/0`}},
		{"store not a string", "store: [redis]\n",
			[]string{"onetool.yaml:1: store: want a string, got a list"}},
		{"bad isolation", "isolation: docker\n",
			[]string{`onetool.yaml:1: isolation: want "process" (workers with a hard memory limit), "none" (in the server's process) or nothing (the default: process for an HTTP server with more than one principal, else none), got "docker"`}},
		{"bad log level", "serve:\n  log_level: warning\n",
			[]string{`onetool.yaml:2: serve.log_level: want one of debug, info, warn, error, got "warning"; did you mean 'warn'?`}},
		{"zero drain timeout", "serve:\n  drain_timeout: 0s\n",
			[]string{`onetool.yaml:2: serve.drain_timeout: must be more than 0s, got "0s"`}},
		{"zero rate limit", "serve:\n  rate_limit: {runs_per_minute: 0}\n",
			[]string{`onetool.yaml:2: serve.rate_limit.runs_per_minute: must be at least 1, got 0`}},
		{"rate limit typo", "serve:\n  rate_limit: {concurent: 8}\n",
			[]string{`onetool.yaml:2: serve.rate_limit.concurent: unknown key; did you mean 'concurrent'?`}},
		{"bad http address", "serve:\n  http: localhost\n",
			[]string{`onetool.yaml:2: serve.http: want a listen address such as "127.0.0.1:8080" or ":8080", got "localhost"`}},
		{"bad version", "version: 2\n",
			[]string{"onetool.yaml:1: version: unsupported version 2: this onetool reads version 1"}},
		{"bad param type", "snippets:\n  s:\n    body: x\n    params:\n      p: {type: int}\n",
			[]string{`onetool.yaml:5: snippets.s.params.p.type: want one of string, integer, number, boolean, got "int"; did you mean 'integer'?`}},
		{"default does not match type", "snippets:\n  s:\n    body: x\n    params:\n      n: {type: integer, default: five}\n      b: {type: boolean, default: 1}\n      f: {type: number, default: \"1.5\"}\n",
			[]string{
				`onetool.yaml:5: snippets.s.params.n.default: the parameter's type is integer: want an integer, got "five"`,
				`onetool.yaml:6: snippets.s.params.b.default: want true or false, got 1`,
				`onetool.yaml:7: snippets.s.params.f.default: the parameter's type is number: want a number, got "1.5"`,
			}},
		{"snippet without body", "snippets:\n  s:\n    description: x\n",
			[]string{"onetool.yaml:2: snippets.s: needs a body: the template that produces the code"}},
		{"snippet with empty body", "snippets:\n  s:\n    body: \"  \"\n",
			[]string{"onetool.yaml:3: snippets.s.body: must not be empty"}},
		{"bad snippet name", "snippets:\n  \"a b\": {body: x}\n",
			[]string{"onetool.yaml:2: snippets.a b: a snippet name is letters, digits, _ and -, starting with a letter or _ (it is invoked as $name)"}},
		{"server with both", "servers:\n  x:\n    command: a\n    url: http://h\n",
			[]string{"onetool.yaml:2: servers.x: has both command and url: give command for a stdio server or url for an HTTP server, not both"}},
		{"server with neither", "servers:\n  x:\n    description: d\n",
			[]string{"onetool.yaml:2: servers.x: needs command (a stdio server) or url (an HTTP server)"}},
		{"stdio key on an HTTP server", "servers:\n  x:\n    url: https://h/mcp\n    args: [a]\n",
			[]string{"onetool.yaml:4: servers.x.args: applies to stdio servers (command), but this server has a url"}},
		{"HTTP key on a stdio server", "servers:\n  x:\n    command: a\n    headers: {A: b}\n",
			[]string{"onetool.yaml:4: servers.x.headers: applies to HTTP servers (url), but this server has a command"}},
		{"bad url", "servers:\n  x:\n    url: ftp://h\n",
			[]string{`onetool.yaml:3: servers.x.url: want an http:// or https:// URL, got "ftp://h"`}},
		{"empty command", "servers:\n  x:\n    command: \"\"\n",
			[]string{"onetool.yaml:3: servers.x.command: must not be empty"}},
		{"server names that become one pack", "servers:\n  my-x: {command: a}\n  my_x: {command: b}\n",
			[]string{`onetool.yaml:3: servers.my_x: becomes pack "my_x", like server "my-x": rename one`}},
		{"bad server name", "servers:\n  \"1x\": {command: a}\n",
			[]string{"onetool.yaml:2: servers.1x: a server name is letters, digits, _ and -, starting with a letter or _"}},
		{"alias name not an identifier", "aliases:\n  web-search: web.search\n",
			[]string{"onetool.yaml:2: aliases.web-search: an alias name must be an identifier (letters, digits and _, not starting with a digit, not a keyword)"}},
		{"alias name is a keyword", "aliases:\n  for: web.search\n",
			[]string{"onetool.yaml:2: aliases.for: an alias name must be an identifier (letters, digits and _, not starting with a digit, not a keyword)"}},
		{"alias target empty", "aliases:\n  a: \"\"\n",
			[]string{`onetool.yaml:2: aliases.a: want a tool id such as web.search, got ""`}},
		{"alias cycle", "aliases:\n  b: a\n  a: b\n  c: a\n",
			[]string{"onetool.yaml:3: aliases.a: alias cycle: a → b → a"}},
		{"alias self cycle", "aliases:\n  a: a\n",
			[]string{"onetool.yaml:2: aliases.a: alias cycle: a → a"}},
		{"long alias cycle", "aliases:\n  c: a\n  a: b\n  b: c\n",
			[]string{"onetool.yaml:3: aliases.a: alias cycle: a → b → c → a"}},
		{"project ~user", "projects:\n  p: ~bob/src\n",
			[]string{`onetool.yaml:2: projects.p: "~bob/src" is not absolute after expansion: only ~ and ~/… are expanded, not ~user`}},
		{"project empty", "projects:\n  p: \"\"\n",
			[]string{"onetool.yaml:2: projects.p: want a path, got an empty string"}},
		{"project name", "projects:\n  my-api: /x\n",
			[]string{"onetool.yaml:2: projects.my-api: a project name must be an identifier (it is used as proj.my-api)"}},
		{"pack name", "packs:\n  my-pack: {}\n",
			[]string{"onetool.yaml:2: packs.my-pack: a pack name is letters, digits and _, not starting with a digit"}},

		// YAML itself.
		{"syntax error", "limits:\n  timeout: a: b\n",
			[]string{"onetool.yaml:2: YAML syntax error: mapping values are not allowed in this context"}},
		{"tab indentation", "limits:\n\ttimeout: 1\n",
			[]string{"onetool.yaml:2: YAML syntax error: a tab in the indentation; YAML allows only spaces there: indent with spaces"}},
		{"duplicate key", "limits:\n  timeout: 1s\n  timeout: 2s\n",
			[]string{"onetool.yaml:3: limits.timeout: duplicate key (first written at line 2)"}},
		{"two documents", "limits: {}\n---\nserve: {}\n",
			[]string{"onetool.yaml:2: a second YAML document (after ---): a configuration file holds one"}},
		{"unknown anchor", "limits: *nope\n",
			[]string{"onetool.yaml: YAML syntax error: unknown anchor 'nope' referenced"}},
		{"self-referencing anchor", "x-a: &a [*a]\n",
			[]string{"onetool.yaml:1: x-a[0]: alias *a refers to a value that contains it"}},
		{"custom tag", "isolation: !env X\n",
			[]string{"onetool.yaml:1: isolation: unsupported YAML tag !env"}},
		{"complex key", "? [a]\n: b\n",
			[]string{"onetool.yaml:1: a key must be a plain name, not a list"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadYAML(t, tt.yaml, nil, nil)
			wantProblems(t, err, tt.want...)
		})
	}
}

// TestAllProblemsAtOnce: a load reports every problem, sorted by line.
func TestAllProblemsAtOnce(t *testing.T) {
	_, _, err := loadYAML(t, `limts: {}
limits:
  max_steps: lots
servers:
  gh: {comand: x}
isolation: vm
`, nil, nil)
	got := problems(t, err)
	want := []string{
		"onetool.yaml:1: limts: unknown key; did you mean 'limits'?",
		`onetool.yaml:3: limits.max_steps: want an integer, got "lots"`,
		"onetool.yaml:5: servers.gh: needs command (a stdio server) or url (an HTTP server)",
		"onetool.yaml:5: servers.gh.comand: unknown key; did you mean 'command'?",
		`onetool.yaml:6: isolation: want "process" (workers with a hard memory limit), "none" (in the server's process) or nothing (the default: process for an HTTP server with more than one principal, else none), got "vm"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Line != 1 || ce.Key != "limts" || ce.Column != 1 || !filepath.IsAbs(ce.File) {
		t.Errorf("first *Error = %+v", ce)
	}
}

func TestProblemsAreCapped(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "bad%d: 1\n", i)
	}
	_, _, err := loadYAML(t, b.String(), nil, nil)
	got := problems(t, err)
	if len(got) != maxErrors+1 || got[maxErrors] != "150 more problems not shown" {
		t.Errorf("%d problems, last %q", len(got), got[len(got)-1])
	}
}

func TestErrorFormat(t *testing.T) {
	cause := os.ErrPermission
	tests := []struct {
		e    *Error
		want string
	}{
		{&Error{File: "/a/onetool.yaml", Line: 12, Key: "limits.timout", Msg: "unknown key"}, "/a/onetool.yaml:12: limits.timout: unknown key"},
		{&Error{File: "/a/onetool.yaml", Msg: "cannot read", Err: cause}, "/a/onetool.yaml: cannot read: permission denied"},
		{&Error{File: "/a/x.yaml", Err: cause}, "/a/x.yaml: permission denied"},
		{&Error{Msg: "3 more problems not shown"}, "3 more problems not shown"},
		{shownFrom("/a", &Error{File: "/a/b/onetool.yaml", Line: 1, Msg: "m"}), "b/onetool.yaml:1: m"},
		{shownFrom("/a/b/c/d/e/f", &Error{File: "/x.yaml", Line: 1, Msg: "m"}), "/x.yaml:1: m"}, // ../../.. is longer
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if !errors.Is(&Error{Err: cause}, os.ErrPermission) {
		t.Error("Unwrap does not reach the cause")
	}
}

func TestHostileInput(t *testing.T) {
	laughs := "x-a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		laughs += fmt.Sprintf("x-%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	tests := []struct {
		name, yaml, want string
	}{
		{"billion laughs", laughs, "more than 100000 values after expanding YAML aliases"},
		{"deep nesting", "x-deep: " + deep + "\n", "nested more than 64 levels deep"},
		{"too big", "x-big: \"" + strings.Repeat("a", maxFileSize) + "\"\n", "larger than the 1048576 bytes a configuration file may have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadYAML(t, tt.yaml, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
