package results

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// numbered is "line 1\nline 2\n…" with n lines.
func numbered(n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d", i+1)
	}
	return strings.Join(lines, "\n")
}

func ptr(n int) *int { return &n }

// read is Read of a result nobody authenticated stored.
func read(s *Store, q Query) (any, error) {
	if q.Offset == 0 {
		q.Offset = 1
	}
	if q.Limit == 0 {
		q.Limit = 100
	}
	return s.Read(context.Background(), "", q)
}

func mustPut(t *testing.T, s *Store, text string) string {
	t.Helper()
	id, err := s.put(context.Background(), text, "")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The store forgets results past their time, and the oldest when full.
func TestStoreBounds(t *testing.T) {
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	s := NewMemory(Options{Now: clock})
	old := mustPut(t, s, "a\nb")
	now = now.Add(TTL + time.Second)
	if _, err := read(s, Query{Handle: old}); !errors.Is(err, ErrUnknownHandle) {
		t.Errorf("expired handle: %v", err)
	}
	s = NewMemory(Options{MaxEntries: 3, Now: clock})
	var ids []string
	for i := range 5 {
		ids = append(ids, mustPut(t, s, fmt.Sprint(i)))
	}
	for i, id := range ids {
		_, err := read(s, Query{Handle: id, Limit: 1})
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("entry %d kept = %v", i, kept)
		}
	}
	s = NewMemory(Options{MaxBytes: 40, Now: clock})
	a := mustPut(t, s, "123456")
	b := mustPut(t, s, "789012")
	if _, err := read(s, Query{Handle: a}); err == nil {
		t.Error("the byte bound kept both")
	}
	if v, err := read(s, Query{Handle: b}); err != nil || v != "789012" {
		t.Errorf("newest: %v %v", v, err)
	}
	if n, bytes, _ := s.Held(); n != 1 || bytes != 11+7+6 { // the handle, the header with one mark, the text
		t.Errorf("held %d results, %d bytes", n, bytes)
	}
}

// However many results arrive, concurrently or not, the store holds at
// most its cap in bytes and entries, dropping the oldest first.
func TestStoreStaysWithinCap(t *testing.T) {
	const maxSum = 100 << 10
	s := NewMemory(Options{MaxBytes: maxSum})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				text := strings.Repeat(fmt.Sprintf("%d-%d\n", g, i), 500+(g*50+i)*37%2000)
				if _, err := s.put(context.Background(), text, ""); err != nil {
					t.Error(err)
					return
				}
				if n, bytes, _ := s.Held(); bytes > maxSum || n > MaxEntries {
					t.Errorf("the store holds %d bytes in %d results, cap %d bytes, %d results", bytes, n, maxSum, MaxEntries)
				}
			}
		})
	}
	wg.Wait()
	last := mustPut(t, s, "newest")
	if v, err := read(s, Query{Handle: last}); err != nil || v != "newest" {
		t.Errorf("newest: %v %v", v, err)
	}
}

