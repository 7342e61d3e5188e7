package snippets

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/flosch/pongo2/v6"
	"github.com/onetool-dev/onetool/internal/suggest"
)

// Param is one declared parameter of a snippet.
type Param struct {
	Name        string
	Type        string // "string" (default), "integer", "number", "boolean"
	Description string
	Default     any  // used when HasDefault; nil means None
	HasDefault  bool // without a default the parameter is required
}

// Snippet is one configured snippet (from the config's `snippets:` section).
type Snippet struct {
	Name, Description string
	Params            []Param // in declared order
	Body              string  // pongo2 template producing Starlark
}

// Set is a compiled, immutable set of snippets, safe for concurrent use.
// A nil *Set is a valid, empty set.
type Set struct {
	byName map[string]*compiled
	names  []string // sorted
}

// compiled is a snippet with its parsed template.
type compiled struct {
	snip Snippet
	tpl  *pongo2.Template
}

// Compile checks the snippets and compiles each body once. It reports every
// problem it finds (joined), each naming the snippet, and for template
// errors the line of the body: invalid or duplicate names, unknown parameter
// types, defaults that do not fit their type, empty bodies, template syntax
// errors and tags the sandbox refuses.
func Compile(snips []Snippet) (*Set, error) {
	ts, err := newTemplateSet()
	if err != nil {
		return nil, err
	}
	s := &Set{byName: make(map[string]*compiled, len(snips))}
	var errs []error
	for _, sn := range snips {
		if _, dup := s.byName[sn.Name]; dup {
			errs = append(errs, fmt.Errorf("snippet '%s' is defined twice", sn.Name))
			continue
		}
		c, err := compileSnippet(ts, sn)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.byName[sn.Name] = c
		s.names = append(s.names, sn.Name)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.Sort(s.names)
	return s, nil
}

func compileSnippet(ts *pongo2.TemplateSet, sn Snippet) (*compiled, error) {
	if !isValidName(sn.Name) {
		return nil, fmt.Errorf("snippet name '%s' is invalid: use a letter or '_', then letters, digits, '_' or '-'", sn.Name)
	}
	if strings.TrimSpace(sn.Body) == "" {
		return nil, fmt.Errorf("snippet '%s' has an empty body", sn.Name)
	}
	// Keep our own copy, with types and defaults in canonical form, so that
	// the caller's slice can change without touching the Set.
	params := make([]Param, len(sn.Params))
	for i, p := range sn.Params {
		switch {
		case !isValidParamName(p.Name):
			return nil, fmt.Errorf("snippet '%s': parameter name '%s' is invalid: use a letter or '_', then letters, digits or '_'", sn.Name, p.Name)
		case reservedParam(p.Name):
			return nil, fmt.Errorf("snippet '%s': parameter name '%s' is reserved by the template engine", sn.Name, p.Name)
		case slices.ContainsFunc(params[:i], func(q Param) bool { return q.Name == p.Name }):
			return nil, fmt.Errorf("snippet '%s': parameter '%s' is declared twice", sn.Name, p.Name)
		}
		typ, ok := canonicalType(p.Type)
		if !ok {
			return nil, fmt.Errorf("snippet '%s': parameter '%s' has unknown type '%s' (use string, integer, number or boolean)", sn.Name, p.Name, p.Type)
		}
		p.Type = typ
		if p.HasDefault {
			d, err := normalizeDefault(typ, p.Default)
			if err != nil {
				return nil, fmt.Errorf("snippet '%s': default of parameter '%s' %w", sn.Name, p.Name, err)
			}
			p.Default = d
		} else {
			p.Default = nil
		}
		params[i] = p
	}
	sn.Params = params
	tpl, err := compileTemplate(ts, sn.Name, sn.Body)
	if err != nil {
		return nil, err
	}
	return &compiled{snip: sn, tpl: tpl}, nil
}

// Expand turns a snippet command into Starlark code. text is the whole
// command, starting with "$" (see ParseInvocation for its forms); the result
// is the rendered template, trimmed. Errors are complete sentences for the
// user (the caller adds "Error: "):
//
//	unknown snippet 'pgk'. Did you mean 'pkg'? Available: a, pkg
//	snippet 'pkg' has no parameter 'q'. Parameters: packages, limit
//	snippet 'pkg' requires parameter 'packages'
//	snippet 'pkg': parameter 'limit' must be an integer, got 'abc'
//	snippet 'pkg': template error at line 2: …
//
// Expand never panics.
func (s *Set) Expand(text string) (out string, err error) {
	defer func() {
		if r := recover(); r != nil { // a bug of ours or of pongo2's
			out, err = "", fmt.Errorf("snippet expansion failed: %v", r)
		}
	}()
	inv, err := ParseInvocation(text)
	if err != nil {
		return "", err
	}
	return s.ExpandInvocation(inv)
}

// ExpandInvocation is Expand for an invocation that is already parsed.
func (s *Set) ExpandInvocation(inv Invocation) (string, error) {
	c, ok := s.lookup(inv.Name)
	if !ok {
		return "", s.unknownSnippet(inv.Name)
	}
	ctx, err := c.bind(inv.Args)
	if err != nil {
		return "", err
	}
	out, err := render(c.tpl, c.snip.Name, c.snip.Body, ctx)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// bind checks the arguments against the declared parameters and builds the
// template context: typed values, defaults filled in.
func (c *compiled) bind(args []Arg) (pongo2.Context, error) {
	name := c.snip.Name
	ctx := make(pongo2.Context, len(c.snip.Params))
	for _, a := range args {
		p, ok := c.param(a.Key)
		if !ok {
			return nil, c.unknownParam(a.Key)
		}
		if _, dup := ctx[a.Key]; dup {
			return nil, fmt.Errorf("snippet '%s': parameter '%s' is given twice", name, a.Key)
		}
		v, want := coerce(p.Type, a.Value)
		if want != "" {
			return nil, fmt.Errorf("snippet '%s': parameter '%s' must be %s, got '%s'", name, a.Key, want, excerpt(a.Value))
		}
		ctx[a.Key] = v
	}
	var missing []string
	for _, p := range c.snip.Params {
		if _, given := ctx[p.Name]; given {
			continue
		}
		if !p.HasDefault {
			missing = append(missing, "'"+p.Name+"'")
			continue
		}
		ctx[p.Name] = p.Default
	}
	switch len(missing) {
	case 0:
		return ctx, nil
	case 1:
		return nil, fmt.Errorf("snippet '%s' requires parameter %s", name, missing[0])
	}
	return nil, fmt.Errorf("snippet '%s' requires parameters %s", name, strings.Join(missing, ", "))
}

func (c *compiled) param(name string) (Param, bool) {
	for _, p := range c.snip.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (c *compiled) unknownParam(key string) error {
	names := make([]string, len(c.snip.Params))
	for i, p := range c.snip.Params {
		names[i] = p.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "snippet '%s' has no parameter '%s'.", c.snip.Name, key)
	if m := suggest.Closest(key, names); m != "" {
		fmt.Fprintf(&b, " Did you mean '%s'?", m)
	}
	fmt.Fprintf(&b, " Parameters: %s", listOrNone(names))
	return errors.New(b.String())
}

func (s *Set) unknownSnippet(name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown snippet '%s'.", name)
	if m := suggest.Closest(name, s.Names()); m != "" {
		fmt.Fprintf(&b, " Did you mean '%s'?", m)
	}
	fmt.Fprintf(&b, " Available: %s", listOrNone(s.Names()))
	return errors.New(b.String())
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func (s *Set) lookup(name string) (*compiled, bool) {
	if s == nil {
		return nil, false
	}
	c, ok := s.byName[name]
	return c, ok
}

// Names returns the snippet names, sorted. The slice is the caller's.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	return slices.Clone(s.names)
}

// Get returns a snippet as compiled: parameter types are canonical ("" became
// "string") and defaults carry their declared type. The result is a copy.
func (s *Set) Get(name string) (Snippet, bool) {
	c, ok := s.lookup(strings.TrimPrefix(name, "$"))
	if !ok {
		return Snippet{}, false
	}
	sn := c.snip
	sn.Params = slices.Clone(sn.Params)
	return sn, true
}

// Help describes a snippet for ot.help("$name"): a usage line, one line per
// parameter, and the template it expands. name may carry its "$".
//
//	$pkg packages=<string> [limit=5] — Latest versions of npm packages
//	  packages: string, required — comma-separated names
//	  limit: integer, default 5
//	Expands to:
//	  [pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]
func (s *Set) Help(name string) (string, bool) {
	sn, ok := s.Get(name)
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.WriteString("$" + sn.Name)
	for _, p := range sn.Params {
		switch {
		case !p.HasDefault:
			fmt.Fprintf(&b, " %s=<%s>", p.Name, p.Type)
		case p.Default == nil:
			fmt.Fprintf(&b, " [%s=<%s>]", p.Name, p.Type)
		default:
			fmt.Fprintf(&b, " [%s=%s]", p.Name, usageValue(p.Default))
		}
	}
	if d := strings.TrimSpace(sn.Description); d != "" {
		b.WriteString(" — " + d)
	}
	b.WriteByte('\n')
	for _, p := range sn.Params {
		fmt.Fprintf(&b, "  %s: %s", p.Name, p.Type)
		switch {
		case !p.HasDefault:
			b.WriteString(", required")
		case p.Default == nil:
			b.WriteString(", optional")
		default:
			b.WriteString(", default " + usageValue(p.Default))
		}
		if d := strings.TrimSpace(p.Description); d != "" {
			b.WriteString(" — " + d)
		}
		b.WriteByte('\n')
	}
	b.WriteString("Expands to:\n")
	for line := range strings.SplitSeq(strings.TrimRight(sn.Body, "\n"), "\n") {
		b.WriteString("  " + line + "\n")
	}
	return strings.TrimRight(b.String(), "\n"), true
}
