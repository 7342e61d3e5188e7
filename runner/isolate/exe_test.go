package isolate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// serverModeEnv makes the test binary a small server instead of running
// tests: serverMode, with the mode as its value.
const serverModeEnv = "ISOLATE_TEST_SERVER"

// markerEnv is the file a replacement executable creates when it runs.
const markerEnv = "ISOLATE_TEST_MARKER"

// serverMode is a server with a pool of one worker started the default
// way, whose own executable a program replaces after start: by renaming
// another file over it ("rename"), by writing into it ("overwrite") or by
// deleting it ("delete"); "+copy" makes the pool start workers from a
// private copy, as it does where there is no /proc/self/exe. The worker is
// then crashed, so the pool starts another from what it trusts. It prints
// one line per step for the test to read.
func serverMode(mode string) int {
	how, copyExe := strings.CutSuffix(mode, "+copy")
	ctx := context.Background()
	p, err := New(&testHost{}, Options{Workers: 1, MaxWorkers: 1, Errors: testErrors, copyExe: copyExe})
	if err != nil {
		fmt.Println("new:", err)
		return 1
	}
	fmt.Println("workers start from:", p.Executable())
	if fi, err := os.Stat(filepath.Dir(p.Executable())); err == nil && copyExe {
		fmt.Printf("copy directory mode: %v\n", fi.Mode().Perm())
	}
	fmt.Println("first:", p.Exec(ctx, Run{Code: "setup"}).Text)

	exe, err := os.Executable()
	if err != nil {
		fmt.Println("executable:", err)
		return 1
	}
	evil := []byte("#!/bin/sh\necho replaced > '" + os.Getenv(markerEnv) + "'\n")
	switch how {
	case "rename":
		tmp := exe + ".new"
		err = os.WriteFile(tmp, evil, 0o755)
		if err == nil {
			err = os.Rename(tmp, exe)
		}
	case "overwrite":
		err = os.WriteFile(exe, evil, 0o755)
	case "delete":
		err = os.Remove(exe)
	}
	if err != nil {
		// Linux refuses to open a running executable for writing.
		fmt.Println("replacing refused:", errors.Is(err, syscall.ETXTBSY), err)
	} else {
		fmt.Println("replaced")
	}
	fmt.Println("crash:", p.Exec(ctx, Run{Code: "crash"}).Text)
	fmt.Println("after:", p.Exec(ctx, Run{Code: "setup"}).Text)
	copyPath := p.Executable()
	p.Close()
	if copyExe {
		_, err := os.Stat(copyPath)
		fmt.Println("copy removed at close:", errors.Is(err, os.ErrNotExist))
	}
	return 0
}

// A program that replaces onetool's executable (in a root it may write,
// such as ~/go/bin under allowed_dirs: [~]) gains nothing: workers started
// after the replacement are still the program the server was started
// from, on Linux through /proc/self/exe and elsewhere from a private copy
// made at start (tried here too). The replacement, a script, would leave a
// marker file if it ever ran.
func TestWorkersStartFromTheRunningExecutable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the replacement is a shell script")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"rename", "overwrite", "delete", "rename+copy", "overwrite+copy", "delete+copy"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin", "onetool")
			if err := os.Mkdir(filepath.Dir(bin), 0o755); err != nil {
				t.Fatal(err)
			}
			copyFile(t, self, bin)
			marker := filepath.Join(dir, "marker")
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), serverModeEnv+"="+mode, markerEnv+"="+marker)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("server: %v\n%s", err, out)
			}
			lines := map[string]string{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				if k, v, ok := strings.Cut(sc.Text(), ": "); ok {
					lines[k] = v
				} else {
					lines[sc.Text()] = ""
				}
			}
			if lines["first"] != "setup 0" || lines["after"] != "setup 0" {
				t.Errorf("runs before and after the replacement:\n%s", out)
			}
			if !strings.Contains(lines["crash"], "crashed: panic: something broke") {
				t.Errorf("the crash: %q", lines["crash"])
			}
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the replacement executable ran:\n%s", out)
			}
			_, replaced := lines["replaced"]
			if !replaced && !strings.HasPrefix(lines["replacing refused"], "true") {
				t.Errorf("the executable was neither replaced nor refused as busy:\n%s", out)
			}
			from := lines["workers start from"]
			if strings.HasSuffix(mode, "+copy") {
				if filepath.Base(filepath.Dir(from)) != ".onetool" || strings.HasPrefix(from, dir) {
					t.Errorf("the copy is at %s, want in a private .onetool directory outside %s", from, dir)
				}
				if lines["copy directory mode"] != "-rwx------" {
					t.Errorf("the copy's directory has mode %s, want -rwx------", lines["copy directory mode"])
				}
				if lines["copy removed at close"] != "true" {
					t.Errorf("the copy was not removed at close:\n%s", out)
				}
			} else if runtime.GOOS == "linux" && from != selfExe {
				t.Errorf("workers start from %s, want %s", from, selfExe)
			}
		})
	}
}

// The copy made for workers is the executable, byte for byte, writable by
// nobody; a copy that differs from what was read is refused.
func TestCopyExecutable(t *testing.T) {
	src := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(src, []byte("program text"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := copyExecutable(src, src)
	if err != nil {
		t.Fatal(err)
	}
	defer e.remove()
	got, err := os.ReadFile(e.path)
	if err != nil || string(got) != "program text" {
		t.Errorf("copy holds %q (%v)", got, err)
	}
	if fi, err := os.Stat(e.path); err != nil || fi.Mode().Perm() != 0o500 {
		t.Errorf("copy mode %v (%v), want -r-x------", fi.Mode(), err)
	}
	if e.argv0 != src || !strings.HasPrefix(e.path, e.dir) {
		t.Errorf("copy %+v", e)
	}
	want, _ := fileHash(src)
	if err := checkHash(e.path, want); err != nil {
		t.Error(err)
	}
	if err := checkHash(src, []byte("another hash")); err == nil || !strings.Contains(err.Error(), "differs from the executable") {
		t.Errorf("a different hash: %v", err)
	}
	e.remove()
	if _, err := os.Stat(e.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the private directory is left: %v", err)
	}
	if _, err := copyExecutable(filepath.Join(t.TempDir(), "absent"), "absent"); !errors.Is(err, ErrExecutable) {
		t.Errorf("copying a missing executable: %v", err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// runSelf runs one test of this binary in a child process with env added,
// for tests that change the process for good.
func runSelf(t *testing.T, test string, env ...string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--- PASS: "+test)) {
		t.Errorf("%v\n%s", err, out)
	}
}
