// Package ot is the meta pack through which an agent discovers everything
// else (SPEC §3.4): ot.help, ot.packs, ot.tools, ot.aliases, ot.snippets,
// ot.servers, ot.config, ot.stats, ot.health, ot.result and ot.version.
// Its tools read the registry at call time, so packs added later (upstream
// servers that finish connecting) show up without a rebuild; what only the
// runner knows (statistics, stored results) comes through Info.
package ot

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/catalog"
	rank "github.com/onetool-dev/onetool/packs/search"
)

// Info is what the ot pack reports about the running onetool. Zero fields
// mean "none configured".
type Info struct {
	Version string
	// Aliases maps alias names to the tool ids they call.
	Aliases map[string]string
	// Snippets describes the configured snippets.
	Snippets Snippets
	// Config returns the effective configuration as YAML, secrets masked.
	Config func() string
	// Stats returns the runtime statistics shown by ot.stats().
	Stats func() any
	// Servers returns the state of the upstream MCP servers.
	Servers func() any
	// Wait waits until the upstream servers have connected or failed, so
	// that discovery includes their tools. Nil when there are none.
	Wait func(ctx context.Context)
	// Result pages through a large result stored under a handle (SPEC
	// §7.3): by lines or by characters, or the matches of a search.
	Result func(ctx context.Context, q ResultQuery) (any, error)
	// Health reports whether onetool and its upstream servers are well.
	Health func() any
	// Modules are the Python modules programs may use (json, re, …), for
	// ot.help: an overview line, each module's functions, and search.
	Modules []Module
	// Shape, when set, gives the result type of a tool's stub line in
	// ot.help (package catalog's ResultHook: learned shapes); nil: the
	// declared type.
	Shape catalog.ResultHook
	// Visible, when set, returns which tools the caller of ctx may call
	// (nil: all of them); ot.help, ot.tools and ot.packs show only those,
	// so a principal sees only what its policy allows (SPEC §7.4).
	Visible func(ctx context.Context) func(*packs.Tool) bool

	// searchCache keeps search's index between calls (set by Tools).
	searchCache *rank.Cache
}

// view is the registry as the caller of ctx sees it.
func (info Info) view(ctx context.Context, reg *packs.Registry) *packs.Registry {
	if info.Visible == nil {
		return reg
	}
	if keep := info.Visible(ctx); keep != nil {
		return reg.Filtered(keep)
	}
	return reg
}

// Module is what ot.help shows of a Python module (package catalog
// renders it).
type Module = catalog.Module

// ModuleEntry is one line of a module's help and the members it covers.
type ModuleEntry = catalog.ModuleEntry

// ModuleNames are the names programs import the modules by: a module with
// functions of its own ("base64", not "base64.binascii"), or the
// submodules of one that has none ("urllib.parse", not "urllib").
func ModuleNames(mods []Module) []string {
	empty := map[string]bool{}
	for _, m := range mods {
		if len(m.Entries) == 0 && len(m.Constants) == 0 {
			empty[m.Name] = true
		}
	}
	var names []string
	for _, m := range mods {
		parent, _, dotted := strings.Cut(m.Name, ".")
		switch {
		case empty[m.Name]:
		case dotted && !empty[parent]:
		default:
			names = append(names, m.Name)
		}
	}
	return names
}

func (info Info) module(name string) (Module, bool) {
	for _, m := range info.Modules {
		if m.Name == name {
			return m, true
		}
	}
	return Module{}, false
}

func (info Info) wait(ctx context.Context) {
	if info.Wait != nil {
		info.Wait(ctx)
	}
}

// Snippets is what ot needs to know of the configured snippets.
type Snippets interface {
	Names() []string
	// Help explains one snippet: invocation, parameters, expansion.
	Help(name string) (string, bool)
	// Description is the snippet's one-line description.
	Description(name string) string
}

