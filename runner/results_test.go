package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/results"
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
	if want := fmt.Sprintf(`{"matches":10,"lines":["407: line 407","417: line 417","427: line 427"],"more":"7 more matches: next ot.result(handle=\"%s\", search=\"^line 4[0-9]7$\", offset=437, limit=3); or narrow the search"}`, res.Handle); found.Text != want {
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
	long := r.Exec(context.Background(), `"y" * 5000`).Handle
	for _, tt := range []struct{ code, want string }{
		{`ot.result(handle="rnope")`, `Error: line 1: ot.result failed: unknown result handle "rnope": results are kept for 30m0s and at most 100 at a time; run the program again to get it anew`},
		{fmt.Sprintf(`ot.result(handle=%q, offset=0)`, h), "Error: line 1: ot.result failed: offset must be 1 or more (the first line is 1), got 0"},
		{fmt.Sprintf(`ot.result(handle=%q, limit=0)`, h), "Error: line 1: ot.result failed: limit must be between 1 and 1000 lines, got 0"},
		{fmt.Sprintf(`ot.result(handle=%q, limit=5000)`, h), "Error: line 1: ot.result failed: limit must be between 1 and 1000 lines, got 5000"},
		{fmt.Sprintf(`ot.result(handle=%q, offset=501)`, h), "Error: line 1: ot.result failed: offset 501 is past the end: the result has 500 lines"},
		{fmt.Sprintf(`ot.result(handle=%q, search="(")`, h), "Error: line 1: ot.result failed: search is not a valid regular expression: error parsing regexp: missing closing ): `(`"},
		{fmt.Sprintf(`ot.result(handle=%q, start=-1)`, h), "Error: line 1: ot.result failed: start must be 0 or more (the first character is 0), got -1"},
		{fmt.Sprintf(`ot.result(handle=%q, start=1000)`, h), "Error: line 1: ot.result failed: start=1000 is past the end: the result has 999 characters (start from 0 to 998)"},
		{fmt.Sprintf(`ot.result(handle=%q, start=5, offset=3)`, h), "Error: line 1: ot.result failed: give offset (a line, from 1) or start (a character, from 0), not both"},
		{fmt.Sprintf(`ot.result(handle=%q, max_chars=0)`, h), "Error: line 1: ot.result failed: max_chars must be between 1 and 100000 characters, got 0"},
		{fmt.Sprintf(`ot.result(handle=%q, start=0, max_chars=100001)`, h), "Error: line 1: ot.result failed: max_chars must be between 1 and 100000 characters, got 100001"},
		{fmt.Sprintf(`ot.result(handle=%q, offset=2)`, long), fmt.Sprintf(`Error: line 1: ot.result failed: offset 2 is past the end: the result has 1 line and 5000 characters; read it by characters: ot.result(handle=%q, start=0)`, long)},
		{`ot.result()`, "Error: line 1: ot.result: missing required parameter 'handle'. Signature: ot.result(handle: str, offset: int = 1, limit: int = 100, search: str = \"\", start: int = None, max_chars: int = None) -> any\n(the program did not start: its tool calls were checked first, and no tool ran)"},
	} {
		if got := r.Exec(context.Background(), tt.code).Text; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.code, got, tt.want)
		}
	}
}

// A result that would take more than the whole store is refused with an
// error that gives its size and the cap and says what to do, instead of
// being kept past the cap. (On main, a 1000 MiB result was kept for 30
// minutes against a 256 MiB cap.)
func TestResultLargerThanStoreRefused(t *testing.T) {
	r := newRunner(t, WithMaxInline(100))
	r.results = results.NewMemory(results.Options{MaxBytes: 64 << 10})
	res := r.Exec(context.Background(), `"x" * 100000`)
	want := "Error: the result is too large to keep: it takes 97.7 KiB, and results longer than output.max_inline are kept for ot.result only up to 64 KiB. " +
		"Return less: a slice (x[:100]), the items that match a filter, or a summary (len, counts); " +
		"or write it to a file with file.write (append=True adds the next part) and return the path"
	if !res.IsError() || res.Text != want || res.Handle != "" {
		t.Errorf("got handle %q, text:\n%s\nwant\n%s", res.Handle, res.Text, want)
	}
	if !errors.Is(res.Err, ErrResultTooLarge) || !errors.Is(res.Err, ErrLimit) {
		t.Errorf("errors.Is(%v, ErrResultTooLarge / ErrLimit) = false", res.Err)
	}
	if n, bytes, _ := r.results.Held(); n != 0 || bytes != 0 {
		t.Errorf("the store holds %d results, %d bytes after a refusal", n, bytes)
	}
	// Many short lines cost their line marks too, and still fit.
	res = r.Exec(context.Background(), `"\n" * 50000`)
	if res.IsError() || res.Handle == "" {
		t.Errorf("50000 newlines: %.200s", res.Text)
	}
}

