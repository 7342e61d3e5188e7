package replay

import (
	"strings"
)

// The discovery rule.
//
// A call (one run of a program) is discovery when the program looks up
// what it could call, and does nothing else: it calls at least one
// discovery function and no other tool. Discovery functions are
//
//   - onetool's own help and listings: ot.help, ot.tools, ot.packs,
//     ot.servers, ot.aliases, ot.snippets, ot.config;
//   - database schema lookups: db.databases, db.tables, db.schema, and
//     db.query or db.execute in a program whose text names a catalog
//     (sqlite_master, sqlite_schema, PRAGMA table_info, information_schema,
//     pg_catalog, SHOW TABLES, DESCRIBE …);
//   - Python's own looking around: dir(…) and help(…).
//
// A program that also does the task's work (db.query of a table, a
// file.read) is not discovery, even when it printed help on the way: its
// result is the task's answer, and its characters cannot be split.
//
// Which tools a program calls is read from its text (Tools), unless the
// record names them (Call.Tools, as a stats file gives them).

// discoveryTools are the tools whose only job is to say what there is.
var discoveryTools = map[string]bool{
	"ot.help": true, "ot.tools": true, "ot.packs": true, "ot.servers": true,
	"ot.aliases": true, "ot.snippets": true, "ot.config": true,
	"db.databases": true, "db.tables": true, "db.schema": true,
}

// discoveryBuiltins are Python builtins that look around.
var discoveryBuiltins = map[string]bool{"dir": true, "help": true}

// catalogWords, in a program's lowercased text, make its db.query a schema
// lookup.
var catalogWords = []string{
	"sqlite_master", "sqlite_schema", "pragma table_info", "pragma table_xinfo",
	"pragma table_list", "pragma index_list", "pragma foreign_key_list",
	"information_schema", "pg_catalog", "show tables", "show columns", "describe ",
}

// modules are the Python modules a program may import or use by name: a
// call such as json.dumps(…) is not a tool's.
var modules = map[string]bool{
	"json": true, "re": true, "math": true, "statistics": true, "collections": true,
	"heapq": true, "bisect": true, "copy": true, "itertools": true, "functools": true,
	"operator": true, "string": true, "datetime": true, "zoneinfo": true, "time": true,
	"random": true, "textwrap": true, "csv": true, "io": true, "pprint": true,
	"hashlib": true, "hmac": true, "base64": true, "html": true, "urllib": true,
	"uuid": true, "struct": true, "fnmatch": true, "shlex": true, "sys": true,
	"traceback": true, "logging": true, "secrets": true, "calendar": true,
	"decimal": true, "fractions": true, "difflib": true, "unicodedata": true,
	"inspect": true,
}

// IsDiscovery reports whether a call is discovery (see the rule above).
// tools are the ids of the tools the call made when the record names them
// ("ot.help", "db.query"); nil means: read them from code.
func IsDiscovery(code string, tools []string) bool {
	var builtins []string
	if tools == nil {
		tools, builtins = Tools(code)
	}
	catalog := mentionsCatalog(code)
	found := false
	for _, b := range builtins {
		if discoveryBuiltins[b] {
			found = true
		}
	}
	for _, t := range tools {
		switch {
		case discoveryTools[t]:
			found = true
		case (t == "db.query" || t == "db.execute") && catalog:
			found = true
		default:
			return false
		}
	}
	return found
}

func mentionsCatalog(code string) bool {
	lower := strings.ToLower(code)
	for _, w := range catalogWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// Tools reads from a program's text the tools it refers to, as
// "pack.function" in order of first appearance, and the builtins it calls
// by name. A tool is a name.attribute (called or not: call(ot.help, …)
// refers to ot.help too) whose name is not a Python module and is not
// assigned in the program (rows = …; for row in …; def f(row); import x;
// … as x), outside strings and comments, and not inside the parentheses of
// dir(…) or help(…), which look at what they are given. Builtins are names followed by
// "(" that are not attributes. It reads text only: what a program would
// call through getattr or a variable holding a function is not seen.
func Tools(code string) (tools, builtins []string) {
	toks := tokenize(code)
	assigned := assignedNames(toks)
	seen := map[string]bool{}
	// looking is the bracket depth of the dir( or help( being read, 0
	// outside: what they are given is looked at, not called.
	depth, looking := 0, 0
	for i, t := range toks {
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == looking {
				looking = 0
			}
			depth--
		}
		if t.kind != tokName || (i > 0 && toks[i-1].text == ".") {
			continue
		}
		if looking > 0 {
			continue
		}
		if i+2 < len(toks) && toks[i+1].text == "." && toks[i+2].kind == tokName {
			if modules[t.text] || assigned[t.text] {
				continue
			}
			id := t.text + "." + toks[i+2].text
			if !seen[id] {
				seen[id] = true
				tools = append(tools, id)
			}
			continue
		}
		if i+1 < len(toks) && toks[i+1].text == "(" && !assigned[t.text] {
			if discoveryBuiltins[t.text] {
				looking = depth + 1
			}
			if !seen["()"+t.text] {
				seen["()"+t.text] = true
				builtins = append(builtins, t.text)
			}
		}
	}
	return tools, builtins
}

