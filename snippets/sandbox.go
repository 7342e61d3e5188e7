package snippets

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flosch/pongo2/v6"
)

// Snippet bodies are written by whoever configures onetool, but they run
// inside a server that agents talk to, with values the agents choose. The
// sandbox makes sure that a template can only turn its parameters into text:
//
//   - The template set's only loader refuses every path, so nothing that
//     resolves a template by name (FromFile, {% include %}, {% import %},
//     {% extends %}) can reach the file system, whatever path it is given.
//   - Tags that read files are banned at parse time. {% ssi %} matters most:
//     it calls os.ReadFile itself, bypassing the loader.
//   - {% macro %} is banned because a macro can call itself, and unbounded
//     recursion overflows the goroutine stack, which Go cannot recover from:
//     the whole server would die. (Checked: pongo2 v6 has no depth limit.)
//   - {% cycle %} and {% ifchanged %} are banned because they store their
//     state in the compiled template: concurrent expansions would race on it,
//     and one expansion would change the next one's output.
//   - Autoescape is switched off per template by wrapping the body in
//     {% autoescape off %}…{% endautoescape %}, not with pongo2.SetAutoescape,
//     which flips a package-level variable that pongo2 reads unsynchronised.
//     The opening tag shares the body's first line, so line numbers in errors
//     stay the body's own.
//   - pongo2's TrimBlocks and LStripBlocks options stay off: pongo2 applies
//     them by rewriting the template's shared tokens on every Execute, which
//     is a data race and strips one more newline per run.
//
// Whatever pongo2 still does wrong at run time (it panics on an integer
// division by zero, for one) is recovered and reported as a template error.

const (
	autoescapeOpen  = "{% autoescape off %}"
	autoescapeClose = "{% endautoescape %}"
)

// bannedTag is a pongo2 tag that snippet templates may not use.
type bannedTag struct{ name, reason string }

func bannedTags() []bannedTag {
	return []bannedTag{
		{"include", "templates have no file access"},
		{"extends", "templates have no file access"},
		{"import", "templates have no file access"},
		{"ssi", "templates have no file access"},
		{"macro", "a macro can recurse until the process dies"},
		{"cycle", "it keeps state between expansions"},
		{"ifchanged", "it keeps state between expansions"},
	}
}

// noFiles is a pongo2.TemplateLoader that refuses everything.
type noFiles struct{}

func (noFiles) Abs(_, name string) string { return name }

func (noFiles) Get(path string) (io.Reader, error) {
	return nil, fmt.Errorf("snippet templates cannot read files (asked for %q)", path)
}

// newTemplateSet returns a pongo2 template set with the sandbox applied. Each
// Compile gets its own set: pongo2 only lets tags be banned before a set's
// first template, and a set records that a template was created.
func newTemplateSet() (*pongo2.TemplateSet, error) {
	registerFilters()
	set := pongo2.NewSet("snippets", noFiles{})
	for _, t := range bannedTags() {
		if err := set.BanTag(t.name); err != nil {
			return nil, fmt.Errorf("snippets: sandboxing pongo2: %w", err)
		}
	}
	return set, nil
}

// compileTemplate parses body once. Errors are *TemplateError values with the
// body's line.
func compileTemplate(set *pongo2.TemplateSet, snippet, body string) (tpl *pongo2.Template, err error) {
	defer func() {
		if r := recover(); r != nil {
			tpl, err = nil, &TemplateError{Snippet: snippet, Msg: fmt.Sprint(r)}
		}
	}()
	tpl, err = set.FromString(autoescapeOpen + body + autoescapeClose)
	if err != nil {
		return nil, templateError(snippet, body, err)
	}
	return tpl, nil
}

// render executes a compiled template with ctx, turning errors and panics
// into *TemplateError values.
func render(tpl *pongo2.Template, snippet, body string, ctx pongo2.Context) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &TemplateError{Snippet: snippet, Msg: fmt.Sprint(r)}
		}
	}()
	out, err = tpl.Execute(ctx)
	if err != nil {
		return "", templateError(snippet, body, err)
	}
	return out, nil
}

// TemplateError is a template that failed to compile or to render. Line is
// the 1-based line of the snippet's body, 0 when pongo2 did not say.
type TemplateError struct {
	Snippet string
	Line    int
	Msg     string
	Err     error // the underlying cause, when there is one
}

func (e *TemplateError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("snippet '%s': template error at line %d: %s", e.Snippet, e.Line, e.Msg)
	}
	return fmt.Sprintf("snippet '%s': template error: %s", e.Snippet, e.Msg)
}

func (e *TemplateError) Unwrap() error { return e.Err }

// templateError converts a pongo2 error into a *TemplateError: the message
// without pongo2's "[Error (where: parser) in <string> | Line 1 Col 24 …]"
// header (whose column counts the hidden autoescape wrapper), and the line
// clamped to the body, since an error at the hidden closing tag (an unclosed
// {% if %}) belongs to the body's last line.
func templateError(snippet, body string, err error) *TemplateError {
	var pe *pongo2.Error
	if !errors.As(err, &pe) {
		return &TemplateError{Snippet: snippet, Msg: err.Error(), Err: err}
	}
	te := &TemplateError{Snippet: snippet, Line: pe.Line, Err: pe}
	if pe.OrigError != nil {
		te.Msg = pe.OrigError.Error()
		te.Err = pe.OrigError
	}
	if last := strings.Count(strings.TrimRight(body, "\n"), "\n") + 1; te.Line > last {
		te.Line = last
	}
	if pe.Token != nil && strings.HasPrefix(te.Msg, "Usage of tag '") {
		for _, t := range bannedTags() {
			if pe.Token.Val == t.name {
				te.Msg = fmt.Sprintf("the {%% %s %%} tag is not allowed in snippets: %s", t.name, t.reason)
			}
		}
	}
	return te
}
