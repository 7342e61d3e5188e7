package runner

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/config"
)

// webServer is the local site of the urllib.request and requests tests:
// an echo of what was sent, a redirect, a 500, a Latin-1 text, a slow
// page, a body over max_bytes, a redirect to the metadata service, and
// pages that hold a secret (as text and in a binary body).
func webServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var names []string
		for k := range r.Header {
			if k == "X-Token" || k == "Content-Type" || k == "Cookie" || k == "Authorization" {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		hs := map[string]string{}
		for _, k := range names {
			hs[k] = r.Header.Get(k)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "sid=abc; Path=/")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "query": r.URL.RawQuery, "body": string(b), "headers": hs})
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/echo?from=moved", http.StatusFound)
	})
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(500)
		io.WriteString(w, "boom\n")
	})
	mux.HandleFunc("/latin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("caf\xe9\nna\xefve\n"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", 5000)) })
	mux.HandleFunc("/out", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/secret", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"token": "`+secretValue+`"}`)
	})
	mux.HandleFunc("/secret.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		io.WriteString(w, "\xff\x00"+secretValue)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// webConfig allows the local server, with a small max_bytes, and has a
// secret.
func webConfig(t *testing.T) *config.Config {
	return secretConfig(t, "packs:\n  web:\n    allow_hosts: [\"127.0.0.1\"]\n    max_bytes: 4096\n")
}

// webProgram is a program of requests and urllib.request against
// webServer at B; webWant is what CPython 3.11 with requests 2.34 prints
// for it against the same handlers.
const webProgram = `import requests, urllib.request, urllib.error, json
B = "http://127.0.0.1:8766"
r = requests.post(B + "/echo", json={"a": 1, "b": "x"}, headers={"X-Token": "t1"})
print(r.status_code, r.json())
r = requests.put(B + "/echo", data={"k": "v w", "n": 2}, params={"p": 1})
print(r.json()["body"], r.json()["query"], r.json()["headers"])
r = requests.patch(B + "/echo", data="raw text")
print(r.json())
r = requests.delete(B + "/echo", auth=("u", "p"), cookies={"c": "1"})
print(r.json()["method"], r.json()["headers"])
r = requests.get(B + "/moved")
print(r.status_code, r.url, r.history, [h.status_code for h in r.history], r.json()["query"])
r = requests.get(B + "/moved", allow_redirects=False)
print(r.status_code, r.headers["Location"], r.is_redirect, r.history)
r = requests.head(B + "/echo")
print(r.status_code, r.text == "", r.headers.get("content-type"))
r = requests.get(B + "/teapot")
print(r.status_code, r.reason, r.ok, r.text, r.encoding)
try:
    r.raise_for_status()
except requests.HTTPError as e:
    print(e, e.response.status_code)
r = requests.get(B + "/latin")
print(r.encoding, repr(r.text), r.content)
print(list(r.iter_lines()), list(r.iter_content(4))[:3])
r.encoding = "utf-8"
print(repr(r.text))
with requests.Session() as s:
    s.headers.update({"X-Token": "sess"})
    a = s.get(B + "/echo")
    b = s.get(B + "/echo", headers={"X-Token": None})
    print(a.json()["headers"], b.json()["headers"], s.cookies.get("sid"))
print("content-type" in r.headers, r.headers.get("CONTENT-TYPE"), dict(requests.get(B + "/echo").headers)["Content-Type"])
print(requests.codes.ok, requests.codes.not_found, requests.codes["teapot"] if False else 418)
req = urllib.request.Request(B + "/echo", data=b"x=1", method="PUT", headers={"x-token": "u"})
print(req.get_method(), req.full_url, req.headers)
with urllib.request.urlopen(req, timeout=5) as f:
    d = json.loads(f.read())
    print(d["method"], d["body"], d["headers"])
with urllib.request.urlopen(B + "/echo", data=b"a=b") as f:
    print(json.load(f)["headers"], f.headers.get("content-type"), f.getheader("Set-Cookie"))
try:
    urllib.request.urlopen(B + "/teapot")
except urllib.error.HTTPError as e:
    print(e.code, e.reason, e.headers["Content-Type"], e.read())
try:
    urllib.request.urlopen(B + "/echo", data="str")
except TypeError as e:
    print(e)
try:
    urllib.request.Request("nowhere")
except ValueError as e:
    print(e)
try:
    requests.get(B + "/slow", timeout=0.3)
except requests.exceptions.Timeout as e:
    print("timeout", isinstance(e, requests.RequestException))
`

const webWant = `200 {'body': '{"a": 1, "b": "x"}', 'headers': {'Content-Type': 'application/json', 'X-Token': 't1'}, 'method': 'POST', 'query': ''}
k=v+w&n=2 p=1 {'Content-Type': 'application/x-www-form-urlencoded'}
{'body': 'raw text', 'headers': {}, 'method': 'PATCH', 'query': ''}
DELETE {'Authorization': 'Basic dTpw', 'Cookie': 'c=1'}
200 http://127.0.0.1:8766/echo?from=moved [<Response [302]>] [302] from=moved
302 /echo?from=moved True []
200 True application/json
500 Internal Server Error False boom
 utf-8
500 Server Error: Internal Server Error for url: http://127.0.0.1:8766/teapot 500
ISO-8859-1 'café\nnaïve\n' b'caf\xe9\nna\xefve\n'
[b'caf\xe9', b'na\xefve'] [b'caf\xe9', b'\nna\xef', b've\n']
'caf�\nna�ve\n'
{'X-Token': 'sess'} {'Cookie': 'sid=abc'} abc
True text/plain application/json
200 404 418
PUT http://127.0.0.1:8766/echo {'X-token': 'u'}
PUT x=1 {'Content-Type': 'application/x-www-form-urlencoded', 'X-Token': 'u'}
{'Content-Type': 'application/x-www-form-urlencoded'} application/json sid=abc; Path=/
500 Internal Server Error text/plain; charset=utf-8 b'boom\n'
POST data should be bytes, an iterable of bytes, or a file object. It cannot be of type str.
unknown url type: 'nowhere'
timeout True
`

// urllib.request and requests, end to end through the runner (the web
// pack's variants, in-process and in a worker of isolation: process),
// print what CPython with requests prints.
func TestPyWebModules(t *testing.T) {
	srv := webServer(t)
	code := strings.ReplaceAll(webProgram, "http://127.0.0.1:8766", srv.URL)
	want := strings.TrimSuffix(strings.ReplaceAll(webWant, "http://127.0.0.1:8766", srv.URL), "\n")
	for _, iso := range []bool{false, true} {
		var r *Runner
		if iso {
			r = isolated(t, Isolation{Workers: 1}, WithConfig(webConfig(t)))
		} else {
			r = newRunner(t, WithConfig(webConfig(t)))
			t.Cleanup(func() { r.Close() })
		}
		res := r.Exec(context.Background(), code)
		if res.Err != nil || res.Printed != want {
			t.Errorf("isolated %v:\n%s\nwant\n%s\n(%v)", iso, res.Printed, want, res.Err)
		}
	}
}

// The hostile cases through Python's APIs, each refused as web.fetch
// refuses it, with the exception a program catches: a redirect to a
// refused host, a body over max_bytes (never cut), a slow server past
// the timeout, a secret in a body (redacted, in a binary body too), and a
// read_only policy refusing a POST while letting a GET through.
func TestPyWebHostile(t *testing.T) {
	srv := webServer(t)
	r := newRunner(t, WithConfig(webConfig(t)))
	defer r.Close()
	ro := principal("bob", "ro", config.Policy{Allow: []string{"*"}, ReadOnly: true})
	tests := []struct {
		name, code, want string
		opts             []ExecOption
	}{
		{"redirect to a refused host, requests", `import requests
try:
    requests.get(B + "/out")
except requests.ConnectionError as e:
    print("ConnectionError", "169.254.169.254" in str(e))`, "ConnectionError True", nil},
		{"redirect to a refused host, urllib", `import urllib.request, urllib.error
try:
    urllib.request.urlopen(B + "/out")
except urllib.error.URLError as e:
    print("URLError", "169.254.169.254" in str(e.reason), str(e).startswith("<urlopen error "))`, "URLError True True", nil},
		{"a body over max_bytes", `import requests
try:
    requests.get(B + "/big")
except requests.RequestException as e:
    print(type(e).__name__, "packs.web.max_bytes" in str(e))`, "RequestException True", nil},
		{"a slow server past the timeout", `import requests, urllib.request, urllib.error
try:
    requests.get(B + "/slow", timeout=0.2)
except requests.Timeout as e:
    print(type(e).__name__)
try:
    urllib.request.urlopen(B + "/slow", timeout=0.2)
except urllib.error.URLError as e:
    print(type(e.reason).__name__)`, "ReadTimeout\nTimeoutError", nil},
		{"a secret in a body", `import requests, urllib.request
print(requests.get(B + "/secret").json())
print("sk-live" in requests.get(B + "/secret.bin").content.decode("latin-1"))
print(b"sk-live" in urllib.request.urlopen(B + "/secret.bin").read())`, "{'token': '[secret:API_TOKEN]'}\nFalse\nFalse", nil},
		{"read_only policy: GET yes, POST no", `import requests
print(requests.get(B + "/echo").status_code)
try:
    requests.post(B + "/echo", data="x")
except PermissionError as e:
    print("PermissionError:", e)`, "200\nPermissionError: [Errno 13] web.fetch is not allowed by policy 'ro' (read-only)", []ExecOption{AsPrincipal(ro)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := r.Exec(context.Background(), "B = "+strconvQuote(srv.URL)+"\n"+tt.code, tt.opts...)
			if res.Err != nil || res.Printed != tt.want {
				t.Errorf("%q\nwant %q\n(%v)", res.Printed, tt.want, res.Err)
			}
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
