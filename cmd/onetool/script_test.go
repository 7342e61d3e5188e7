package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/onetool-dev/onetool/runner"
)

// Golden-file script tests live in testdata/scripts at the module root, one
// behaviour per file. To rewrite the expected output after an intended
// change:
//
//	go test ./cmd/onetool -run TestScripts -update
var update = flag.Bool("update", false, "rewrite the expected output in testdata/scripts")

func TestMain(m *testing.M) {
	if runner.IsWorker() {
		os.Exit(runner.WorkerMain())
	}
	testscript.Main(m, map[string]func(){
		"onetool": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "../../testdata/scripts",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			// A clean HOME so that no user config can leak into a test,
			// beside $WORK rather than $WORK itself or inside it: scripts
			// run in $WORK, and the home directory (or one that holds
			// it) is never a root unless named (SPEC §8.2). Scripts put
			// files there with cp or mkdir.
			home := env.WorkDir + "-home"
			env.Setenv("HOME", home)
			env.Defer(func() { os.RemoveAll(home) })
			return os.MkdirAll(home, 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"httpserve": httpServe,
		},
	})
}

// httpServe is the script command `httpserve DIR`: it serves the files of
// DIR over HTTP on 127.0.0.1 for the rest of the script and sets $HTTP to
// the server's base URL (and $HTTP_PORT to its port), so that the web
// pack is tested against a local server only: allow it with
// packs.web.allow_hosts: ["127.0.0.1"], which web.fetch needs for any
// loopback address. A file NAME.status holding a number answers NAME with that
// status instead.
func httpServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: httpserve DIR")
	}
	dir := ts.MkAbs(args[0])
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, err := os.ReadFile(dir + r.URL.Path + ".status"); err == nil {
			var code int
			if _, err := fmt.Sscan(string(b), &code); err == nil {
				http.Error(w, http.StatusText(code), code)
				return
			}
		}
		files.ServeHTTP(w, r)
	}))
	ts.Defer(srv.Close)
	ts.Setenv("HTTP", srv.URL)
	ts.Setenv("HTTP_PORT", srv.URL[strings.LastIndexByte(srv.URL, ':')+1:])
}
