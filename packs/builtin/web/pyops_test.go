package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs"
)

// variant calls op (web.fetch@get or @send) as the runner does: bound
// and validated against its schema, then its handler.
func (e *env) variant(ctx context.Context, op string, args map[string]any) (map[string]any, error) {
	e.t.Helper()
	tl, ok := e.reg.Variant(op)
	if !ok {
		e.t.Fatalf("no variant %s", op)
	}
	var named []packs.NamedArg
	for k, v := range args {
		named = append(named, packs.NamedArg{Name: k, Value: v})
	}
	v, err := packs.Call(ctx, tl, nil, named)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

func echoServer(e *env) {
	e.mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		w.Header().Set("X-Token", r.Header.Get("X-Token"))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write(b)
	})
	e.mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/echo", http.StatusFound) })
	e.serve("/gone", "text/plain", http.StatusGone, "gone")
}

func header(res map[string]any, name string) string {
	for _, h := range res["headers"].([]any) {
		kv := h.([]any)
		if kv[0] == name {
			return kv[1].(string)
		}
	}
	return ""
}

// The variants give the whole response: status, reason, final URL,
// headers in pairs, the body by the content codec (bytes that are not
// UTF-8 as base64), the redirects followed; every status is a result.
func TestVariantsExchange(t *testing.T) {
	e := newEnv(t, Options{}, false)
	echoServer(e)
	body := map[string]any{}
	pyops.PutContent(body, []byte{0xff, 0, 'x'})
	send := map[string]any{"method": "put", "url": e.url("/echo"), "headers": []any{[]any{"X-Token", "t1"}}, "follow": true}
	for k, v := range body {
		send[k] = v
	}
	res, err := e.variant(context.Background(), pyops.WebSend, send)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := pyops.GetContent(res)
	if res["status"] != int64(202) || res["reason"] != "Accepted" || res["url"] != e.url("/echo") ||
		header(res, "X-Method") != "PUT" || header(res, "X-Token") != "t1" || !bytes.Equal(got, []byte{0xff, 0, 'x'}) {
		t.Errorf("PUT: %v", res)
	}
	if _, ok := res["elapsed_ms"].(int64); !ok {
		t.Errorf("elapsed_ms %T", res["elapsed_ms"])
	}

	tests := []struct {
		args    map[string]any
		status  int64
		url     string
		history int
	}{
		{map[string]any{"url": e.url("/moved"), "follow": true}, 202, e.url("/echo"), 1},
		{map[string]any{"url": e.url("/moved")}, 302, e.url("/moved"), 0}, // follow absent: not followed
		{map[string]any{"url": e.url("/gone"), "method": "HEAD", "follow": true}, 410, e.url("/gone"), 0},
		{map[string]any{"url": e.url("/echo"), "method": "OPTIONS", "timeout": 5.0, "follow": true}, 202, e.url("/echo"), 0},
	}
	for _, tt := range tests {
		res, err := e.variant(context.Background(), pyops.WebGet, tt.args)
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if res["status"] != tt.status || res["url"] != tt.url || len(res["history"].([]any)) != tt.history {
			t.Errorf("%v: %v", tt.args, res)
		}
	}
	res, _ = e.variant(context.Background(), pyops.WebGet, map[string]any{"url": e.url("/moved"), "follow": true})
	if h := res["history"].([]any)[0].(map[string]any); h["status"] != int64(302) || h["url"] != e.url("/moved") {
		t.Errorf("history %v", h)
	}
}

