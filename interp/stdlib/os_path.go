package stdlib

import (
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// CwdFunc gives the current directory of the run a thread belongs to: an
// absolute path, which abspath, relpath and Path.absolute start from. A
// program cannot change it (os.chdir is refused).
type CwdFunc func(thread *starlark.Thread) (string, error)

// rootCwd is the current directory until the host gives the run's own.
func rootCwd(*starlark.Thread) (string, error) { return "/", nil }

// OSPath is the os.path module of CPython's POSIX builds (posixpath):
// the functions that compute on paths without the file system, with
// CPython's results and errors for str, bytes and os.PathLike arguments.
// cwd gives abspath's and relpath's current directory; nil means "/".
// The functions that read the file system (exists, isfile, getsize, …)
// are added by the module that owns the file operations.
func OSPath(cwd CwdFunc) *starlarkstruct.Module {
	if cwd == nil {
		cwd = rootCwd
	}
	m := &osPath{cwd: cwd}
	fn := func(name string, f interp.BuiltinFunc) starlark.Value { return interp.NewBuiltin(name, f) }
	return &starlarkstruct.Module{Name: "posixpath", Members: starlark.StringDict{
		"abspath":      fn("abspath", m.abspath),
		"basename":     fn("basename", osPathOne),
		"commonpath":   fn("commonpath", osCommonPath),
		"commonprefix": fn("commonprefix", osCommonPrefix),
		"dirname":      fn("dirname", osPathOne),
		"expanduser":   fn("expanduser", osExpandUser),
		"isabs":        fn("isabs", osPathOne),
		"join":         fn("join", osJoin),
		"normcase":     fn("normcase", osPathOne),
		"normpath":     fn("normpath", osPathOne),
		"relpath":      fn("relpath", m.relpath),
		"split":        fn("split", osPathOne),
		"splitdrive":   fn("splitdrive", osPathOne),
		"splitext":     fn("splitext", osPathOne),

		"altsep":                     starlark.None,
		"curdir":                     starlark.String("."),
		"defpath":                    starlark.String("/bin:/usr/bin"),
		"devnull":                    starlark.String("/dev/null"),
		"extsep":                     starlark.String("."),
		"pardir":                     starlark.String(".."),
		"pathsep":                    starlark.String(":"),
		"sep":                        starlark.String("/"),
		"supports_unicode_filenames": starlark.False,
	}}
}

type osPath struct{ cwd CwdFunc }

// HomeRefused is the error of what would read the user's home directory
// (os.path.expanduser of a path starting with "~", Path.home,
// Path.expanduser): a program has none. The one place its text lives.
func HomeRefused(fn string) error {
	return pyrt.Errorf("PermissionError", "%s: a program has no home directory here; write the path from the allowed roots instead of from '~'", fn)
}

// pathText is a path as os.fspath gives it: its text and whether it is
// bytes.
type pathText struct {
	s     string
	bytes bool
}

func (p pathText) value() starlark.Value {
	if p.bytes {
		return interp.Bytes(p.s)
	}
	return interp.MakeString(p.s)
}

// of is s as a path of p's kind.
func (p pathText) of(s string) starlark.Value { return pathText{s, p.bytes}.value() }

// typeName is the name of the path's class, for messages.
func (p pathText) typeName() string {
	if p.bytes {
		return "bytes"
	}
	return "str"
}

// fsPathText is os.fspath(v): a str or bytes as it is, the text of a path
// object (a pathlib path, a proj path: interp.PathLike) or of what a
// class's __fspath__ returns.
func fsPathText(thread *starlark.Thread, v starlark.Value) (pathText, error) {
	if s, ok := interp.AsText(v); ok {
		return pathText{s: s}, nil
	}
	switch x := v.(type) {
	case interp.Bytes:
		return pathText{s: string(x), bytes: true}, nil
	case starlark.Bytes:
		return pathText{s: string(x), bytes: true}, nil
	case *PurePathValue:
		return pathText{s: x.Str()}, nil
	case interp.PathLike:
		return pathText{s: x.FSPath()}, nil
	}
	if _, isBytes := interp.AsBytes(v); !isBytes { // a bytearray is no path
		if ha, ok := v.(starlark.HasAttrs); ok {
			if f, err := ha.Attr("__fspath__"); err == nil && f != nil {
				if _, callable := f.(starlark.Callable); callable {
					r, err := starlark.Call(thread, f, nil, nil)
					if err != nil {
						return pathText{}, err
					}
					if s, ok := interp.AsText(r); ok {
						return pathText{s: s}, nil
					}
					if b, ok := r.(interp.Bytes); ok {
						return pathText{s: string(b), bytes: true}, nil
					}
					return pathText{}, pyrt.Errorf("TypeError", "expected %s.__fspath__() to return str or bytes, not %s", pyrt.TypeName(v), pyrt.TypeName(r))
				}
			}
		}
	}
	return pathText{}, pyrt.Errorf("TypeError", "expected str, bytes or os.PathLike object, not %s", pyrt.TypeName(v))
}

// pathWork is the work of going over s component by component: its bytes
// and, for each component, the string and slot a split makes.
func pathWork(s string) int { return len(s) + 16*strings.Count(s, "/") }

// PathArg is a path argument of open(), os's functions and the like, as
// os.fspath gives it: a str, bytes (isBytes), a pathlib path or a value
// whose class defines __fspath__; else CPython's TypeError.
func PathArg(thread *starlark.Thread, v starlark.Value) (s string, isBytes bool, err error) {
	p, err := fsPathText(thread, v)
	return p.s, p.bytes, err
}

// FSPath is os.fspath(v): the str or bytes of a path-like value.
func FSPath(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if _, same := v.(interp.Bytes); same || p.bytes {
		return p.value(), nil
	}
	if _, same := interp.AsText(v); same {
		return v, nil // a str (or a subclass of it) is returned as it is
	}
	return p.value(), nil
}

// pathCharge charges the run for work over n bytes of paths and for the
// result of about that size.
func pathCharge(thread *starlark.Thread, n int) error {
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(n)); err != nil {
		return err
	}
	return b.Charge(uint64(n)/16 + 1)
}

