package stdlib

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// CPython 3.11's answers for programs that parse feeds, sitemaps and
// XML APIs, build and serialise trees, and search them (ElementPath).
func TestProgramsXML(t *testing.T) { checkPrograms(t, "testdata/xml_programs.txt") }

// Reading and writing documents through files (the file pack): parse of
// a path, of a file object and of a pathlib path, ElementTree.write,
// iterparse, and every import form programs use.
func TestProgramsXMLFiles(t *testing.T) { checkFilePrograms(t, "testdata/xml_file_programs.txt") }

// Hostile documents end with a clear error or the run's budget, never a
// panic, a hang or memory past the budget: a billion laughs, nesting
// 100,000 deep, a 50 MB document under a 16 MiB budget, trees a program
// builds too deep to write.
func TestXMLHostile(t *testing.T) {
	laughs := `'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
		`<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">` +
		`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">` +
		`<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">` +
		`<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">` +
		`<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">` +
		`<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">` +
		`<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">` +
		`<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">` +
		`]><lolz>&lol9;</lolz>'`
	for _, c := range []struct{ code, want string }{
		{"import xml.etree.ElementTree as ET\ntry:\n    ET.fromstring(" + laughs + ")\nexcept ET.ParseError as e:\n    print(e.code, e)",
			"43 limit on input amplification factor (from DTD and entities) breached: line 1, column 747\n"},
		{"import xml.etree.ElementTree as ET\ntry:\n    ET.fromstring('<a>' * 100000 + '</a>' * 100000)\nexcept ET.ParseError as e:\n    print(e)",
			"elements nested more than 5000 deep: line 1, column 15000\n"},
		{"import xml.etree.ElementTree as ET\ntry:\n    ET.fromstring('<!DOCTYPE a [<!ENTITY e \"&e;\">]><a>&e;</a>')\nexcept ET.ParseError as e:\n    print(e)",
			"recursive entity reference: line 1, column 35\n"},
		{"import xml.etree.ElementTree as ET\ntry:\n    ET.fromstring('<!DOCTYPE a [<!ENTITY ext SYSTEM \"file:///etc/passwd\">]><a>&ext;</a>')\nexcept ET.ParseError as e:\n    print(e)",
			"undefined entity &ext;: line 1, column 59\n"},
		{"import xml.etree.ElementTree as ET\ne = r = ET.Element('r')\nfor _ in range(10000):\n    e = ET.SubElement(e, 'x')\nprint(len(list(r.iter())))\ntry:\n    ET.tostring(r)\nexcept RecursionError as x:\n    print(x)",
			"10001\nmaximum recursion depth exceeded while serializing an Element\n"},
		{"import xml.etree.ElementTree as ET\na = ET.Element('a'); b = ET.SubElement(a, 'b')\ntry:\n    b.append(a)\nexcept ValueError as e:\n    print(e)",
			"an Element cannot be inside its own child\n"},
	} {
		got, err := printedOf(c.code)
		if err != nil || got != c.want {
			t.Errorf("%s:\ngot %q, %v\nwant %q", c.code, got, err, c.want)
		}
	}
	checkBounded(t, 2e7,
		"import xml.etree.ElementTree as ET\nET.fromstring('<r>' + '<item a=\"1\">text</item>' * 2000000 + '</r>')",
		"import xml.etree.ElementTree as ET\nET.fromstring('<r>' + 'x' * 50000000 + '</r>')",
		"import xml.etree.ElementTree as ET\nr = ET.Element('r')\nfor i in range(10**8):\n    ET.SubElement(r, 'x', a=str(i))",
	)
}

// FuzzXMLParse feeds arbitrary documents to the XML parser: it never
// panics; what it accepts serialises to a document it accepts again,
// which serialises the same.
func FuzzXMLParse(f *testing.F) {
	for _, s := range []string{`<a x="1"><b>t</b>tail<!--c--><?p q?><![CDATA[<>]]></a>`, `<a xmlns="u" xmlns:p="v" p:x="1"><p:b/><c xmlns=""/></a>`,
		`<!DOCTYPE a [<!ENTITY e "x&f;"><!ENTITY f "y">]><a t="&e;">&e;&#x41;</a>`, "<a>\r\n</a>", `<?xml version="1.0" encoding="latin-1"?><a/>`,
		`<a><b></a>`, `<p:a/>`, `<!DOCTYPE a SYSTEM "x"><a>&e;</a>`, "<a\xff/>"} {
		f.Add(s)
	}
	all := map[string]bool{"start": true, "end": true, "start-ns": true, "end-ns": true, "comment": true, "pi": true}
	f.Fuzz(func(t *testing.T, s string) {
		root, _, err := parseXML(nil, s, all)
		if err != nil {
			if _, ok := err.(*xmlSyntaxError); !ok {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		o := xmlSerial{encoding: "unicode", unicode: true, method: "xml", short: true}
		out, err := serializeXML(nil, root, o)
		if err != nil {
			t.Fatalf("%q: serialising: %v", s, err)
		}
		text, _ := interp.AsText(out)
		again, _, err := parseXML(nil, text, nil)
		if err != nil {
			t.Fatalf("%q: its serialisation %q does not parse: %v", s, text, err)
		}
		out2, err := serializeXML(nil, again, o)
		if err != nil {
			t.Fatal(err)
		}
		if text2, _ := interp.AsText(out2); text2 != text && !strings.Contains(s, "&#") {
			t.Fatalf("%q: %q then %q", s, text, text2)
		}
	})
}

// super() reaches the methods of a module's class a program's class
// derives from (AbstractContextManager's __enter__), as it reaches a
// program's own base: it skipped them.
func TestSuperReachesGoBases(t *testing.T) {
	code := `from contextlib import AbstractContextManager
class C(AbstractContextManager):
    def __enter__(self):
        return ("entered", super().__enter__() is self)
    def __exit__(self, *exc):
        return super().__exit__(*exc)
with C() as c:
    print(c)
`
	got, err := printedOf(code)
	if want := "('entered', True)\n"; err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}
