package stdlib

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/objects"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// pathlib's pure paths (CPython 3.11, POSIX): PurePath, PurePosixPath,
// and the same computations for Path and PosixPath, whose methods that
// touch the file system a PathIO adds. A path is its root ("", "/" or
// "//") and its parts, the root first when there is one, parsed as
// CPython's _PosixFlavour.parse_parts does: empty and "." components
// dropped, ".." kept.

// PathIO gives pathlib.Path what needs the file system. The module that
// owns file operations implements it and passes it to NewPathlib.
type PathIO interface {
	// Attr is the attribute name of the concrete path p that is not a
	// pure one (exists, read_text, glob, absolute, …); nil, nil when
	// there is none.
	Attr(p *PurePathValue, name string) (starlark.Value, error)
	// AttrNames are the names Attr answers.
	AttrNames() []string
	// ClassAttr is an attribute of the class Path itself (cwd, home);
	// nil when there is none.
	ClassAttr(name string) starlark.Value
}

// Pathlib is a build of pathlib's classes: the pure ones and Path, which
// has the methods of io besides the pure ones. Every path a class makes
// points back to it, so that its results are of the same class.
type Pathlib struct {
	pure, concrete *pathClass // PurePosixPath, PosixPath
	purePath, path *pathClass // PurePath, Path: they make the others
	io             PathIO
}

// NewPathlib builds pathlib's classes; io (nil for none) gives Path its
// methods that read or write files.
func NewPathlib(io PathIO) *Pathlib {
	pl := &Pathlib{io: io}
	pl.pure = &pathClass{pl: pl, name: "PurePosixPath"}
	pl.concrete = &pathClass{pl: pl, name: "PosixPath", concrete: true}
	pl.purePath = &pathClass{pl: pl, name: "PurePath", makes: pl.pure}
	pl.path = &pathClass{pl: pl, name: "Path", concrete: true, makes: pl.concrete}
	pl.pure.makes, pl.concrete.makes = pl.pure, pl.concrete
	return pl
}

// Members are the pathlib module's classes by name: PurePath,
// PurePosixPath, Path and PosixPath.
func (pl *Pathlib) Members() starlark.StringDict {
	return starlark.StringDict{
		"PurePath":      pl.purePath,
		"PurePosixPath": pl.pure,
		"Path":          pl.path,
		"PosixPath":     pl.concrete,
	}
}

// Module is the pathlib module of these classes, for the module that
// registers it (with its own members added where it needs).
func (pl *Pathlib) Module() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "pathlib", Members: pl.Members()}
}

// NewPath is Path(s) (concrete) or PurePosixPath(s), made from Go; it
// charges nothing, for a host's own values (proj's paths).
func (pl *Pathlib) NewPath(s string, concrete bool) *PurePathValue {
	cls := pl.pure
	if concrete {
		cls = pl.concrete
	}
	root, parts := parsePathParts([]string{s})
	return cls.from(nil, root, parts)
}

// pathClass is one of pathlib's classes.
type pathClass struct {
	pl       *Pathlib
	name     string
	concrete bool       // its instances are Paths
	makes    *pathClass // the class of what calling it makes
}

var (
	_ pyrt.Class          = (*pathClass)(nil)
	_ starlark.Callable   = (*pathClass)(nil)
	_ starlark.HasAttrs   = (*pathClass)(nil)
	_ pyrt.SubclassTester = (*pathClass)(nil)
	_ starlark.HasBinary  = (*PurePathValue)(nil)
	_ starlark.Comparable = (*PurePathValue)(nil)
	_ starlark.HasAttrs   = (*PurePathValue)(nil)
	_ interp.HasStr       = (*PurePathValue)(nil)
	_ interp.Holder       = (*PurePathValue)(nil)
	_ interp.GoValuer     = (*PurePathValue)(nil)
	_ starlark.Sliceable  = (*pathParents)(nil)
	_ starlark.Iterable   = (*pathParents)(nil)
)