// A stored result belongs to the principal whose run made it (SPEC
// §8.4): another principal, or a run nobody authenticated, reading its
// handle gets exactly what a handle never given out gets, so handles
// cannot be probed; a text shaped like the store's own keys is no handle.
// In the server's process and in a worker alike.
func TestResultHandleBelongsToPrincipal(t *testing.T) {
	alice := principal("alice", "dev", config.Policy{Allow: []string{"*"}})
	bob := principal("bob", "dev", config.Policy{Allow: []string{"*"}})
	// An OAuth subject named like the static token is someone else.
	oauthAlice := &auth.Principal{Name: "oauth:alice", ID: auth.OAuthID("https://issuer.example", "alice"), Policy: alice.Policy}
	for _, mode := range []struct {
		name string
		r    func(t *testing.T) *Runner
	}{
		{"in process", func(t *testing.T) *Runner { return newRunner(t, WithMaxInline(100)) }},
		{"isolated", func(t *testing.T) *Runner { return isolated(t, Isolation{Workers: 1}, WithMaxInline(100)) }},
	} {
		t.Run(mode.name, func(t *testing.T) {
			r := mode.r(t)
			ctx := context.Background()
			res := r.Exec(ctx, `"\n".join(["line %d" % i for i in range(500)])`, AsPrincipal(alice))
			if res.Handle == "" {
				t.Fatalf("no handle: %s", res.Text)
			}
			read := func(who *auth.Principal, handle string) string {
				return r.Exec(ctx, fmt.Sprintf("ot.result(handle=%q, offset=3, limit=1)", handle), AsPrincipal(who)).Text
			}
			if got := read(alice, res.Handle); !strings.HasPrefix(got, "line 2\n") {
				t.Fatalf("alice reads her result: %q", got)
			}
			unknown := func(h string) string {
				return fmt.Sprintf("Error: line 1: ot.result failed: unknown result handle %q: results are kept for 30m0s and at most 100 at a time; run the program again to get it anew", h)
			}
			never := "rabcdefghij"
			if got := read(alice, never); got != unknown(never) {
				t.Fatalf("a handle never given out: %q", got)
			}
			for _, who := range []*auth.Principal{bob, oauthAlice, nil} {
				if got := read(who, res.Handle); got != unknown(res.Handle) {
					t.Errorf("%v reads alice's handle: %q, want %q", who.Key(), got, unknown(res.Handle))
				}
			}
			if got := read(nil, res.Handle+"."+strings.Repeat("0", 24)); !strings.Contains(got, "unknown result handle") {
				t.Errorf("a text shaped like the store's key as a handle: %q", got)
			}
		})
	}
}

// nextCall finds the call a preview or a page ends with ("Read on: …",
// "next …"), and the piece of the result before it.
var nextCall = regexp.MustCompile(`\n… (?:\[[^\n]*\]\nRead on: |\((?:lines|characters) [^\n]*: next )(ot\.result\([^)\n]*\))`)

// follow runs, as programs, the call each page suggests, from the
// preview of res to the end, and returns the pieces put back together:
// after a page of lines (start=…) the next begins a line (offset=…).
func follow(t *testing.T, r *Runner, res *ExecResult) (string, int) {
	t.Helper()
	var b strings.Builder
	text, calls := res.Text, 0
	for {
		m := nextCall.FindStringSubmatchIndex(text)
		if m == nil {
			b.WriteString(text)
			return b.String(), calls
		}
		b.WriteString(text[:m[0]])
		call := text[m[2]:m[3]]
		if strings.Contains(call, "offset=") {
			b.WriteByte('\n')
		}
		calls++
		if calls > 2000 {
			t.Fatalf("more than 2000 pages; the last call %s", call)
		}
		page := r.Exec(context.Background(), call)
		if page.IsError() || page.Handle != "" {
			t.Fatalf("%s: %.300s (handle %q)", call, page.Text, page.Handle)
		}
		text = page.Text
	}
}

