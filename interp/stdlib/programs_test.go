package stdlib

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// checkPrograms checks whole programs against CPython: file holds
// programs separated by lines "# ----", and file.want what CPython 3.11
// printed for each, stdout and stderr merged in the order of the writes
// (python3 -u -c, which also names the code "<string>" in tracebacks, as
// onetool's traceback and logging do). -update regenerates the .want
// file. A program must end normally. This is how the modules whose
// output goes to both streams (sys, logging, traceback) are compared.
func checkPrograms(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	progs := splitPrograms(string(data))
	wantFile := strings.TrimSuffix(file, ".txt") + ".want"
	if *update {
		var outs []string
		for _, p := range progs {
			cmd := exec.Command("python3", "-u", "-c", p)
			cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "TZ=UTC")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("python3 failed on\n%s\n%s: %v", p, out, err)
			}
			outs = append(outs, string(out))
		}
		enc, _ := json.MarshalIndent(outs, "", " ")
		if err := os.WriteFile(wantFile, append(enc, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(wantFile)
	if err != nil {
		t.Fatalf("%v: run the test with -update", err)
	}
	var wants []string
	if err := json.Unmarshal(raw, &wants); err != nil {
		t.Fatal(err)
	}
	if len(wants) != len(progs) {
		t.Fatalf("%d programs but %d answers from CPython: run the test with -update", len(progs), len(wants))
	}
	for i, p := range progs {
		got, err := printedOf(p)
		if err != nil {
			t.Errorf("program %d failed: %v\n%s", i+1, err, p)
			continue
		}
		if got != wants[i] {
			t.Errorf("program %d:\n%s\n--- got:\n%s\n--- CPython:\n%s", i+1, p, got, wants[i])
		}
	}
}

// printedOf runs code and returns what it printed, newline-terminated as
// CPython's streams are.
func printedOf(code string) (string, error) {
	res, err := run(code, interp.Options{MaxIntDigits: 5000})
	if err != nil {
		var e *interp.Error
		if errors.As(err, &e) {
			return e.Printed, err
		}
		return "", err
	}
	if res.Printed == "" {
		return "", nil
	}
	return res.Printed + "\n", nil
}

func splitPrograms(text string) []string {
	var progs []string
	for _, p := range strings.Split(text, "\n# ----\n") {
		if p = strings.TrimSpace(p); p != "" {
			progs = append(progs, p+"\n")
		}
	}
	return progs
}
