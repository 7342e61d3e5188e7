package pyops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"go.starlark.net/starlark"
)

func TestTag(t *testing.T) {
	cause := fmt.Errorf("open notes.md: %w", fs.ErrNotExist)
	err := Tag(ErrNotFound, cause)
	if err.Error() != cause.Error() {
		t.Errorf("text %q, want the cause's", err)
	}
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrDenied) {
		t.Error("errors.Is does not see the kind and the cause")
	}
	if KindOf(fmt.Errorf("wrapped: %w", err)) != ErrNotFound || KindOf(cause) != nil || KindOf(nil) != nil {
		t.Error("KindOf")
	}
	if Tag(ErrDenied, nil) != nil {
		t.Error("Tag(kind, nil) is not nil")
	}
}

func TestSentinelsDistinct(t *testing.T) {
	names, errs := map[string]bool{}, map[error]bool{}
	for _, s := range Sentinels() {
		if names[s.Name] || errs[s.Err] || s.Err == nil {
			t.Errorf("sentinel %s given twice or nil", s.Name)
		}
		names[s.Name], errs[s.Err] = true, true
	}
	if len(names) != 21 {
		t.Errorf("%d sentinels", len(names))
	}
}

type orderedMap map[string]any

func (m orderedMap) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }

func TestContent(t *testing.T) {
	for _, b := range [][]byte{nil, []byte(""), []byte("héllo\n"), {0xff, 0, 1}, []byte("a\x00b")} {
		m := map[string]any{}
		PutContent(m, b)
		if _, bin := m[ContentB64]; bin == (string(b) == "héllo\n" || len(b) == 0 || string(b) == "a\x00b") {
			t.Errorf("%q went as %v", b, m)
		}
		for _, v := range []any{m, orderedMap(m)} {
			got, err := GetContent(v)
			if err != nil || string(got) != string(b) {
				t.Errorf("%q came back %q, %v", b, got, err)
			}
		}
	}
	for _, bad := range []any{"x", map[string]any{ContentB64: "!!"}, map[string]any{ContentText: 3}} {
		if _, err := GetContent(bad); err == nil {
			t.Errorf("GetContent(%v) did not fail", bad)
		}
	}
}

type host struct{}

func (host) Call(context.Context, string, map[string]any) (any, error) { return nil, nil }
func (host) Facts(context.Context) Facts                               { return Facts{} }

func TestFrom(t *testing.T) {
	th := &starlark.Thread{}
	if From(th) != nil || From(nil) != nil {
		t.Error("a host on a bare thread")
	}
	th.SetLocal(LocalKey, host{})
	if From(th) == nil {
		t.Error("the thread's host not found")
	}
}
