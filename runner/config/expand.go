package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// maxExpandDepth bounds ${A:-${B:-…}} nesting; it also keeps the cost of
// expanding a hostile string linear.
const maxExpandDepth = 8

// expander replaces ${NAME} and ${NAME:-default} in string values, looking
// NAME up in secrets first and then in the environment.
//
// A value taken from the environment is a secret too (SPEC §8.3), like
// one of secrets.yaml: its node is masked as [secret:NAME] for messages
// and the effective configuration. Where the configuration reads it as
// something that is not a credential (a path, a number, a name: see
// decoder.shown) the decoder shows it again, using the node's entry in
// env.
type expander struct {
	secrets   *Secrets
	lookupEnv func(string) (string, bool)
	// env holds every variable taken from the environment, by name; nodes
	// the string nodes whose value holds one.
	env   map[string]string
	nodes map[*node]envUse
}

// envUse is how a node's value uses the environment.
type envUse struct {
	names []string // the variables taken from the environment
	// shown is the value with only the secrets of secrets.yaml masked, ""
	// when it has none: what the node shows where its environment
	// variables are not secrets.
	shown string
}

// expansion is the result of expanding one string.
type expansion struct {
	value      string // the real text
	masked     string // the text with [secret:NAME] for each secret and environment variable used
	shown      string // the text with [secret:NAME] for each secret used
	usedSecret bool
	envNames   []string // the environment variables used
}

// expand expands s. The rules, as in a POSIX shell where they overlap:
//
//	${NAME}          the value; an error when NAME is not set
//	${NAME:-text}    the value, or text when NAME is unset or empty
//	$${              a literal ${
//	$ anywhere else  itself
//
// NAME is letters, digits and underscores, not starting with a digit; text
// may itself hold ${...}.
func (x *expander) expand(s string) (expansion, error) {
	var out expansion
	var b builders
	err := x.expandInto(s, &b, &out, 0)
	out.value, out.masked, out.shown = b.v.String(), b.m.String(), b.s.String()
	return out, err
}

// builders hold the three texts of an expansion being made.
type builders struct{ v, m, s strings.Builder }

func (b *builders) write(s string) {
	b.v.WriteString(s)
	b.m.WriteString(s)
	b.s.WriteString(s)
}

func (x *expander) expandInto(s string, b *builders, out *expansion, depth int) error {
	if depth > maxExpandDepth {
		return fmt.Errorf("${...} nested more than %d deep", maxExpandDepth)
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.write("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := closingBrace(s, i+2)
			if end < 0 {
				return errors.New("unterminated ${ (no closing }); write $${ for a literal ${")
			}
			name, def, hasDef := strings.Cut(s[i+2:end], ":-")
			if !isVarName(name) {
				return fmt.Errorf("%q is not a variable name: want ${NAME} or ${NAME:-default}, NAME made of letters, digits and _", name)
			}
			val, secret, found := x.lookup(name)
			switch {
			case found && (val != "" || !hasDef):
				switch {
				case secret:
					b.v.WriteString(val)
					b.m.WriteString("[secret:" + name + "]")
					b.s.WriteString("[secret:" + name + "]")
					out.usedSecret = true
				case val == "": // nothing to hide
				default:
					b.v.WriteString(val)
					b.m.WriteString("[secret:" + name + "]")
					b.s.WriteString(val)
					if !slices.Contains(out.envNames, name) {
						out.envNames = append(out.envNames, name)
					}
					if x.env == nil {
						x.env = map[string]string{}
					}
					x.env[name] = val
				}
			case hasDef:
				if err := x.expandInto(def, b, out, depth+1); err != nil {
					return err
				}
			default:
				return &unsetError{name: name}
			}
			i = end + 1
		default:
			j := i + 1
			for j < len(s) && s[j] != '$' {
				j++
			}
			b.write(s[i:j])
			i = j
		}
	}
	return nil
}

// unsetError is a ${NAME} without a default whose NAME neither the
// secrets nor the environment define.
type unsetError struct{ name string }

