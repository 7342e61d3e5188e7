package main

import (
	"github.com/onetool-dev/onetool/runner"

	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
			// A clean HOME so that no user config can leak into a test.
			env.Setenv("HOME", env.WorkDir)
			return nil
		},
	})
}
