package mcpclient

import (
	"errors"
	"strings"
	"testing"
)

func TestPackName(t *testing.T) {
	for in, want := range map[string]string{
		"my-server":   "my_server",
		"github":      "github",
		"My.Server 2": "My_Server_2",
		"2fa":         "_2fa",
		"_x":          "_x",
		"":            "_",
		"é-tool":      "__tool",
	} {
		if got := PackName(in); got != want {
			t.Errorf("PackName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"listItems":         "list_items",
		"list-items":        "list_items",
		"list_items":        "list_items",
		"ListItems":         "list_items",
		"list items":        "list_items",
		"LIST_ITEMS":        "list_items",
		"getHTTPResponse":   "get_http_response",
		"HTTPServer":        "http_server",
		"userID":            "user_id",
		"base64Encode":      "base64_encode",
		"get2FA":            "get2_fa",
		"--weird__name--":   "weird_name",
		"search.issues":     "search_issues",
		"echo":              "echo",
		"":                  "",
		"ÜberTool":          "über_tool",
		"already_canonical": "already_canonical",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatchTool(t *testing.T) {
	tools := []Tool{{Name: "echo"}, {Name: "get-sum"}, {Name: "listItems"}, {Name: "list-items"},
		{Name: "gh_search_issues"}, {Name: "getHTTPResponse"}}
	ok := []struct{ name, prefix, want string }{
		{"echo", "", "echo"},
		{"get_sum", "", "get-sum"},
		{"getSum", "", "get-sum"},
		{"GetSum", "", "get-sum"},
		{"listItems", "", "listItems"}, // exact wins over the ambiguity
		{"list-items", "", "list-items"},
		{"get_http_response", "", "getHTTPResponse"},
		{"search_issues", "gh_", "gh_search_issues"},
		{"searchIssues", "gh_", "gh_search_issues"},
		{"echo", "gh_", "echo"}, // no prefix needed
	}
	for _, c := range ok {
		got, err := MatchTool(tools, c.name, c.prefix)
		if err != nil || got.Name != c.want {
			t.Errorf("MatchTool(%q, prefix %q) = %q, %v; want %q", c.name, c.prefix, got.Name, err, c.want)
		}
	}

	_, err := MatchTool(tools, "list_items", "")
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "'listItems' and 'list-items'") {
		t.Errorf("ambiguous: got %v", err)
	}

	_, err = MatchTool(tools, "get_summ", "")
	if !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("unknown: got %v", err)
	}
	for _, want := range []string{"unknown tool 'get_summ'", "did you mean 'get-sum'?", "Tools: echo, get-sum, listItems"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("unknown tool error %q lacks %q", err, want)
		}
	}

	_, err = MatchTool(tools, "serch_issues", "gh_")
	if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "did you mean 'gh_search_issues'?") {
		t.Errorf("unknown with prefix: got %v", err)
	}

	_, err = MatchTool(tools, "zzz", "")
	if !errors.Is(err, ErrUnknownTool) || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("far-off name: got %v", err)
	}
	_, err = MatchTool(nil, "x", "")
	if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), "no tools") {
		t.Errorf("no tools: got %v", err)
	}
}
