package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// Backups (SPEC §8.2). Before a file is overwritten, edited, moved onto or
// deleted, the old one is kept under BackupDir in the root it lies in, in
// a directory of its own named after the time and the tool
// (20250102-150405.000000-write/notes/a.txt). Programs cannot reach
// BackupDir (it lies in a .onetool directory), so they cannot read,
// change or delete a backup, and the keeping rule must not let them erase
// one either by making many others: a backup is removed only when both
//
//   - it is older than Retention.KeepFor, and
//   - each file in it has at least Retention.Versions newer backups;
//
// so every backup younger than KeepFor is kept whatever the count, and
// the last Versions backups of each file are kept whatever their age. What
// bounds the disk used is Retention.MaxSize, the bytes the backups of one
// root may hold: a change whose backup would pass it is refused, with an
// error that says what to do, rather than a young backup deleted to make
// room. Each file and each directory a backup makes counts at least
// backupMinCharge bytes (a disk block and an inode), so that many tiny
// backups, or backups of files deep down many directories, reach the
// bound too, not the file system's inodes first.

// Default retention of backups.
const (
	DefaultBackupVersions = 10                 // packs.file.backups_versions
	DefaultBackupKeepFor  = 7 * 24 * time.Hour // packs.file.backups_keep_for
	DefaultBackupMaxSize  = 1 << 30            // packs.file.backups_max_size (bytes per root)
)

// Bounds of the retention settings and of the work of keeping backups.
const (
	maxBackupVersions = 1000
	maxBackupKeepFor  = 10 * 365 * 24 * time.Hour
	maxBackupMaxSize  = 1 << 50
	backupMinCharge   = 4 << 10   // bytes each file or directory of a backup counts at least
	maxBackupEntries  = 1_000_000 // files and directories one look at a backups directory reads
	maxBackupRoots    = 64        // roots whose backups are indexed in memory at once
)

// ErrBackupsFull is the cause of a change refused because its backup
// would take the backups of its root past Retention.MaxSize.
var ErrBackupsFull = errors.New("the backups are full")

// Retention is how long backups are kept (packs.file.backups_*). The zero
// Retention means DefaultRetention.
type Retention struct {
	// Versions is how many backups of each file are kept whatever their
	// age (packs.file.backups_versions).
	Versions int
	// KeepFor is the age under which no backup is ever removed
	// (packs.file.backups_keep_for).
	KeepFor time.Duration
	// MaxSize is how many bytes the backups of one root may hold; a change
	// whose backup would need more is refused. 0 or less: no bound
	// (packs.file.backups_max_size).
	MaxSize int64
}

// DefaultRetention keeps 10 versions of each file, every backup of the
// last 7 days, and at most 1 GiB of backups per root.
func DefaultRetention() Retention {
	return Retention{Versions: DefaultBackupVersions, KeepFor: DefaultBackupKeepFor, MaxSize: DefaultBackupMaxSize}
}

// settingKeys are the keys of packs.file ParseSettings reads (besides
// allowed_dirs, read_only and backups, which the configuration reads).
var settingKeys = []string{"backups_keep_for", "backups_max_size", "backups_versions"}

// ParseSettings reads the extra keys of the packs.file section (decoded
// YAML) into the retention of backups, starting from DefaultRetention:
//
//	backups_versions: backups of each file kept whatever their age (0–1000)
//	backups_keep_for: age under which every backup is kept ("168h", seconds)
//	backups_max_size: bytes the backups of one root may hold ("1GiB")
//
// Unknown keys and wrong values are errors, all of them joined, each
// naming its key as "packs.file.<key>".
func ParseSettings(settings map[string]any) (Retention, error) {
	r := DefaultRetention()
	err := packs.ReadSettings("file", settings, settingKeys, func(key string, v any) error {
		var err error
		switch key {
		case "backups_versions":
			var n int64
			n, err = packs.SettingInt(v, "a number of versions", 0, maxBackupVersions)
			r.Versions = int(n)
		case "backups_keep_for":
			r.KeepFor, err = packs.SettingDuration(v, maxBackupKeepFor)
		case "backups_max_size":
			r.MaxSize, err = packs.SettingSize(v, maxBackupMaxSize)
		}
		return err
	})
	return r, err
}

// backupDirRel is BackupDir with the system's separators.
var backupDirRel = filepath.FromSlash(BackupDir)

// backupMode says how the old file is kept.
type backupMode int

const (
	backupLink backupMode = iota // a hard link: the old file is about to be replaced by a rename
	backupMove                   // a rename into the backups: this is a delete
)

