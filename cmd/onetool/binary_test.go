package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// onetoolBinary builds the real binary once per test process, for tests
// that must run it as a separate process (MCP over stdio, cold start).
func onetoolBinary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "onetool-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "onetool")
		if runtime.GOOS == "windows" {
			built.path += ".exe"
		}
		gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(gobin); err != nil {
			gobin = "go"
		}
		cmd := exec.Command(gobin, "build", "-o", built.path, ".")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building onetool: %v\n%s", built.err, built.out)
	}
	return built.path
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
