package packs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// Handler runs a tool. args has every parameter the caller passed plus
// defaults for absent ones; nested objects may be *ordered.Map or
// map[string]any, numbers int64 or float64 (json.Number from some Go
// callers). A handler must not modify args, and must honour ctx: it is how
// cancellation, the run's wall clock and the tool's Timeout reach it.
type Handler func(ctx context.Context, args map[string]any) (any, error)

// Annotations are hints about a tool's effects, shown to models and passed
// on to MCP clients.
type Annotations struct {
	ReadOnly    bool `json:"read_only,omitempty" yaml:"read_only,omitempty"`     // does not change its environment
	Destructive bool `json:"destructive,omitempty" yaml:"destructive,omitempty"` // may delete or overwrite
	OpenWorld   bool `json:"open_world,omitempty" yaml:"open_world,omitempty"`   // talks to the outside world (network)
}

// Example is a call shown in help.
type Example struct {
	Code        string // Starlark, e.g. `demo.foo(text="test")`
	Description string // optional
	Result      string // optional expected output shown in help
}

// Tool is one callable function of a pack. Fill in the exported fields,
// then Compile (Registry.Register does it). A Tool must not be modified
// or copied after it is compiled: the compiled state (parameters,
// signature, validators) is derived once from the fields and shared by
// every call. Use *Tool everywhere.
type Tool struct {
	Pack, Name    string
	Version       string // "" means "1"
	Description   string
	InputSchema   string // JSON Schema (object) as JSON text; properties in declared order; "" = no parameters
	OutputSchema  string // optional
	Returns       string // optional Starlark type for the stub; else derived from OutputSchema; else "any"
	Examples      []Example
	Synonyms      map[string][]string // parameter → other accepted names (e.g. "max_results": {"count"})
	Deterministic bool
	Annotations   Annotations
	Timeout       time.Duration // applied by Invoke when > 0
	// Handler runs the tool in this process. Tools served elsewhere (a
	// command, an upstream server), or in several places, set Backends
	// instead; a Handler alone is one local backend.
	Handler  Handler
	Backends []Backend
	// Variant, when set, makes the tool an operation of Python's own APIs
	// (open, os, pathlib, requests, sqlite3; issue 31) over the public
	// tool Pack.Name: "chunk" in file.read@chunk. ID() stays "pack.name",
	// so policy, the tool-call budget, confirmation, stats, metrics,
	// traces and the audit log all see the public tool; the handler and
	// InputSchema are the variant's own. A variant is added with
	// Registry.RegisterVariants, found with Registry.Variant by VariantID,
	// and never listed: not in Packs, Tools, Filtered, the catalog,
	// search, ot.tools, resources or dir(pack). It must be an identifier.
	Variant string

	state atomic.Pointer[toolState]
}

// toolState is everything Compile derives from a Tool's fields. It is
// immutable once published, so calls read it without locks.
type toolState struct {
	id         string
	backends   []Backend         // the Handler as one local backend, when Backends is empty
	params     []Param           // signature order: required, then optional
	index      map[string]int    // exact parameter names → params index
	synonyms   map[string]int    // synonyms → params index
	candidates []string          // names and synonyms, for did-you-mean
	owner      map[string]string // candidate → the parameter it stands for
	open       bool              // undeclared names are passed through (additionalProperties given)
	signature  string
	summary    string
	doc        string
	input      *validator
	output     *validator // nil without an OutputSchema
}

// Param describes one parameter, derived from the input schema.
type Param struct {
	Name string
	Type string // Starlark type stub: "str", "int | None", "list[str]"
	// Stub is the type in a catalog's stub line (package catalog): as
	// Type, but an enum is Literal["a", "b"] and an object {key: type}.
	Stub        string
	Description string
	Required    bool
	Default     any // meaningful when HasDefault
	HasDefault  bool
	Enum        []any // allowed values, if the schema lists them
	Synonyms    []string
	Schema      *ordered.Map // the property's schema; nil when it is `true`

	// noneIsAbsent: an explicit None for this optional parameter means
	// "use the default", because its schema does not accept null.
	noneIsAbsent bool
}