// Name is the variable; "" for a nil error.
func (e *unsetError) Name() string {
	if e == nil {
		return ""
	}
	return e.name
}

func (e *unsetError) Error() string {
	return fmt.Sprintf("variable ${%s} is not set: define it in secrets.yaml or the environment, or give a default: ${%s:-value}", e.name, e.name)
}

// shown marks n, expanded where no value is a credential before decoding
// (an include), as decoder.shown does.
func (x *expander) shown(n *node) {
	if u, ok := x.nodes[n]; ok {
		n.Masked = u.shown
		delete(x.nodes, n)
	}
}

// lookup finds a variable: secrets first, then the environment.
func (x *expander) lookup(name string) (val string, secret, found bool) {
	if v, ok := x.secrets.Lookup(name); ok {
		return v, true, true
	}
	if x.lookupEnv != nil {
		if v, ok := x.lookupEnv(name); ok {
			return v, false, true
		}
	}
	return "", false, false
}

// closingBrace returns the index of the } that closes a ${ whose content
// starts at from, counting nested ${ in defaults; -1 when there is none.
func closingBrace(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch {
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case s[j] == '}':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isVarName reports whether s is a variable name: [A-Za-z_][A-Za-z0-9_]*.
func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// escapeDollar is the inverse of expansion for text without variables:
// it turns every ${ into $${ so the text reads back unchanged.
func escapeDollar(s string) string { return strings.ReplaceAll(s, "${", "$${") }

// expandTree expands every string scalar under n, except the bodies of
// snippets (snippets.<name>.body): those are templates, where ${ may be
// code. Mapping keys are names and are never expanded, and the ignored
// top-level x- keys are left alone.
func (x *expander) expandTree(n *node, p keyPath, errs *errList) {
	switch n.Kind {
	case yamltree.MappingNode:
		for _, pr := range n.Pairs {
			if len(p) == 2 && p[0] == "snippets" && pr.Key == "body" ||
				len(p) == 0 && strings.HasPrefix(pr.Key, "x-") { // ignored; see decoder.config
				continue
			}
			x.expandTree(pr.Val, p.With(pr.Key), errs)
		}
	case yamltree.ListNode:
		for i, it := range n.Items {
			x.expandTree(it, p.Index(i), errs)
		}
	case yamltree.ScalarNode:
		x.expandScalar(n, p, errs)
	}
}

// expandScalar expands one string scalar in place. An unquoted value is
// typed again after expansion, as YAML would type the result, so that
// `max_steps: ${STEPS:-1000}` is an integer and `enabled: ${ON:-true}` a
// boolean; quoted values stay strings.
func (x *expander) expandScalar(n *node, p keyPath, errs *errList) {
	if n.Tag != yamltree.TagStr || n.Bad || !strings.Contains(n.Value, "$") {
		return
	}
	e, err := x.expand(n.Value)
	if err != nil {
		var unset *unsetError
		errors.As(err, &unset)
		errs.add(&Error{File: n.Pos.File, Line: n.Pos.Line, Column: n.Pos.Column, Key: p.String(), Msg: err.Error(), Unset: unset.Name()})
		n.Bad = true
		return
	}
	if e.value == n.Value && len(e.envNames) == 0 {
		return
	}
	n.Value = e.value
	if e.usedSecret || len(e.envNames) > 0 {
		n.Masked = e.masked
	}
	if len(e.envNames) > 0 {
		u := envUse{names: e.envNames}
		if e.usedSecret {
			u.shown = e.shown
		}
		if x.nodes == nil {
			x.nodes = map[*node]envUse{}
		}
		x.nodes[n] = u
	}
	if n.Plain {
		switch tag := (&yaml.Node{Kind: yaml.ScalarNode, Value: e.value}).ShortTag(); tag {
		case yamltree.TagInt, yamltree.TagFloat, yamltree.TagBool, yamltree.TagNull:
			n.Tag = tag
		}
	}
}
