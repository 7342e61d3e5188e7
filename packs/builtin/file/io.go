package file

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// openRegular opens rel in root for reading, refusing anything but a
// regular file, and onetool's own files (g). It never blocks on a named
// pipe: the open does not wait for a writer, and the file is checked
// before it is read.
func openRegular(g *guard, root *os.Root, rel, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, readFlags, 0)
	if err != nil {
		return nil, nil, fsErr(err, name)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fsErr(err, name)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(name, st.Mode())
	}
	if err := g.opened(f, st, name); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// readRegular reads the whole regular file rel, of at most max bytes;
// what says which tool refuses a larger one, and how to go on.
func readRegular(ctx context.Context, g *guard, root *os.Root, rel, name string, max int64, what string) ([]byte, fs.FileInfo, error) {
	f, st, err := openRegular(g, root, rel, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	tooBig := func(size int64) error {
		return fmt.Errorf("%s is %s, more than the %s %s", name, formatBytes(size), formatBytes(max), what)
	}
	if st.Size() > max {
		return nil, nil, tooBig(st.Size())
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()))
	if _, err := copyCtx(ctx, &buf, io.LimitReader(f, max+1)); err != nil {
		return nil, nil, readErr(ctx, err, name)
	}
	if int64(buf.Len()) > max {
		return nil, nil, tooBig(int64(buf.Len()))
	}
	return buf.Bytes(), st, nil
}

func readErr(ctx context.Context, err error, name string) error {
	if ctx.Err() != nil {
		return stopped(ctx)
	}
	return fsErr(err, name)
}

// isBinary reports whether data looks binary: a NUL byte in its first 8 KiB.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0
}

// copyCtx copies in chunks, checking ctx between them.
func copyCtx(ctx context.Context, dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 256<<10)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, rerr := src.Read(buf)
		if k > 0 {
			w, werr := dst.Write(buf[:k])
			n += int64(w)
			if werr != nil {
				return n, werr
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// atomicWrite replaces (or creates) rel in root with what src yields, so
// that readers see either the old or the whole new content: it writes a
// temporary file in the same directory (created exclusively), syncs it,
// and renames it over rel. perm, when keep is true, is set on the new
// file (the old file's bits on overwrite); otherwise the new file gets the
// usual 0666 less the umask. On any error, cancellation included, the
// temporary file is removed and rel is untouched. The temporary file is
// checked where it really is (g) before anything is written to it: the
// rename that follows only finds it there. It returns the bytes written.
func atomicWrite(ctx context.Context, h *testHooks, g *guard, root *os.Root, rel, name string, src io.Reader, perm fs.FileMode, keep bool) (int64, error) {
	tmp, f, err := createTemp(root, rel, 0o666)
	if err != nil {
		return 0, fsErr(err, name)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			root.Remove(tmp)
		}
	}()
	if err := g.opened(f, nil, name); err != nil {
		return 0, err
	}
	n, err := copyCtx(ctx, f, src)
	if err != nil {
		return 0, writeErr(ctx, err, name)
	}
	if keep {
		if err := f.Chmod(perm); err != nil {
			return 0, fsErr(err, name)
		}
	}
	if err := f.Sync(); err != nil {
		return 0, fsErr(err, name)
	}
	if err := f.Close(); err != nil {
		return 0, fsErr(err, name)
	}
	if err := h.beforeReplace(tmp); err != nil {
		root.Remove(tmp)
		done = true
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		root.Remove(tmp)
		done = true
		return 0, stopped(ctx)
	}
	if err := root.Rename(tmp, rel); err != nil {
		root.Remove(tmp)
		done = true
		return 0, fsErr(err, name)
	}
	done = true
	syncDir(root, filepath.Dir(rel))
	return n, nil
}

func writeErr(ctx context.Context, err error, name string) error {
	if ctx.Err() != nil {
		return stopped(ctx)
	}
	return fsErr(err, name)
}

// createTemp creates a new, empty temporary file beside rel.
func createTemp(root *os.Root, rel string, perm fs.FileMode) (string, *os.File, error) {
	dir, base := filepath.Split(rel)
	if len(base) > 100 {
		base = base[:100]
	}
	var last error
	for range 10 {
		tmp := filepath.Join(dir, "."+base+".onetool-"+randHex(6)+".tmp")
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			return tmp, f, nil
		}
		last = err
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return "", nil, last
}

// syncDir makes a rename durable; failures only cost durability.
func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// mkdirParents creates the missing parent directories of rel.
func mkdirParents(root *os.Root, rel, name string) error {
	dir := filepath.Dir(rel)
	if dir == "." {
		return nil
	}
	if err := root.MkdirAll(dir, 0o777); err != nil {
		return fsErr(err, filepath.Dir(name))
	}
	return nil
}

// lstat returns rel's information, nil when it does not exist.
func lstat(root *os.Root, rel, name string) (fs.FileInfo, error) {
	st, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fsErr(err, name)
	}
	return st, nil
}

// backupNote is the part of a result that says where the backup went.
func backupNote(b string) string {
	if b == "" {
		return ""
	}
	return " (backup: " + b + ")"
}
