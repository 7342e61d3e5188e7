package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/packs"
)

// env is a registry with the web pack, and a local test server.
type env struct {
	t   *testing.T
	reg *packs.Registry
	srv *httptest.Server
	mux *http.ServeMux
}

// newEnv starts a test server and registers the pack with o. With
// custom, the pack sends through the server's own client; otherwise it
// builds its default client (with the dial-time address checks). The
// server is on 127.0.0.1, which web.fetch refuses unless allow_hosts
// names it: without allow or deny rules of its own, o allows just that.
func newEnv(t *testing.T, o Options, custom bool) *env {
	t.Helper()
	if o.AllowHosts == nil && o.DenyHosts == nil {
		o.AllowHosts = []string{"127.0.0.1"}
	}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	if custom && o.Client == nil {
		o.Client = srv.Client()
	}
	reg := packs.NewRegistry()
	if err := Register(reg, o); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, reg: reg, srv: srv, mux: mux}
}

// serve answers path with a fixed status, content type and body.
func (e *env) serve(path, ctype string, status int, body string) {
	e.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		} else {
			w.Header()["Content-Type"] = nil // no type, and no sniffing by the server
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	})
}

func (e *env) url(path string) string { return e.srv.URL + path }

// call calls web.fetch as a program would: binding, validation, handler.
func (e *env) call(args map[string]any) (any, error) {
	return e.callCtx(context.Background(), args)
}

func (e *env) callCtx(ctx context.Context, args map[string]any) (any, error) {
	e.t.Helper()
	tl, ok := e.reg.Tool("web.fetch")
	if !ok {
		e.t.Fatal("no tool web.fetch")
	}
	var named []packs.NamedArg
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range args {
			if !yield(k) {
				return
			}
		}
	}) {
		v := args[k]
		if i, ok := v.(int); ok {
			v = int64(i)
		}
		named = append(named, packs.NamedArg{Name: k, Value: v})
	}
	return packs.Call(ctx, tl, nil, named)
}

// fetch calls and wants a string result.
func (e *env) fetch(args map[string]any) string {
	e.t.Helper()
	v, err := e.call(args)
	if err != nil {
		e.t.Fatalf("web.fetch(%v): %v", args, err)
	}
	s, ok := v.(string)
	if !ok {
		e.t.Fatalf("web.fetch(%v) = %T, want a string", args, v)
	}
	return s
}

// fails calls and wants an error containing every one of wants.
func (e *env) fails(args map[string]any, wants ...string) string {
	e.t.Helper()
	v, err := e.call(args)
	if err == nil {
		e.t.Fatalf("web.fetch(%v) = %.200q, want an error with %q", args, v, wants)
	}
	msg := err.Error()
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			e.t.Errorf("web.fetch(%v) error:\n%s\nwant it to contain %q", args, msg, w)
		}
	}
	if strings.Contains(msg, "web.fetch failed") {
		e.t.Errorf("error repeats the tool name: %s", msg)
	}
	return msg
}

func contains(t *testing.T, got string, wants, unwanted []string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("want %q in:\n%s", w, got)
		}
	}
	for _, u := range unwanted {
		if strings.Contains(got, u) {
			t.Errorf("do not want %q in:\n%s", u, got)
		}
	}
}
