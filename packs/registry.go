package packs

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Registry holds the packs a run can call. It is safe for concurrent use:
// upstream MCP servers add their packs in the background while runs read.
// Readers get Pack snapshots that never change; a change to a pack
// publishes a new snapshot.
type Registry struct {
	mu           sync.RWMutex
	packs        map[string]*Pack
	descriptions map[string]string
	contexts     map[string]ContextFunc
	generation   uint64
	// variants are the tools of Python's own APIs, by VariantID (see
	// Tool.Variant): kept apart from packs, so no listing ever sees them.
	variants map[string]*Tool
}

// Pack is an immutable snapshot of one pack: its name, description and
// tools. It stays valid, unchanged, while the registry changes.
type Pack struct {
	Name, Description string

	context ContextFunc
	tools   []*Tool // sorted by name
	byName  map[string]*Tool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{packs: map[string]*Pack{}, descriptions: map[string]string{}, contexts: map[string]ContextFunc{}, variants: map[string]*Tool{}}
}

// ContextFunc computes a pack's context: what its help says of what the
// pack reaches here and now (the db pack's tables, the file pack's roots,
// the web pack's hosts), as a few lines of text. It runs when help is
// asked for, with the asker's context (roots.FromContext gives the run's
// roots), and must honour ctx's deadline: package catalog bounds its
// time and size, and the run redacts its text as any result.
type ContextFunc func(ctx context.Context) string

// SetPackContext sets the function that computes a pack's context for its
// help (nil: none). It may come before or after the pack's tools.
func (r *Registry) SetPackContext(pack string, fn ContextFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contexts[pack] = fn
	if p, ok := r.packs[pack]; ok {
		r.packs[pack] = &Pack{Name: p.Name, Description: p.Description, context: fn, tools: p.tools, byName: p.byName}
		r.generation++
	}
}

// Context returns the function that computes the pack's context for its
// help, or nil.
func (p *Pack) Context() ContextFunc { return p.context }

// SetPackDescription sets the one-line description of a pack, shown in
// server instructions and help. It may come before or after the pack's
// tools are registered.
func (r *Registry) SetPackDescription(pack, description string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.descriptions[pack] = description
	if p, ok := r.packs[pack]; ok {
		r.packs[pack] = &Pack{Name: p.Name, Description: description, context: p.context, tools: p.tools, byName: p.byName}
		r.generation++
	}
}

// Register compiles tools and adds them. It is all or nothing: on any
// error (a bad name, a tool without a handler, a schema that does not
// compile, an id already registered or given twice) nothing is added.
func (r *Registry) Register(tools ...*Tool) error {
	return r.register(tools, true)
}

// RegisterBuiltin adds tools whose schemas are part of onetool itself, as
// Register does, except that each tool's schemas are compiled on its first
// use instead of now: compiling every built-in tool's schemas cost a
// server about 5 ms and 1 MB of allocation before its first answer
// (issue 20), for tools a session may never call. Their schemas are fixed
// in the source, and a test compiles them all; tools from configuration or
// upstream servers go through Register, so their errors show at once.
func (r *Registry) RegisterBuiltin(tools ...*Tool) error {
	return r.register(tools, false)
}

func (r *Registry) register(tools []*Tool, compile bool) error {
	if err := prepare(tools, compile, false); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range tools {
		if p, ok := r.packs[t.Pack]; ok {
			if _, dup := p.byName[t.Name]; dup {
				return newToolError(ErrDuplicateTool, "%s: a tool with this id is already registered", t.ID())
			}
		}
	}
	byPack := map[string][]*Tool{}
	for _, t := range tools {
		byPack[t.Pack] = append(byPack[t.Pack], t)
	}
	for name, added := range byPack {
		var existing []*Tool
		if p, ok := r.packs[name]; ok {
			existing = p.tools
		}
		r.packs[name] = r.newPack(name, append(slices.Clone(existing), added...))
	}
	r.generation++
	return nil
}

// ReplacePack sets the tools of pack name to exactly tools, atomically
// (an upstream server reconnected with a different tool list). With no
// tools the pack is removed. As with Register, nothing changes on error.
func (r *Registry) ReplacePack(name string, tools ...*Tool) error {
	for _, t := range tools {
		if t.Pack != name {
			return newToolError(ErrInvalidTool, "%s: tool is not in pack %s", t.ID(), name)
		}
	}
	if err := prepare(tools, true, false); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(tools) == 0 {
		delete(r.packs, name)
	} else {
		r.packs[name] = r.newPack(name, slices.Clone(tools))
	}
	r.dropVariants(name)
	r.generation++
	return nil
}

