package toolpack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/onetool-dev/onetool/packs"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// The execution kinds, in the order messages list them.
func kinds() []string { return []string{"starlark", "go", "command", "mcp"} }

// executionKeys are the keys an execution block of each kind may have.
func executionKeys(kind string) []string {
	switch kind {
	case "starlark", "go":
		return []string{"kind", "module"}
	case "command":
		return []string{"kind", "command", "env", "timeout"}
	case "mcp":
		return []string{"kind", "server", "tool"}
	}
	return nil
}

// execution reads the execution block n and makes the tool's backend,
// checking at load time everything that can be checked: the module
// format, that the .star file and its function exist, that the Go handler
// is registered, that the command's program is found. toolTimeout is the
// toolpack's own timeout, the command's default.
func (f *fileLoader) execution(n *node, at path, toolTimeout time.Duration) (packs.Backend, bool) {
	if n.Kind != yamltree.MappingNode {
		f.fail(n, at, `want a mapping such as {kind: starlark, module: "file.star:function"}, got %s`, yamltree.Describe(n))
		return packs.Backend{}, false
	}
	vals := map[string]*node{}
	for _, p := range n.Pairs {
		vals[p.Key] = p.Val
	}
	kindNode := vals["kind"]
	if kindNode.IsNull() {
		f.required(n, at.With("kind"), "one of "+strings.Join(kinds(), ", "))
		return packs.Backend{}, false
	}
	kind, ok := f.str(kindNode, at.With("kind"))
	if !ok {
		return packs.Backend{}, false
	}
	if !slices.Contains(kinds(), kind) {
		f.fail(kindNode, at.With("kind"), "unknown kind %s%s (kinds: %s)",
			quoted(kind), didYouMean(kind, kinds()), strings.Join(kinds(), ", "))
		return packs.Backend{}, false
	}
	before := f.errs.count()
	valid := executionKeys(kind)
	for _, p := range n.Pairs {
		if slices.Contains(valid, p.Key) {
			continue
		}
		var owners []string
		for _, k := range kinds() {
			if slices.Contains(executionKeys(k), p.Key) {
				owners = append(owners, k)
			}
		}
		if len(owners) > 0 {
			f.errs.at(f.file, p.At.Line, at.With(p.Key), "not used by kind %s (only by kind %s)", kind, strings.Join(owners, " and "))
			continue
		}
		f.unknownKey(p, at.With(p.Key), valid)
	}
	var b packs.Backend
	switch kind {
	case "starlark":
		b, ok = f.starlark(n, vals, at, kindNode)
	case "go":
		b, ok = f.goHandler(n, vals, at)
	case "command":
		b, ok = f.command(n, vals, at, toolTimeout)
	case "mcp":
		b, ok = f.mcp(n, vals, at)
	}
	return b, ok && f.errs.count() == before
}

// starlark makes the backend of `kind: starlark`: the function of a .star
// file in the toolpack's directory (or below it), run by the embedding
// program's Starlark executor.
func (f *fileLoader) starlark(n *node, vals map[string]*node, at path, kindNode *node) (packs.Backend, bool) {
	mp := at.With("module")
	m := vals["module"]
	if m.IsNull() {
		f.required(n, mp, `want "file.star:function"`)
		return packs.Backend{}, false
	}
	module, ok := f.str(m, mp)
	if !ok {
		return packs.Backend{}, false
	}
	i := strings.LastIndexByte(module, ':')
	if i <= 0 || i == len(module)-1 {
		f.fail(m, mp, `want "file.star:function", got %s`, quoted(module))
		return packs.Backend{}, false
	}
	file, function := module[:i], module[i+1:]
	if !isIdentifier(function) {
		f.fail(m, mp, `want "file.star:function", got %s: %s is not a function name`, quoted(module), quoted(function))
		return packs.Backend{}, false
	}
	rel := filepath.FromSlash(file)
	if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		f.fail(m, mp, "%s is outside the toolpack's directory; the .star file must be in that directory or below it", quoted(file))
		return packs.Backend{}, false
	}
	abs := filepath.Join(f.dir, rel)
	switch st, err := os.Stat(abs); {
	case errors.Is(err, fs.ErrNotExist):
		f.errs.add(&ToolpackValidationError{File: f.file, Line: m.Line, Field: mp.String(), Err: err,
			Msg: fmt.Sprintf("%s not found beside the toolpack (looked for %s)", quoted(file), abs)})
		return packs.Backend{}, false
	case err != nil:
		f.errs.add(&ToolpackValidationError{File: f.file, Line: m.Line, Field: mp.String(), Err: err,
			Msg: fmt.Sprintf("cannot read %s: %v", quoted(file), err)})
		return packs.Backend{}, false
	case st.IsDir():
		f.fail(m, mp, "%s is a directory, not a .star file", quoted(file))
		return packs.Backend{}, false
	}
	if f.ex.Starlark == nil {
		f.fail(kindNode, at.With("kind"), "kind starlark is not available: this program runs no Starlark toolpacks")
		return packs.Backend{}, false
	}
	if err := f.ex.Starlark.Check(abs, function); err != nil {
		f.errs.add(&ToolpackValidationError{File: f.file, Line: m.Line, Field: mp.String(), Msg: err.Error(), Err: err})
		return packs.Backend{}, false
	}
	h := f.ex.Starlark.Handler(abs, function)
	if h == nil {
		f.fail(m, mp, "the Starlark executor gave no handler for %s", quoted(module))
		return packs.Backend{}, false
	}
	return packs.Backend{Kind: packs.BackendLocal, Name: "starlark:" + file + ":" + function, Handler: h}, true
}

