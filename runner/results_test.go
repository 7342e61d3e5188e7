package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// numbered is "line 1\nline 2\n…" with n lines.
func numbered(n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i+1)
	}
	return strings.Join(lines, "\n")
}

var handleRE = regexp.MustCompile(`ot\.result\(handle="(r[a-z0-9]+)"`)

// A run whose text is longer than max_inline returns a preview that says
// how to read on; ot.result in a later run pages through the whole.
func TestLargeResultPagedWithOtResult(t *testing.T) {
	r := newRunner(t, WithMaxInline(1000))
	res := r.Exec(context.Background(), `"\n".join(["line %d" % (i + 1) for i in range(5000)])`)
	if res.IsError() || res.Handle == "" {
		t.Fatalf("want a stored result, got %q", res.Text)
	}
	if len(res.Text) > 1500 || !strings.HasPrefix(res.Text, "line 1\nline 2\n") {
		t.Errorf("preview too long or wrong: %d bytes: %.80q", len(res.Text), res.Text)
	}
	m := handleRE.FindStringSubmatch(res.Text)
	if m == nil || m[1] != res.Handle {
		t.Fatalf("the preview does not name the handle %s:\n%s", res.Handle, res.Text[len(res.Text)-300:])
	}
	if !strings.Contains(res.Text, "48892 characters, 5000 lines in all") {
		t.Errorf("preview does not give the size: %s", res.Text[len(res.Text)-300:])
	}
	page := r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, offset=4999, limit=5)`, res.Handle))
	if page.Text != "line 4999\nline 5000" {
		t.Errorf("last page: %q", page.Text)
	}
	page = r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, offset=11, limit=2)`, res.Handle))
	want := fmt.Sprintf("line 11\nline 12\n… (lines 11–12 of 5000: next ot.result(handle=%q, offset=13, limit=2))", res.Handle)
	if page.Text != want {
		t.Errorf("middle page:\n%s\nwant\n%s", page.Text, want)
	}
	found := r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, search="^line 4[0-9]7$", limit=3)`, res.Handle))
	if found.Text != `{"matches":10,"lines":["407: line 407","417: line 417","427: line 427"],"more":"7 more matches: raise limit (at most 1000) or narrow the search"}` {
		t.Errorf("search: %s", found.Text)
	}
	// The value is whole for Go callers.
	if s, _ := res.Value.(string); len(s) != 48892 {
		t.Errorf("Value has %d bytes", len(s))
	}
}

func TestSmallResultsStayInline(t *testing.T) {
	r := newRunner(t, WithMaxInline(1000))
	if res := r.Exec(context.Background(), `"x" * 1000`); res.Handle != "" || len(res.Text) != 1000 {
		t.Errorf("a result of exactly max_inline characters was stored: %d bytes", len(res.Text))
	}
	if res := r.Exec(context.Background(), `"é" * 1000`); res.Handle != "" {
		t.Error("max_inline counts characters, not bytes")
	}
	// Errors are never stored: the message must be seen whole.
	if res := r.Exec(context.Background(), `fail("x" * 5000)`); res.Handle != "" || !res.IsError() {
		t.Error("an error was stored")
	}
	// 0 turns storing off.
	r0 := newRunner(t, WithMaxInline(0))
	if res := r0.Exec(context.Background(), `"x" * 50000`); res.Handle != "" || len(res.Text) != 50000 {
		t.Error("WithMaxInline(0) stored a result")
	}
}

func TestOtResultErrors(t *testing.T) {
	r := newRunner(t, WithMaxInline(100))
	h := r.Exec(context.Background(), `"\n".join(["x"] * 500)`).Handle
	for _, tt := range []struct{ code, want string }{
		{`ot.result(handle="rnope")`, `Error: line 1: ot.result failed: unknown result handle "rnope": results are kept for 30m0s and at most 100 at a time; run the program again to get it anew`},
		{fmt.Sprintf(`ot.result(handle=%q, offset=0)`, h), "Error: line 1: ot.result failed: offset must be 1 or more (the first line is 1), got 0"},
		{fmt.Sprintf(`ot.result(handle=%q, limit=0)`, h), "Error: line 1: ot.result failed: limit must be between 1 and 1000 lines, got 0"},
		{fmt.Sprintf(`ot.result(handle=%q, limit=5000)`, h), "Error: line 1: ot.result failed: limit must be between 1 and 1000 lines, got 5000"},
		{fmt.Sprintf(`ot.result(handle=%q, offset=501)`, h), "Error: line 1: ot.result failed: offset 501 is past the end: the result has 500 lines"},
		{fmt.Sprintf(`ot.result(handle=%q, search="(")`, h), "Error: line 1: ot.result failed: search is not a valid regular expression: error parsing regexp: missing closing ): `(`"},
		{`ot.result()`, "Error: line 1: ot.result: missing required parameter 'handle'. Signature: ot.result(handle: str, offset: int = 1, limit: int = 100, search: str = \"\") -> any"},
	} {
		if got := r.Exec(context.Background(), tt.code).Text; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.code, got, tt.want)
		}
	}
}

// The store forgets results past their time, and the oldest when full.
func TestResultStoreBounds(t *testing.T) {
	s := newResultStore()
	now := time.Unix(0, 0)
	s.now = func() time.Time { return now }
	old := s.put("a\nb")
	now = now.Add(resultTTL + time.Second)
	if _, err := s.page(old, 1, 10, ""); !errors.Is(err, ErrUnknownHandle) {
		t.Errorf("expired handle: %v", err)
	}
	s.maxLen = 3
	var ids []string
	for i := range 5 {
		ids = append(ids, s.put(fmt.Sprint(i)))
	}
	for i, id := range ids {
		_, err := s.page(id, 1, 1, "")
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("entry %d kept = %v", i, kept)
		}
	}
	s.maxSum = 10
	a := s.put("123456")
	b := s.put("789012")
	if _, err := s.page(a, 1, 1, ""); err == nil {
		t.Error("the byte bound kept both")
	}
	if v, err := s.page(b, 1, 1, ""); err != nil || v != "789012" {
		t.Errorf("newest: %v %v", v, err)
	}
	if s.bytes != 6 {
		t.Errorf("bytes = %d", s.bytes)
	}
}
