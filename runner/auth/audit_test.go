package auth

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// line is one audit entry of principal p.
func line(p string) AuditEntry { return AuditEntry{Principal: p, Outcome: "ok"} }

// The audit log follows its path: after the file is renamed away (log
// rotation) or deleted, the next line goes to a new file at the path, not
// on into a file nobody sees; after it is truncated, lines go on at its
// new end. Each of these is logged once, when the next line is written.
func TestAuditFollowsItsPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	var logged bytes.Buffer
	a, err := OpenAudit(path, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	record := func(p string) {
		t.Helper()
		if err := a.Record(line(p)); err != nil {
			t.Fatal(err)
		}
	}
	principals := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if _, rest, ok := strings.Cut(l, `"principal":"`); ok {
				name, _, _ := strings.Cut(rest, `"`)
				names = append(names, name)
			}
		}
		return strings.Join(names, " ")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the audit log's mode: %v (%v)", fi.Mode(), err)
	}
	record("a1")
	record("a2")

	// Rotation: renamed away, the next line starts a new file.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	record("b1")
	if got := principals(path + ".1"); got != "a1 a2" {
		t.Errorf("rotated file: %q", got)
	}
	if got := principals(path); got != "b1" {
		t.Errorf("after rotation: %q", got)
	}
	if !strings.Contains(logged.String(), "serve.auth.audit_log was moved or deleted outside onetool") {
		t.Errorf("rotation not logged: %s", logged.String())
	}

	// Deleted: the next line recreates it, owner-only.
	logged.Reset()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	record("c1")
	if got := principals(path); got != "c1" {
		t.Errorf("after deletion: %q", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("recreated with mode %v (%v)", fi.Mode(), err)
	}
	if !strings.Contains(logged.String(), "moved or deleted") {
		t.Errorf("deletion not logged: %s", logged.String())
	}

	// Truncated: said once, and lines go on at the start.
	logged.Reset()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	record("d1")
	record("d2")
	if got := principals(path); got != "d1 d2" {
		t.Errorf("after truncation: %q", got)
	}
	if n := strings.Count(logged.String(), "truncated outside onetool"); n != 1 {
		t.Errorf("truncation logged %d times: %s", n, logged.String())
	}

	// Nothing happened: nothing is logged.
	logged.Reset()
	record("e1")
	if logged.Len() != 0 {
		t.Errorf("logged without cause: %s", logged.String())
	}

	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Record(line("f1")); err == nil {
		t.Error("a closed audit log took a line")
	}
}

// The path cannot be opened again (its directory is gone): lines go on
// into the file still open, and the failure is logged.
func TestAuditReopenFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "audit.jsonl")
	var logged bytes.Buffer
	a, err := OpenAudit(path, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	moved := dir + ".old"
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := a.Record(line("x")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(moved, "audit.jsonl")); !strings.Contains(string(b), `"principal":"x"`) {
		t.Errorf("the line was lost: %q", b)
	}
	if !strings.Contains(logged.String(), "opening it again failed") {
		t.Errorf("not logged: %s", logged.String())
	}
}

// BenchmarkAuditRecord is the cost of one audit line, with the check
// that the path still names the open file.
func BenchmarkAuditRecord(b *testing.B) {
	a, err := OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	e := AuditEntry{Principal: "alice", Policy: "dev", Tools: []string{"file.read", "web.fetch"}, Outcome: "ok", ToolCalls: 3, Duration: 12.5}
	for b.Loop() {
		if err := a.Record(e); err != nil {
			b.Fatal(err)
		}
	}
}