// ID returns "pack.name".
func (t *Tool) ID() string {
	if st := t.state.Load(); st != nil {
		return st.id // computed once: ids are built on every call's hot path
	}
	return t.Pack + "." + t.Name
}

// VariantID returns "pack.name@variant" for a variant (see Variant), the
// key Registry.Variant finds it by and the id a worker sends over the
// pipe; ID() for any other tool.
func (t *Tool) VariantID() string {
	if t.Variant == "" {
		return t.ID()
	}
	return t.ID() + "@" + t.Variant
}

// EffectiveVersion returns Version, or "1" when it is empty. Caches key on it.
func (t *Tool) EffectiveVersion() string {
	if t.Version == "" {
		return "1"
	}
	return t.Version
}

// Compile parses and compiles the tool's schemas, and derives its
// parameters, signature and help text. It does the work once: later calls
// (and calls from other goroutines) return at once. Registry.Register calls
// it; other methods call it on first use.
func (t *Tool) Compile() error {
	_, err := t.compiled()
	return err
}

// compiled returns the compiled state, compiling on first use. Two
// goroutines may both compile; the first result published wins, and both
// are equivalent.
func (t *Tool) compiled() (*toolState, error) {
	if st := t.state.Load(); st != nil {
		return st, nil
	}
	st, err := t.compile()
	if err != nil {
		return nil, err
	}
	t.state.CompareAndSwap(nil, st)
	return t.state.Load(), nil
}

func (t *Tool) compile() (*toolState, error) {
	id := t.ID()
	in, err := compileValidator(id, "input", t.InputSchema, true)
	if err != nil {
		return nil, err
	}
	st := &toolState{input: in, id: id}
	if len(t.Backends) == 0 && t.Handler != nil {
		st.backends = []Backend{{Kind: BackendLocal, Name: "go:" + id, Handler: t.Handler}}
	}
	if t.OutputSchema != "" {
		if st.output, err = compileValidator(id, "output", t.OutputSchema, false); err != nil {
			return nil, err
		}
	}
	if err := st.deriveParams(id, in.root, t.Synonyms); err != nil {
		return nil, err
	}
	st.signature = renderSignature(t, st)
	st.summary = renderSummary(t, st)
	st.doc = renderDoc(t, st)
	return st, nil
}

// deriveParams builds the parameter list, in signature order, and the
// lookup tables Bind uses.
func (st *toolState) deriveParams(id string, root any, synonyms map[string][]string) error {
	schema, _ := root.(*ordered.Map)
	var required, optional []Param
	isRequired := map[string]bool{}
	if list, ok := get[[]any](schema, "required"); ok {
		for _, r := range list {
			if name, ok := r.(string); ok {
				isRequired[name] = true
			}
		}
	}
	declared := map[string]bool{}
	if props, ok := get[*ordered.Map](schema, "properties"); ok {
		props.Range(func(name string, v any) bool {
			declared[name] = true
			p := newParam(name, v, root)
			p.Required = isRequired[name]
			if p.Required {
				required = append(required, p)
			} else {
				optional = append(optional, p)
			}
			return true
		})
	}
	// A name can be required without being described; it is still a
	// parameter, of any type.
	if list, ok := get[[]any](schema, "required"); ok {
		for _, r := range list {
			if name, ok := r.(string); ok && !declared[name] {
				declared[name] = true
				required = append(required, Param{Name: name, Type: "any", Stub: "any", Required: true})
			}
		}
	}
	st.params = append(required, optional...)
	if ap, ok := schema.Get("additionalProperties"); ok && ap != false {
		st.open = true
	}
	if b, ok := root.(bool); ok && b {
		st.open = true
	}

	st.index = make(map[string]int, len(st.params))
	st.owner = make(map[string]string, len(st.params))
	for i, p := range st.params {
		st.index[p.Name] = i
		st.owner[p.Name] = p.Name
		st.candidates = append(st.candidates, p.Name)
	}
	// Sorted so that errors about synonyms do not depend on map order.
	for _, name := range slices.Sorted(maps.Keys(synonyms)) {
		i, ok := st.index[name]
		if !ok {
			return fmt.Errorf("%s: synonyms given for unknown parameter '%s': %w", id, name, ErrInvalidTool)
		}
		for _, syn := range synonyms[name] {
			if other, taken := st.owner[syn]; taken {
				return fmt.Errorf("%s: synonym '%s' of '%s' is already the name or a synonym of '%s': %w",
					id, syn, name, other, ErrInvalidTool)
			}
			if st.synonyms == nil {
				st.synonyms = map[string]int{}
			}
			st.synonyms[syn] = i
			st.owner[syn] = name
			st.candidates = append(st.candidates, syn)
			st.params[i].Synonyms = append(st.params[i].Synonyms, syn)
		}
	}
	return nil
}

