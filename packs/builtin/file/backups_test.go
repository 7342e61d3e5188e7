package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// oneBackup is what the backup of a small file at the top of a root
// counts: the file and the backup's directory.
const oneBackup = 2 * backupMinCharge

// clock is a fake time for backups: each call of tick moves it on.
type clock struct{ t time.Time }

func (c *clock) now() time.Time             { return c.t }
func (c *clock) tick(d time.Duration)       { c.t = c.t.Add(d) }
func newClock() *clock                      { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }
func withClock(o Options, c *clock) Options { o.hooks = &testHooks{now: c.now}; return o }

// holding returns the backups (paths under BackupDir) of file whose
// content is want.
func (e *env) holding(file, want string) []string {
	e.t.Helper()
	var out []string
	for _, b := range e.backups() {
		if _, rest, ok := strings.Cut(b, "/"); ok && rest == file {
			if data, err := os.ReadFile(filepath.Join(e.root, BackupDir, b)); err == nil && string(data) == want {
				out = append(out, b)
			}
		}
	}
	return out
}

// versions returns the contents of the backups of file, oldest first.
func (e *env) versions(file string) []string {
	e.t.Helper()
	var out []string
	b := e.backups()
	slices.Sort(b)
	for _, x := range b {
		if _, rest, ok := strings.Cut(x, "/"); ok && rest == file {
			data, _ := os.ReadFile(filepath.Join(e.root, BackupDir, x))
			out = append(out, string(data))
		}
	}
	return out
}

// TestBackupOfDestroyedFileSurvivesFlood is the attack of issue 27: a
// program destroys files, then makes 201 backups of other files so that
// pruning erases the restore points. Each tool that makes a backup
// destroys one file and takes part in the flood, time passes (the rule is
// by age), and every destroyed file's backup is still there.
func TestBackupOfDestroyedFileSurvivesFlood(t *testing.T) {
	c := newClock()
	e := newEnv(t, withClock(Options{Backups: true}, c))
	e.files(map[string]string{"junk.txt": "junk", "copysrc.txt": "c", "dummy/": ""})
	victims := map[string]map[string]any{
		"write":  {"path": "write.txt", "content": "gone"},
		"edit":   {"path": "edit.txt", "old": "precious", "new": "gone"},
		"delete": {"path": "delete.txt"},
		"move":   {"src": "junk.txt", "dst": "move.txt", "overwrite": true},
		"copy":   {"src": "copysrc.txt", "dst": "copy.txt", "overwrite": true},
	}
	for tool := range victims {
		e.files(map[string]string{tool + ".txt": "precious"})
	}
	for _, tool := range []string{"write", "edit", "delete", "move", "copy"} {
		e.must(tool, victims[tool])
	}
	for i := range 201 {
		c.tick(time.Minute)
		f := fmt.Sprintf("dummy/d%d.txt", i%7)
		e.files(map[string]string{f: "x"})
		switch i % 5 {
		case 0:
			e.must("write", map[string]any{"path": f, "content": "y"})
		case 1:
			e.must("edit", map[string]any{"path": f, "old": "x", "new": "z"})
		case 2:
			e.must("delete", map[string]any{"path": f})
		case 3:
			e.files(map[string]string{"dummy/src": "s"})
			e.must("move", map[string]any{"src": "dummy/src", "dst": f, "overwrite": true})
		case 4:
			e.must("copy", map[string]any{"src": "copysrc.txt", "dst": f, "overwrite": true})
		}
	}
	for tool := range victims {
		if got := e.holding(tool+".txt", "precious"); len(got) != 1 {
			t.Errorf("backups of the file %s destroyed: %v, want one (of %d backups)", tool, got, len(e.backups()))
		}
	}
	if n := len(e.backups()); n < 201+5 {
		t.Errorf("%d backups: every backup younger than 7 days is kept", n)
	}
}