func (c *pathClass) String() string        { return "<class 'pathlib." + c.name + "'>" }
func (c *pathClass) Type() string          { return "type" }
func (c *pathClass) Name() string          { return c.name }
func (c *pathClass) Freeze()               {}
func (c *pathClass) Truth() starlark.Bool  { return true }
func (c *pathClass) Hash() (uint32, error) { return starlark.String("pathlib." + c.name).Hash() }

// HasInstance: every path is a PurePath and a PurePosixPath; only the
// concrete ones are Paths and PosixPaths (of any build of the classes:
// a host's paths and a module's are one kind).
func (c *pathClass) HasInstance(v starlark.Value) bool {
	p, ok := v.(*PurePathValue)
	return ok && (!c.concrete || p.cls.concrete)
}

// IsSubclassOf follows CPython's tree: PosixPath derives from Path and
// PurePosixPath, both from PurePath.
func (c *pathClass) IsSubclassOf(base starlark.Value) bool {
	b, ok := base.(*pathClass)
	if !ok {
		return false
	}
	switch b.name {
	case c.name, "PurePath":
		return true
	case "Path", "PurePosixPath":
		return c.name == "PosixPath"
	}
	return false
}

func (c *pathClass) AttrNames() []string { return []string{"__module__", "__name__", "__qualname__"} }

func (c *pathClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(c.name), nil
	case "__module__":
		return starlark.String("pathlib"), nil
	}
	if c.concrete && c.pl.io != nil {
		return c.pl.io.ClassAttr(name), nil
	}
	return nil, nil
}

// CallInternal is PurePosixPath(*pathsegments) and the others.
func (c *pathClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 && !c.concrete { // Path() of 3.11 ignores keywords
		k, _ := starlark.AsString(kwargs[0][0])
		return nil, pyrt.Errorf("TypeError", "PurePath.__new__() got an unexpected keyword argument '%s'", k)
	}
	root, parts, err := parsePathArgs(thread, args)
	if err != nil {
		return nil, err
	}
	return c.makes.from(interp.BudgetOf(thread), root, parts), nil
}

// from is a path of class c from parsed parts.
// The work of making it is charged to b (nil for none): the ancestors
// of a long path are each as long, so walking them charges each.
func (c *pathClass) from(b *interp.Budget, root string, parts []string) *PurePathValue {
	if b.Charge(2*uint64(len(parts))+1) != nil {
		// The budget is spent and the run's thread cancelled: the run
		// stops at its next step, and this path is never used.
		parts = nil
	}
	t := make(starlark.Tuple, len(parts))
	for i, s := range parts {
		t[i] = interp.MakeString(s)
	}
	t.Freeze()
	return &PurePathValue{cls: c, b: b, root: root, parts: t}
}

// parsePathArgs is PurePath._parse_args: paths give their parts, other
// arguments go through os.fspath and must be str.
func parsePathArgs(thread *starlark.Thread, args starlark.Tuple) (root string, parts []string, err error) {
	var segs []string
	n := 0
	for _, a := range args {
		if p, ok := a.(*PurePathValue); ok {
			segs = append(segs, p.strParts()...)
			n += len(p.parts)
			continue
		}
		t, err := fsPathText(thread, a)
		if err != nil {
			return "", nil, err
		}
		if t.bytes {
			return "", nil, pyrt.Errorf("TypeError", "argument should be a str object or an os.PathLike object returning str, not <class 'bytes'>")
		}
		segs = append(segs, t.s)
		n += pathWork(t.s)
	}
	if err := pathCharge(thread, 2*n+16*len(segs)); err != nil {
		return "", nil, err
	}
	root, parts = parsePathParts(segs)
	return root, parts, nil
}

// splitRoot is _PosixFlavour.splitroot: exactly two leading slashes are
// a root of their own, one or three and more are "/".
func splitRoot(part string) (root, rel string) {
	if !strings.HasPrefix(part, "/") {
		return "", part
	}
	rel = strings.TrimLeft(part, "/")
	if len(part)-len(rel) == 2 {
		return "//", rel
	}
	return "/", rel
}

