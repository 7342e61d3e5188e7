package replay

import (
	"strings"
	"testing"
)

// Programs are written by models and trial files come from clients: the
// rule and the reader must take any text without a panic or a hang.

func FuzzIsDiscovery(f *testing.F) {
	for _, s := range []string{
		`ot.help(query="file")`, "{t: db.schema(table=t) for t in db.tables()}",
		"x = '''a\n", `r"\"`, "def f(a=db.query):\n  help(f)", "a.b.c(", "for in =", "((((", "f'{x.y}'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		tools, _ := Tools(code)
		for _, id := range tools {
			if !strings.Contains(id, ".") {
				t.Fatalf("tool id %q has no pack", id)
			}
		}
		IsDiscovery(code, nil)
	})
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"task":"a","code":"1","result":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"command":"1"}}}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}`,
		`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"u","name":"run","input":{"command":"1"}}]}}`,
		`{"kind":"run","bytes_out":3,"ok":true}`,
		`{"note":"n"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := Read(strings.NewReader(text), "f.jsonl")
		if err == nil {
			NewReport(tr, nil)
		}
	})
}
