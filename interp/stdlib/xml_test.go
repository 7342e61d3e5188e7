package stdlib

import "testing"

// CPython 3.11's answers for programs that parse feeds, sitemaps and
// XML APIs, build and serialise trees, and search them (ElementPath).
func TestProgramsXML(t *testing.T) { checkPrograms(t, "testdata/xml_programs.txt") }

// CPython 3.11's handler calls for HTMLParser subclasses over pages
// with links, tables, scripts, entities and malformed tags.
func TestProgramsHTMLParser(t *testing.T) { checkPrograms(t, "testdata/html_parser_programs.txt") }

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
	checkBounded(t, 1e8,
		"import xml.etree.ElementTree as ET\nET.fromstring('<r>' + '<item a=\"1\">text</item>' * 2000000 + '</r>')",
		"import xml.etree.ElementTree as ET\nET.fromstring('<r>' + 'x' * 50000000 + '</r>')",
		"from html.parser import HTMLParser\nclass P(HTMLParser):\n    def handle_data(self, d):\n        self.d = d\np = P()\nfor _ in range(10**6):\n    p.feed('<p ')",
		"import xml.etree.ElementTree as ET\nr = ET.Element('r')\nfor i in range(10**8):\n    ET.SubElement(r, 'x', a=str(i))",
	)
}