// RemovePack removes a pack and its tools; it reports whether it existed.
func (r *Registry) RemovePack(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.packs[name]; !ok {
		return false
	}
	delete(r.packs, name)
	r.dropVariants(name)
	r.generation++
	return true
}

// RegisterVariants adds variants of registered tools (see Tool.Variant):
// each needs its Variant set, a handler, and its public tool
// (Pack.Name) registered first, since policy and stats speak of that
// one. As RegisterBuiltin, it compiles each schema on first use (they are
// onetool's own; a pack's test compiles them). All or nothing. The
// variants go when their pack is replaced or removed.
//
// A pack's Register builds its shared state once and registers both
// sets, so that variants and tools see the same state:
//
//	p := newPack(o)
//	r.RegisterBuiltin(p.tools()...)
//	r.RegisterVariants(p.pyops()...)
func (r *Registry) RegisterVariants(tools ...*Tool) error {
	if err := prepare(tools, false, true); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range tools {
		p, ok := r.packs[t.Pack]
		if ok {
			_, ok = p.Tool(t.Name)
		}
		if !ok {
			return newToolError(ErrInvalidTool, "%s: its tool %s is not registered", t.VariantID(), t.ID())
		}
		if _, dup := r.variants[t.VariantID()]; dup {
			return newToolError(ErrDuplicateTool, "%s: a variant with this id is already registered", t.VariantID())
		}
	}
	for _, t := range tools {
		r.variants[t.VariantID()] = t
	}
	r.generation++
	return nil
}

// Variant finds a variant by its VariantID, "file.read@chunk". Only
// variants are found: a plain "pack.name" is Tool's.
func (r *Registry) Variant(id string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.variants[id]
	return t, ok
}

// Variants returns every variant, sorted by VariantID: for a worker's
// setup and for tests, never for a listing.
func (r *Registry) Variants() []*Tool {
	r.mu.RLock()
	out := slices.Collect(maps.Values(r.variants))
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b *Tool) int { return strings.Compare(a.VariantID(), b.VariantID()) })
	return out
}

// dropVariants forgets the variants of pack name. r.mu is held.
func (r *Registry) dropVariants(name string) {
	for id, t := range r.variants {
		if t.Pack == name {
			delete(r.variants, id)
		}
	}
}

// Filtered returns a snapshot of r holding only the tools keep accepts
// (a principal's view, SPEC §7.4); packs left without tools are dropped.
// It does not compile anything again: the tools are the same values.
func (r *Registry) Filtered(keep func(*Tool) bool) *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := NewRegistry()
	maps.Copy(out.descriptions, r.descriptions)
	maps.Copy(out.contexts, r.contexts)
	for name, p := range r.packs {
		var tools []*Tool
		for _, t := range p.tools {
			if keep(t) {
				tools = append(tools, t)
			}
		}
		if len(tools) > 0 {
			out.packs[name] = newPack(name, p.Description, p.context, tools)
		}
	}
	out.generation = r.generation
	return out
}

// Generation counts changes to the registry. Code that builds something
// from the packs (the Starlark globals) rebuilds it when this changes.
func (r *Registry) Generation() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.generation
}

// prepare checks and, with compile, compiles tools before they are added,
// outside the registry's lock: compiling a schema takes microseconds,
// readers should not wait for it.
func prepare(tools []*Tool, compile, variants bool) error {
	seen := map[string]bool{}
	for _, t := range tools {
		if t == nil {
			return newToolError(ErrInvalidTool, "nil tool")
		}
		if err := checkName("pack", t.Pack); err != nil {
			return newToolError(ErrInvalidTool, "%s: %v", t.ID(), err)
		}
		if err := checkName("tool", t.Name); err != nil {
			return newToolError(ErrInvalidTool, "%s: %v", t.ID(), err)
		}
		if len(t.BackendList()) == 0 {
			return newToolError(ErrInvalidTool, "%s: tool has no handler or backend", t.ID())
		}
		if t.Variant != "" != variants {
			if variants {
				return newToolError(ErrInvalidTool, "%s: not a variant (Variant is empty): register it with Register", t.ID())
			}
			return newToolError(ErrInvalidTool, "%s: a variant is registered with RegisterVariants", t.VariantID())
		}
		if variants && (!IsIdentifier(t.Variant) || t.Variant[0] == '_') {
			return newToolError(ErrInvalidTool, "%s: variant name %s is not an identifier", t.ID(), quote(t.Variant))
		}
		if seen[t.VariantID()] {
			return newToolError(ErrDuplicateTool, "%s: tool given twice", t.VariantID())
		}
		seen[t.VariantID()] = true
		if !compile {
			continue
		}
		if err := t.Compile(); err != nil {
			return err
		}
	}
	return nil
}