// parsePathParts is _PosixFlavour.parse_parts: from the last segment
// back to the last one with a root.
func parsePathParts(segs []string) (root string, parts []string) {
	var rev []string
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i] == "" {
			continue
		}
		r, rel := splitRoot(segs[i])
		comps := strings.Split(rel, "/")
		for k := len(comps) - 1; k >= 0; k-- {
			if x := comps[k]; x != "" && x != "." {
				rev = append(rev, x)
			}
		}
		if r != "" {
			root = r
			rev = append(rev, r)
			break
		}
	}
	parts = make([]string, len(rev))
	for i, s := range rev {
		parts[len(rev)-1-i] = s
	}
	return root, parts
}

// PurePathValue is a pathlib path: a PurePosixPath, or a PosixPath when
// its class is concrete.
type PurePathValue struct {
	cls   *pathClass
	b     *interp.Budget // of the run that made it, for its operators
	root  string
	parts starlark.Tuple // of str, the root first when there is one
}

// Concrete reports whether p is a Path (PosixPath).
func (p *PurePathValue) Concrete() bool { return p.cls.concrete }

// Root is "", "/" or "//".
func (p *PurePathValue) Root() string { return p.root }

func (p *PurePathValue) strParts() []string {
	out := make([]string, len(p.parts))
	for i, v := range p.parts {
		out[i], _ = interp.AsText(v)
	}
	return out
}

// Parts are the path's parts, as .parts gives them.
func (p *PurePathValue) Parts() []string { return p.strParts() }

// Str is str(p): "." for no parts.
var _ interp.PathLike = (*PurePathValue)(nil)

// FSPath is os.fspath(p), for the modules that take a path from Go.
func (p *PurePathValue) FSPath() string { return p.Str() }

func (p *PurePathValue) Str() string {
	parts := p.strParts()
	if p.root != "" {
		return p.root + strings.Join(parts[1:], "/")
	}
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// strLen is len(p.Str()), to charge for it before making it.
func (p *PurePathValue) strLen() int {
	n := len(p.parts)
	for _, v := range p.parts {
		s, _ := interp.AsText(v)
		n += len(s)
	}
	return n
}

// cost is the work of going over p's parts once, for pathCharge.
func (p *PurePathValue) cost() int { return p.strLen() + 16*len(p.parts) }

// with is a path of p's class.
func (p *PurePathValue) with(root string, parts []string) *PurePathValue {
	return p.cls.from(p.b, root, parts)
}

func (p *PurePathValue) String() string        { return p.cls.name + "(" + interp.QuoteString(p.Str()) + ")" }
func (p *PurePathValue) Type() string          { return p.cls.name }
func (p *PurePathValue) Freeze()               {}
func (p *PurePathValue) Truth() starlark.Bool  { return true }
func (p *PurePathValue) Hash() (uint32, error) { return p.parts.Hash() }
func (p *PurePathValue) PyClass() starlark.Value {
	return p.cls
}

// GoValue is the path's str: a result shows it as text.
func (p *PurePathValue) GoValue() (any, error) { return p.Str(), nil }

// Held: the parts count against the memory budget.
func (p *PurePathValue) Held(visit func(starlark.Value)) {
	for _, v := range p.parts {
		visit(v)
	}
}

// WriteText writes str(p) or repr(p) under the writer's budget.
func (p *PurePathValue) WriteText(w *interp.TextWriter, str bool, _ int) error {
	if err := w.Budget.Charge(uint64(p.cost())/16 + 1); err != nil {
		return err
	}
	if str {
		return w.WriteString(p.Str())
	}
	return w.WriteString(p.String())
}

// CompareSameType orders paths by their parts, as CPython's _cparts on
// POSIX (a Path and a PurePosixPath compare: they share the flavour).
func (p *PurePathValue) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	q := y.(*PurePathValue)
	if err := p.b.Charge(uint64(p.cost()+q.cost())/16 + 1); err != nil {
		return false, err
	}
	a, b := p.strParts(), q.strParts()
	c := 0
	for i := 0; i < len(a) && i < len(b) && c == 0; i++ {
		c = strings.Compare(a[i], b[i])
	}
	if c == 0 {
		c = len(a) - len(b)
	}
	return interp.CompareOp(op, c, p, y)
}

