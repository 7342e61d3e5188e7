package search_test

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/builtin/ot"
	"github.com/onetool-dev/onetool/packs/search"
)

// docs are the documents ot.help builds for the fixture's tools.
func docs(reg *packs.Registry) []search.Doc {
	var out []search.Doc
	for _, p := range reg.Packs() {
		out = append(out, search.Doc{Name: p.Name, Text: p.Description, Weight: 0.7})
		for _, t := range p.Tools() {
			var names, texts []string
			for _, pa := range t.Params() {
				names = append(names, pa.Name)
				texts = append(texts, pa.Description)
			}
			out = append(out, search.Doc{Name: t.Name, Group: t.Pack, Text: t.Description, Params: names, ParamText: strings.Join(texts, " ")})
		}
	}
	return out
}

// BenchmarkHelpSearch is what an agent waits for: ot.help(query="words")
// over 500 tools, from the call of the tool to its answer, with the index
// kept between calls as a server keeps it (go test -bench . ./packs/search/).
func BenchmarkHelpSearch(b *testing.B) {
	help := helper(b, fixture(b))
	b.ReportAllocs()
	for b.Loop() {
		help("list open pull requests for a repo")
	}
}

// BenchmarkHelpSearchCold is the same without a kept index (the first
// search after the tools changed, and `onetool help WORDS`).
func BenchmarkHelpSearchCold(b *testing.B) {
	reg := fixture(b)
	b.ReportAllocs()
	for b.Loop() {
		ot.Help(reg, "list open pull requests for a repo")
	}
}

// BenchmarkBuild builds the index of 500 tools.
func BenchmarkBuild(b *testing.B) {
	d := docs(fixture(b))
	b.ReportAllocs()
	for b.Loop() {
		search.New(d)
	}
}

// BenchmarkSearch ranks 500 tools against one query on a built index.
func BenchmarkSearch(b *testing.B) {
	ix := search.New(docs(fixture(b)))
	b.ReportAllocs()
	for b.Loop() {
		ix.Search("list open pull requests for a repo", 20)
	}
}
