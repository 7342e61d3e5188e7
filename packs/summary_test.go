package packs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFirstSentence(t *testing.T) {
	for _, tt := range []struct{ desc, want string }{
		{"Add two numbers. Two ints give an int.", "Add two numbers."},
		{"Read a file: offset is the first line.", "Read a file."},
		{"Pick one, e.g. the first. Then more.", "Pick one, e.g. the first."},
		{"Wait 1.5 seconds. Then return.", "Wait 1.5 seconds."},
		{"Search (Go RE2 syntax; literal=True for text). More.", "Search (Go RE2 syntax; literal=True for text)."},
		{"Call file.read first. Then edit.", "Call file.read first."},
		{"First line\nwraps here. Second.", "First line wraps here."},
		{"Paragraph one without a stop\n\nParagraph two.", "Paragraph one without a stop"},
		{"No stop at all", "No stop at all"},
		{"", ""},
	} {
		if got := FirstSentence(tt.desc); got != tt.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", tt.desc, got, tt.want)
		}
	}
}

func TestSummary(t *testing.T) {
	tool := func(desc, schema string) *Tool {
		return &Tool{Pack: "p", Name: "f", Description: desc, InputSchema: schema, Returns: "str"}
	}
	for _, tt := range []struct {
		tool *Tool
		want string
	}{
		{tool("Read a file. More.", `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","default":2000}},"required":["path"]}`),
			"p.f(path, limit=2000) -> str — Read a file."},
		{tool("", `{"type":"object","properties":{"q":{"type":"string"}}}`), "p.f(q=None) -> str"},
		{tool("Many parameters. More.", `{"type":"object","properties":{"a":{"type":"string"},`+
			`"b1":{"type":"string","default":"`+strings.Repeat("x", 40)+`"},"b2":{"type":"string","default":"`+strings.Repeat("y", 40)+`"}},"required":["a"]}`),
			`p.f(a, b1="` + strings.Repeat("x", 40) + `", …) -> str — Many parameters.`},
	} {
		if got := tt.tool.Summary(); got != tt.want {
			t.Errorf("Summary() = %q\nwant        %q", got, tt.want)
		}
	}
	long := tool(strings.Repeat("word ", 100), `{"type":"object"}`).Summary()
	if n := utf8.RuneCountInString(long); n > SummaryWidth || !strings.HasSuffix(long, "…") {
		t.Errorf("a long description gives %d characters: %q", n, long)
	}
}
