//go:build unix

package toolpack

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// loadCommand loads a command toolpack running script (a /bin/sh script
// written beside it) and returns the tool.
func loadCommand(t *testing.T, execution, script string, ex Executors) (*packs.Tool, string) {
	t.Helper()
	skipWithoutSh(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tool.yaml": "id: t.cmd\ndescription: d\ninput_schema: {type: object, additionalProperties: true}\nexecution: " + execution + "\n",
		"run.sh":    "#!/bin/sh\n" + script,
	})
	tools, err := LoadDirs([]string{dir}, ex)
	if err != nil {
		t.Fatal(err)
	}
	return tools[0], dir
}

func invoke(t *testing.T, tool *packs.Tool, ctx context.Context, args map[string]any) (any, error) {
	t.Helper()
	return packs.Invoke(ctx, tool, args)
}

func TestCommandRoundTrip(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}", "exec cat\n", testExecutors())
	args := map[string]any{"text": "quote \" backslash \\ newline \n é 😀", "n": int64(-3), "f": 1.5,
		"list": []any{true, nil, "x"}, "obj": map[string]any{"b": 1, "a": 2}}
	got, err := invoke(t, tool, context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	// Keys arrive sorted; the result keeps the order the command printed.
	const want = `{"f":1.5,"list":[true,null,"x"],"n":-3,"obj":{"a":2,"b":1},"text":"quote \" backslash \\ newline \n é 😀"}`
	if s := encode(t, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

func TestCommandArgvAndDirectory(t *testing.T) {
	tool, dir := loadCommand(t, `{kind: command, command: [./run.sh, "two words", 10, "$HOME"]}`,
		`cat >/dev/null; printf '{"argc": %d, "first": "%s", "third": "%s", "pwd": "%s"}' "$#" "$1" "$3" "$(pwd -P)"`,
		testExecutors())
	got, err := invoke(t, tool, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	want := `{"argc":3,"first":"two words","third":"$HOME","pwd":` + strconv.Quote(real) + `}`
	if s := encode(t, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

func TestCommandExitStatus(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}",
		"echo 'partial output'\necho 'first line' >&2\necho '  the reason  ' >&2\nexit 3\n", testExecutors())
	_, err := invoke(t, tool, context.Background(), nil)
	if want := "command exited with status 3: first line\n  the reason"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	// The *exec.ExitError is there for callers that want the status.
	var code interface{ ExitCode() int }
	if !errors.As(err, &code) || code.ExitCode() != 3 {
		t.Errorf("errors.As(err, ExitCode) = %v", code)
	}
}

func TestCommandStderrTail(t *testing.T) {
	// 3000 x's then "END": only the last 2 KiB are quoted.
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}",
		"i=0; while [ $i -lt 300 ]; do printf 'xxxxxxxxxx' >&2; i=$((i+1)); done; echo END >&2; exit 1\n", testExecutors())
	_, err := invoke(t, tool, context.Background(), nil)
	if err == nil {
		t.Fatal("no error")
	}
	msg := strings.TrimPrefix(err.Error(), "command exited with status 1: ")
	if len(msg) != 2048-1 || !strings.HasSuffix(msg, "xxEND") { // the trailing newline is trimmed
		t.Errorf("stderr part has %d bytes: %.40q…", len(msg), msg)
	}
}

func TestCommandInvalidJSON(t *testing.T) {
	tests := []struct{ script, want string }{
		{"echo hello\n", `command printed invalid JSON on stdout: "hello\n" (invalid character 'h' looking for beginning of value)`},
		{"echo '{\"a\": 1}'; echo '{\"b\": 2}'\n", `command printed invalid JSON on stdout: "{\"a\": 1}\n{\"b\": 2}\n" (invalid JSON: data after the top-level value)`},
		{"printf '%0300d' 0\n", `command printed invalid JSON on stdout: "` + strings.Repeat("0", 200) + `"… (invalid JSON: data after the top-level value)`},
		{"exit 0\n", "command printed nothing on stdout; want one JSON value"},
	}
	for _, tt := range tests {
		tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}", tt.script, testExecutors())
		_, err := invoke(t, tool, context.Background(), nil)
		if err == nil || err.Error() != tt.want {
			t.Errorf("script %q:\n err = %v\nwant %s", tt.script, err, tt.want)
		}
	}
}