// Each variant sends its own methods only, so that a read_only policy
// (which lets web.fetch@get through) never sends a POST; only @send is
// not read-only, and neither asks for confirmation.
func TestVariantsMethodsAndAnnotations(t *testing.T) {
	e := newEnv(t, Options{}, false)
	echoServer(e)
	for _, c := range []struct {
		op, method string
	}{{pyops.WebGet, "POST"}, {pyops.WebGet, "DELETE"}, {pyops.WebSend, "GET"}, {pyops.WebSend, ""}, {pyops.WebSend, "CONNECT"}} {
		_, err := e.variant(context.Background(), c.op, map[string]any{"url": e.url("/echo"), "method": c.method})
		if !errors.Is(err, pyops.ErrBadURL) || !strings.Contains(err.Error(), "sends") {
			t.Errorf("%s %q: %v", c.op, c.method, err)
		}
	}
	get, _ := e.reg.Variant(pyops.WebGet)
	send, _ := e.reg.Variant(pyops.WebSend)
	if a := get.Annotations; !a.ReadOnly || !a.OpenWorld || a.Destructive {
		t.Errorf("web.fetch@get annotations %+v", a)
	}
	if a := send.Annotations; a.ReadOnly || !a.OpenWorld || a.Destructive {
		t.Errorf("web.fetch@send annotations %+v", a)
	}
	if get.ID() != "web.fetch" || send.ID() != "web.fetch" {
		t.Errorf("ids %s %s", get.ID(), send.ID())
	}
}

// The hostile cases, each with the kind a module turns into its
// exception: a redirect to a refused host, a body over max_bytes (an
// error, never a cut body), a server slower than the timeout, a header
// that would split the request.
func TestVariantsRefuse(t *testing.T) {
	e := newEnv(t, Options{MaxBytes: 100}, false)
	e.mux.HandleFunc("/out", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	e.serve("/big", "text/plain", 200, strings.Repeat("x", 101))
	e.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // the server notices the client going only once the body is read
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	tests := []struct {
		op   string
		args map[string]any
		kind error
		want string
	}{
		{pyops.WebGet, map[string]any{"url": e.url("/out"), "follow": true}, pyops.ErrHostRefused, "169.254.169.254"},
		{pyops.WebGet, map[string]any{"url": "http://10.1.2.3/"}, pyops.ErrHostRefused, "10.1.2.3"},
		{pyops.WebGet, map[string]any{"url": e.url("/big")}, pyops.ErrBodyTooLarge, "packs.web.max_bytes"},
		{pyops.WebSend, map[string]any{"url": e.url("/slow"), "method": "POST", "timeout": 0.2, "text": "x"}, pyops.ErrTimeout, "within 200ms"},
		{pyops.WebGet, map[string]any{"url": e.url("/big"), "headers": []any{[]any{"X-A", "1\r\nHost: evil"}}}, pyops.ErrBadURL, "line break"},
		{pyops.WebGet, map[string]any{"url": e.url("/big"), "headers": []any{[]any{"X A", "1"}}}, pyops.ErrBadURL, "invalid header name"},
		{pyops.WebGet, map[string]any{"url": "file:///etc/passwd"}, pyops.ErrBadURL, "http"},
	}
	for _, tt := range tests {
		_, err := e.variant(context.Background(), tt.op, tt.args)
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: %v, want kind %v and %q", tt.op, tt.args, err, tt.kind, tt.want)
		}
	}
}

// Options.Redact hides secrets in the body before it is encoded: a
// secret in a binary body (base64 on the wire, where the runner's
// redaction of results cannot see it) is gone too.
func TestVariantsRedactBody(t *testing.T) {
	const secret = "sk-live-0123456789"
	redact := func(_ context.Context, s string) (string, error) {
		return strings.ReplaceAll(s, secret, "[REDACTED]"), nil
	}
	e := newEnv(t, Options{Redact: redact}, false)
	e.serve("/text", "application/json", 200, `{"key":"`+secret+`"}`)
	e.serve("/bin", "application/octet-stream", 200, "\xff\x00"+secret)
	for _, path := range []string{"/text", "/bin"} {
		res, err := e.variant(context.Background(), pyops.WebGet, map[string]any{"url": e.url(path)})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pyops.GetContent(res)
		if bytes.Contains(b, []byte(secret)) || !bytes.Contains(b, []byte("[REDACTED]")) {
			t.Errorf("%s: body %q", path, b)
		}
	}
}
