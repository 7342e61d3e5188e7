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

// parsersProgram hands the text s to every function of a module that
// parses text a program may have fetched from anywhere; each may raise
// its Python exception, nothing else.
const parsersProgram = `
errs = []
for f in [
    lambda: json.loads(s),
    lambda: list(csv.reader(s.splitlines())),
    lambda: list(csv.DictReader(io.StringIO(s), strict=True)),
    lambda: datetime.datetime.fromisoformat(s),
    lambda: datetime.datetime.strptime(s, "%Y-%m-%d %H:%M:%S%z"),
    lambda: datetime.date.fromisoformat(s),
    lambda: datetime.time.fromisoformat(s),
    lambda: time.strptime(s, "%d %b %Y"),
    lambda: urllib.parse.urlparse(s).port,
    lambda: urllib.parse.urljoin("http://a/b/c/d;p?q", s),
    lambda: urllib.parse.parse_qs(s, strict_parsing=True),
    lambda: urllib.parse.unquote(s),
    lambda: html.unescape(s),
    lambda: base64.b64decode(s, validate=True),
    lambda: base64.b32decode(s),
    lambda: base64.b85decode(s),
    lambda: bytes.fromhex(s),
    lambda: uuid.UUID(s),
    lambda: zoneinfo.ZoneInfo(s),
    lambda: textwrap.wrap(s, 7),
    lambda: textwrap.dedent(s),
    lambda: pprint.pformat(s.split(), width=20),
    lambda: string.Template(s).safe_substitute(a=1),
    lambda: string.Template(s).get_identifiers(),
    lambda: string.Formatter().parse(s),
    lambda: json.loads(s, strict=False),
    lambda: base64.a85decode(s),
    lambda: base64.a85decode(s, adobe=True, foldspaces=True),
    lambda: io.StringIO(s, newline="").readlines(),
    lambda: io.StringIO(s, newline=None).getvalue(),
    lambda: re.findall(r"\b\w+\b|\B.", s),
    lambda: re.sub(r"(?i)\b(\w)(\w*)\b", r"\2\1", s),
    lambda: re.split(r"\b", s, maxsplit=5),
    lambda: struct.unpack_from(s, bytes(4096), 1),
]:
    try:
        f()
    except Exception as e:
        errs.append(type(e).__name__ + ": " + str(e))
"\n".join(errs)
`

// FuzzTextParsers feeds arbitrary text to the modules' parsers: none may
// panic, raise anything but a Python exception, or run past its budget.
func FuzzTextParsers(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5e3, null]}`, "a,\"b\"\"c\",d\r\n1,2,3", "2024-02-29T12:30:00+05:30",
		"2024-01-02 03:04:05+0100", "2024-W10-", "14:07:09.+05:60", "02 Jan 2024", "http://u:p@[::1]:80/a/../b?x=1&y=%zz#f", "a=1&&b=%E9", "&amp;&#x110000;&notit;",
		"aGVsbG8=", "MZXW6===", "0123456789abcdef", "12345678-1234-5678-1234-567812345678", "Europe/Paris", "../etc",
		"  x\n\ty", "$a ${b} $$ $", "\x00\xff\xfe"} {
		f.Add(s)
	}
	g := starlark.StringDict{}
	for k, v := range globals() {
		g[k] = v
	}
	f.Fuzz(func(t *testing.T, s string) {
		g["s"] = interp.MakeString(s)
		start := time.Now()
		res, err := interp.Exec(context.Background(), parsersProgram, interp.Options{
			Predeclared: g, Parse: python.Parse,
			Timeout: 2 * time.Second, MaxSteps: 10_000_000, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog(),
		})
		if err != nil && !errors.Is(err, interp.ErrLimit) {
			t.Fatalf("%q: %v", s, err)
		}
		// A Go panic in a builtin is caught like an exception: look for it.
		if err == nil && strings.Contains(res.Text, "failed: panic") {
			t.Fatalf("%q: %s", s, res.Text)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%q took %s", s, d)
		}
	})
}