// checkArgTypes is genericpath._check_arg_types: the TypeError of
// arguments that are not all str or all bytes (nil when they are, for the
// caller to raise the error it had).
func checkArgTypes(fn string, args ...starlark.Value) error {
	hasStr, hasBytes := false, false
	for _, a := range args {
		if _, ok := interp.AsText(a); ok {
			hasStr = true
			continue
		}
		switch a.(type) {
		case interp.Bytes, starlark.Bytes:
			hasBytes = true
			continue
		}
		return pyrt.Errorf("TypeError", "%s() argument must be str, bytes, or os.PathLike object, not '%s'", fn, pyrt.TypeName(a))
	}
	if hasStr && hasBytes {
		return errMixedPaths
	}
	return nil
}

var errMixedPaths = pyrt.Errorf("TypeError", "Can't mix strings and bytes in path components")

// osPathParams are the parameter names of posixpath's one-path functions.
var osPathParams = map[string]string{
	"basename": "p", "dirname": "p", "split": "p", "splitext": "p", "splitdrive": "p",
	"isabs": "s", "normcase": "s", "normpath": "path",
}

// osPathOne is the functions of one path that need no current directory.
func osPathOne(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: b.Name(), names: []string{osPathParams[b.Name()]}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, pathWork(p.s)); err != nil {
		return nil, err
	}
	s := p.s
	switch b.Name() {
	case "basename":
		return p.of(s[strings.LastIndexByte(s, '/')+1:]), nil
	case "dirname":
		head, _ := splitPath(s)
		return p.of(head), nil
	case "split":
		head, tail := splitPath(s)
		return starlark.Tuple{p.of(head), p.of(tail)}, nil
	case "splitext":
		root, ext := splitExt(s)
		return starlark.Tuple{p.of(root), p.of(ext)}, nil
	case "splitdrive":
		return starlark.Tuple{p.of(""), p.value()}, nil
	case "isabs":
		return starlark.Bool(strings.HasPrefix(s, "/")), nil
	case "normcase":
		return p.value(), nil
	case "normpath":
		return p.of(NormPath(s)), nil
	}
	return nil, pyrt.Errorf("SystemError", "os.path.%s is not implemented", b.Name())
}

