package search

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"chat.postMessage", []string{"chat", "post", "message"}},
		{"list_pull_requests", []string{"list", "pull", "requests"}},
		{"get-job-logs", []string{"get", "job", "logs"}},
		{"getHTTPResponse", []string{"get", "http", "response"}},
		{"users.lookupByEmail", []string{"users", "lookup", "by", "email"}},
		{"Ünïcode Wörds", []string{"ünïcode", "wörds"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := splitWords(tt.in, nil); !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTermsFoldAndJoin(t *testing.T) {
	st := newStemmer()
	// Plurals and inflections fold to one stem; stop words go; a
	// hyphenated pair is also one word.
	if a, b := st.terms("pull requests", nil), st.terms("requested pulls", nil); !slices.Equal(a, []string{"pull", "request"}) || !slices.Equal(b, []string{"request", "pull"}) {
		t.Errorf("terms: %q, %q", a, b)
	}
	if got := st.terms("who is on-call", nil); !slices.Equal(got, []string{"call", "oncal"}) && !slices.Equal(got, []string{"call", "oncall"}) {
		t.Errorf("terms(who is on-call) = %q", got)
	}
}

func ids(ix *Index, hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, ix.Ref(h.Doc).(string))
	}
	return out
}

var testDocs = []Doc{
	{Name: "list_issues", Group: "github", Text: "List issues in a repository.", Params: []string{"owner", "repo"}, Ref: "github.list_issues"},
	{Name: "get_issue", Group: "github", Text: "Get an issue by number.", Params: []string{"issue_number"}, Ref: "github.get_issue"},
	{Name: "createIssue", Group: "jira", Text: "Creates a ticket in a project.", Ref: "jira.create_issue"},
	{Name: "get_oncall", Group: "monitor", Text: "Get who is on call now.", Ref: "monitor.get_oncall"},
	{Name: "chat.postMessage", Group: "slack", Text: "Sends a message to a channel.", Params: []string{"channel", "text"}, Ref: "slack.chat_post_message"},
	{Name: "delete-event", Group: "gcal", Text: "Delete (cancel) an event.", Ref: "gcal.delete_event"},
	{Name: "github", Text: "Code hosting", Weight: 0.7, Ref: "pack github"},
}

func TestSearch(t *testing.T) {
	ix := New(testDocs)
	tests := []struct {
		query string
		first string
	}{
		{"list issues", "github.list_issues"},                     // exact name
		{"show the issues", "github.list_issues"},                 // plural; show ~ list and get: the plural's list wins on its description
		{"open a new ticket", "jira.create_issue"},                // synonyms: new ~ create, ticket ~ issue
		{"who is on call", "monitor.get_oncall"},                  // "on call" → oncall
		{"post messages to a channel", "slack.chat_post_message"}, // camelCase split, plural
		{"cancel a meeting", "gcal.delete_event"},                 // meeting ~ event, cancel in the text
		{"github", "pack github"},                                 // a pack by its name
		{"ISSUE", "github.get_issue"},                             // case; the shorter name
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, 3)
		if len(hits) == 0 || ix.Ref(hits[0].Doc) != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, ids(ix, hits), tt.first)
		}
	}
	for _, q := range []string{"", "the of a to", "zzqq", "!!!"} {
		if hits := ix.Search(q, 0); len(hits) != 0 {
			t.Errorf("Search(%q) = %q, want nothing", q, ids(ix, hits))
		}
	}
}

func TestSearchLimitAndOrder(t *testing.T) {
	docs := make([]Doc, 50)
	for i := range docs {
		docs[i] = Doc{Name: "same", Ref: i}
	}
	ix := New(docs)
	hits := ix.Search("same", 5)
	if len(hits) != 5 {
		t.Fatalf("%d hits, want 5", len(hits))
	}
	for i, h := range hits {
		if h.Doc != i {
			t.Errorf("tie %d is document %d: ties must keep the documents' order", i, h.Doc)
		}
	}
	if all := ix.Search("same", 0); len(all) != 50 {
		t.Errorf("limit 0 gave %d hits, want all 50", len(all))
	}
}

// TestConcurrentSearch: an Index is read by many goroutines at once (run
// with -race).
func TestConcurrentSearch(t *testing.T) {
	ix := New(testDocs)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				ix.Search("send a new message about an unseenword", 3)
			}
		})
	}
	wg.Wait()
}

func TestCache(t *testing.T) {
	c := NewCache()
	builds := 0
	docs := func() []Doc { builds++; return testDocs }
	a := c.Index([]any{"k", 1}, docs)
	if b := c.Index([]any{"k", 1}, docs); b != a || builds != 1 {
		t.Errorf("the same key built again (%d builds)", builds)
	}
	if b := c.Index([]any{"k", 2}, docs); b == a || builds != 2 {
		t.Errorf("a new key did not build (%d builds)", builds)
	}
	for i := range cacheSize + 2 {
		c.Index([]any{i}, docs)
	}
	if len(c.entries) != cacheSize {
		t.Errorf("the cache holds %d indexes, want at most %d", len(c.entries), cacheSize)
	}
	var nilCache *Cache
	if nilCache.Index(nil, docs) == nil {
		t.Error("a nil cache must still build")
	}
}

// TestLongQuery: a query of megabytes (a program may pass one) costs what
// its first words cost, and finds what they find.
func TestLongQuery(t *testing.T) {
	ix := New(testDocs)
	long := "post messages to a channel " + strings.Repeat("zzqq list issue get ", 250_000)
	start := time.Now()
	hits := ix.Search(long, 3)
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("a 5 MB query took %v", d)
	}
	if len(hits) == 0 || ix.Ref(hits[0].Doc) != "slack.chat_post_message" {
		t.Errorf("Search(long) = %q, want slack.chat_post_message first", ids(ix, hits))
	}
	if got := len(ix.queryTerms(long)); got > maxQueryWords*2 {
		t.Errorf("%d query terms, want at most %d", got, maxQueryWords*2)
	}
}