// TestBackupVersionsPerFile: past the retention age, the last Versions
// backups of each file are kept and older ones removed; a file's only
// backup stays however old.
func TestBackupVersionsPerFile(t *testing.T) {
	c := newClock()
	e := newEnv(t, withClock(Options{Backups: true, Retention: Retention{Versions: 3, KeepFor: time.Hour, MaxSize: 1 << 30}}, c))
	e.files(map[string]string{"f.txt": "0", "g.txt": "g0", "mine/": ""})
	e.files(map[string]string{BackupDir + "/notes/keep.txt": "not a backup"})
	e.must("write", map[string]any{"path": "g.txt", "content": "g1"})
	for i := 1; i <= 10; i++ {
		c.tick(time.Minute)
		e.must("write", map[string]any{"path": "f.txt", "content": fmt.Sprint(i)})
	}
	if got := e.versions("f.txt"); len(got) != 10 {
		t.Fatalf("within the hour: %v, want all 10", got)
	}
	c.tick(2 * time.Hour)
	e.must("write", map[string]any{"path": "f.txt", "content": "11"})
	if got, want := e.versions("f.txt"), []string{"7", "8", "9", "10"}; !slices.Equal(got, want) {
		t.Errorf("after the hour: %v, want %v (the last 3 old ones, and the new one)", got, want)
	}
	if got := e.versions("g.txt"); !slices.Equal(got, []string{"g0"}) {
		t.Errorf("g.txt's only backup: %v", got)
	}
	if e.read(BackupDir+"/notes/keep.txt") != "not a backup" {
		t.Error("a directory backups did not make was removed")
	}
}

// TestBackupVersionsOfADirectory: a backup holding several files (a
// deleted directory) goes only when each of its files has enough newer
// backups.
func TestBackupVersionsOfADirectory(t *testing.T) {
	c := newClock()
	e := newEnv(t, withClock(Options{Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: 1 << 30}}, c))
	e.files(map[string]string{"d/a": "a0", "d/b": "b0"})
	e.must("delete", map[string]any{"path": "d", "recursive": true})
	c.tick(2 * time.Hour)
	e.files(map[string]string{"d/a": "a1"})
	e.must("write", map[string]any{"path": "d/a", "content": "a2"})
	c.tick(2 * time.Hour)
	e.files(map[string]string{"x": "x"})
	e.must("write", map[string]any{"path": "x", "content": "y"}) // prunes
	if got := e.versions("d/b"); !slices.Equal(got, []string{"b0"}) {
		t.Errorf("d/b has no newer backup, so the directory's backup stays: %v", got)
	}
	e.files(map[string]string{"d/b": "b1"})
	e.must("write", map[string]any{"path": "d/b", "content": "b2"})
	c.tick(2 * time.Hour)
	e.must("write", map[string]any{"path": "x", "content": "z"})
	if got := e.versions("d/a"); !slices.Equal(got, []string{"a1"}) {
		t.Errorf("now each file has a newer backup: d/a %v, want [a1]", got)
	}
	if got := e.versions("d/b"); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("d/b %v, want [b1]", got)
	}
}