// backup keeps rel (a file, or with backupMove a directory) in a new
// timestamped directory under BackupDir, named after op, and returns the
// backup's path for messages, or "" when backups are off. With
// backupMove, rel is gone afterwards. Old backups are removed first as
// Retention allows; when the new one would still take the backups past
// Retention.MaxSize, nothing is changed and the call fails
// (ErrBackupsFull). Programs never name a path in BackupDir (it lies in a
// .onetool directory, refused by roots), so rel is never a backup itself.
func (p *pack) backup(ctx context.Context, root *os.Root, rootDir, rel, name, op string, mode backupMode) (string, error) {
	if !p.o.Backups {
		return "", nil
	}
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("could not keep a backup of %s in %s, so nothing was changed: %v (set packs.file.backups: false to work without backups)",
			name, BackupDir, unwrapPath(err))
	}
	files, size, err := backupCharge(ctx, root, rel)
	if err != nil {
		if ctx.Err() != nil {
			return "", stopped(ctx)
		}
		return fail(err)
	}
	if err := root.MkdirAll(backupDirRel, 0o777); err != nil {
		return fail(err)
	}
	// One backup at a time per pack: the check of the bound and the new
	// backup go together. Making a backup is a link or a rename, quick.
	b := p.backups
	b.mu.Lock()
	defer b.mu.Unlock()
	ix, err := b.index(ctx, root, rootDir)
	if err != nil {
		if ctx.Err() != nil {
			return "", stopped(ctx)
		}
		return fail(err)
	}
	now := p.now().UTC()
	ix.prune(root, now, p.retention)
	if max := p.retention.MaxSize; max > 0 && ix.bytes+size > max {
		return "", p.backupsFull(name, rootDir, ix.bytes, size)
	}
	// Names sort by time: on a clash the time moves on by a microsecond.
	dir := ""
	for range 100 {
		d := filepath.Join(backupDirRel, now.Format(stampLayout)+"-"+op)
		err := root.Mkdir(d, 0o777)
		if err == nil {
			dir = d
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return fail(err)
		}
		now = now.Add(time.Microsecond)
	}
	if dir == "" {
		return fail(errors.New("too many backups at the same time"))
	}
	dst := filepath.Join(dir, rel)
	if err := root.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		root.RemoveAll(dir)
		return fail(err)
	}
	if mode == backupLink {
		err = root.Link(rel, dst)
	} else {
		err = root.Rename(rel, dst)
	}
	if err != nil {
		// Another file system under the root, or no hard links: copy.
		// No guard: rel passed the checks, and the copy goes where only
		// onetool writes.
		if err = copyEntry(ctx, nil, root, rel, root, dst, name); err == nil && mode == backupMove {
			err = root.RemoveAll(rel)
		}
	}
	if err != nil {
		root.RemoveAll(dir)
		if ctx.Err() != nil {
			return "", stopped(ctx)
		}
		return fail(err)
	}
	ix.add(&backupSet{name: filepath.Base(dir), at: now, files: files, bytes: size})
	ix.seen(root)
	return p.display(filepath.Join(rootDir, dst)), nil
}

// backupsFull is the refusal of a change whose backup does not fit.
func (p *pack) backupsFull(name, rootDir string, have, need int64) error {
	ret := p.retention
	return fmt.Errorf("%w: keeping a backup of %s (%s) would take the backups of %s past %s (packs.file.backups_max_size; they hold %s), and backups younger than %s (packs.file.backups_keep_for) are never removed, so nothing was changed. "+
		"Ask the user to delete old backups in %s, to raise packs.file.backups_max_size, or to set packs.file.backups: false",
		ErrBackupsFull, name, formatBytes(need), rootDir, formatBytes(ret.MaxSize), formatBytes(have), keepForText(ret.KeepFor),
		filepath.Join(rootDir, backupDirRel))
}

// keepForText writes a retention age for people: "7 days", "36 hours",
// "1m30s".
func keepForText(d time.Duration) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return plural(int(d/(24*time.Hour)), "day", "days")
	case d >= time.Hour && d%time.Hour == 0:
		return plural(int(d/time.Hour), "hour", "hours")
	}
	return d.String()
}

// now is the time backups are named and aged by.
func (p *pack) now() time.Time {
	if h := p.o.hooks; h != nil && h.now != nil {
		return h.now()
	}
	return time.Now()
}

