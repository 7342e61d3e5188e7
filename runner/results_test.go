package runner

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/store"
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

// held is what a memory result store holds: results and bytes.
func held(s *resultStore) (int, int64) { return s.st.(store.Sizer).Len() }

// The store forgets results past their time, and the oldest when full.
func TestResultStoreBounds(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	s := newMemoryResults(maxStoredResults, maxStoredBytes, clock)
	put := func(text string) string {
		t.Helper()
		id, err := s.put(ctx, text, "")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	old := put("a\nb")
	now = now.Add(resultTTL + time.Second)
	if _, err := s.page(ctx, old, 1, 10, ""); !errors.Is(err, ErrUnknownHandle) {
		t.Errorf("expired handle: %v", err)
	}
	s = newMemoryResults(3, maxStoredBytes, clock)
	var ids []string
	for i := range 5 {
		ids = append(ids, put(fmt.Sprint(i)))
	}
	for i, id := range ids {
		_, err := s.page(ctx, id, 1, 1, "")
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("entry %d kept = %v", i, kept)
		}
	}
	s = newMemoryResults(maxStoredResults, 40, clock)
	a := put("123456")
	b := put("789012")
	if _, err := s.page(ctx, a, 1, 1, ""); err == nil {
		t.Error("the byte bound kept both")
	}
	if v, err := s.page(ctx, b, 1, 1, ""); err != nil || v != "789012" {
		t.Errorf("newest: %v %v", v, err)
	}
	if n, bytes := held(s); n != 1 || bytes != 11+4+6 { // the handle, the header with one line mark, the text
		t.Errorf("held %d results, %d bytes", n, bytes)
	}
}

// A result that would take more than the whole store is refused with an
// error that gives its size and the cap and says what to do, instead of
// being kept past the cap. (On main, a 1000 MiB result was kept for 30
// minutes against a 256 MiB cap.)
func TestResultLargerThanStoreRefused(t *testing.T) {
	r := newRunner(t, WithMaxInline(100))
	r.results = newMemoryResults(maxStoredResults, 64<<10, nil)
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
	if n, bytes := held(r.results); n != 0 || bytes != 0 {
		t.Errorf("the store holds %d results, %d bytes after a refusal", n, bytes)
	}
	// Many short lines cost their line marks too, and still fit.
	res = r.Exec(context.Background(), `"\n" * 50000`)
	if res.IsError() || res.Handle == "" {
		t.Errorf("50000 newlines: %.200s", res.Text)
	}
}

// However many results arrive, concurrently or not, the store holds at
// most its cap in bytes and entries, dropping the oldest first.
func TestResultStoreStaysWithinCap(t *testing.T) {
	ctx := context.Background()
	const maxSum = 100 << 10
	s := newMemoryResults(maxStoredResults, maxSum, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				text := strings.Repeat(fmt.Sprintf("%d-%d\n", g, i), 500+(g*50+i)*37%2000)
				if _, err := s.put(ctx, text, ""); err != nil {
					t.Error(err)
					return
				}
				if n, bytes := held(s); bytes > maxSum || n > maxStoredResults {
					t.Errorf("the store holds %d bytes in %d results, cap %d bytes, %d results", bytes, n, maxSum, maxStoredResults)
				}
			}
		})
	}
	wg.Wait()
	last, _ := s.put(ctx, "newest", "")
	if v, err := s.page(ctx, last, 1, 1, ""); err != nil || v != "newest" {
		t.Errorf("newest: %v %v", v, err)
	}
}

// Paging and search read the same lines as splitting the text at every
// newline would, around the line marks too.
func TestResultPagesMatchLines(t *testing.T) {
	texts := map[string]string{
		"numbered": numbered(3*lineStride + 5),
		"trailing": numbered(lineStride) + "\n",
		"blank":    strings.Repeat("\n", 2*lineStride),
		"one line": "only",
	}
	for name, text := range texts {
		s := newResultStore()
		id, err := s.put(context.Background(), text, "")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text, "\n")
		for _, offset := range []int{1, 2, lineStride - 1, lineStride, lineStride + 1, 2*lineStride + 1, len(lines)} {
			if offset > len(lines) {
				continue
			}
			for _, limit := range []int{1, 3, lineStride + 2} {
				got, err := s.page(context.Background(), id, offset, limit, "")
				if err != nil {
					t.Fatalf("%s %d,%d: %v", name, offset, limit, err)
				}
				end := min(len(lines), offset-1+limit)
				want := strings.Join(lines[offset-1:end], "\n")
				if end < len(lines) {
					want += fmt.Sprintf("\n… (lines %d–%d of %d: next ot.result(handle=%q, offset=%d, limit=%d))", offset, end, len(lines), id, end+1, limit)
				}
				if got != want {
					t.Errorf("%s offset %d limit %d:\n got %.120q\nwant %.120q", name, offset, limit, got, want)
				}
			}
		}
		from := min(lineStride, len(lines))
		found, err := s.page(context.Background(), id, from, 1000, "^$|7$")
		if err != nil {
			t.Fatal(err)
		}
		matches := 0
		for _, l := range lines[from-1:] {
			if l == "" || strings.HasSuffix(l, "7") {
				matches++
			}
		}
		if n, _ := found.(*ordered.Map).Get("matches"); n != int64(matches) {
			t.Errorf("%s: search from line %d found %v matches, want %d", name, from, n, matches)
		}
	}
}

