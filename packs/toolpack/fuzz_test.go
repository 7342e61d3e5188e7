package toolpack

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadFile loads arbitrary bytes as a toolpack file. Whatever the
// input, LoadFile must not panic or hang, every problem must be a
// *ToolpackValidationError, and every tool returned must be compiled.
// The seeds are in testdata/fuzz/FuzzLoadFile.
func FuzzLoadFile(f *testing.F) {
	ex := testExecutors()
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		dir := t.TempDir()
		// Files a fuzzed toolpack may refer to.
		writeFiles(t, dir, map[string]string{"s.star": "def run(x):\n    return x\n", "run.sh": "#!/bin/sh\nexec cat\n"})
		name := "fuzz.yaml"
		if asJSON {
			name = "fuzz.json"
		}
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tools, err := LoadFile(file, ex)
		for _, e := range leaves(err) {
			var tve *ToolpackValidationError
			if !errors.As(e, &tve) {
				t.Fatalf("%v (%T) is not a *ToolpackValidationError", e, e)
			}
			if tve.Error() == "" {
				t.Fatal("empty error text")
			}
		}
		if err != nil && !errors.Is(err, ErrInvalidToolpack) {
			t.Fatalf("%v does not match ErrInvalidToolpack", err)
		}
		for _, tool := range tools {
			if tool.ID() == "" || tool.Signature() == "" || len(tool.BackendList()) != 1 {
				t.Fatalf("tool %q: signature %q, %d backends", tool.ID(), tool.Signature(), len(tool.BackendList()))
			}
			if err := tool.Compile(); err != nil {
				t.Fatalf("tool %s returned but does not compile: %v", tool.ID(), err)
			}
		}
	})
}