// backupCharge returns the files a backup of rel will hold (slash paths
// relative to the root) and the bytes it counts against
// Retention.MaxSize: each file's size, at least backupMinCharge, and
// backupMinCharge for each directory it makes (its own, and those on the
// way to rel), as readBackupSet counts them.
func backupCharge(ctx context.Context, root *os.Root, rel string) ([]string, int64, error) {
	st, err := root.Lstat(rel)
	if err != nil {
		return nil, 0, err
	}
	dirs := int64(1 + strings.Count(filepath.ToSlash(rel), "/")) // the backup's own, and rel's parents
	if !st.IsDir() {
		return []string{filepath.ToSlash(rel)}, max(st.Size(), backupMinCharge) + dirs*backupMinCharge, nil
	}
	var files []string
	size := dirs * backupMinCharge
	n := 0
	err = fs.WalkDir(root.FS(), filepath.ToSlash(rel), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			size += backupMinCharge
			return nil
		}
		var sz int64
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			sz = fi.Size()
		}
		files = append(files, p)
		size += max(sz, backupMinCharge)
		return nil
	})
	return files, size, err
}

// stampLayout starts the name of each backup directory (UTC).
const stampLayout = "20060102-150405.000000"

// isBackupName matches stampLayout + "-op".
func isBackupName(n string) bool {
	if len(n) < len(stampLayout)+2 || n[8] != '-' || n[15] != '.' || n[len(stampLayout)] != '-' {
		return false
	}
	for i, c := range n[:len(stampLayout)] {
		if i == 8 || i == 15 {
			continue
		}
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// backupStore indexes the backups of the roots a pack writes to, so that
// keeping the rule costs a stat of the backups directory per backup, not
// a walk of every backup. The files themselves are the truth: when the
// directory changed since the index last saw it (its modification time),
// and after every resyncEvery backups anyway, the index is compared with
// the directory's listing, so backups removed by hand, or made by another
// onetool process, are seen.
type backupStore struct {
	mu    sync.Mutex
	roots map[string]*backupIndex // by the real path of the root
	uses  int                     // a clock for evicting the index used longest ago
}

func newBackupStore() *backupStore { return &backupStore{roots: map[string]*backupIndex{}} }

// resyncEvery is how many backups may be made on an index trusted by the
// modification time of its directory alone, before it is compared with
// the listing again: a change by another process within the same tick of
// the file system's clock as one of ours leaves the time as it was.
const resyncEvery = 64

// backupIndex is what the backups directory of one root holds.
type backupIndex struct {
	used  int
	mtime time.Time               // of the directory when the index last matched it; zero: list it
	since int                     // backups made since the last listing
	sets  []*backupSet            // by name, that is by time
	files map[string][]*backupSet // file → the backups holding it, by name
	bytes int64                   // charged, as backupCharge counts
}

// backupSet is one backup: one directory under BackupDir.
type backupSet struct {
	name  string
	at    time.Time
	files []string
	bytes int64
}

// index returns the index of the backups under rootDir, read again from
// root as far as the directory listing differs from it. Call with b.mu
// held.
func (b *backupStore) index(ctx context.Context, root *os.Root, rootDir string) (*backupIndex, error) {
	ix := b.roots[rootDir]
	if ix == nil {
		if len(b.roots) >= maxBackupRoots {
			oldest := ""
			for k, v := range b.roots {
				if oldest == "" || v.used < b.roots[oldest].used {
					oldest = k
				}
			}
			delete(b.roots, oldest)
		}
		ix = &backupIndex{files: map[string][]*backupSet{}}
		b.roots[rootDir] = ix
	}
	b.uses++
	ix.used = b.uses
	if st, err := root.Stat(backupDirRel); err == nil && !ix.mtime.IsZero() && st.ModTime().Equal(ix.mtime) && ix.since < resyncEvery {
		ix.since++
		return ix, nil
	}
	ix.since = 0
	if err := ix.sync(ctx, root); err != nil {
		delete(b.roots, rootDir) // read it whole next time
		return nil, err
	}
	return ix, nil
}

// seen records the modification time of the backups directory once the
// index matches it again (after a listing, or after changes of its own).
func (ix *backupIndex) seen(root *os.Root) {
	ix.mtime = time.Time{}
	if st, err := root.Stat(backupDirRel); err == nil {
		ix.mtime = st.ModTime()
	}
}

// sync brings the index in line with the directory's listing: backups
// that appeared are read, those that went are forgotten.
func (ix *backupIndex) sync(ctx context.Context, root *os.Root) error {
	st, err := root.Stat(backupDirRel)
	if err != nil {
		return err
	}
	d, err := root.Open(backupDirRel)
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(maxBackupEntries + 1)
	d.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if len(names) > maxBackupEntries {
		return fmt.Errorf("%s holds more than %d entries: delete old backups by hand", BackupDir, maxBackupEntries)
	}
	present := make(map[string]bool, len(names))
	budget := maxBackupEntries
	for _, n := range names {
		if !isBackupName(n) {
			continue
		}
		present[n] = true
		if ix.find(n) >= 0 {
			continue
		}
		s, err := readBackupSet(ctx, root, n, &budget)
		if err != nil {
			return err
		}
		ix.add(s)
	}
	for i := len(ix.sets) - 1; i >= 0; i-- {
		if !present[ix.sets[i].name] {
			ix.forget(ix.sets[i])
		}
	}
	ix.mtime = st.ModTime() // as it was before the listing: a change during it is seen next time
	return nil
}

// readBackupSet reads what the backup directory name holds; budget bounds
// the entries all reads of one sync look at.
func readBackupSet(ctx context.Context, root *os.Root, name string, budget *int) (*backupSet, error) {
	at, _ := time.Parse(stampLayout, name[:len(stampLayout)])
	s := &backupSet{name: name, at: at}
	top := path.Join(filepath.ToSlash(backupDirRel), name)
	err := fs.WalkDir(root.FS(), top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == top {
				return err
			}
			return nil // unreadable inside: count what can be read
		}
		if *budget--; *budget < 0 {
			return fmt.Errorf("%s holds more than %d entries: delete old backups by hand", BackupDir, maxBackupEntries)
		}
		if *budget%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			s.bytes += backupMinCharge
			return nil
		}
		var sz int64
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			sz = fi.Size()
		}
		s.files = append(s.files, strings.TrimPrefix(p, top+"/"))
		s.bytes += max(sz, backupMinCharge)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil // removed meanwhile: an empty set, forgotten at the next sync
	}
	return s, err
}