// newPack is a snapshot of pack name with tools and the registry's
// description and context for it. r.mu is held.
func (r *Registry) newPack(name string, tools []*Tool) *Pack {
	return newPack(name, r.descriptions[name], r.contexts[name], tools)
}

func newPack(name, description string, cf ContextFunc, tools []*Tool) *Pack {
	slices.SortFunc(tools, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	p := &Pack{Name: name, Description: description, context: cf, tools: tools, byName: make(map[string]*Tool, len(tools))}
	for _, t := range tools {
		p.byName[t.Name] = t
	}
	return p
}

// Tool finds a tool by id, "pack.name" or "pack:name".
func (r *Registry) Tool(id string) (*Tool, bool) {
	// Split without validating: an id that is not well formed names no
	// registered tool anyway, and lookups are on every call's hot path.
	i := strings.IndexAny(id, ".:")
	if i < 0 {
		return nil, false
	}
	pack, name := id[:i], id[i+1:]
	p, ok := r.Pack(pack)
	if !ok {
		return nil, false
	}
	return p.Tool(name)
}

// Pack returns a snapshot of the named pack.
func (r *Registry) Pack(name string) (*Pack, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.packs[name]
	return p, ok
}

// Packs returns snapshots of all packs, sorted by name.
func (r *Registry) Packs() []*Pack {
	r.mu.RLock()
	out := make([]*Pack, 0, len(r.packs))
	for _, p := range r.packs {
		out = append(out, p)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Tools returns every tool, sorted by id.
func (r *Registry) Tools() []*Tool {
	var out []*Tool
	for _, p := range r.Packs() {
		out = append(out, p.tools...) // packs sorted, tools sorted within: ids sorted
	}
	return out
}

// Tools returns the pack's tools sorted by name. The slice is a copy.
func (p *Pack) Tools() []*Tool { return slices.Clone(p.tools) }

// Tool returns the pack's tool called name.
func (p *Pack) Tool(name string) (*Tool, bool) {
	t, ok := p.byName[name]
	return t, ok
}

// ToolNames returns the names of the pack's tools, sorted.
func (p *Pack) ToolNames() []string {
	names := make([]string, len(p.tools))
	for i, t := range p.tools {
		names[i] = t.Name
	}
	return names
}

// ParseID splits a tool id, "pack.name" or "pack:name", at its first
// separator. Both parts must be valid names (see Register); otherwise the
// error wraps ErrInvalidToolID.
func ParseID(id string) (pack, name string, err error) {
	i := strings.IndexAny(id, ".:")
	if i < 0 {
		return "", "", newToolError(ErrInvalidToolID, "invalid tool id %q: want pack.name", id)
	}
	pack, name = id[:i], id[i+1:]
	if checkName("pack", pack) != nil || checkName("tool", name) != nil {
		return "", "", newToolError(ErrInvalidToolID, "invalid tool id %q: want pack.name", id)
	}
	return pack, name, nil
}

// starlarkKeywords cannot name a pack or tool: `for.x` and `pack.def`
// would not parse.
var starlarkKeywords = map[string]bool{
	"and": true, "break": true, "continue": true, "def": true, "elif": true, "else": true,
	"for": true, "if": true, "in": true, "lambda": true, "load": true, "not": true, "or": true,
	"pass": true, "return": true, "while": true,
	"as": true, "assert": true, "async": true, "await": true, "class": true, "del": true,
	"except": true, "finally": true, "from": true, "global": true, "import": true, "is": true,
	"nonlocal": true, "raise": true, "try": true, "with": true, "yield": true,
	"None": true, "True": true, "False": true,
}

// checkName enforces the rule for pack and tool names: a Starlark
// identifier, not a keyword, not starting with "_" (Starlark refuses such
// attributes of packs, and they read as private).
func checkName(what, name string) error {
	switch {
	case name == "":
		return errors.New(what + " name is empty")
	case !IsIdentifier(name):
		return errors.New(what + " name " + quote(name) + " is not an identifier (letters, digits, _)")
	case name[0] == '_':
		return errors.New(what + " name " + quote(name) + " starts with _")
	case starlarkKeywords[name]:
		return errors.New(what + " name " + quote(name) + " is a Starlark keyword")
	}
	return nil
}