// Binary is p / key and key / p; any other operator, or a key that is
// not a str or os.PathLike, is CPython's TypeError (unless the other
// operand's class may answer).
func (p *PurePathValue) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op == syntax.IN || op == syntax.NOT_IN {
		if side == starlark.Right {
			return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", p.cls.name)
		}
		return nil, nil
	}
	if op == syntax.SLASH {
		thread := p.b.Thread()
		var q *PurePathValue
		var err error
		if side == starlark.Left {
			q, err = p.child(thread, starlark.Tuple{y})
		} else {
			var root string
			var parts []string
			if root, parts, err = parsePathArgs(thread, append(starlark.Tuple{y}, p.parts...)); err == nil {
				q = p.with(root, parts)
			}
		}
		if err == nil || !isTypeError(err) {
			return q, err
		}
	}
	if _, other := y.(*objects.Instance); other && side == starlark.Left {
		return nil, nil // its class's __rtruediv__ may answer
	}
	x, z := starlark.Value(p), y
	if side == starlark.Right {
		x, z = y, p
	}
	return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, pyrt.TypeName(x), pyrt.TypeName(z))
}

func isTypeError(err error) bool {
	ex, ok := pyrt.Classify(err).(*pyrt.Exception)
	return ok && ex.Class == "TypeError"
}

// child is _make_child: p joined with args, a rooted one starting again.
func (p *PurePathValue) child(thread *starlark.Thread, args starlark.Tuple) (*PurePathValue, error) {
	root2, parts2, err := parsePathArgs(thread, args)
	if err != nil {
		return nil, err
	}
	if root2 != "" {
		return p.with(root2, parts2), nil
	}
	if err := pathCharge(thread, p.cost()); err != nil {
		return nil, err
	}
	return p.with(p.root, append(p.strParts(), parts2...)), nil
}

// name is the last part, "" when there is only the root or nothing.
func (p *PurePathValue) name() string {
	n := len(p.parts)
	if n == 0 || (n == 1 && p.root != "") {
		return ""
	}
	s, _ := interp.AsText(p.parts[n-1])
	return s
}

// suffix is the name's last dotted extension ("" for ".bashrc" or "a.").
func suffixOf(name string) string {
	i := strings.LastIndexByte(name, '.')
	if 0 < i && i < len(name)-1 {
		return name[i:]
	}
	return ""
}

var pathAttrs = []string{
	"anchor", "as_posix", "as_uri", "drive", "is_absolute", "is_relative_to", "is_reserved", "joinpath",
	"match", "name", "parent", "parents", "parts", "relative_to", "root", "stem", "suffix", "suffixes",
	"with_name", "with_stem", "with_suffix",
}

func (p *PurePathValue) AttrNames() []string {
	names := append([]string{"__fspath__"}, pathAttrs...)
	if p.cls.concrete && p.cls.pl.io != nil {
		names = append(names, p.cls.pl.io.AttrNames()...)
	}
	sort.Strings(names)
	return names
}

// pathMethods are the pure methods, by name.
var pathMethods = map[string]func(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error){
	"__fspath__":     pathFspath,
	"as_posix":       pathFspath,
	"as_uri":         pathAsURI,
	"is_absolute":    pathIsAbsolute,
	"is_reserved":    pathIsReserved,
	"is_relative_to": pathRelativeTo,
	"joinpath":       pathJoinpath,
	"match":          pathMatch,
	"relative_to":    pathRelativeTo,
	"with_name":      pathWithName,
	"with_stem":      pathWithName,
	"with_suffix":    pathWithSuffix,
}