// assignedNames are the names a program binds: targets of =, augmented
// assignment and walrus, for and comprehension variables, def and lambda
// parameters, def names, imports and "as" names. One pass over the
// tokens, each looked at a bounded number of times: a program of any
// size is read in linear time.
func assignedNames(toks []token) map[string]bool {
	names := map[string]bool{}
	// addNames binds the names of toks[from:end] at their own bracket
	// depth that are not attributes: a, b = …; x[i] = …; for k, v in ….
	addNames := func(from, end int) {
		depth := 0
		for j := from; j < end; j++ {
			switch toks[j].text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			if toks[j].kind == tokName && depth == 0 && (j == 0 || toks[j-1].text != ".") {
				names[toks[j].text] = true
			}
		}
	}
	// One level per open bracket: where its current part starts (after
	// the bracket, a line end, or the last "=" of an assignment), and
	// where its pending "for" is (-1: none).
	type level struct{ seg, forAt int }
	stack := []level{{0, -1}}
	const maxHeader = 64 // tokens of a def, lambda or import line read for names
	for i, t := range toks {
		top := &stack[len(stack)-1]
		switch {
		case t.kind == tokString || t.kind == tokNumber:
		case t.text == "(" || t.text == "[" || t.text == "{":
			stack = append(stack, level{i + 1, -1})
		case t.text == ")" || t.text == "]" || t.text == "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.kind == tokNewline || t.text == ";":
			*top = level{i + 1, -1}
		case t.text == "=" && len(stack) > 1 && i >= 2 && (toks[i-2].text == "(" || toks[i-2].text == ","):
			// A keyword argument (f(x=1)) binds nothing.
		case t.text == "=" || t.text == ":=" || (t.kind == tokOp && len(t.text) >= 2 && t.text[len(t.text)-1] == '=' && !strings.Contains("== != <= >=", t.text)):
			addNames(top.seg, i)
			top.seg = i + 1
		case t.text == "for":
			top.forAt = i
		case t.text == "in" && top.forAt >= 0:
			addNames(top.forAt+1, i)
			top.forAt = -1
		case t.text == "def" || t.text == "lambda" || t.text == "import" || t.text == "as" ||
			t.text == "global" || t.text == "nonlocal" || t.text == "class" || t.text == "except":
			for k := i + 1; k < len(toks) && k <= i+maxHeader && toks[k].kind != tokNewline && toks[k].text != ":"; k++ {
				if toks[k].kind == tokName && toks[k-1].text != "." && toks[k-1].text != "=" {
					names[toks[k].text] = true
				}
				if t.text == "as" || t.text == "class" {
					break
				}
			}
		}
	}
	return names
}

type tokKind int

const (
	tokName tokKind = iota
	tokOp
	tokString
	tokNumber
	tokNewline
)

type token struct {
	kind tokKind
	text string
}

// tokenize splits Python source into names, operators, strings (their
// text dropped), numbers and logical line ends; comments are skipped and
// line breaks inside brackets or after a backslash do not end a line. It
// never fails: text it cannot read becomes one-character operators.
func tokenize(src string) []token {
	var toks []token
	depth := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '\n' || c == ';':
			if depth == 0 && c == '\n' {
				toks = append(toks, token{tokNewline, "\n"})
			} else if c == ';' {
				toks = append(toks, token{tokOp, ";"})
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case isStringStart(src, i):
			i = skipString(src, i)
			toks = append(toks, token{tokString, `""`})
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{tokName, src[i:j]})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{tokNumber, src[i:j]})
			i = j
		default:
			op := src[i : i+1]
			for _, long := range longOps {
				if strings.HasPrefix(src[i:], long) {
					op = long
					break
				}
			}
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
			toks = append(toks, token{tokOp, op})
			i += len(op)
		}
	}
	return toks
}

// longOps are the operators of more than one character the rule needs
// whole, longest first.
var longOps = []string{"//=", "**=", ":=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "==", "!=", "<=", ">=", "->", "**", "//"}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// isStringStart reports whether a string literal starts at src[i]: a quote,
// or a prefix of r, b, u, f (any case, up to two letters) and a quote.
func isStringStart(src string, i int) bool {
	if i > 0 && isIdentPart(src[i-1]) {
		return false
	}
	for j := i; j < len(src) && j < i+3; j++ {
		switch src[j] {
		case '"', '\'':
			return true
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
			continue
		}
		return false
	}
	return false
}

// skipString returns the index after the string literal at src[i].
func skipString(src string, i int) int {
	raw := false
	for src[i] != '"' && src[i] != '\'' {
		if src[i] == 'r' || src[i] == 'R' {
			raw = true
		}
		i++
	}
	q := src[i]
	triple := strings.HasPrefix(src[i:], strings.Repeat(string(q), 3))
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		switch {
		case src[i] == '\\' && !raw && i+1 < len(src):
			i += 2
		case src[i] == '\\' && raw && i+1 < len(src) && src[i+1] == q:
			i += 2
		case triple && strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)):
			return i + 3
		case !triple && src[i] == q:
			return i + 1
		case !triple && src[i] == '\n':
			return i // an unclosed string ends at its line
		default:
			i++
		}
	}
	return i
}