// For each shape of large result, the preview suggests a call that reads
// on, and following the calls each page suggests, as programs, returns
// the whole result exactly once: no gap, no overlap, every page short
// enough to be returned inline.
func TestLargeResultShapesFollowed(t *testing.T) {
	r := newRunner(t, WithMaxInline(1000))
	whole := newRunner(t, WithMaxInline(0)) // the results as they are
	for _, tt := range []struct {
		name, code string
		first      string // the call the preview suggests
		json       bool   // the stored text is the value laid out: compare values
	}{
		{"many lines", `"\n".join(["line %d" % i for i in range(3000)])`, "offset=", false},
		{"one long line", `",".join([str(i) for i in range(20000)])`, "start=", false},
		{"few long lines", `"\n".join([",".join([str(k * 100000 + i) for i in range(3000)]) for k in range(3)])`, "start=", false},
		{"a long line among short ones", `"\n".join(["a%d" % i for i in range(300)] + ["-".join([str(i) for i in range(3000)])] + ["b%d" % i for i in range(300)])`, "offset=", false},
		{"wide characters", `"".join(["é€😀"[i % 3] + str(i) for i in range(5000)])`, "start=", false},
		{"printed then a value", "print(\"\\n\".join([\"p%d\" % i for i in range(100)]))\n\"z\" * 3000", "start=", false}, // the preview ends inside the long line
		{"JSON list of records", `[{"id": i, "name": "item %d" % i, "tags": ["a", "b"]} for i in range(2000)]`, "offset=", true},
		{"JSON with a long list inside", `{"query": "x", "results": [{"id": i, "ok": i % 2 == 0} for i in range(2000)]}`, "offset=", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Exec(context.Background(), tt.code)
			if res.IsError() || res.Handle == "" {
				t.Fatalf("not stored: %.300s", res.Text)
			}
			m := nextCall.FindStringSubmatch(res.Text)
			if m == nil || !strings.Contains(m[1], tt.first) {
				t.Fatalf("the preview suggests %v, want a call with %s:\n%s", m, tt.first, res.Text[max(0, len(res.Text)-300):])
			}
			whole := whole.Exec(context.Background(), tt.code).Text
			got, calls := follow(t, r, res)
			if calls < 2 {
				t.Errorf("read in %d calls: pages too large", calls)
			}
			if !tt.json {
				if got != whole {
					t.Errorf("following the pages gives %d characters, want %d; first difference at %d", len(got), len(whole), diffAt(got, whole))
				}
				return
			}
			var a, b any
			if err := json.Unmarshal([]byte(got), &a); err != nil {
				t.Fatalf("the pages put together are no JSON: %v\n%.300s", err, got)
			}
			if err := json.Unmarshal([]byte(whole), &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Error("the pages put together are another value")
			}
			if !regexp.MustCompile(`\n +\{"id":7,`).MatchString(got) {
				t.Errorf("records are not one per line:\n%.300s", got)
			}
		})
	}
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// search shows each match, not a cut before it: a match deep inside a
// long line is shown with the text around it, its character, and a call
// that reads from there, which, run, returns the match.
func TestResultSearchShowsDeepMatches(t *testing.T) {
	r := newRunner(t, WithMaxInline(1000))
	res := r.Exec(context.Background(), `"x" * 50000 + "NEEDLE1" + "y" * 30000 + "NEEDLE2" + "z" * 10`)
	if res.Handle == "" {
		t.Fatal(res.Text)
	}
	found := r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, search="NEEDLE[0-9]")`, res.Handle))
	want := fmt.Sprintf(`{"matches":2,"lines":[`+
		`"1: …%sNEEDLE1%s… (character 50000; read on: ot.result(handle=\"%[3]s\", start=49900))",`+
		`"1: …%sNEEDLE2zzzzzzzzzz (character 80007; read on: ot.result(handle=\"%[3]s\", start=79907))"]}`,
		strings.Repeat("x", 100), strings.Repeat("y", 100), res.Handle, strings.Repeat("y", 100))
	if found.Text != want {
		t.Errorf("search:\n got %s\nwant %s", found.Text, want)
	}
	read := r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, start=79907)`, res.Handle))
	if !strings.HasPrefix(read.Text, strings.Repeat("y", 100)+"NEEDLE2") {
		t.Errorf("the call that reads on: %.200s", read.Text)
	}
	// Past limit, the next matches are a call away, from the first not shown.
	more := r.Exec(context.Background(), fmt.Sprintf(`ot.result(handle=%q, search="NEEDLE[0-9]", limit=1)`, res.Handle))
	if want := fmt.Sprintf(`"more":"1 more matches: next ot.result(handle=\"%s\", search=\"NEEDLE[0-9]\", start=80007, limit=1); or narrow the search"`, res.Handle); !strings.Contains(more.Text, want) {
		t.Errorf("more:\n got %s\nwant %s", more.Text, want)
	}
}
