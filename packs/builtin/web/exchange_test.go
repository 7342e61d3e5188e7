package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
)

// exchangeEnv is a test server and a fetcher allowed to reach it, with
// the pack's default client (the dial-time checks included).
func exchangeEnv(t *testing.T, o Options) (*env, *fetcher) {
	t.Helper()
	e := newEnv(t, o, false)
	if o.AllowHosts == nil && o.DenyHosts == nil {
		o.AllowHosts = []string{"127.0.0.1"}
	}
	return e, newFetcher(o)
}

func TestExchangeMethodsHeadersBodies(t *testing.T) {
	e, f := exchangeEnv(t, Options{})
	e.mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Add("X-Seen", r.Method)
		w.Header().Add("X-Seen", r.Header.Get("X-Token"))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(append([]byte{0, 1, 2}, b...))
	})
	r, err := f.exchange(context.Background(), Exchange{Method: "put", URL: e.url("/echo"), Header: [][2]string{{"X-Token", "t1"}}, Body: []byte(`{"a":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 201 || r.Reason != "Created" || string(r.Body) != "\x00\x01\x02{\"a\":1}" {
		t.Errorf("reply %d %q %q", r.Status, r.Reason, r.Body)
	}
	var seen []string
	for _, h := range r.Header {
		if h[0] == "X-Seen" {
			seen = append(seen, h[1])
		}
	}
	if strings.Join(seen, ",") != "PUT,t1" {
		t.Errorf("X-Seen headers %v, want PUT and t1 in order", seen)
	}
}

// Every status is a reply, not an error: the program decides.
func TestExchangeStatusesAreReplies(t *testing.T) {
	e, f := exchangeEnv(t, Options{})
	e.serve("/missing", "application/json", http.StatusNotFound, `{"error":"no"}`)
	r, err := f.exchange(context.Background(), Exchange{URL: e.url("/missing")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 404 || r.Reason != "Not Found" || string(r.Body) != `{"error":"no"}` {
		t.Errorf("reply %d %q %q", r.Status, r.Reason, r.Body)
	}
}

func TestExchangeRedirects(t *testing.T) {
	e, f := exchangeEnv(t, Options{})
	e.mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusFound) })
	e.mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/c", http.StatusMovedPermanently) })
	e.serve("/c", "text/plain", 200, "end")
	r, err := f.exchange(context.Background(), Exchange{URL: e.url("/a")})
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Body) != "end" || r.URL != e.url("/c") || len(r.History) != 2 ||
		r.History[0] != (Hop{302, e.url("/a")}) || r.History[1] != (Hop{301, e.url("/b")}) {
		t.Errorf("reply %q at %s, history %v", r.Body, r.URL, r.History)
	}
	r, err = f.exchange(context.Background(), Exchange{URL: e.url("/a"), NoRedirects: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 302 || r.URL != e.url("/a") || len(r.History) != 0 {
		t.Errorf("without redirects: %d at %s, history %v", r.Status, r.URL, r.History)
	}
	loc := ""
	for _, h := range r.Header {
		if h[0] == "Location" {
			loc = h[1]
		}
	}
	if loc != "/b" {
		t.Errorf("Location %q, want /b", loc)
	}
}

// Each failure has its kind, for the exception class a program catches,
// and the pack's message.
func TestExchangeErrorKinds(t *testing.T) {
	e, f := exchangeEnv(t, Options{MaxBytes: 10, MaxRedirects: 1})
	e.serve("/big", "text/plain", 200, strings.Repeat("x", 11))
	e.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	e.mux.HandleFunc("/loop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) })
	e.mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop3", http.StatusFound) })
	e.mux.HandleFunc("/out", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://10.0.0.1/x", http.StatusFound)
	})
	tests := []struct {
		x    Exchange
		kind error
		want string
	}{
		{Exchange{URL: e.url("/big")}, pyops.ErrBodyTooLarge, "packs.web.max_bytes"},
		{Exchange{URL: e.url("/slow"), Timeout: 200 * time.Millisecond}, pyops.ErrTimeout, "within 200ms"},
		{Exchange{URL: e.url("/loop1")}, pyops.ErrRedirects, "packs.web.max_redirects"},
		{Exchange{URL: e.url("/out")}, pyops.ErrHostRefused, "10.0.0.1"},
		{Exchange{URL: "http://192.168.1.1/"}, pyops.ErrHostRefused, "192.168.1.1"},
		{Exchange{URL: "ftp://example.com/"}, pyops.ErrBadURL, "only http:// and https://"},
		{Exchange{URL: "example.com/x"}, pyops.ErrBadURL, "no scheme"},
		{Exchange{URL: e.url("/x"), Method: "GE T"}, pyops.ErrBadURL, "not an HTTP method"},
		{Exchange{URL: "http://127.0.0.1:1/"}, pyops.ErrConnect, "cannot connect"},
	}
	for _, tt := range tests {
		_, err := f.exchange(context.Background(), tt.x)
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want kind %v and %q", tt.x.Method, tt.x.URL, err, tt.kind, tt.want)
		}
	}
}

// The run's own end is not an exchange failure a program may catch.
func TestExchangeCancelledRunIsNoKind(t *testing.T) {
	e, f := exchangeEnv(t, Options{})
	e.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := f.exchange(ctx, Exchange{URL: e.url("/slow")})
	for _, k := range []error{pyops.ErrTimeout, pyops.ErrConnect, pyops.ErrHostRefused} {
		if errors.Is(err, k) {
			t.Errorf("a run stopped by its deadline gave %v, of kind %v", err, k)
		}
	}
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("error %v, want the run's stop", err)
	}
}