// find returns the position of the set named name in ix.sets, or -1.
func (ix *backupIndex) find(name string) int {
	i, ok := slices.BinarySearchFunc(ix.sets, name, func(s *backupSet, n string) int { return strings.Compare(s.name, n) })
	if !ok {
		return -1
	}
	return i
}

// add puts s in the index, in order.
func (ix *backupIndex) add(s *backupSet) {
	byName := func(a *backupSet, n string) int { return strings.Compare(a.name, n) }
	i, _ := slices.BinarySearchFunc(ix.sets, s.name, byName)
	ix.sets = slices.Insert(ix.sets, i, s)
	for _, f := range s.files {
		vs := ix.files[f]
		j, _ := slices.BinarySearchFunc(vs, s.name, byName)
		ix.files[f] = slices.Insert(vs, j, s)
	}
	ix.bytes += s.bytes
}

// forget takes s out of the index.
func (ix *backupIndex) forget(s *backupSet) {
	if i := ix.find(s.name); i >= 0 {
		ix.sets = slices.Delete(ix.sets, i, i+1)
	}
	for _, f := range s.files {
		vs := slices.DeleteFunc(ix.files[f], func(x *backupSet) bool { return x == s })
		if len(vs) == 0 {
			delete(ix.files, f)
		} else {
			ix.files[f] = vs
		}
	}
	ix.bytes -= s.bytes
}

// prune removes the backups the rule lets go: older than ret.KeepFor, and
// each of whose files has ret.Versions newer backups. A backup that cannot
// be removed stays in the index and counts.
func (ix *backupIndex) prune(root *os.Root, now time.Time, ret Retention) {
	var gone []*backupSet
	for _, s := range ix.sets { // oldest first
		if now.Sub(s.at) <= ret.KeepFor {
			break
		}
		if ix.newerVersions(s) >= ret.Versions {
			gone = append(gone, s)
		}
	}
	for _, s := range gone {
		if err := root.RemoveAll(filepath.Join(backupDirRel, s.name)); err == nil {
			ix.forget(s)
		}
	}
	if len(gone) > 0 {
		ix.seen(root)
	}
}

// newerVersions is the fewest newer backups any file of s has.
func (ix *backupIndex) newerVersions(s *backupSet) int {
	least := -1
	for _, f := range s.files {
		vs := ix.files[f]
		i, _ := slices.BinarySearchFunc(vs, s.name, func(a *backupSet, n string) int { return strings.Compare(a.name, n) })
		newer := len(vs) - i - 1 // vs[i] is s
		if least < 0 || newer < least {
			least = newer
		}
	}
	if least < 0 {
		return int(^uint(0) >> 1) // holds no file: only its age keeps it
	}
	return least
}