// newParam describes the property name, whose schema is v; root is the
// whole input schema, for local $ref.
func newParam(name string, v any, root any) Param {
	p := Param{Name: name, Type: typeStub(v, root, 0), Stub: catalogType(v, root)}
	node, _ := v.(*ordered.Map)
	if node == nil {
		return p
	}
	p.Schema = normalize(node).(*ordered.Map)
	p.Description, _ = get[string](node, "description")
	if d, ok := node.Get("default"); ok {
		p.Default, p.HasDefault = normalize(d), true
	}
	if list, ok := get[[]any](node, "enum"); ok {
		p.Enum = normalize(list).([]any)
	}
	p.noneIsAbsent = !acceptsNull(node)
	return p
}

// acceptsNull reports whether a schema could accept null: it does unless
// its type (or enum, or const) rules null out. Anything more complex
// (anyOf, $ref) is assumed to accept it, so that None is passed through
// and the validator decides.
func acceptsNull(node *ordered.Map) bool {
	if t, ok := node.Get("type"); ok {
		switch t := t.(type) {
		case string:
			return t == "null"
		case []any:
			return slices.Contains(t, any("null"))
		}
	}
	if list, ok := get[[]any](node, "enum"); ok {
		return slices.Contains(list, nil)
	}
	if c, ok := node.Get("const"); ok {
		return c == nil
	}
	return true
}

// Params returns the parameters in signature order: required ones first,
// then optional ones, each group in the order the schema declares them.
// Positional arguments bind in this order. The slice is a copy.
func (t *Tool) Params() []Param {
	st, err := t.compiled()
	if err != nil {
		return nil
	}
	return slices.Clone(st.params)
}

// Signature returns the tool's typed stub, as models see it:
//
//	file.read(path: str, offset: int = 1, limit: int = 2000) -> str
func (t *Tool) Signature() string {
	st, err := t.compiled()
	if err != nil {
		return t.ID() + "(...) -> any"
	}
	return st.signature
}

// Doc returns the help text: the signature, a blank line, the description,
// then "Parameters:" and "Examples:" sections.
func (t *Tool) Doc() string {
	st, err := t.compiled()
	if err != nil {
		return t.Signature() + "\n\n" + t.Description
	}
	return st.doc
}

// ReturnType returns the Starlark type of the result shown in the stub:
// Returns, else the output schema's type, else "any".
func (t *Tool) ReturnType() string {
	st, err := t.compiled()
	if err != nil {
		return "any"
	}
	return returnType(t, st)
}

// ResultStub returns the result's type for a catalog's stub line: Returns,
// else the output schema's type as catalogType renders it ({key: type},
// Literal[...]), else "any".
func (t *Tool) ResultStub() string {
	st, err := t.compiled()
	switch {
	case err != nil:
		return "any"
	case t.Returns != "":
		return t.Returns
	case st.output != nil:
		return catalogType(st.output.root, st.output.root)
	}
	return "any"
}