// splitPath is posixpath.split: the part before the last slash (its
// trailing slashes removed unless it is all slashes) and the rest.
func splitPath(s string) (head, tail string) {
	i := strings.LastIndexByte(s, '/') + 1
	head, tail = s[:i], s[i:]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head, tail
}

// splitExt is posixpath.splitext: the extension is from the last dot of
// the last component, unless the component is dots up to it (".bashrc").
func splitExt(s string) (root, ext string) {
	sep := strings.LastIndexByte(s, '/')
	dot := strings.LastIndexByte(s, '.')
	if dot > sep {
		for i := sep + 1; i < dot; i++ {
			if s[i] != '.' {
				return s[:dot], s[dot:]
			}
		}
	}
	return s, ""
}

// NormPath is posixpath.normpath: no empty or "." components, ".."
// taken back where it can be, one leading slash (two are kept, as POSIX
// allows), "." for nothing.
func NormPath(s string) string {
	if s == "" {
		return "."
	}
	slashes := 0
	if strings.HasPrefix(s, "/") {
		slashes = 1
		if strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "///") {
			slashes = 2
		}
	}
	comps := make([]string, 0, strings.Count(s, "/")+1)
	for rest := s; ; {
		comp, after, more := strings.Cut(rest, "/")
		switch {
		case comp == "" || comp == ".":
		case comp != ".." || (slashes == 0 && len(comps) == 0) || (len(comps) > 0 && comps[len(comps)-1] == ".."):
			comps = append(comps, comp)
		case len(comps) > 0:
			comps = comps[:len(comps)-1]
		}
		if !more {
			break
		}
		rest = after
	}
	out := strings.Repeat("/", slashes) + strings.Join(comps, "/")
	if out == "" {
		return "."
	}
	return out
}

// joinPaths is posixpath.join over texts of one kind: a component that
// starts with a slash starts again.
func joinPaths(a string, ps []string) string {
	// From the last component that starts with a slash, in one builder:
	// a path of a million components is joined in linear time.
	start, path := 0, a
	for i, b := range ps {
		if strings.HasPrefix(b, "/") {
			start, path = i+1, b
		}
	}
	var w strings.Builder
	w.WriteString(path)
	endsSlash := strings.HasSuffix(path, "/")
	for _, b := range ps[start:] {
		if w.Len() > 0 && !endsSlash {
			w.WriteByte('/')
			endsSlash = true
		}
		w.WriteString(b)
		if b != "" {
			endsSlash = strings.HasSuffix(b, "/")
		}
	}
	return w.String()
}

// osJoin is join(a, *p).
func osJoin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		k, _ := starlark.AsString(kwargs[0][0])
		return nil, pyrt.Errorf("TypeError", "join() got an unexpected keyword argument '%s'", k)
	}
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "join() missing 1 required positional argument: 'a'")
	}
	a, err := fsPathText(thread, args[0])
	if err != nil {
		return nil, err
	}
	n := len(a.s)
	ps := make([]string, 0, len(args)-1)
	for _, v := range args[1:] {
		p, err := fsPathText(thread, v)
		if err == nil && p.bytes != a.bytes {
			err = errMixedPaths
		}
		if err != nil {
			if !isBudget(err) {
				if e := checkArgTypes("join", append(starlark.Tuple{a.value()}, args[1:]...)...); e != nil {
					return nil, e
				}
			}
			return nil, err
		}
		n += len(p.s) + 16
		ps = append(ps, p.s)
	}
	if err := pathCharge(thread, n); err != nil {
		return nil, err
	}
	return a.of(joinPaths(a.s, ps)), nil
}