// One principal holds at most a quarter of the store (results and
// bytes): however many results it makes, it forgets its own oldest first
// and never pushes another principal's out. A result larger than its
// share is refused with what to do. Runs nobody authenticated keep the
// whole store.
func TestStoreSharePerPrincipal(t *testing.T) {
	ctx := context.Background()
	s := NewMemory(Options{MaxBytes: 400 << 10})
	bob, err := s.put(ctx, "bob's", "token:bob")
	if err != nil {
		t.Fatal(err)
	}
	var alice []string
	for i := range 3 * MaxEntries {
		id, err := s.put(ctx, fmt.Sprint("alice ", i), "token:alice")
		if err != nil {
			t.Fatal(err)
		}
		alice = append(alice, id)
	}
	readable := 0
	for _, id := range alice {
		if _, err := s.get(ctx, id, "token:alice"); err == nil {
			readable++
		}
	}
	if readable != MaxEntries/ownerShare {
		t.Errorf("alice keeps %d of her %d results, want %d", readable, len(alice), MaxEntries/ownerShare)
	}
	for range 10 { // 30 KiB results, 100 KiB each principal
		if _, err := s.put(ctx, strings.Repeat("a", 30<<10), "token:alice"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.get(ctx, bob, "token:bob"); err != nil {
		t.Errorf("bob's result after alice's: %v", err)
	}
	if _, err := s.put(ctx, strings.Repeat("a", 150<<10), "token:alice"); !errors.Is(err, ErrTooLarge) ||
		!strings.Contains(err.Error(), "kept for ot.result only up to 100 KiB (each principal's share of the store)") {
		t.Errorf("a result larger than a principal's share: %v", err)
	}
	if _, err := s.put(ctx, strings.Repeat("a", 150<<10), ""); err != nil {
		t.Errorf("without principals, the whole store: %v", err)
	}
	// Another owner's key, or a text shaped like one, is no handle.
	k, _ := key(bob, "token:bob")
	if _, err := s.get(ctx, k, ""); !errors.Is(err, ErrUnknownHandle) {
		t.Errorf("the store's key as a handle: %v", err)
	}
}

// texts are results of every shape paging must handle: lines around the
// marks' strides, lines and characters across chunks, wide characters,
// bytes that are not UTF-8.
func texts() map[string]string {
	return map[string]string{
		"numbered":      numbered(3*lineStride + 5),
		"trailing":      numbered(lineStride) + "\n",
		"blank":         strings.Repeat("\n", 2*lineStride),
		"one line":      "only",
		"long line":     strings.Repeat("0123456789", 5*chunkBytes/10+3),
		"wide":          strings.Repeat("é€😀a", chunkBytes/3),
		"invalid utf-8": strings.Repeat("a\xff\xe2\x82b\x80\x80\x80\x80c€", chunkBytes/5),
		"mixed":         numbered(300) + "\n" + strings.Repeat("x€", chunkBytes) + "\n" + numbered(300),
	}
}

// The marks place every line, character and byte where scanning the text
// from its start does.
func TestMarks(t *testing.T) {
	for name, text := range texts() {
		r, err := decode(encode(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := []byte(text)
		if r.lines != strings.Count(text, "\n")+1 || r.chars != utf8.RuneCount(b) {
			t.Errorf("%s: %d lines, %d characters", name, r.lines, r.chars)
		}
		near := map[int]bool{} // every byte near a mark is checked, and a sample of the rest
		for _, m := range r.marks {
			for d := -8; d <= 8; d++ {
				near[m.byte+d] = true
			}
		}
		line, char := 0, 0
		for off := 0; off <= len(b); {
			if !near[off] && off%61 != 0 && off != len(b) {
				if off == 0 || b[off-1] == '\n' {
					if got, ok := r.lineStart(line); !ok || got != off {
						t.Fatalf("%s: lineStart(%d) = %d, want %d", name, line, got, off)
					}
				}
				if b[off] == '\n' {
					line++
				}
				_, size := utf8.DecodeRune(b[off:])
				off += size
				char++
				continue
			}
			if l, c := r.pos(off); l != line || c != char {
				t.Fatalf("%s: pos(%d) = %d, %d, want %d, %d", name, off, l, c, line, char)
			}
			if got := r.charByte(char); got != off {
				t.Fatalf("%s: charByte(%d) = %d, want %d", name, char, got, off)
			}
			if off == len(b) {
				break
			}
			if off == 0 || b[off-1] == '\n' {
				if got, ok := r.lineStart(line); !ok || got != off {
					t.Fatalf("%s: lineStart(%d) = %d, want %d", name, line, got, off)
				}
			}
			_, size := utf8.DecodeRune(b[off:])
			if b[off] == '\n' {
				line++
			}
			off += size
			char++
		}
	}
}

// Pages of characters return the characters from start, max_chars of
// them, and the call for the next; pages of lines the lines, bounded by
// characters too; read to the end, both give the whole text once.
func TestPagesWholeOnce(t *testing.T) {
	for name, text := range texts() {
		s := NewMemory(Options{})
		id := mustPut(t, s, text)
		chars := utf8.RuneCountInString(text)
		for _, max := range []int{7, 1000, chunkBytes + 1} {
			var b strings.Builder
			for start, from := 0, 0; ; start += max {
				v, err := read(s, Query{Handle: id, Start: ptr(start), MaxChars: ptr(max)})
				if err != nil {
					t.Fatalf("%s start %d: %v", name, start, err)
				}
				page, next, ok := strings.Cut(v.(string), "\n… (characters ")
				to := advance([]byte(text), from, max) // as utf8 decodes text
				if want := text[from:to]; page != want {
					t.Fatalf("%s start %d max %d: %.40q, want %.40q", name, start, max, page, want)
				}
				b.WriteString(page)
				from = to
				if !ok {
					break
				}
				if want := fmt.Sprintf("start=%d, max_chars=%d))", start+max, max); !strings.HasSuffix(next, want) || start+max >= chars {
					t.Fatalf("%s: footer %q, want it to end %q", name, next, want)
				}
			}
			if b.String() != text {
				t.Errorf("%s max_chars %d: the pages are not the text (at %d)", name, max, len(b.String()))
			}
		}
		for _, max := range []int{20, 1000} {
			var b strings.Builder
			v, err := read(s, Query{Handle: id, MaxChars: ptr(max), Limit: 50})
			for n := 0; ; n++ {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				page := v.(string)
				i := strings.LastIndex(page, "\n… (")
				if i < 0 {
					b.WriteString(page)
					break
				}
				b.WriteString(page[:i])
				if utf8.RuneCountInString(page[:i]) > max {
					t.Fatalf("%s: a page of %d characters, max_chars %d", name, utf8.RuneCountInString(page[:i]), max)
				}
				var q Query
				switch tail := page[i:]; {
				case strings.Contains(tail, ": next ot.result(handle=\""+id+"\", offset="):
					q.Limit = 50
					fmt.Sscanf(tail[strings.Index(tail, "offset="):], "offset=%d", &q.Offset)
					b.WriteByte('\n')
				case strings.Contains(tail, ": next ot.result(handle=\""+id+"\", start="):
					q.Start = new(int)
					fmt.Sscanf(tail[strings.Index(tail, "start="):], "start=%d", q.Start)
				default:
					t.Fatalf("%s: footer %q", name, tail)
				}
				q.Handle, q.MaxChars = id, ptr(max)
				v, err = read(s, q)
				if n > 100000 {
					t.Fatal("no end")
				}
			}
			if b.String() != text {
				t.Errorf("%s lines max_chars %d: the pages are not the text (at %d of %d)", name, max, len(b.String()), len(text))
			}
		}
	}
}

// Pages of lines read the same lines as splitting the text at every
// newline would, around the marks too; search counts what matches.
func TestLinePagesMatchLines(t *testing.T) {
	for _, name := range []string{"numbered", "trailing", "blank", "one line"} {
		text := texts()[name]
		s := NewMemory(Options{})
		id := mustPut(t, s, text)
		lines := strings.Split(text, "\n")
		for _, offset := range []int{1, 2, lineStride - 1, lineStride, lineStride + 1, 2*lineStride + 1, len(lines)} {
			if offset > len(lines) {
				continue
			}
			for _, limit := range []int{1, 3, lineStride + 2} {
				got, err := read(s, Query{Handle: id, Offset: offset, Limit: limit, MaxChars: ptr(MaxPageChars)})
				if err != nil {
					t.Fatalf("%s %d,%d: %v", name, offset, limit, err)
				}
				end := min(len(lines), offset-1+limit)
				want := strings.Join(lines[offset-1:end], "\n")
				if end < len(lines) {
					want += fmt.Sprintf("\n… (lines %d–%d of %d: next ot.result(handle=%q, offset=%d, limit=%d, max_chars=100000))", offset, end, len(lines), id, end+1, limit)
				}
				if got != want {
					t.Errorf("%s offset %d limit %d:\n got %.120q\nwant %.120q", name, offset, limit, got, want)
				}
			}
		}
		from := min(lineStride, len(lines))
		found, err := read(s, Query{Handle: id, Offset: from, Limit: 1000, Search: "^$|7$"})
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

// A page holds at most max_chars characters: a page of lines stops before
// the line that would not fit, and a line longer than a page is paged by
// characters, with the call that reads on.
func TestPageBoundedByChars(t *testing.T) {
	s := NewMemory(Options{})
	id := mustPut(t, s, "ab\ncd\n"+strings.Repeat("é", 25)+"\nef")
	for _, tt := range []struct {
		q    Query
		want string
	}{
		{Query{MaxChars: ptr(5)}, "ab\ncd\n… (lines 1–2 of 4: next ot.result(handle=%q, offset=3, limit=100, max_chars=5))"},
		{Query{MaxChars: ptr(4)}, "ab\n… (lines 1–1 of 4: next ot.result(handle=%q, offset=2, limit=100, max_chars=4))"},
		{Query{Offset: 3, MaxChars: ptr(10)}, "éééééééééé\n… (characters 6–15 of 34, in line 3 of 4: next ot.result(handle=%q, start=16, max_chars=10))"},
		{Query{Start: ptr(26), MaxChars: ptr(10)}, "ééééé\nef"},
		{Query{Start: ptr(1), MaxChars: ptr(3)}, "b\nc\n… (characters 1–3 of 34, lines 1–2 of 4: next ot.result(handle=%q, start=4, max_chars=3))"},
		{Query{Offset: 2, PageDefault: 3}, "cd\n… (lines 2–2 of 4: next ot.result(handle=%q, offset=3, limit=100))"},
		{Query{Offset: 5}, "error: offset 5 is past the end: the result has 4 lines"},
		{Query{Start: ptr(34)}, "error: start=34 is past the end: the result has 34 characters (start from 0 to 33)"},
	} {
		tt.q.Handle = id
		v, err := read(s, tt.q)
		got := fmt.Sprint(v)
		if err != nil {
			got = "error: " + err.Error()
		}
		if want := strings.ReplaceAll(tt.want, "%q", fmt.Sprintf("%q", id)); got != want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.q, got, want)
		}
	}
}

// Search shows each match: a short line whole, a match in a long line
// with the text around it (whole characters), its character and the call
// that reads there; from start on, matches before it are not shown;
// anchors keep their meaning in a long line.
func TestSearchWindows(t *testing.T) {
	s := NewMemory(Options{})
	long := strings.Repeat("é", 150) + "KEY" + strings.Repeat("ü", 600) + "KEY" + "end"
	id := mustPut(t, s, "KEY short\n"+long)
	for _, tt := range []struct {
		q    Query
		want []string
	}{
		{Query{Search: "KEY"}, []string{
			"1: KEY short",
			"2: …" + strings.Repeat("é", 100) + "KEY" + strings.Repeat("ü", 100) + "… (character 160; read on: ot.result(handle=%q, start=60))",
			"2: …" + strings.Repeat("ü", 100) + "KEYend (character 763; read on: ot.result(handle=%q, start=663))",
		}},
		{Query{Search: "^KEY"}, []string{"1: KEY short"}},
		{Query{Search: "KEYend$"}, []string{"2: …" + strings.Repeat("ü", 100) + "KEYend (character 763; read on: ot.result(handle=%q, start=663))"}},
		{Query{Search: "KEY", Start: ptr(161)}, []string{"2: …" + strings.Repeat("ü", 100) + "KEYend (character 763; read on: ot.result(handle=%q, start=663))"}},
		{Query{Search: "KEY", Offset: 2, Limit: 1}, []string{
			"2: …" + strings.Repeat("é", 100) + "KEY" + strings.Repeat("ü", 100) + "… (character 160; read on: ot.result(handle=%q, start=60))",
		}},
		{Query{Search: "nowhere"}, []string{}},
	} {
		tt.q.Handle = id
		v, err := read(s, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		lines, _ := v.(*ordered.Map).Get("lines")
		got := fmt.Sprint(lines)
		for i := range tt.want {
			tt.want[i] = strings.ReplaceAll(tt.want[i], "%q", fmt.Sprintf("%q", id))
		}
		if want := fmt.Sprint(toAny(tt.want)); got != want {
			t.Errorf("%+v:\n got %s\nwant %s", tt.q, got, want)
		}
	}
	// An empty match in a long line moves on instead of looping, and the
	// count stops at maxCounted.
	id = mustPut(t, s, strings.Repeat("x", 3*maxCounted))
	v, err := read(s, Query{Handle: id, Search: "", Limit: 1})
	if err != nil || v == nil {
		t.Fatal(err)
	}
	v, err = read(s, Query{Handle: id, Search: "x*?", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	more, _ := v.(*ordered.Map).Get("more")
	if n, _ := v.(*ordered.Map).Get("matches"); n != int64(maxCounted) || !strings.HasPrefix(fmt.Sprint(more), fmt.Sprintf("at least %d more matches: next", maxCounted-2)) {
		t.Errorf("matches %v, more %v", n, more)
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// The preview suggests the call that reads on for the result's shape:
// by lines after whole lines, by characters inside a long line; a JSON
// value is laid out one member per line.
func TestKeepPreview(t *testing.T) {
	s := NewMemory(Options{})
	for _, tt := range []struct {
		name, text string
		json       bool
		next       string
	}{
		{"lines", numbered(500), false, "offset=124, limit=100"},
		{"one line", strings.Repeat("ab", 2000), false, "start=1000"},
		{"wide line", strings.Repeat("é", 2000), false, "start=1000"},
		{"JSON", "[" + strings.Repeat(`{"a":1,"name":"a name of some length"},`, 300) + `{"a":2}]`, true, "offset=25, limit=100"},
		{"JSON as a string", "[" + strings.Repeat(`{"a":1,"name":"a name of some length"},`, 300) + `{"a":2}]`, false, "start=1000"},
	} {
		out, id, err := s.Keep(context.Background(), tt.text, tt.json, 1000, "")
		if err != nil || id == "" {
			t.Fatalf("%s: %v %q", tt.name, err, id)
		}
		if want := fmt.Sprintf("Read on: ot.result(handle=%q, %s) · search:", id, tt.next); !strings.Contains(out, want) {
			t.Errorf("%s: the preview does not end with %q:\n%s", tt.name, want, out[max(0, len(out)-300):])
		}
		if utf8.RuneCountInString(out) > 1000+300 {
			t.Errorf("%s: a preview of %d characters", tt.name, utf8.RuneCountInString(out))
		}
	}
	if out, id, _ := s.Keep(context.Background(), strings.Repeat("é", 1000), false, 1000, ""); id != "" || len(out) != 2000 {
		t.Error("max_inline counts characters, not bytes")
	}
}

// layoutJSON breaks a long compact JSON value into a member per line,
// down to layoutDepth, keeping short members whole, and leaves alone
// what is no JSON or would grow too much.
func TestLayoutJSON(t *testing.T) {
	long := func(n int, item string) string {
		return strings.TrimSuffix(strings.Repeat(item+",", n), ",")
	}
	rec := `{"id":1,"s":"a, [b] {c}: \"d\""}`
	for _, tt := range []struct {
		name, in, want string
		ok             bool
	}{
		{"records", "[" + long(40, rec) + "]", "[\n  " + long(40, rec+"\n ")[:0] + strings.Join(strings.Split(long(40, rec), `"},{`), "\"},\n  {") + "\n]", true},
		{"printed first", "out\n[" + long(40, rec) + "]", "out\n[\n  " + strings.Join(strings.Split(long(40, rec), `"},{`), "\"},\n  {") + "\n]", true},
		{"nested", `{"q":"x","r":[` + long(40, rec) + `]}`, "{\n  \"q\":\"x\",\n  \"r\":[\n    " + strings.Join(strings.Split(long(40, rec), `"},{`), "\"},\n    {") + "\n  ]\n}", true},
		{"short", "[" + long(3, rec) + "]", "[" + long(3, rec) + "]", false},
		{"python repr", "[" + long(40, `{'id': 1, 'ok': True}`) + "]", "", false},
		{"unbalanced", "[" + long(40, rec) + "]]", "", false},
		{"open string", "[" + long(40, rec) + `,"]`, "", false},
		{"tiny members", "[" + long(2000, "1") + "]", "", false},
		{"a string", `"` + strings.Repeat("x", 2000) + `"`, "", false},
	} {
		got, ok := layoutJSON(tt.in)
		if tt.want == "" {
			tt.want = tt.in
		}
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: ok %v\n got %.200q\nwant %.200q", tt.name, ok, got, tt.want)
		}
	}
}

// Bytes in a shared store that are not a result this onetool wrote (cut
// short, another version's layout, wrong counts, marks past the text)
// give an error from ot.result (or at worst a wrong page), never a panic.
func TestDamagedInStore(t *testing.T) {
	ctx := context.Background()
	good := encode(texts()["mixed"])
	damaged := [][]byte{nil, {}, {1}, {3}, good[:1], good[:3], good[:5], good[:12]}
	for _, lines := range []uint64{0, 1, 3*lineStride + 1, 10 * lineStride, 1 << 40} {
		b := binary.AppendUvarint([]byte{format}, lines)
		_, n := binary.Uvarint(good[1:])
		damaged = append(damaged, append(b, good[1+n:]...))
	}
	for i := 1; i < 40; i++ { // every early byte changed
		b := append([]byte(nil), good...)
		b[i] ^= 0x5a
		damaged = append(damaged, b)
	}
	for i, value := range damaged {
		s := NewMemory(Options{})
		if err := s.st.Set(ctx, "rdamaged123", value, time.Minute); err != nil {
			t.Fatal(err)
		}
		for _, q := range []Query{
			{Offset: 1}, {Offset: 300}, {Offset: 302}, {Start: ptr(0)}, {Start: ptr(20000)},
			{Search: "7$"}, {Search: "x€", Start: ptr(5000)}, {Offset: 301, MaxChars: ptr(10)},
		} {
			q.Handle = "rdamaged123"
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("value %d, %+v: panic %v", i, q, p)
					}
				}()
				_, err := read(s, q)
				if err != nil && !errors.Is(err, errBadResult) && !strings.Contains(err.Error(), "past the end") {
					t.Errorf("value %d: %v", i, err)
				}
			}()
		}
	}
}

// FuzzDecode: whatever bytes a shared store holds, reading them as a
// result pages or fails, without panicking or hanging.
func FuzzDecode(f *testing.F) {
	f.Add(encode("a\nb\nc"))
	f.Add(encode(strings.Repeat("é\n", 300)))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decode(b)
		if err != nil {
			return
		}
		p := pager{r: r, q: Query{Handle: "rfuzz000000", Offset: 1, Limit: 5, Search: "a"}, maxChars: 7}
		p.lines()
		p.chars(r.chars / 2)
		p.search(context.Background())
	})
}

// A search through many lines stops when the reading run ends: its
// context cancelled, the search returns with the context's error instead
// of scanning on after the answer.
func TestSearchStopsWithTheRun(t *testing.T) {
	r, err := decode(encode(strings.Repeat("no match here\n", 200000)))
	if err != nil {
		t.Fatal(err)
	}
	p := pager{r: r, q: Query{Handle: "rtest000000", Offset: 1, Limit: 10, Search: "needle"}, maxChars: 100}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.search(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: %v, want context.Canceled", err)
	}
	if _, err := p.search(context.Background()); err != nil {
		t.Fatalf("search: %v", err)
	}
}