func (p *PurePathValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "drive":
		return starlark.String(""), nil
	case "root", "anchor":
		return starlark.String(p.root), nil
	case "parts":
		return p.parts, nil
	case "name":
		return interp.MakeString(p.name()), nil
	case "suffix":
		return interp.MakeString(suffixOf(p.name())), nil
	case "stem":
		n := p.name()
		if s := suffixOf(n); s != "" {
			n = n[:len(n)-len(s)]
		}
		return interp.MakeString(n), nil
	case "suffixes":
		n := p.name()
		if strings.HasSuffix(n, ".") {
			return starlark.NewList(nil), nil
		}
		exts := strings.Split(strings.TrimLeft(n, "."), ".")[1:]
		out := make([]starlark.Value, len(exts))
		for i, e := range exts {
			out[i] = interp.MakeString("." + e)
		}
		return starlark.NewList(out), nil
	case "parent":
		return p.parent(), nil
	case "parents":
		return &pathParents{p: p}, nil
	}
	if f, ok := pathMethods[name]; ok {
		return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(thread, b.Name(), b.Receiver().(*PurePathValue), args, kwargs)
		}).BindReceiver(p), nil
	}
	if p.cls.concrete && p.cls.pl.io != nil {
		if v, err := p.cls.pl.io.Attr(p, name); v != nil || err != nil {
			return v, err
		}
	}
	return nil, noAttrNamed(p.cls.name, name)
}

// parent is the path without its last part (itself for a root, "." for
// one relative part).
func (p *PurePathValue) parent() *PurePathValue {
	n := len(p.parts)
	if n == 1 && p.root != "" {
		return p
	}
	return p.ancestor(1)
}

// ancestor is the path without its last k parts (k at most the number of
// parts after the root).
func (p *PurePathValue) ancestor(k int) *PurePathValue {
	parts := p.strParts()
	if k > len(parts) {
		k = len(parts)
	}
	return p.with(p.root, parts[:len(parts)-k])
}

// noArgs checks that a method of no arguments got none.
func pathNoArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	return (webParams{fn: "PurePath." + fn, self: true}).unpack(args, kwargs)
}

func pathFspath(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := pathNoArgs(fn, args, kwargs); err != nil {
		return nil, err
	}
	if err := pathCharge(thread, p.cost()); err != nil {
		return nil, err
	}
	return interp.MakeString(p.Str()), nil
}

func pathIsAbsolute(_ *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := pathNoArgs("is_absolute", args, kwargs); err != nil {
		return nil, err
	}
	return starlark.Bool(p.root != ""), nil
}

func pathIsReserved(_ *starlark.Thread, fn string, _ *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := pathNoArgs("is_reserved", args, kwargs); err != nil {
		return nil, err
	}
	return starlark.False, nil
}

// pathAsURI is as_uri(): file:// and the percent-encoded UTF-8 path.
func pathAsURI(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := pathNoArgs("as_uri", args, kwargs); err != nil {
		return nil, err
	}
	if p.root == "" {
		return nil, pyrt.Errorf("ValueError", "relative path can't be expressed as a file URI")
	}
	if err := pathCharge(thread, p.cost()); err != nil {
		return nil, err
	}
	q, err := quoteBytes(thread, p.Str(), "/", false)
	if err != nil {
		return nil, err
	}
	return starlark.String("file://" + q), nil
}

func pathJoinpath(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		k, _ := starlark.AsString(kwargs[0][0])
		return nil, pyrt.Errorf("TypeError", "PurePath.joinpath() got an unexpected keyword argument '%s'", k)
	}
	return p.child(thread, args)
}

// relativeTo is relative_to's answer: nil with ok false when p is not
// under other.
func (p *PurePathValue) relativeTo(thread *starlark.Thread, args starlark.Tuple) (rel *PurePathValue, err error) {
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "need at least one argument")
	}
	toRoot, toParts, err := parsePathArgs(thread, args)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, p.cost()); err != nil {
		return nil, err
	}
	parts := p.strParts()
	n := len(toParts)
	ok := true
	if n == 0 {
		ok = p.root == ""
	} else if n > len(parts) {
		ok = false
	} else {
		for i := 0; i < n && ok; i++ {
			ok = parts[i] == toParts[i]
		}
		ok = ok && (toRoot == "") == (p.root == "")
	}
	if !ok {
		formatted := toRoot
		if toRoot != "" {
			formatted += strings.Join(toParts[1:], "/")
		} else {
			formatted = strings.Join(toParts, "/")
		}
		return nil, pyrt.Errorf("ValueError", "%s is not in the subpath of %s OR one path is relative and the other is absolute.",
			interp.QuoteString(p.Str()), interp.QuoteString(formatted))
	}
	return p.with("", parts[n:]), nil
}