// absPath is posixpath.abspath of s.
func (m *osPath) absPath(thread *starlark.Thread, s string) (string, error) {
	if !strings.HasPrefix(s, "/") {
		cwd, err := m.cwd(thread)
		if err != nil {
			return "", err
		}
		if err := pathCharge(thread, pathWork(cwd)); err != nil {
			return "", err
		}
		s = joinPaths(cwd, []string{s})
	}
	return NormPath(s), nil
}

// abspath is abspath(path): normpath of the path from the current
// directory.
func (m *osPath) abspath(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "abspath", names: []string{"path"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if err := pathCharge(thread, pathWork(p.s)); err != nil {
		return nil, err
	}
	s, err := m.absPath(thread, p.s)
	if err != nil {
		return nil, err
	}
	return p.of(s), nil
}

// nonEmpty is the components of s split at slashes, without empty ones.
func nonEmpty(s string) []string {
	var out []string
	for _, c := range strings.Split(s, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// relpath is relpath(path, start=None).
func (m *osPath) relpath(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pathV, startV starlark.Value = nil, starlark.None
	if err := (webParams{fn: "relpath", names: []string{"path", "start"}, required: 1, maxPos: 2}).unpack(args, kwargs, &pathV, &startV); err != nil {
		return nil, err
	}
	if !pathV.Truth() {
		return nil, pyrt.Errorf("ValueError", "no path specified")
	}
	p, err := fsPathText(thread, pathV)
	if err != nil {
		return nil, err
	}
	start := pathText{s: ".", bytes: p.bytes}
	if startV != starlark.None {
		if start, err = fsPathText(thread, startV); err != nil {
			return nil, err
		}
	}
	if err := pathCharge(thread, 2*(pathWork(p.s)+pathWork(start.s))); err != nil {
		return nil, err
	}
	absStart, err := m.absPath(thread, start.s)
	if err != nil {
		return nil, err
	}
	absPath, err := m.absPath(thread, p.s)
	if err != nil {
		return nil, err
	}
	if p.bytes != start.bytes {
		return nil, errMixedPaths
	}
	startList, pathList := nonEmpty(absStart), nonEmpty(absPath)
	i := 0
	for i < len(startList) && i < len(pathList) && startList[i] == pathList[i] {
		i++
	}
	rel := make([]string, 0, len(startList)-i+len(pathList)-i)
	for k := i; k < len(startList); k++ {
		rel = append(rel, "..")
	}
	rel = append(rel, pathList[i:]...)
	if len(rel) == 0 {
		return p.of("."), nil
	}
	return p.of(joinPaths(rel[0], rel[1:])), nil
}

// osCommonPath is commonpath(paths): the longest common sub-path.
func osCommonPath(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "commonpath", names: []string{"paths"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	_, iterable := v.(starlark.Iterable)
	if (!iterable || starlark.Len(v) >= 0) && !bool(v.Truth()) { // an iterator is true, even an empty one
		return nil, pyrt.Errorf("ValueError", "commonpath() arg is an empty sequence")
	}
	if s, ok := interp.AsText(v); ok {
		v = interp.Chars(s) // a str is an iterable of one-character paths
	}
	iter := starlark.Iterate(v)
	if iter == nil {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(v))
	}
	defer iter.Done()
	var paths []pathText
	var raw starlark.Tuple
	var x starlark.Value
	for iter.Next(&x) {
		p, err := fsPathText(thread, x)
		if err != nil {
			return nil, err
		}
		if err := pathCharge(thread, 2*pathWork(p.s)+16); err != nil {
			return nil, err
		}
		paths = append(paths, p)
		raw = append(raw, p.value())
	}
	if len(paths) == 0 {
		// An iterator is true however many items it gives: CPython fails
		// at the first path of none.
		return nil, pyrt.Errorf("IndexError", "tuple index out of range")
	}
	for _, p := range paths {
		if p.bytes != paths[0].bytes {
			return nil, checkArgTypes("commonpath", raw...)
		}
	}
	abs := strings.HasPrefix(paths[0].s, "/")
	var common []string
	for i, p := range paths {
		if strings.HasPrefix(p.s, "/") != abs {
			return nil, pyrt.Errorf("ValueError", "Can't mix absolute and relative paths")
		}
		var comps []string
		for _, c := range strings.Split(p.s, "/") {
			if c != "" && c != "." {
				comps = append(comps, c)
			}
		}
		if i == 0 {
			common = comps
			continue
		}
		k := 0
		for k < len(common) && k < len(comps) && common[k] == comps[k] {
			k++
		}
		common = common[:k]
	}
	prefix := ""
	if abs {
		prefix = "/"
	}
	return paths[0].of(prefix + strings.Join(common, "/")), nil
}

// osCommonPrefix is commonprefix(m): the longest common leading text of
// the paths (not of their components), or of lists.
func osCommonPrefix(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "commonprefix", names: []string{"m"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	if !v.Truth() {
		return starlark.String(""), nil
	}
	seq, ok := v.(starlark.Indexable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(v))
	}
	if seq.Len() == 0 {
		return starlark.String(""), nil
	}
	switch seq.Index(0).(type) {
	case *starlark.List, starlark.Tuple:
		return commonPrefixSeqs(thread, v)
	}
	var first pathText
	lo, hi := "", ""
	for i := 0; i < seq.Len(); i++ {
		p, err := fsPathText(thread, seq.Index(i))
		if err != nil {
			return nil, err
		}
		if err := pathCharge(thread, len(p.s)+16); err != nil {
			return nil, err
		}
		if i == 0 {
			first, lo, hi = p, p.s, p.s
			continue
		}
		if p.bytes != first.bytes {
			return nil, pyrt.Errorf("TypeError", "'<' not supported between instances of '%s' and '%s'", p.typeName(), first.typeName())
		}
		lo, hi = min(lo, p.s), max(hi, p.s)
	}
	i := 0
	for i < len(lo) && lo[i] == hi[i] {
		i++
	}
	if !first.bytes {
		for i > 0 && i < len(lo) && !utf8.RuneStart(lo[i]) {
			i-- // never half a character
		}
	}
	return first.of(lo[:i]), nil
}

// commonPrefixSeqs is commonprefix of lists or tuples (what relpath gives
// it in CPython): the common leading items of the least and the greatest.
func commonPrefixSeqs(thread *starlark.Thread, v starlark.Value) (starlark.Value, error) {
	seq := v.(starlark.Indexable)
	lo, hi := seq.Index(0), seq.Index(0)
	for i := 1; i < seq.Len(); i++ {
		x := seq.Index(i)
		less, err := starlark.Compare(syntax.LT, x, lo)
		if err != nil {
			return nil, err
		}
		if less {
			lo = x
		}
		more, err := starlark.Compare(syntax.GT, x, hi)
		if err != nil {
			return nil, err
		}
		if more {
			hi = x
		}
	}
	s1, ok1 := lo.(starlark.Indexable)
	s2, ok2 := hi.(starlark.Indexable)
	if !ok1 || !ok2 {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(hi))
	}
	if err := pathCharge(thread, s1.Len()); err != nil {
		return nil, err
	}
	for i := 0; i < s1.Len(); i++ {
		if i >= s2.Len() {
			return nil, pyrt.Errorf("IndexError", "%s index out of range", pyrt.TypeName(hi))
		}
		eq, err := starlark.Equal(s1.Index(i), s2.Index(i))
		if err != nil {
			return nil, err
		}
		if !eq {
			return lo.(starlark.Sliceable).Slice(0, i, 1), nil
		}
	}
	return lo, nil
}

// osExpandUser is expanduser(path): a path without a leading "~" as it
// is; any other is refused, as a program has no home directory.
func osExpandUser(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := (webParams{fn: "expanduser", names: []string{"path"}, required: 1, maxPos: 1}).unpack(args, kwargs, &v); err != nil {
		return nil, err
	}
	p, err := fsPathText(thread, v)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(p.s, "~") {
		return p.value(), nil
	}
	return nil, HomeRefused("os.path.expanduser")
}
