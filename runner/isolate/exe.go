package isolate

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The program workers start from (SPEC §8.5: "workers start from a copy
// of the executable no program can write"). Starting them from the path
// of onetool's executable would run whatever is at that path when a
// worker starts: a program that could replace that file (onetool in
// ~/go/bin under allowed_dirs: [~]) would run its own code outside the
// sandbox at the next worker start. So:
//
//   - on Linux, workers start from /proc/self/exe: the kernel resolves it
//     to the very file (inode) this process was started from, whatever
//     has since been renamed over or deleted at its path. That inode is
//     mapped by the running server, so the kernel refuses to open it for
//     writing (ETXTBSY), and onetool refuses it to every pack besides
//     (it is one of onetool's own files, SPEC §8.2). No copy is needed,
//     and workers stay the version of the server they talk to even when a
//     package upgrade replaces the file meanwhile.
//   - elsewhere (or without /proc), the executable is copied, when the
//     pool starts and before any program of this process runs, into a
//     new directory private to this process (0700, under the temporary
//     directory, in a .onetool component that every root refuses), its
//     content hash checked against the file it was read from, and
//     workers start from the copy, which is removed when the pool closes.

// selfExe is the Linux name of the file this process was started from.
const selfExe = "/proc/self/exe"

// ErrExecutable is the cause of a pool that could not get a worker
// executable it can trust.
var ErrExecutable = errors.New("no trustworthy worker executable")

// workerExe is where workers start from.
type workerExe struct {
	path  string // what to execute
	argv0 string // what the worker is called (ps shows it)
	dir   string // a private directory to remove at Close; "" for none
}

// remove deletes the private copy, if any.
func (e workerExe) remove() {
	if e.dir != "" {
		os.RemoveAll(e.dir)
	}
}

// findWorkerExe chooses where workers start from: /proc/self/exe where
// the system has it, else (or with forceCopy) a verified private copy.
func findWorkerExe(forceCopy bool) (workerExe, error) {
	name, err := os.Executable()
	if err != nil {
		name = "onetool"
	}
	if !forceCopy && runningExeUsable() {
		return workerExe{path: selfExe, argv0: name}, nil
	}
	src := name
	if runningExeUsable() {
		src = selfExe // the running file, even when name was replaced
	} else if err != nil {
		return workerExe{}, fmt.Errorf("%w: finding this program: %w", ErrExecutable, err)
	}
	return copyExecutable(src, name)
}

// runningExeUsable reports whether /proc/self/exe names the running
// executable here.
func runningExeUsable() bool {
	fi, err := os.Stat(selfExe)
	return err == nil && fi.Mode().IsRegular()
}

// copyExecutable copies src into a new private directory and checks the
// copy's content against src's: the hash of what was read must be the
// hash of what landed on disk, so a torn or altered copy is never run.
// name is the executable's path, for the copy's name and argv[0].
func copyExecutable(src, name string) (workerExe, error) {
	fail := func(err error) (workerExe, error) {
		return workerExe{}, fmt.Errorf("%w: copying %s: %w", ErrExecutable, name, err)
	}
	dir, err := os.MkdirTemp("", "onetool-worker-") // 0700
	if err != nil {
		return fail(err)
	}
	// A .onetool component makes the copy onetool's own file to every
	// root (packs/roots), should the temporary directory lie in one.
	own := filepath.Join(dir, ".onetool")
	if err := os.Mkdir(own, 0o700); err != nil {
		os.RemoveAll(dir)
		return fail(err)
	}
	dst := filepath.Join(own, "onetool-worker"+filepath.Ext(name))
	want, err := copyHashed(src, dst)
	if err == nil {
		err = checkHash(dst, want)
	}
	if err != nil {
		os.RemoveAll(dir)
		return fail(err)
	}
	return workerExe{path: dst, argv0: name, dir: dir}, nil
}

// copyHashed copies src to the new file dst (read and execute for its
// owner only) and returns the SHA-256 of what it read.
func copyHashed(src, dst string) ([]byte, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(out, h), in); err != nil {
		out.Close()
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	// Nobody writes the copy again, its owner included.
	if err := os.Chmod(dst, 0o500); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// checkHash fails unless the file at path hashes to want.
func checkHash(path string, want []byte) error {
	got, err := fileHash(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("the copy at %s differs from the executable it was copied from (SHA-256 %x, want %x)", path, got, want)
	}
	return nil
}

// fileHash is the SHA-256 of a file's content.
func fileHash(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