// goHandler makes the backend of `kind: go`: a handler compiled into the
// binary and registered in Executors.Go under "pkg:Callable".
func (f *fileLoader) goHandler(n *node, vals map[string]*node, at path) (packs.Backend, bool) {
	mp := at.With("module")
	m := vals["module"]
	if m.IsNull() {
		f.required(n, mp, `want "pkg:Callable"`)
		return packs.Backend{}, false
	}
	module, ok := f.str(m, mp)
	if !ok {
		return packs.Backend{}, false
	}
	pkg, callable, colon := strings.Cut(module, ":")
	if !colon || pkg == "" || callable == "" {
		f.fail(m, mp, `want "pkg:Callable", got %s`, quoted(module))
		return packs.Backend{}, false
	}
	h := f.ex.Go[module]
	if h == nil {
		names := make([]string, 0, len(f.ex.Go))
		for name, h := range f.ex.Go {
			if h != nil {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		if len(names) == 0 {
			f.fail(m, mp, "no Go handler %s is compiled into this program (none is registered)", quoted(module))
			return packs.Backend{}, false
		}
		shown := names
		if len(shown) > 20 {
			shown = append(slices.Clone(shown[:20]), fmt.Sprintf("and %d more", len(names)-20))
		}
		f.fail(m, mp, "no Go handler %s is compiled into this program%s (registered: %s)",
			quoted(module), didYouMean(module, names), strings.Join(shown, ", "))
		return packs.Backend{}, false
	}
	return packs.Backend{Kind: packs.BackendLocal, Name: "go:" + module, Handler: h}, true
}

// mcp makes the backend of `kind: mcp`: a tool of an upstream server,
// through Executors.MCP.
func (f *fileLoader) mcp(n *node, vals map[string]*node, at path) (packs.Backend, bool) {
	var server, tool string
	ok := true
	for _, key := range []string{"server", "tool"} {
		v := vals[key]
		if v.IsNull() {
			hint := "the name of the upstream server, as configured under servers: in onetool.yaml"
			if key == "tool" {
				hint = "the name of the server's tool"
			}
			f.required(n, at.With(key), hint)
			ok = false
			continue
		}
		s, good := f.nonEmpty(v, at.With(key))
		ok = ok && good
		if key == "server" {
			server = s
		} else {
			tool = s
		}
	}
	if !ok {
		return packs.Backend{}, false
	}
	sp := at.With("server")
	sn := vals["server"]
	if f.ex.MCP == nil {
		f.fail(sn, sp, "no MCP servers are configured")
		return packs.Backend{}, false
	}
	b, err := f.ex.MCP(server, tool)
	if err != nil {
		f.errs.add(&ToolpackValidationError{File: f.file, Line: sn.Line, Field: sp.String(), Msg: err.Error(), Err: err})
		return packs.Backend{}, false
	}
	if b.Handler == nil {
		f.fail(sn, sp, "the MCP client gave no handler for tool %s of server %s", quoted(tool), quoted(server))
		return packs.Backend{}, false
	}
	if b.Kind == "" {
		b.Kind = packs.BackendMCP
	}
	if b.Name == "" {
		b.Name = "mcp:" + server + "/" + tool
	}
	return b, true
}

// command makes the backend of `kind: command`. The program is found now,
// so that a typo is a load error and not a failure of every call; a path
// with a slash is relative to the toolpack's directory, a bare name is
// looked up in PATH.
func (f *fileLoader) command(n *node, vals map[string]*node, at path, toolTimeout time.Duration) (packs.Backend, bool) {
	cp := at.With("command")
	cn := vals["command"]
	if cn.IsNull() {
		f.required(n, cp, `want the program and its arguments as a list, such as ["./run.sh", "--json"]`)
		return packs.Backend{}, false
	}
	if cn.Kind != yamltree.ListNode {
		f.fail(cn, cp, `want a list of strings (the program and its arguments; no shell), such as ["./run.sh", "--json"], got %s`, yamltree.Describe(cn))
		return packs.Backend{}, false
	}
	if len(cn.Items) == 0 {
		f.fail(cn, cp, "must name a program")
		return packs.Backend{}, false
	}
	argv := make([]string, 0, len(cn.Items))
	ok := true
	for i, item := range cn.Items {
		s, good := f.word(item, cp.Index(i), "a string")
		ok = ok && good
		argv = append(argv, s)
	}
	if ok && strings.TrimSpace(argv[0]) == "" {
		f.fail(cn.Items[0], cp.Index(0), "must name a program")
		ok = false
	}

	c := &command{argv0: argv[0], args: argv[1:], dir: f.dir, lookupEnv: f.ex.LookupEnv, timeout: toolTimeout}
	if c.lookupEnv == nil {
		c.lookupEnv = os.LookupEnv
	}
	if en := vals["env"]; !en.IsNull() {
		names, good := f.envNames(en, at.With("env"))
		ok = ok && good
		c.env = names
		if good && f.ex.Credentials != nil {
			var creds []string
			for _, name := range names {
				if !slices.Contains(baseEnv(), name) {
					creds = append(creds, name)
				}
			}
			if len(creds) > 0 {
				f.ex.Credentials(creds)
			}
		}
	}
	if tn := vals["timeout"]; !tn.IsNull() {
		d, good := f.duration(tn, at.With("timeout"))
		ok = ok && good
		c.timeout = d
	}
	if c.timeout == 0 {
		c.timeout = defaultCommandTimeout
	}
	if !ok {
		return packs.Backend{}, false
	}
	prog, err := f.findProgram(argv[0])
	if err != nil {
		f.errs.add(&ToolpackValidationError{File: f.file, Line: cn.Items[0].Line, Field: cp.Index(0).String(), Msg: err.Error(), Err: err})
		return packs.Backend{}, false
	}
	c.path = prog
	return packs.Backend{Kind: packs.BackendProvider, Name: "command:" + argv[0], Handler: c.call, Files: c.files()}, true
}

// envNames reads the allow-list of environment variables.
func (f *fileLoader) envNames(n *node, at path) ([]string, bool) {
	if n.Kind != yamltree.ListNode {
		f.fail(n, at, "want a list of environment variable names, such as [GITHUB_TOKEN], got %s", yamltree.Describe(n))
		return nil, false
	}
	names := make([]string, 0, len(n.Items))
	ok := true
	for i, item := range n.Items {
		name, good := f.word(item, at.Index(i), "a variable name")
		if good && (name == "" || strings.ContainsAny(name, "=\x00")) {
			f.fail(item, at.Index(i), "%s is not an environment variable name", quoted(name))
			good = false
		}
		ok = ok && good
		names = append(names, name)
	}
	return names, ok
}

// findProgram resolves argv[0] to the file to run.
func (f *fileLoader) findProgram(name string) (string, error) {
	if !strings.ContainsRune(name, '/') && !strings.ContainsRune(name, filepath.Separator) {
		p, err := exec.LookPath(name)
		if err != nil {
			if errors.Is(err, exec.ErrDot) {
				return "", &wrapped{fmt.Sprintf("%s is found only through a relative PATH entry; write %s to run the one beside the toolpack", quoted(name), quoted("./"+name)), err}
			}
			return "", &wrapped{fmt.Sprintf("%s not found in PATH", quoted(name)), err}
		}
		return p, nil
	}
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.dir, p)
	}
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", &wrapped{fmt.Sprintf("%s not found (looked for %s)", quoted(name), p), err}
	case err != nil:
		return "", fmt.Errorf("%s: %w", quoted(name), err)
	case st.IsDir():
		return "", fmt.Errorf("%s is a directory, not a program", quoted(name))
	case runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("%s is not executable (chmod +x %s)", quoted(name), name)
	}
	return p, nil
}

// isIdentifier reports whether s is a Starlark identifier: letters, digits
// and _, not starting with a digit.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', unicode.IsLetter(r):
		case unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return true
}
