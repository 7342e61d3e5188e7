package stdlib

import "testing"

// CPython 3.11's answers for programs that parse feeds, sitemaps and
// XML APIs, build and serialise trees, and search them (ElementPath).
func TestProgramsXML(t *testing.T) { checkPrograms(t, "testdata/xml_programs.txt") }

// CPython 3.11's handler calls for HTMLParser subclasses over pages
// with links, tables, scripts, entities and malformed tags.
func TestProgramsHTMLParser(t *testing.T) { checkPrograms(t, "testdata/html_parser_programs.txt") }