// partArg is a text argument as parse_parts reads it (with_name, match):
// a false value is no segment at all.
func partArg(v starlark.Value) (s string, given bool, err error) {
	if !v.Truth() {
		return "", false, nil
	}
	if s, ok := interp.AsText(v); ok {
		return s, true, nil
	}
	if _, ok := interp.AsBytes(v); ok {
		return "", false, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
	}
	return "", false, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(v))
}

func pathWithSuffix(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "PurePath.with_suffix", names: []string{"suffix"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	suffix, ok := interp.AsText(v)
	if !ok {
		if _, isBytes := interp.AsBytes(v); isBytes {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
		return nil, pyrt.Errorf("TypeError", "argument of type '%s' is not iterable", pyrt.TypeName(v))
	}
	if strings.Contains(suffix, "/") || (suffix != "" && !strings.HasPrefix(suffix, ".")) || suffix == "." {
		return nil, pyrt.Errorf("ValueError", "Invalid suffix %s", interp.QuoteString(suffix))
	}
	name := p.name()
	if name == "" {
		return nil, pyrt.Errorf("ValueError", "%s has an empty name", p.String())
	}
	if err := pathCharge(thread, p.cost()+len(suffix)); err != nil {
		return nil, err
	}
	name = name[:len(name)-len(suffixOf(name))] + suffix
	parts := p.strParts()
	parts[len(parts)-1] = name
	return p.with(p.root, parts), nil
}

// pathParents is p.parents: the ancestors, nearest first, indexable
// (negative indices too) and sliceable (a tuple).
type pathParents struct{ p *PurePathValue }

func (pp *pathParents) String() string       { return "<" + pp.p.cls.name + ".parents>" }
func (pp *pathParents) Type() string         { return "_PathParents" }
func (pp *pathParents) Freeze()              {}
func (pp *pathParents) Truth() starlark.Bool { return pp.Len() > 0 }
func (pp *pathParents) Hash() (uint32, error) {
	return 0, pyrt.Errorf("TypeError", "unhashable type: '_PathParents'")
}

func (pp *pathParents) Len() int {
	if pp.p.root != "" {
		return len(pp.p.parts) - 1
	}
	return len(pp.p.parts)
}

func (pp *pathParents) Index(i int) starlark.Value { return pp.p.ancestor(i + 1) }

// Get is parents[i]: CPython's IndexError names the index as given.
func (pp *pathParents) Get(k starlark.Value) (starlark.Value, bool, error) {
	var i int
	if err := starlark.AsInt(k, &i); err != nil {
		if _, isInt := k.(starlark.Int); isInt {
			return nil, false, pyrt.Errorf("IndexError", "%s", k)
		}
		return nil, false, pyrt.Errorf("TypeError", "'>=' not supported between instances of '%s' and 'int'", pyrt.TypeName(k))
	}
	n := pp.Len()
	if i >= n || i < -n {
		return nil, false, pyrt.Errorf("IndexError", "%d", i)
	}
	if i < 0 {
		i += n
	}
	return pp.Index(i), true, nil
}

func (pp *pathParents) AttrNames() []string { return []string{"count", "index"} }

// Attr gives count and index, which CPython's parents have from
// collections.abc.Sequence.
func (pp *pathParents) Attr(name string) (starlark.Value, error) {
	if name != "count" && name != "index" {
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := (webParams{fn: "Sequence." + name, names: []string{"value"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &v); err != nil {
			return nil, err
		}
		n := 0
		for i := 0; i < pp.Len(); i++ {
			if err := interp.BudgetOf(thread).Charge(uint64(pp.p.cost())/16 + 1); err != nil {
				return nil, err
			}
			eq, err := starlark.Equal(v, pp.Index(i))
			if err != nil {
				return nil, err
			}
			if eq && name == "index" {
				return starlark.MakeInt(i), nil
			}
			if eq {
				n++
			}
		}
		if name == "index" {
			return nil, pyrt.Errorf("ValueError", "")
		}
		return starlark.MakeInt(n), nil
	}), nil
}

// Has is `x in parents`.
func (pp *pathParents) Has(x starlark.Value) (bool, error) {
	q, ok := x.(*PurePathValue)
	if !ok {
		return false, nil
	}
	for i := 0; i < pp.Len(); i++ {
		if eq, err := starlark.Equal(q, pp.Index(i)); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

func (pp *pathParents) Slice(start, end, step int) starlark.Value {
	var out starlark.Tuple
	for i := start; (step > 0 && i < end) || (step < 0 && i > end); i += step {
		if pp.p.b.Tripped() != nil {
			break // the run ends at its next step
		}
		out = append(out, pp.Index(i))
	}
	return out
}

func (pp *pathParents) Iterate() starlark.Iterator { return &parentsIter{pp: pp} }

type parentsIter struct {
	pp *pathParents
	i  int
}

func (it *parentsIter) Next(v *starlark.Value) bool {
	if it.i >= it.pp.Len() || it.pp.p.b.Tripped() != nil {
		return false
	}
	*v = it.pp.Index(it.i)
	it.i++
	return true
}

func (it *parentsIter) Done() {}

// pathRelativeTo is relative_to(*other) and is_relative_to(*other).
func pathRelativeTo(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	is := fn == "is_relative_to"
	if len(kwargs) > 0 {
		k, _ := starlark.AsString(kwargs[0][0])
		return nil, pyrt.Errorf("TypeError", "PurePath.%s() got an unexpected keyword argument '%s'", fn, k)
	}
	rel, err := p.relativeTo(thread, args)
	if is {
		if err != nil {
			if ex, ok := pyrt.Classify(err).(*pyrt.Exception); ok && ex.Class == "ValueError" {
				return starlark.False, nil
			}
			return nil, err
		}
		return starlark.True, nil
	}
	if err != nil {
		return nil, err
	}
	return rel, nil
}

// pathWithName is with_name(name) and with_stem(stem).
func pathWithName(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	param := "name"
	if fn == "with_stem" {
		param = "stem"
	}
	var v starlark.Value
	if err := (webParams{fn: "PurePath." + fn, names: []string{param}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	if fn == "with_stem" {
		stem, ok := interp.AsText(v)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for +: '%s' and 'str'", pyrt.TypeName(v))
		}
		v = interp.MakeString(stem + suffixOf(p.name()))
	}
	if p.name() == "" {
		return nil, pyrt.Errorf("ValueError", "%s has an empty name", p.String())
	}
	name, given, err := partArg(v)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, p.cost()+len(name)); err != nil {
		return nil, err
	}
	root, parts := parsePathParts([]string{name})
	if !given || strings.HasSuffix(name, "/") || root != "" || len(parts) != 1 {
		r, err := interp.Repr(interp.BudgetOf(thread), v)
		if err != nil {
			return nil, err
		}
		return nil, pyrt.Errorf("ValueError", "Invalid name %s", r)
	}
	all := p.strParts()
	all[len(all)-1] = name
	return p.with(p.root, all), nil
}

// pathMatch is match(path_pattern): the pattern's parts match the path's
// last parts by fnmatch, all of them when the pattern is absolute.
func pathMatch(thread *starlark.Thread, fn string, p *PurePathValue, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "PurePath.match", names: []string{"path_pattern"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	pat, given, err := partArg(v)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, p.cost()+16*len(pat)); err != nil {
		return nil, err
	}
	root, patParts := parsePathParts([]string{pat})
	if !given || len(patParts) == 0 {
		return nil, pyrt.Errorf("ValueError", "empty pattern")
	}
	if root != "" && root != p.root {
		return starlark.False, nil
	}
	parts := p.strParts()
	if root != "" {
		if len(patParts) != len(parts) {
			return starlark.False, nil
		}
		patParts = patParts[1:]
	} else if len(patParts) > len(parts) {
		return starlark.False, nil
	}
	b := interp.BudgetOf(thread)
	for i := 1; i <= len(patParts); i++ {
		ok, err := globMatch(b, parseGlob(patParts[len(patParts)-i]), parts[len(parts)-i])
		if err != nil || !ok {
			return starlark.False, err
		}
	}
	return starlark.True, nil
}
