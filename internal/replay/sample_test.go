package replay

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

// The sample trial (testdata/trials/sample.jsonl) and the world its
// programs run in (testdata/trials/sample/). To rewrite the sample's
// results with what this build returns, and its report:
//
//	go test ./internal/replay -run TestSample -update
var update = flag.Bool("update", false, "rewrite testdata/trials/sample.jsonl's results and sample.report.txt")

const (
	sampleFile  = "../../testdata/trials/sample.jsonl"
	sampleDir   = "../../testdata/trials/sample"
	sampleSite  = "http://127.0.0.1:8000" // where the sample's programs fetch
	sampleTasks = 15
	sampleCalls = 35
)

func TestMain(m *testing.M) {
	if runner.IsWorker() {
		os.Exit(runner.WorkerMain())
	}
	os.Exit(m.Run())
}

func readSample(t *testing.T) *Trial {
	t.Helper()
	f, err := os.Open(sampleFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := Read(f, "sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// sampleWorld copies the sample's files to a new directory, creates its
// SQLite database from shop.sql and serves its website; it returns a
// server for reruns with the files' directory as root, and the site's URL.
func sampleWorld(t *testing.T) (*mcp.Server, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(sampleDir, "files"))); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(sampleDir, "shop.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(schema)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	site := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(sampleDir, "site"))))
	t.Cleanup(site.Close)
	conf := filepath.Join(t.TempDir(), "onetool.yaml")
	yaml := "packs:\n  db:\n    databases:\n      shop: \"sqlite:" + filepath.Join(dir, "shop.db") + "\"\n  web:\n    allow_hosts: [\"127.0.0.1\"]\n"
	if err := os.WriteFile(conf, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(conf, config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(runner.WithConfig(cfg), runner.WithRoots(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return mcpserver.New(r, mcpserver.Options{}), site.URL
}

// TestSampleFigures: the sample has the shape of the trial of issue 29 (15
// tasks, 2.33 calls per task, discovery first), and its report is the one
// in testdata/trials/sample.report.txt.
func TestSampleFigures(t *testing.T) {
	tr := readSample(t)
	rep := NewReport(tr, nil)
	if rep.Recorded.Tasks != sampleTasks || rep.Recorded.Calls != sampleCalls {
		t.Fatalf("sample: %d tasks, %d calls; want %d, %d", rep.Recorded.Tasks, rep.Recorded.Calls, sampleTasks, sampleCalls)
	}
	if got := rep.Recorded.CallsPerTask; got < 2.33 || got > 2.34 {
		t.Errorf("calls per task = %.3f, want 2.33 as in the trial", got)
	}
	// Every task starts with a discovery call, and ends with one that is
	// not: the answer.
	for _, tk := range tr.Tasks {
		if !tk.Calls[0].Discovery || tk.Calls[len(tk.Calls)-1].Discovery {
			t.Errorf("task %s: first call discovery %v, last %v; want true, false", tk.ID, tk.Calls[0].Discovery, tk.Calls[len(tk.Calls)-1].Discovery)
		}
	}
	// All but the 15 answers and two looks at the task's own data (the
	// site's home page, the changelog after the edit).
	if rep.Recorded.DiscoveryCalls != 18 {
		t.Errorf("discovery calls = %d, want 18", rep.Recorded.DiscoveryCalls)
	}
	if len(tr.Notes) == 0 || !strings.Contains(tr.Notes[0], "not a recording of real agents") {
		t.Errorf("the sample must say it is not a recording of real agents; notes: %q", tr.Notes)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(filepath.Dir(sampleFile), "sample.report.txt")
	if *update {
		if err := os.WriteFile(golden, text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != string(want) {
		t.Errorf("report of the sample differs from %s (go test -run TestSample -update rewrites it):\n%s", golden, text.String())
	}
}

// TestSampleRerun runs every program of the sample against the built-in
// packs of this build (files, SQLite, the local website, the demo pack for
// the upstream servers): each gives a result, none fails but the one
// recorded as failing, and the figures come side by side. With -v it
// prints the report: the sample's figures for this build.
func TestSampleRerun(t *testing.T) {
	tr := readSample(t)
	srv, siteURL := sampleWorld(t)
	now, err := Rerun(context.Background(), tr, srv, []Replacement{{sampleSite, siteURL}})
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(tr, now)
	if rep.Rerun == nil || rep.Rerun.Calls != sampleCalls || len(rep.Tasks) != sampleTasks {
		t.Fatalf("rerun report: %+v", rep.Rerun)
	}
	for i, tk := range now.Tasks {
		for j, c := range tk.Calls {
			rec := tr.Tasks[i].Calls[j]
			if c.Error != rec.Error && !*update {
				t.Errorf("%s call %d (line %d): error %v today, %v recorded: %s", tk.ID, j+1, rec.Line, c.Error, rec.Error, c.Result)
			}
			if c.Chars == 0 {
				t.Errorf("%s call %d: empty result", tk.ID, j+1)
			}
			if c.Discovery != rec.Discovery {
				t.Errorf("%s call %d: the same program changed kind", tk.ID, j+1)
			}
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("the sample, recorded and today (docs/agents.md):\n%s", text.String())
	if len(rep.Failures) > 0 && !*update {
		t.Errorf("failures today: %+v", rep.Failures)
	}
	if *update {
		writeSampleResults(t, now, siteURL)
	}
}

// writeSampleResults puts the results of now into the sample file, with
// the site's address of the day put back to sampleSite.
func writeSampleResults(t *testing.T, now *Trial, siteURL string) {
	data, err := os.ReadFile(sampleFile)
	if err != nil {
		t.Fatal(err)
	}
	var calls []*Call
	for _, tk := range now.Tasks {
		calls = append(calls, tk.Calls...)
	}
	byLine := map[int]*Call{}
	for _, c := range calls {
		byLine[c.Line] = c
	}
	type line struct {
		Note   string  `json:"note,omitempty"`
		Task   *string `json:"task,omitempty"`
		Ask    string  `json:"ask,omitempty"`
		Code   *string `json:"code,omitempty"`
		Result *string `json:"result,omitempty"`
		Error  bool    `json:"error,omitempty"`
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxLine)
	for n := 1; sc.Scan(); n++ {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if c := byLine[n]; c != nil {
			res := strings.ReplaceAll(c.Result, siteURL, sampleSite)
			l.Result = &res
			l.Error = c.Error
		}
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(sampleFile, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
