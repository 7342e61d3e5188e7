package stdlib

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// The programs of configparser_programs.txt print what CPython 3.11
// prints (configparser_programs.want, made with -update).
func TestProgramsConfigParser(t *testing.T) {
	checkFilePrograms(t, "testdata/configparser_programs.txt")
}

// The programs of tomllib_programs.txt print what CPython 3.11 prints.
func TestProgramsTOMLLib(t *testing.T) { checkFilePrograms(t, "testdata/tomllib_programs.txt") }

// Interpolation that doubles at each of its ten levels, values read in a
// loop, documents of millions of lines: each ends with the run's budget.
func TestConfigParserStop(t *testing.T) {
	bomb := "import configparser\nc = configparser.ConfigParser()\nc.add_section('s')\nc.set('s', 'v0', 'x' * 10**6)\n" +
		"for i in range(1, 10):\n    c.set('s', 'v%d' % i, '%%(v%d)s%%(v%d)s' % (i - 1, i - 1))\n"
	ext := "import configparser\nc = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())\nc.add_section('s')\nc.set('s', 'v0', 'x' * 10**6)\n" +
		"for i in range(1, 10):\n    c.set('s', 'v%d' % i, '${v%d}${v%d}' % (i - 1, i - 1))\n"
	checkStops(t,
		stopCase{bomb + "c.get('s', 'v9')", wantSpent},
		stopCase{ext + "c['s']['v9']", wantSpent},
		stopCase{bomb + "for _ in range(10**9):\n    c.get('s', 'v5')", wantSpent},
		stopCase{bomb + "for _ in range(10**9):\n    c.items('s')", wantSpent},
		stopCase{"import configparser\nc = configparser.ConfigParser(strict=False)\nc.read_string('[s]\\n' + 'k = v\\n' * 10**8)", wantSpent},
		stopCase{"import configparser\nc = configparser.ConfigParser()\nc.read_string('[s]\\nk = v\\n' + '  more\\n' * 10**8)", wantSpent},
		// (Not larger: making a 200 MB text alone can outrun the grace
		// on a loaded machine, which is not tomllib's doing.)
		stopCase{"import tomllib\ntomllib.loads('a = [' + '1,' * 4 * 10**7 + ']')", wantSpent},
		stopCase{"import tomllib\nd = 'a = [' + '1,' * 3 * 10**7 + ']'\ntomllib.loads(d)", wantSpent},
		stopCase{"import tomllib\nd = 'a = [' + '[1],' * 10**5 + ']'\nfor _ in range(10**9):\n    tomllib.loads(d)", wantSpent},
	)
}

// Hostile documents that end with CPython's exception, not a budget.
func TestConfigParserHostile(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"import configparser\nc = configparser.ConfigParser()\nc.read_string('[s]\\na = %(b)s\\nb = %(a)s\\n')\nc.get('s', 'a')", "InterpolationDepthError: Recursion limit exceeded"},
		{"import configparser\nc = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())\nc.read_string('[s]\\na = ${b}\\nb = ${a}\\n')\nc.get('s', 'a')", "InterpolationDepthError"},
		{"import tomllib\ntomllib.loads('a = ' + '[' * 100000 + ']' * 100000)", "RecursionError: maximum recursion depth exceeded"},
		{"import tomllib\ntomllib.loads('a = ' + '{b = ' * 100000 + '1' + '}' * 100000)", "RecursionError|TOMLDecodeError"},
		{"import tomllib\ntomllib.loads('a = ' + '[' * 20000)", "RecursionError"},
	} {
		_, err := run(c.code, interp.Options{Timeout: 10 * time.Second, MaxMemory: 256 << 20})
		if err == nil || !strings.Contains(err.Error(), strings.Split(c.want, "|")[0]) && !(strings.Contains(c.want, "|") && strings.Contains(err.Error(), strings.Split(c.want, "|")[1])) {
			t.Errorf("%s: %v, want %s", c.code, err, c.want)
		}
	}
}

// parsersConfigProgram hands s to both parsers as a document and as
// values; each may raise its Python exception, nothing else.
const parsersConfigProgram = `
import configparser, tomllib, io
errs = []
def ini(**kw):
    c = configparser.ConfigParser(**kw)
    c.read_string(s)
    out = io.StringIO()
    c.write(out)
    for sec in c.sections():
        for k in c[sec]:
            c[sec][k]
    return out.getvalue()
for f in [
    lambda: ini(),
    lambda: ini(strict=False, allow_no_value=True, inline_comment_prefixes=(";", "#"), empty_lines_in_values=False),
    lambda: ini(interpolation=configparser.ExtendedInterpolation(), strict=False),
    lambda: ini(interpolation=None, delimiters=(":=", "="), strict=False),
    lambda: configparser.ConfigParser().read_dict({"s": {"k": s}}),
    lambda: tomllib.loads(s),
    lambda: tomllib.loads(s, parse_float=str),
]:
    try:
        f()
    except Exception as e:
        errs.append(type(e).__name__ + ": " + str(e))
"\n".join(errs)
`

// FuzzConfigParsers feeds arbitrary text to configparser and tomllib:
// none may panic, raise anything but a Python exception, or run past its
// budget.
func FuzzConfigParsers(f *testing.F) {
	for _, s := range []string{"[s]\nk = v\n  more\n[t]\nx: %(k)s ${s:k}", "[DEFAULT]\na=1\n[s]\nb=%(a)s%%\n", "k = 1",
		"a = 1\n[t]\nb = [1, {c = 2}]\n[[u]]\nd = 1979-05-27T07:32:00Z", "x = 0x_1", "[a.b]\n[a]\n", "s = '''\n\\\n'''", "\x00[\xff]"} {
		f.Add(s)
	}
	g := starlark.StringDict{}
	for k, v := range globals() {
		g[k] = v
	}
	f.Fuzz(func(t *testing.T, s string) {
		g["s"] = interp.MakeString(s)
		start := time.Now()
		res, err := interp.Exec(context.Background(), parsersConfigProgram, interp.Options{
			Predeclared: g, Parse: python.Parse,
			Timeout: 2 * time.Second, MaxSteps: 10_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog(),
		})
		if err != nil && !errors.Is(err, interp.ErrLimit) {
			t.Fatalf("%q: %v", s, err)
		}
		if err == nil && strings.Contains(res.Text, "failed: panic") {
			t.Fatalf("%q: %s", s, res.Text)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%q took %s", s, d)
		}
	})
}