// Description is the pack's one-line description.
const Description = "Discover packs, tools, aliases and snippets; statistics, health, and the pages of large results"

// Register adds the ot pack to reg.
func Register(reg *packs.Registry, info Info) error {
	reg.SetPackDescription("ot", Description)
	return reg.RegisterBuiltin(Tools(reg, info)...)
}

// Tools returns the ot tools, reading reg when called.
func Tools(reg *packs.Registry, info Info) []*packs.Tool {
	info.searchCache = rank.NewCache()
	return []*packs.Tool{
		{
			Pack: "ot", Name: "help",
			Description: "Help on anything: no query for an overview; a pack or Python module name (\"file\", \"re\") for a Python stub line per function " +
				"(typed signature and first sentence) and what the pack reaches (db's tables, file's roots, web's hosts); a tool id (\"demo.foo\") for its typed signature, whole description, parameters and examples; " +
				"any other text searches tools, modules and packs.",
			InputSchema: `{"type":"object","properties":{"query":{"type":"string","default":"","description":"tool id, pack or module name, or search words"}}}`,
			Returns:     "str",
			Examples: []packs.Example{
				{Code: `ot.help()`, Description: "overview"},
				{Code: `ot.help(query="demo")`, Description: "a pack: a stub line per tool"},
				{Code: `ot.help(query="demo.foo")`, Description: "one tool"},
				{Code: `ot.help(query="sleep")`, Description: "search"},
			},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(ctx context.Context, args map[string]any) (any, error) {
				info.wait(ctx)
				q, _ := args["query"].(string)
				return help(ctx, info.view(ctx, reg), info, q), nil
			},
		},
		{
			Pack: "ot", Name: "packs",
			Description: "List the packs with their descriptions and number of tools.",
			Returns:     "list[dict]",
			Examples:    []packs.Example{{Code: `[p["name"] for p in ot.packs()]`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(ctx context.Context, _ map[string]any) (any, error) {
				info.wait(ctx)
				var out []any
				for _, p := range info.view(ctx, reg).Packs() {
					m := ordered.NewMap(3)
					m.Set("name", p.Name)
					m.Set("description", p.Description)
					m.Set("tools", len(p.Tools()))
					out = append(out, m)
				}
				return out, nil
			},
		},
		{
			Pack: "ot", Name: "tools",
			Description: "List tools whose id matches pattern (a glob such as \"demo.*\", or a substring). " +
				"info=\"min\" gives ids, \"default\" adds signatures and descriptions, \"full\" adds parameter schemas, examples and annotations.",
			InputSchema: `{"type":"object","properties":{` +
				`"pattern":{"type":"string","default":"","description":"glob or substring of tool ids"},` +
				`"info":{"type":"string","enum":["min","default","full"],"default":"default","description":"detail level"}}}`,
			Returns: "list",
			Examples: []packs.Example{
				{Code: `ot.tools(pattern="demo.*", info="min")`},
			},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(ctx context.Context, args map[string]any) (any, error) {
				info.wait(ctx)
				pattern, _ := args["pattern"].(string)
				detail, _ := args["info"].(string)
				return listTools(info.view(ctx, reg), pattern, detail), nil
			},
		},
		{
			Pack: "ot", Name: "aliases",
			Description: "The configured aliases: a dict of alias name → the tool it calls.",
			Returns:     "dict",
			Examples:    []packs.Example{{Code: `ot.aliases()`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				m := ordered.NewMap(len(info.Aliases))
				for _, n := range sortedKeys(info.Aliases) {
					m.Set(n, info.Aliases[n])
				}
				return m, nil
			},
		},
		{
			Pack: "ot", Name: "snippets",
			Description: "The configured snippets: name and description of each. Run one by sending `$name key=value` as the whole program; ot.help(query=\"$name\") explains it.",
			Returns:     "list[dict]",
			Examples:    []packs.Example{{Code: `ot.snippets()`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				out := []any{}
				if info.Snippets == nil {
					return out, nil
				}
				for _, n := range info.Snippets.Names() {
					m := ordered.NewMap(2)
					m.Set("name", n)
					m.Set("description", info.Snippets.Description(n))
					out = append(out, m)
				}
				return out, nil
			},
		},
		{
			Pack: "ot", Name: "config",
			Description: "The effective configuration as YAML, with every secret masked.",
			Returns:     "str",
			Examples:    []packs.Example{{Code: `ot.config()`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				if info.Config == nil {
					return "{}", nil
				}
				return info.Config(), nil
			},
		},
		{
			Pack: "ot", Name: "servers",
			Description: "The upstream MCP servers: name, pack, transport, state (connecting, connected, failed, exited), number of tools, restarts and last error.",
			Returns:     "list[dict]",
			Examples:    []packs.Example{{Code: `[s["name"] for s in ot.servers() if s["state"] != "connected"]`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				if info.Servers == nil {
					return []any{}, nil
				}
				return info.Servers(), nil
			},
		},
		{
			Pack: "ot", Name: "stats",
			Description: "Runtime statistics: runs (count, failures by kind, time, bytes; by principal on a server with serve.auth), the cache of deterministic tool results (hits, misses, entries, bytes) and, per tool, calls, failures, retries, cache hits, total and mean duration in ms.",
			Returns:     "dict",
			Examples:    []packs.Example{{Code: `ot.stats()["cache"]["hits"]`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				if info.Stats == nil {
					return ordered.NewMap(0), nil
				}
				return info.Stats(), nil
			},
		},
		{
			Pack: "ot", Name: "health",
			Description: "Whether onetool is well: status (\"ok\", or \"degraded\" while an upstream server is failed or exited), version, uptime in seconds, runs so far, and each upstream server's state.",
			Returns:     "dict",
			Examples:    []packs.Example{{Code: `ot.health()["status"]`, Result: "ok"}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				if info.Health == nil {
					m := ordered.NewMap(1)
					m.Set("status", "ok")
					return m, nil
				}
				return info.Health(), nil
			},
		},
		{
			Pack: "ot", Name: "result",
			Description: "Read a large result that a run stored under a handle instead of returning it whole (its preview ends with the handle and the call that reads on). " +
				"By lines: `limit` lines from line `offset` (1-based). By characters: `max_chars` characters from character `start` (0-based, newlines included), for results of one or a few long lines. " +
				"A page holds at most `max_chars` characters (default 10000, or half of output.max_inline when that is less): a page of lines stops before a line that would not fit, " +
				"and a line longer than a page is paged by characters. Each page ends with the call that reads the next. " +
				"With `search` (a regular expression), the matches from `offset` (or `start`) on: a matching line whole, numbered, and in a long line each match with the text around it, its character and the call that reads there. " +
				"A JSON value is stored one member per line. Results are kept for 30 minutes.",
			InputSchema: `{"type":"object","properties":{` +
				`"handle":{"type":"string","description":"The handle from the preview, e.g. \"r7k2m9x4qa\"."},` +
				`"offset":{"type":"integer","default":1,"description":"First line to return, from 1."},` +
				`"limit":{"type":"integer","default":100,"description":"Most lines to return (at most 1000)."},` +
				`"search":{"type":"string","default":"","description":"A regular expression: return the matches (from offset, or start, on) instead of a page."},` +
				`"start":{"type":"integer","description":"First character to return, from 0: page by characters instead of lines."},` +
				`"max_chars":{"type":"integer","description":"Most characters in a page (at most 100000; default 10000, or half of output.max_inline when less)."}},` +
				`"required":["handle"],"additionalProperties":false}`,
			Returns: "any",
			Examples: []packs.Example{
				{Code: `ot.result(handle="r7k2m9x4qa", offset=101, limit=100)`, Description: "the next page of lines"},
				{Code: `ot.result(handle="r7k2m9x4qa", start=2000)`, Description: "the next 10000 characters of a long line"},
				{Code: `ot.result(handle="r7k2m9x4qa", search="ERROR|WARN")`, Description: "only what matches"},
			},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(ctx context.Context, args map[string]any) (any, error) {
				if info.Result == nil {
					return nil, fmt.Errorf("no results are stored here")
				}
				q := ResultQuery{Offset: intArg(args["offset"], 1), Limit: intArg(args["limit"], 100),
					Start: optionalInt(args["start"]), MaxChars: optionalInt(args["max_chars"])}
				q.Handle, _ = args["handle"].(string)
				q.Search, _ = args["search"].(string)
				return info.Result(ctx, q)
			},
		},
		{
			Pack: "ot", Name: "version",
			Description: "The version of onetool.",
			Returns:     "str",
			Examples:    []packs.Example{{Code: `ot.version()`}},
			Annotations: packs.Annotations{ReadOnly: true},
			Handler: func(context.Context, map[string]any) (any, error) {
				return info.Version, nil
			},
		},
	}
}

// matchID reports whether a tool id matches a pattern: a glob when it has
// glob characters, else a case-insensitive substring.
func matchID(pattern, id string) bool {
	if pattern == "" {
		return true
	}
	pattern = strings.ReplaceAll(pattern, ":", ".")
	if strings.ContainsAny(pattern, "*?[") {
		ok, err := path.Match(pattern, id)
		return ok && err == nil
	}
	return strings.Contains(strings.ToLower(id), strings.ToLower(pattern))
}

func listTools(reg *packs.Registry, pattern, info string) []any {
	out := []any{}
	for _, t := range reg.Tools() {
		if !matchID(pattern, t.ID()) {
			continue
		}
		if info == "min" {
			out = append(out, t.ID())
			continue
		}
		m := ordered.NewMap(6)
		m.Set("id", t.ID())
		m.Set("signature", t.Signature())
		m.Set("description", firstLine(t.Description))
		if info == "full" {
			m.Set("description", t.Description)
			params := []any{}
			for _, p := range t.Params() {
				pm := ordered.NewMap(5)
				pm.Set("name", p.Name)
				pm.Set("type", p.Type)
				pm.Set("required", p.Required)
				if p.HasDefault {
					pm.Set("default", p.Default)
				}
				pm.Set("description", p.Description)
				params = append(params, pm)
			}
			m.Set("params", params)
			examples := []any{}
			for _, e := range t.Examples {
				examples = append(examples, e.Code)
			}
			m.Set("examples", examples)
			ann := ordered.NewMap(3)
			ann.Set("read_only", t.Annotations.ReadOnly)
			ann.Set("destructive", t.Annotations.Destructive)
			ann.Set("open_world", t.Annotations.OpenWorld)
			m.Set("annotations", ann)
		}
		out = append(out, m)
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Help answers ot.help(query) and `onetool help NAME` for a registry
// without aliases or snippets.
func Help(reg *packs.Registry, query string) string {
	return help(context.Background(), reg, Info{}, query)
}

// help answers ot.help(query): a tool id gives its doc, a pack its tools,
// an alias its target's doc, "$name" a snippet; anything else searches.
func help(ctx context.Context, reg *packs.Registry, info Info, query string) string {
	query = strings.TrimSpace(query)
	if query == "" {
		return overview(reg, info)
	}
	if t, ok := reg.Tool(query); ok {
		return t.Doc()
	}
	if p, ok := reg.Pack(query); ok {
		return catalog.PackHelp(ctx, p, catalog.Options{Result: info.Shape})
	}
	if m, ok := info.module(query); ok {
		return catalog.ModuleHelp(m)
	}
	if mod, member, ok := strings.Cut(query, "."); ok {
		if m, ok := info.module(mod); ok {
			if text, ok := memberHelp(m, member); ok {
				return text
			}
		}
	}
	if target, ok := info.Aliases[query]; ok {
		text := fmt.Sprintf("%s is an alias of %s: %s(...) calls %s(...).", query, target, query, target)
		if t, ok := reg.Tool(target); ok {
			text += "\n\n" + t.Doc()
		}
		return text
	}
	if name, ok := strings.CutPrefix(query, "$"); ok && info.Snippets != nil {
		if text, ok := info.Snippets.Help(name); ok {
			return text
		}
	}
	return search(reg, info, query)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func overview(reg *packs.Registry, info Info) string {
	var b strings.Builder
	b.WriteString("onetool runs Python programs that call tools as pack.function(name=value);\n")
	b.WriteString("the last expression (or a top-level return) is the result.\n\nPacks:\n")
	for _, p := range reg.Packs() {
		fmt.Fprintf(&b, "  %s — %s (%s)\n", p.Name, p.Description, strings.Join(p.ToolNames(), ", "))
	}
	if len(info.Aliases) > 0 {
		var parts []string
		for _, n := range sortedKeys(info.Aliases) {
			parts = append(parts, n+" → "+info.Aliases[n])
		}
		fmt.Fprintf(&b, "\nAliases: %s\n", strings.Join(parts, ", "))
	}
	if info.Snippets != nil && len(info.Snippets.Names()) > 0 {
		fmt.Fprintf(&b, "\nSnippets (send \"$name key=value\" as the whole program): $%s\n", strings.Join(info.Snippets.Names(), ", $"))
	}
	if names := ModuleNames(info.Modules); len(names) > 0 {
		fmt.Fprintf(&b, "\nPython modules (import them or use them directly): %s\n", strings.Join(names, ", "))
	}
	b.WriteString("\nDiscover: ot.help(query=\"pack\") or ot.help(query=\"module\") one line per function, ot.help(query=\"pack.function\") its parameters and examples, ot.help(query=\"words\") search, ot.tools(pattern=\"pack.*\").\n")
	b.WriteString("Programs are Python (sandboxed): f-strings, try/except, with, classes, decorators, comprehensions, imports of the modules above; open(), os, pathlib, requests and sqlite3 work within the allowed roots, hosts and databases; generators and async/await (tool calls awaited in a coroutine run at once).")
	return b.String()
}

// memberHelp is the line of one member of a module.
func memberHelp(m Module, member string) (string, bool) {
	for _, e := range m.Entries {
		if slices.Contains(e.Names, member) {
			return fmt.Sprintf("%s.%s\n\n(module %s — %s; all of it: ot.help(query=%q))", m.Name, e.Line, m.Name, m.Summary, m.Name), true
		}
	}
	if slices.Contains(m.Constants, member) {
		return fmt.Sprintf("%s.%s is a constant of module %s — %s; all of it: ot.help(query=%q)", m.Name, member, m.Name, m.Summary, m.Name), true
	}
	return "", false
}

// search ranks tools, packs, modules, aliases and snippets against the
// query words (package search: BM25 over names, descriptions and
// parameter names, with stemming and synonyms) and lists the best 20.
// The index is kept in info.searchCache while the documents stay the
// same (the same tool values, descriptions, aliases and snippets).
func search(reg *packs.Registry, info Info, query string) string {
	ps := reg.Packs()
	key := make([]any, 0, 64)
	for _, p := range ps {
		key = append(key, p.Name, p.Description)
		for _, t := range p.Tools() {
			key = append(key, t)
		}
	}
	key = append(key, len(info.Modules))
	for _, m := range info.Modules {
		key = append(key, m.Name, len(m.Entries))
	}
	for _, n := range sortedKeys(info.Aliases) {
		key = append(key, n, info.Aliases[n])
	}
	if info.Snippets != nil {
		for _, n := range info.Snippets.Names() {
			key = append(key, "$"+n, info.Snippets.Description(n))
		}
	}
	ix := info.searchCache.Index(key, func() []rank.Doc { return searchDocs(ps, info) })
	hits := ix.Search(query, maxMatches)
	if len(hits) == 0 {
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		text := fmt.Sprintf("Nothing matches %q. Packs: %s.", query, strings.Join(names, ", "))
		if names := ModuleNames(info.Modules); len(names) > 0 {
			text += " Modules: " + strings.Join(names, ", ") + "."
		}
		return text + " Try ot.help() for an overview."
	}
	if len(hits) > maxMatches {
		hits = hits[:maxMatches]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Matches for %q:", query)
	for _, h := range hits {
		b.WriteString("\n  ")
		b.WriteString(ix.Ref(h.Doc).(func() string)())
	}
	return b.String()
}

// searchDocs are the documents search ranks; each one's Ref makes its
// line of the answer.
func searchDocs(ps []*packs.Pack, info Info) []rank.Doc {
	var docs []rank.Doc
	for _, p := range ps {
		// A pack ranks below its best tools: an agent that asks for a task
		// wants the function; asked by its name, the pack still comes first.
		docs = append(docs, rank.Doc{Name: p.Name, Text: p.Description, Weight: packWeight,
			Ref: func() string { return fmt.Sprintf("pack %s — %s", p.Name, p.Description) }})
		for _, t := range p.Tools() {
			var params, paramText []string
			for _, pa := range t.Params() {
				params = append(params, pa.Name)
				paramText = append(paramText, pa.Description)
			}
			docs = append(docs, rank.Doc{Name: t.Name, Group: t.Pack, Text: t.Description, Params: params,
				ParamText: strings.Join(paramText, " "), Context: p.Description, Ref: t.Summary})
		}
	}
	for _, m := range info.Modules {
		docs = append(docs, rank.Doc{Name: m.Name, Text: m.Summary, Weight: packWeight, Ref: func() string {
			return packs.Clip(fmt.Sprintf("module %s — %s", m.Name, m.Summary), packs.SummaryWidth)
		}})
		for _, e := range m.Entries {
			// The line starts with the signature: its names are the Name.
			_, desc, ok := strings.Cut(e.Line, "— ")
			if !ok {
				desc = e.Line
			}
			docs = append(docs, rank.Doc{Name: strings.Join(e.Names, " "), Group: m.Name, Text: desc, Context: m.Summary, Ref: func() string {
				return packs.Clip(m.Name+"."+e.Line, packs.SummaryWidth)
			}})
		}
	}
	for _, n := range sortedKeys(info.Aliases) {
		target := info.Aliases[n]
		docs = append(docs, rank.Doc{Name: n, Text: "alias of " + target, Ref: func() string { return fmt.Sprintf("alias %s → %s", n, target) }})
	}
	if info.Snippets != nil {
		for _, n := range info.Snippets.Names() {
			d := info.Snippets.Description(n)
			docs = append(docs, rank.Doc{Name: n, Text: d, Ref: func() string {
				text := "snippet $" + n
				if d != "" {
					text += " — " + d
				}
				return text
			}})
		}
	}
	return docs
}

const (
	maxMatches = 20  // lines of a search's answer
	packWeight = 0.7 // a pack's or module's score, relative to a function's
)

// intArg reads an integer argument as Starlark (int64) and Go callers
// (int, float64, json.Number) pass it; def when absent.
// ResultQuery is an ot.result call: a page of lines (Offset, Limit), of
// characters (Start, MaxChars), or the matches of Search. Start and
// MaxChars are nil when not given.
type ResultQuery struct {
	Handle        string
	Offset, Limit int
	Start         *int
	MaxChars      *int
	Search        string
}

// optionalInt is nil for an absent (or None) argument, else the number.
func optionalInt(v any) *int {
	if v == nil {
		return nil
	}
	n := intArg(v, 0)
	return &n
}

func intArg(v any, def int) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int:
		return x
	case float64:
		return int(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n)
		}
	}
	return def
}
