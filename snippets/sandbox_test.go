package snippets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretFile writes a file whose content must never appear in any result.
func secretFile(t *testing.T) (path, secret string) {
	t.Helper()
	secret = "TOP-SECRET-7f3a"
	path = filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, secret
}

func TestSandboxRefusesTags(t *testing.T) {
	path, secret := secretFile(t)
	rel, _ := filepath.Rel(".", path)
	tests := []struct{ tag, body string }{
		{"include", `{% include "` + path + `" %}`},
		{"include", `{% include "` + rel + `" %}`},
		{"include", `{% include "../../../../../../etc/passwd" %}`},
		{"include", `{% include v %}`},
		{"extends", `{% extends "` + path + `" %}`},
		{"import", `{% import "` + path + `" m %}`},
		{"ssi", `{% ssi "` + path + `" %}`},
		{"ssi", `{% ssi "` + path + `" parsed %}`},
		{"macro", `{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}`},
		{"cycle", `{% for x in v|split %}{% cycle "a" "b" %}{% endfor %}`},
		{"ifchanged", `{% for x in v|split %}{% ifchanged %}{{ x }}{% endifchanged %}{% endfor %}`},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			body := "x = 1\n" + tt.body
			_, err := Compile([]Snippet{{Name: "bad", Params: []Param{{Name: "v"}}, Body: body}})
			if err == nil {
				t.Fatalf("Compile accepted %q", tt.body)
			}
			want := "snippet 'bad': template error at line 2: the {% " + tt.tag + " %} tag is not allowed in snippets: "
			if !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error\n got %q\nwant prefix %q", err, want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error leaks the file: %v", err)
			}
		})
	}
}

// TestSandboxNoFileAccess goes around the tag bans: the template set's loader
// itself must refuse every path, relative, absolute or crafted.
func TestSandboxNoFileAccess(t *testing.T) {
	path, secret := secretFile(t)
	ts, err := newTemplateSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, "secret.txt", "../" + filepath.Base(path), "/etc/passwd", "file://" + path, "", "."} {
		tpl, err := ts.FromFile(p)
		if err == nil {
			out, _ := tpl.Execute(nil)
			t.Fatalf("FromFile(%q) worked: %q", p, out)
		}
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("FromFile(%q) error leaks the file: %v", p, err)
		}
		if _, err := (noFiles{}).Get(p); err == nil {
			t.Fatalf("loader Get(%q) did not refuse", p)
		}
	}
}

// TestSandboxPathInValueIsText: a path handed in as a value is only text.
func TestSandboxPathInValueIsText(t *testing.T) {
	path, secret := secretFile(t)
	set := mustCompile(t, []Snippet{{Name: "p", Params: []Param{{Name: "v"}}, Body: `{{ v }} {{ v|starlark }}`}})
	out, err := set.Expand(`$p v="` + path + `"`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, secret) || !strings.HasPrefix(out, path) {
		t.Fatalf("output %q", out)
	}
	// A value that looks like template code is not evaluated either.
	out, err = set.Expand(`$p v="{% include '` + path + `' %}"`)
	if err != nil || strings.Contains(out, secret) || !strings.HasPrefix(out, "{% include") {
		t.Fatalf("output %q, %v", out, err)
	}
}

func TestAutoescapeOff(t *testing.T) {
	set := mustCompile(t, []Snippet{{Name: "e", Params: []Param{{Name: "v"}}, Body: `{{ v }}|{{ v|lower }}|{% filter upper %}{{ v }}{% endfilter %}`}})
	out, err := set.Expand(`$e v='<a href="x">&amp;</a>'`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `<a href="x">&amp;</a>|<a href="x">&amp;</a>|<A HREF="X">&AMP;</A>`; out != want {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}

// TestBodyLineNumbers: the hidden autoescape wrapper must not shift lines.
func TestBodyLineNumbers(t *testing.T) {
	for _, tt := range []struct {
		body string
		line string
	}{
		{"{{ v|nosuch }}", "line 1:"},
		{"\n\n{{ v|nosuch }}", "line 3:"},
		{"a\nb\n{% for x in %}\nc", "line 3:"},
		{"a\n{% if v %}\nb\n", "line 3:"}, // unclosed: reported at the body's end
	} {
		_, err := Compile([]Snippet{{Name: "l", Params: []Param{{Name: "v"}}, Body: tt.body}})
		if err == nil || !strings.Contains(err.Error(), "template error at "+tt.line) {
			t.Errorf("body %q: error %v, want %q", tt.body, err, tt.line)
		}
	}
}
