package runner

import (
	"path/filepath"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/isolate"
)

// A worker's hard memory limit leaves room for the largest budget any run
// may get: a policy's limits.max_memory replaces the runner's even when
// higher, so a run of that policy must not meet the hard limit first.
func TestWorkerHardMemoryCoversPolicies(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       int64
	}{
		{"runner's budget", "limits: {max_memory: 64MiB}\n", isolate.HardMemoryFor(64 << 20)},
		{"a policy's higher budget", "limits: {max_memory: 64MiB}\npolicies:\n  big: {allow: [\"*\"], limits: {max_memory: 256MiB}}\n  small: {allow: [\"*\"], limits: {max_memory: 16MiB}}\n", isolate.HardMemoryFor(256 << 20)},
		{"policies lower only", "limits: {max_memory: 64MiB}\npolicies:\n  small: {allow: [\"*\"], limits: {max_memory: 16MiB}}\n", isolate.HardMemoryFor(64 << 20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeAll(t, dir, "onetool.yaml", tc.yaml)
			cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir, HomeDir: dir, LookupEnv: func(string) (string, bool) { return "", false }})
			if err != nil {
				t.Fatal(err)
			}
			r := isolated(t, Isolation{Workers: 1}, WithConfig(cfg))
			if got := r.pool.HardMemory(); got != tc.want {
				t.Errorf("hard memory %d MiB, want %d MiB", got>>20, tc.want>>20)
			}
		})
	}
}
