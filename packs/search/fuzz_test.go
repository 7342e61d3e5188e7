package search

import (
	"math"
	"testing"
)

// FuzzSearch: any tool name and description (an upstream server writes
// them) and any query (a program writes it) index and search without a
// panic, and the hits are few, finite, positive and in order.
func FuzzSearch(f *testing.F) {
	f.Add("chat.postMessage", "Sends a message to a channel.", "send a message")
	f.Add("get-HTTPResponse_v2", "on-call — ünïcode\x00\xff", "on call PR repo")
	f.Add("", "", "")
	f.Add("a-b-c-d", "x-y -z- -", "- -- a b")
	f.Fuzz(func(t *testing.T, name, text, query string) {
		docs := append([]Doc{{Name: name, Text: text, Params: []string{text}, ParamText: name}}, testDocs...)
		ix := New(docs)
		hits := ix.Search(query, 5)
		if len(hits) > 5 {
			t.Fatalf("%d hits over the limit 5", len(hits))
		}
		for i, h := range hits {
			if math.IsNaN(h.Score) || math.IsInf(h.Score, 0) || h.Score <= 0 {
				t.Fatalf("hit %d has score %v", i, h.Score)
			}
			if i > 0 && better(h, hits[i-1]) {
				t.Fatalf("hits out of order: %v", hits)
			}
		}
	})
}