// TestBackupMaxSizeRefusesChanges: when the backups of a root are full,
// a change that needs a backup is refused and changes nothing, whatever
// the tool; young backups are never removed to make room, and changes that
// need no backup go on.
func TestBackupMaxSizeRefusesChanges(t *testing.T) {
	c := newClock()
	e := newEnv(t, withClock(Options{Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: 16 * oneBackup}}, c))
	e.files(map[string]string{"victim.txt": "precious", "f.txt": "0", "src.txt": "s", "d/a": "a"})
	e.must("write", map[string]any{"path": "victim.txt", "content": "gone"})
	for i := 1; i <= 15; i++ {
		e.must("write", map[string]any{"path": "f.txt", "content": fmt.Sprint(i)})
	}
	for tool, args := range map[string]map[string]any{
		"write":  {"path": "f.txt", "content": "over"},
		"edit":   {"path": "f.txt", "old": "15", "new": "16"},
		"delete": {"path": "f.txt"},
		"copy":   {"src": "src.txt", "dst": "f.txt", "overwrite": true},
		"move":   {"src": "src.txt", "dst": "f.txt", "overwrite": true},
	} {
		err := e.fails(tool, args, "the backups are full", "packs.file.backups_max_size", "nothing was changed", "1 hour", "delete old backups")
		if !errors.Is(err, ErrBackupsFull) {
			t.Errorf("%s: %v is not ErrBackupsFull", tool, err)
		}
	}
	e.fails("delete", map[string]any{"path": "d", "recursive": true}, "the backups are full")
	if e.read("f.txt") != "15" || e.read("src.txt") != "s" || e.read("d/a") != "a" {
		t.Error("a refused change changed a file")
	}
	if len(e.holding("victim.txt", "precious")) != 1 {
		t.Error("the backup of the destroyed file is gone")
	}
	// Changes that keep no backup still work.
	e.must("write", map[string]any{"path": "new.txt", "content": "n"})
	e.must("write", map[string]any{"path": "f.txt", "content": "+", "append": true})
	// Once the old backups may go, there is room again.
	c.tick(2 * time.Hour)
	e.must("write", map[string]any{"path": "f.txt", "content": "later"})
	if len(e.holding("victim.txt", "precious")) != 1 {
		t.Error("the last backup of victim.txt must stay")
	}
}

// TestBackupIndexFollowsTheDisk: backups removed by hand free room, and
// backups another process made count.
func TestBackupIndexFollowsTheDisk(t *testing.T) {
	c := newClock()
	e := newEnv(t, withClock(Options{Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: 4 * oneBackup}}, c))
	e.files(map[string]string{"f.txt": "0"})
	for i := 1; i <= 4; i++ {
		e.must("write", map[string]any{"path": "f.txt", "content": fmt.Sprint(i)})
	}
	e.fails("write", map[string]any{"path": "f.txt", "content": "5"}, "the backups are full")
	if err := os.RemoveAll(filepath.Join(e.root, BackupDir)); err != nil {
		t.Fatal(err)
	}
	e.must("write", map[string]any{"path": "f.txt", "content": "5"})
	// Another process's backups, three of them.
	for i := range 3 {
		e.files(map[string]string{fmt.Sprintf("%s/20260301-120001.00000%d-write/other.txt", BackupDir, i): "o"})
	}
	e.fails("write", map[string]any{"path": "f.txt", "content": "6"}, "the backups are full")
}

func TestBackupsTooBigAlone(t *testing.T) {
	e := newEnv(t, Options{Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: backupMinCharge}})
	e.files(map[string]string{"big.txt": strings.Repeat("x", 2*backupMinCharge)})
	e.fails("write", map[string]any{"path": "big.txt", "content": "y"}, "the backups are full", "12.0 KiB") // the file and the backup's directory
	if e.read("big.txt") != strings.Repeat("x", 2*backupMinCharge) {
		t.Error("changed")
	}
}

// TestBackupChargesDirectories: a backup counts every directory it makes
// as well as its files, so backups of files deep down many directories
// reach the bound before they use up the file system's inodes; the count
// made when a backup is kept and the count read back from the disk agree.
func TestBackupChargesDirectories(t *testing.T) {
	deep := strings.Repeat("d/", 20) + "f.txt"         // 20 directories
	perBackup := int64(backupMinCharge) * (1 + 20 + 1) // the backup's own directory, 20 more, the file
	e := newEnv(t, Options{Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: 3 * perBackup}})
	e.files(map[string]string{deep: "0"})
	for i := 1; i <= 3; i++ {
		e.must("write", map[string]any{"path": deep, "content": fmt.Sprint(i)})
	}
	e.fails("write", map[string]any{"path": deep, "content": "4"}, "the backups are full", formatBytes(perBackup))
	// A fresh pack reads the same count from the disk.
	r, err := roots.New(e.root)
	if err != nil {
		t.Fatal(err)
	}
	fresh := newPack(Options{Roots: r, Backups: true, Retention: Retention{Versions: 1, KeepFor: time.Hour, MaxSize: 1 << 30}})
	root, err := os.OpenRoot(e.root)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ix, err := fresh.backups.index(context.Background(), root, e.root)
	if err != nil {
		t.Fatal(err)
	}
	if ix.bytes != 3*perBackup {
		t.Errorf("read back %d bytes, want %d", ix.bytes, 3*perBackup)
	}
	// A directory's backup: its directories and files.
	e.files(map[string]string{"tree/a/x": "x", "tree/b/y": "y"})
	_, size, err := backupCharge(context.Background(), root, "tree")
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(backupMinCharge) * (1 + 3 + 2); size != want { // own; tree, a, b; x, y
		t.Errorf("charge of a directory: %d, want %d", size, want)
	}
}