// TestCommandTimeout: the command and the children it started are killed
// when its timeout passes, within a second, and the error wraps
// context.DeadlineExceeded.
func TestCommandTimeout(t *testing.T) {
	tool, dir := loadCommand(t, "{kind: command, command: [./run.sh], timeout: 200ms}",
		"sleep 30 &\necho $! > child.pid\nwait\n", testExecutors())
	start := time.Now()
	_, err := invoke(t, tool, context.Background(), nil)
	elapsed := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if want := "command timed out after 200ms and was killed"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if elapsed > time.Second {
		t.Errorf("took %v", elapsed)
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

// TestCommandToolTimeout: the toolpack's own timeout is the command's
// default, and it is also applied through the context by packs.Invoke.
func TestCommandToolTimeout(t *testing.T) {
	skipWithoutSh(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tool.yaml": "id: t.cmd\ndescription: d\ntimeout: 0.2\nexecution: {kind: command, command: [./run.sh]}\n",
		"run.sh":    "#!/bin/sh\nexec sleep 30\n",
	})
	tools, err := LoadDirs([]string{dir}, testExecutors())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = invoke(t, tools[0], context.Background(), nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}

func TestCommandCancel(t *testing.T) {
	tool, dir := loadCommand(t, "{kind: command, command: [./run.sh]}",
		"sleep 30 &\necho $! > child.pid\nwait\n", testExecutors())
	ctx, cancel := context.WithCancelCause(context.Background())
	reason := errors.New("run stopped by user")
	go func() {
		// Cancel once the child is running.
		for range 100 {
			// The shell creates the file before it writes the pid.
			if data, err := os.ReadFile(filepath.Join(dir, "child.pid")); err == nil && strings.HasSuffix(string(data), "\n") {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel(reason)
	}()
	start := time.Now()
	_, err := invoke(t, tool, ctx, nil)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, reason) {
		t.Fatalf("err = %v, want context.Canceled and the cause", err)
	}
	if want := "command was killed: run stopped by user"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	assertDead(t, filepath.Join(dir, "child.pid"))
}

// assertDead checks that the process whose pid is in file has exited.
func assertDead(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed child is reaped by init soon after; give it a moment.
	for range 100 {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		// Where init does not reap orphans (some containers), the child
		// stays a zombie: dead, but still in the process table.
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	state, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	t.Errorf("child process %d is still running: %s", pid, state)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// TestCommandEnv: the child gets PATH, HOME, LANG, TMPDIR and the listed
// names, from LookupEnv; nothing else.
func TestCommandEnv(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh], env: [VISIBLE, UNSET]}",
		`cat >/dev/null; printf '{"visible": "%s", "names": "%s"}' "${VISIBLE-absent}" "$(env | cut -d= -f1 | sort | tr '\n' ' ')"`,
		testExecutors())
	got, err := invoke(t, tool, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(interface{ Get(string) (any, bool) })
	if v, _ := m.Get("visible"); v != "seen" {
		t.Errorf("VISIBLE = %v", v)
	}
	names, _ := m.Get("names")
	for _, name := range strings.Fields(names.(string)) {
		switch name {
		case "PATH", "VISIBLE":
		case "PWD", "OLDPWD", "SHLVL", "_": // set by sh itself
		default:
			t.Errorf("the child got %s", name)
		}
	}
	if !strings.Contains(names.(string), "PATH ") {
		t.Errorf("no PATH in %q", names)
	}
}

// TestCommandEnvDefault: without LookupEnv the real environment is read,
// and only the allowed names pass.
func TestCommandEnvDefault(t *testing.T) {
	t.Setenv("TOOLPACK_TEST_ALLOWED", "yes")
	t.Setenv("TOOLPACK_TEST_SECRET", "no")
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh], env: [TOOLPACK_TEST_ALLOWED]}",
		`cat >/dev/null; printf '{"allowed": "%s", "secret": "%s"}' "${TOOLPACK_TEST_ALLOWED-absent}" "${TOOLPACK_TEST_SECRET-absent}"`,
		Executors{})
	got, err := invoke(t, tool, context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := encode(t, got); s != `{"allowed":"yes","secret":"absent"}` {
		t.Errorf("got %s", s)
	}
}

func TestCommandBigStdout(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}", "exec yes\n", testExecutors())
	start := time.Now()
	_, err := invoke(t, tool, context.Background(), nil)
	if want := "command printed more than 16 MiB on stdout; the result must be one JSON value of at most that size"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

// TestCommandStdinIgnored: a command that never reads its stdin still
// works (the write of the arguments must not fail the call).
func TestCommandStdinIgnored(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}", "echo '[1, 2]'\n", testExecutors())
	big := strings.Repeat("x", 1<<20) // more than a pipe buffer
	got, err := invoke(t, tool, context.Background(), map[string]any{"big": big})
	if err != nil {
		t.Fatal(err)
	}
	if s := encode(t, got); s != "[1,2]" {
		t.Errorf("got %s", s)
	}
}

// TestCommandConcurrent: calls share nothing but the loaded definition.
func TestCommandConcurrent(t *testing.T) {
	tool, _ := loadCommand(t, "{kind: command, command: [./run.sh]}", "exec cat\n", testExecutors())
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			got, err := packs.Invoke(context.Background(), tool, map[string]any{"i": int64(i)})
			if err == nil && encode(t, got) != `{"i":`+strconv.Itoa(i)+`}` {
				err = errors.New("wrong result " + encode(t, got))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCommandEnvCredentials: the loader names the variables a command
// passes through, but for those every command gets (PATH), so that the
// runner treats their values as secrets.
func TestCommandEnvCredentials(t *testing.T) {
	var got []string
	ex := testExecutors()
	ex.Credentials = func(names []string) { got = append(got, names...) }
	loadCommand(t, "{kind: command, command: [./run.sh], env: [TP_TOKEN, PATH, GITHUB_TOKEN]}", "cat\n", ex)
	if strings.Join(got, ",") != "TP_TOKEN,GITHUB_TOKEN" {
		t.Errorf("credentials %q", got)
	}
	got = nil
	loadCommand(t, "{kind: command, command: [./run.sh]}", "cat\n", ex)
	if len(got) != 0 {
		t.Errorf("without env: %q", got)
	}
}
