// Package fakeservers is a test fixture: a dozen generated upstream MCP
// servers of everyday services (code hosting, chat, tickets, calendar,
// mail, cloud storage, a SQL database, CI, monitoring, CRM, a wiki and
// payments), about 500 tools in all, with the names, descriptions and
// input schemas such servers publish. Their vocabularies overlap on
// purpose (comments, labels, attachments, schedules, pipelines, search…)
// so that ranking them is not trivial.
//
// The servers are served through real MCP (the go-sdk server, over stdio
// or streamable HTTP) for tests of what an agent sees, and registered
// straight into a packs.Registry, as onetool registers upstream tools, for
// fast tests of discovery.
package fakeservers

import (
	"encoding/json"
	"strings"
)

// Server is one generated upstream MCP server.
type Server struct {
	Name        string // the servers: key in onetool.yaml, and so its pack name
	Description string // the server's description in onetool.yaml
	Tools       []Tool
}

// Tool is one tool as the server lists it.
type Tool struct {
	Name        string // as the server spells it: snake_case, camelCase, kebab-case or dotted
	Description string
	InputSchema json.RawMessage
	ReadOnly    bool
	Destructive bool
}

// Servers returns the generated servers, built afresh on each call (the
// same every time), in the order of their names.
func Servers() []Server {
	return []Server{
		ciServer(), crmServer(), calendarServer(), githubServer(), jiraServer(), mailServer(),
		monitorServer(), paymentsServer(), postgresServer(), slackServer(), storageServer(), wikiServer(),
	}
}

// Count is the number of tools of all the servers.
func Count(servers []Server) int {
	n := 0
	for _, s := range servers {
		n += len(s.Tools)
	}
	return n
}

// tool builds a Tool from a compact parameter list. Each parameter is
// "name[!][:type][=description]": "!" marks it required; the type is
// str (default), int, num, bool, list (of strings), obj, or an enum
// written "a|b|c"; without a description one is made from the name.
func tool(name, desc string, params ...string) Tool {
	t := Tool{Name: name, Description: desc, InputSchema: schema(params)}
	verb := strings.ToLower(firstWord(name))
	switch verb {
	case "list", "get", "search", "query", "find", "describe", "count", "explain", "download", "export", "compare", "lookup", "tail", "read", "history", "info", "replies", "members":
		t.ReadOnly = true
	case "delete", "drop", "truncate", "remove", "purge", "void", "kill", "empty", "revoke", "cancel":
		t.Destructive = true
	}
	return t
}

// firstWord is the first word of a tool name in any of the styles.
func firstWord(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	for i, r := range name {
		if r == '_' || r == '-' || (i > 0 && r >= 'A' && r <= 'Z') {
			return name[:i]
		}
	}
	return name
}

func schema(params []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, p := range params {
		spec, desc, hasDesc := strings.Cut(p, "=")
		name, typ, _ := strings.Cut(spec, ":")
		if strings.HasSuffix(name, "!") {
			name = strings.TrimSuffix(name, "!")
			required = append(required, name)
		}
		if !hasDesc {
			desc = describe(name)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		prop := map[string]any{"description": desc}
		switch typ {
		case "", "str":
			prop["type"] = "string"
		case "int":
			prop["type"] = "integer"
		case "num":
			prop["type"] = "number"
		case "bool":
			prop["type"] = "boolean"
		case "list":
			prop["type"] = "array"
			prop["items"] = map[string]any{"type": "string"}
		case "obj":
			prop["type"] = "object"
		default:
			prop["type"] = "string"
			prop["enum"] = strings.Split(typ, "|")
		}
		key, _ := json.Marshal(name)
		val, _ := json.Marshal(prop)
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteString("}")
	if len(required) > 0 {
		req, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(req)
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

// describe makes a parameter description from its name, as generated
// API wrappers do: "issue_number" → "The issue number.".
func describe(name string) string {
	var words []string
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || name[i] == '_' || name[i] == '-' || (name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z') {
			if w := strings.Trim(name[start:i], "_-"); w != "" {
				words = append(words, strings.ToLower(w))
			}
			start = i
		}
	}
	return "The " + strings.Join(words, " ") + "."
}