func TestParseSettings(t *testing.T) {
	def := DefaultRetention()
	if def.Versions != 10 || def.KeepFor != 7*24*time.Hour || def.MaxSize != 1<<30 {
		t.Fatalf("defaults %+v", def)
	}
	for _, c := range []struct {
		in   map[string]any
		want Retention
		err  string
	}{
		{nil, def, ""},
		{map[string]any{"backups_versions": int64(0)}, Retention{0, def.KeepFor, def.MaxSize}, ""},
		{map[string]any{"backups_versions": int64(3), "backups_keep_for": "36h", "backups_max_size": "200MiB"}, Retention{3, 36 * time.Hour, 200 << 20}, ""},
		{map[string]any{"backups_keep_for": int64(60)}, Retention{def.Versions, time.Minute, def.MaxSize}, ""},
		{map[string]any{"backups_versions": nil}, def, ""},
		{map[string]any{"backups_versions": int64(-1)}, def, "packs.file.backups_versions: want a number of versions from 0 to 1000, got -1"},
		{map[string]any{"backups_versions": "many"}, def, "packs.file.backups_versions"},
		{map[string]any{"backups_keep_for": "a week"}, def, "packs.file.backups_keep_for: want a duration"},
		{map[string]any{"backups_max_size": "huge"}, def, "packs.file.backups_max_size: want a size"},
		{map[string]any{"backup_versions": int64(3)}, def, "packs.file.backup_versions: unknown setting: did you mean backups_versions?"},
	} {
		got, err := ParseSettings(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%v: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: error %v, want %q", c.in, err, c.err)
		case c.err == "" && got != c.want:
			t.Errorf("%v: %+v, want %+v", c.in, got, c.want)
		}
	}
}

// BenchmarkBackup measures a write that keeps a backup in a root that
// already holds many backups: the index makes it one listing of the
// backups directory, not a walk of every backup.
func BenchmarkBackup(b *testing.B) {
	for _, n := range []int{-1, 0, 1000, 10000} {
		name := fmt.Sprintf("backups=%d", n)
		if n < 0 {
			name = "no-backups"
		}
		b.Run(name, func(b *testing.B) {
			tmp := b.TempDir()
			root := filepath.Join(tmp, "root")
			for i := range n {
				p := filepath.Join(root, BackupDir, fmt.Sprintf("20260301-120000.%06d-write", i), fmt.Sprintf("f%d.txt", i%100))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte("x"), 0o644)
			}
			os.MkdirAll(root, 0o755)
			os.WriteFile(filepath.Join(root, "f.txt"), []byte("0"), 0o644)
			r, err := roots.New(root)
			if err != nil {
				b.Fatal(err)
			}
			c := newClock()
			c.tick(time.Hour) // after the backups above
			reg := packs.NewRegistry()
			if err := Register(reg, withClock(Options{Roots: r, Backups: n >= 0}, c)); err != nil {
				b.Fatal(err)
			}
			write, _ := reg.Tool("file.write")
			// The first backup reads the backups there are; later ones
			// only list the directory.
			if _, err := packs.Call(context.Background(), write, nil, []packs.NamedArg{{Name: "path", Value: "f.txt"}, {Name: "content", Value: "first"}}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				c.tick(time.Millisecond)
				args := []packs.NamedArg{{Name: "path", Value: "f.txt"}, {Name: "content", Value: fmt.Sprint(i)}}
				if _, err := packs.Call(context.Background(), write, nil, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