// Bytes in a shared store that are not a result this onetool wrote (cut
// short, another version's layout, a wrong count of lines) give an error
// from ot.result (or at worst a wrong page), never a panic.
func TestResultDamagedInStore(t *testing.T) {
	ctx := context.Background()
	good := encodeResult(numbered(3*lineStride + 5))
	damaged := [][]byte{nil, {}, {2}, good[:1], good[:3], good[:5]}
	for _, lines := range []uint64{0, 1, 3*lineStride + 1, 3*lineStride + 100, 4 * lineStride, 10 * lineStride, 1 << 40} {
		b := binary.AppendUvarint([]byte{resultFormat}, lines)
		damaged = append(damaged, append(b, good[3:]...)) // 3*256+5 lines take 2 bytes
	}
	for i, value := range damaged {
		s := newResultStore()
		if err := s.st.Set(ctx, "rdamaged123", value, time.Minute); err != nil {
			t.Fatal(err)
		}
		for _, search := range []string{"", "7$"} {
			for _, offset := range []int{1, lineStride, 3*lineStride + 5} {
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Errorf("value %d, offset %d, search %q: panic %v", i, offset, search, p)
						}
					}()
					_, err := s.page(ctx, "rdamaged123", offset, 1000, search)
					if err != nil && !errors.Is(err, errBadResult) && !strings.Contains(err.Error(), "past the end") {
						t.Errorf("value %d: %v", i, err)
					}
				}()
			}
		}
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
			key, _ := resultKey(res.Handle, alice.Key())
			if got := read(nil, key); !strings.Contains(got, "unknown result handle") {
				t.Errorf("the store's key as a handle: %q", got)
			}
		})
	}
}

// One principal holds at most a quarter of the result store (results and
// bytes): however many results it makes, it forgets its own oldest first
// and never pushes another principal's out. A result larger than its
// share is refused with what to do. Runs nobody authenticated keep the
// whole store, as before.
func TestResultStoreSharePerPrincipal(t *testing.T) {
	ctx := context.Background()
	const maxSum = 400 << 10
	s := newMemoryResults(maxStoredResults, maxSum, nil)
	bob, err := s.put(ctx, "bob's", "token:bob")
	if err != nil {
		t.Fatal(err)
	}
	var alice []string
	for i := range 3 * maxStoredResults {
		id, err := s.put(ctx, fmt.Sprint("alice ", i), "token:alice")
		if err != nil {
			t.Fatal(err)
		}
		alice = append(alice, id)
	}
	readable := func(ids []string, owner string) int {
		n := 0
		for _, id := range ids {
			if _, err := s.get(ctx, id, owner); err == nil {
				n++
			}
		}
		return n
	}
	if n := readable(alice, "token:alice"); n != maxStoredResults/ownerShare {
		t.Errorf("alice keeps %d of her %d results, want %d", n, len(alice), maxStoredResults/ownerShare)
	}
	if _, err := s.get(ctx, alice[len(alice)-1], "token:alice"); err != nil {
		t.Errorf("alice's newest: %v", err)
	}
	// Bytes: 30 KiB results, 100 KiB each principal.
	for range 10 {
		if _, err := s.put(ctx, strings.Repeat("a", 30<<10), "token:alice"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.get(ctx, bob, "token:bob"); err != nil {
		t.Errorf("bob's result after alice's: %v", err)
	}
	if _, err := s.put(ctx, strings.Repeat("a", 150<<10), "token:alice"); !errors.Is(err, ErrResultTooLarge) ||
		!strings.Contains(err.Error(), "kept for ot.result only up to 100 KiB (each principal's share of the store)") {
		t.Errorf("a result larger than a principal's share: %v", err)
	}
	if _, err := s.put(ctx, strings.Repeat("a", 150<<10), ""); err != nil {
		t.Errorf("without principals, the whole store: %v", err)
	}
}
