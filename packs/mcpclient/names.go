package mcpclient

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/onetool-dev/onetool/internal/suggest"
)

// PackName turns a `servers:` key into the name of its Starlark pack: every
// character outside [A-Za-z0-9_] becomes "_", and a name that would start
// with a digit gets a "_" in front ("my-server" → "my_server",
// "2fa" → "_2fa"). An empty name gives "_".
func PackName(server string) string {
	var b strings.Builder
	for i, r := range server {
		switch {
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// Canonical gives the one spelling that all the usual ways of writing a
// tool name share, so that a model may call `list_items` for a tool the
// server names `listItems`, `list-items`, `ListItems` or `list items`: the
// name is split into words at separators (anything not a letter or digit)
// and at case changes, and the words are lower-cased and joined with "_".
//
// An acronym stays one word and ends before the capital that starts the
// next word: "getHTTPResponse" → "get_http_response", "userID" →
// "user_id". Digits stay with the word before them: "base64Encode" →
// "base64_encode".
func Canonical(name string) string {
	rs := []rune(name)
	var b strings.Builder
	b.Grow(len(name) + 4)
	pendingSep := false
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			pendingSep = b.Len() > 0
			continue
		}
		if unicode.IsUpper(r) && i > 0 && b.Len() > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// camelCase and get2FA: a capital after a lower-case letter or
			// a digit; HTTPResponse: the last capital of an acronym.
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				pendingSep = true
			}
		}
		if pendingSep {
			b.WriteByte('_')
			pendingSep = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// MatchTool finds the tool a caller means by name (SPEC §4.5): the exact
// name first, then the one tool whose [Canonical] name is the same, then
// the same two steps for prefix+name when prefix (the server's
// tool_prefix) is set.
//
// Two tools with the same canonical name (a server with both `listItems`
// and `list-items`) give an error wrapping [ErrAmbiguous] naming both:
// the caller must use an exact name. No match gives an error wrapping
// [ErrUnknownTool] with the closest name, if one is close, and the list of
// the server's tool names.
func MatchTool(tools []Tool, name, prefix string) (Tool, error) {
	t, err := matchOne(tools, name)
	if err != errUnknown {
		return t, err
	}
	if prefix != "" {
		if t, err := matchOne(tools, prefix+name); err != errUnknown {
			return t, err
		}
	}
	return Tool{}, unknownTool(tools, name, prefix)
}

// errUnknown is matchOne's private "nothing matched", turned into the
// full ErrUnknownTool message (with suggestions) by MatchTool.
var errUnknown = newError(ErrUnknownTool, nil, "no match")

// matchOne tries name exactly, then canonically.
func matchOne(tools []Tool, name string) (Tool, error) {
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	want := Canonical(name)
	if want == "" {
		return Tool{}, errUnknown
	}
	var found []Tool
	for _, t := range tools {
		if Canonical(t.Name) == want {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return Tool{}, errUnknown
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, t := range found {
		names[i] = "'" + t.Name + "'"
	}
	return Tool{}, newError(ErrAmbiguous, nil, fmt.Sprintf("tool name '%s' is ambiguous: it matches %s; use the exact name",
		name, joinAnd(names)))
}

// unknownTool builds the "unknown tool" error: a did-you-mean chosen among
// the canonical names (with the prefix stripped too, since that is how the
// caller spells them), reported as the tool's real name, then the names.
func unknownTool(tools []Tool, name, prefix string) error {
	byCanon := make(map[string]string, len(tools)*2)
	cands := make([]string, 0, len(tools)*2)
	add := func(canon, real string) {
		if canon == "" {
			return
		}
		if _, dup := byCanon[canon]; !dup {
			byCanon[canon] = real
			cands = append(cands, canon)
		}
	}
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
		add(Canonical(t.Name), t.Name)
		if prefix != "" && strings.HasPrefix(t.Name, prefix) {
			add(Canonical(strings.TrimPrefix(t.Name, prefix)), t.Name)
		}
	}
	msg := fmt.Sprintf("unknown tool '%s'", name)
	switch best := suggest.Closest(Canonical(name), cands); {
	case len(names) == 0:
		return newError(ErrUnknownTool, nil, msg+": the server has no tools")
	case best != "":
		msg += fmt.Sprintf("; did you mean '%s'?", byCanon[best])
	default:
		msg += "."
	}
	return newError(ErrUnknownTool, nil, msg+" Tools: "+listNames(names, 40))
}

// listNames joins at most limit names, saying how many were left out.
func listNames(names []string, limit int) string {
	if len(names) <= limit {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(names[:limit], ", "), len(names)-limit)
}

// joinAnd writes "a and b" or "a, b and c".
func joinAnd(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
