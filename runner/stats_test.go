package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// sinkLog is a StatsSink that keeps what it is given.
type sinkLog struct {
	mu    sync.Mutex
	runs  []RunStat
	calls []CallStat
}

func (s *sinkLog) RecordRun(st RunStat)   { s.mu.Lock(); s.runs = append(s.runs, st); s.mu.Unlock() }
func (s *sinkLog) RecordCall(st CallStat) { s.mu.Lock(); s.calls = append(s.calls, st); s.mu.Unlock() }

// Every run and tool call reaches the sinks with its outcome and sizes;
// ot.stats() sums the runs up.
func TestStatsPerRunAndCall(t *testing.T) {
	sink := &sinkLog{}
	r := newRunner(t, WithStatsSink(sink))
	ctx := context.Background()
	r.Exec(ctx, `demo.foo(text="test")`)
	r.Exec(ctx, `demo.fail(message="boom")`)
	r.Exec(ctx, "x = 1 +")
	r.Exec(ctx, "a = \"x\"\ndemo.add(a=a, b=1)") // not a literal: validated at the call

	if len(sink.runs) != 4 {
		t.Fatalf("%d runs recorded", len(sink.runs))
	}
	first := sink.runs[0]
	if !first.OK || first.BytesIn != len(`demo.foo(text="test")`) || first.BytesOut != len("orange") || first.ToolCalls != 1 || first.Duration <= 0 {
		t.Errorf("first run: %+v", first)
	}
	for i, kind := range []string{"", "runtime", "syntax", "runtime"} {
		if sink.runs[i].ErrorKind != kind {
			t.Errorf("run %d: error kind %q, want %q", i, sink.runs[i].ErrorKind, kind)
		}
	}
	var kinds []string
	for _, c := range sink.calls {
		kinds = append(kinds, c.Tool+":"+c.ErrorKind)
	}
	if got := strings.Join(kinds, " "); got != "demo.foo: demo.fail:execution demo.add:validation" {
		t.Errorf("calls: %s", got)
	}
	if c := sink.calls[0]; c.BytesIn != len(`{"text":"test"}`) || c.BytesOut != len(`"orange"`) || !c.OK {
		t.Errorf("first call: %+v", c)
	}

	stats := r.Exec(ctx, `s = ot.stats()["runs"]
[s["runs"], s["failures"], s["failures_by_kind"], s["tool_calls"], s["overruns"]]`)
	if stats.Text != `[4,3,{"runtime":2,"syntax":1},3,0]` {
		t.Errorf("ot.stats()[\"runs\"]: %s", stats.Text)
	}
}

// output.stats_file gets one JSON line per run and per tool call.
func TestStatsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".onetool", "stats.jsonl")
	cfg := config.Default()
	cfg.Output.StatsFile = path
	r := newRunner(t, WithConfig(cfg))
	r.Exec(context.Background(), `[demo.foo(text="a"), demo.bar(text="b")]`)
	r.Exec(context.Background(), `1 // 0`, AsPrincipal(principal("ci", "dev", config.Policy{Allow: []string{"*"}})))
	r.Close()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %s", sc.Text())
		}
		lines = append(lines, m)
	}
	var got []string
	for _, m := range lines {
		s := m["kind"].(string)
		if tool, ok := m["tool"]; ok {
			s += " " + tool.(string)
		}
		if k, ok := m["error_kind"]; ok {
			s += " " + k.(string)
		}
		if p, ok := m["principal"]; ok {
			s += " by " + p.(string)
		}
		got = append(got, s)
	}
	if strings.Join(got, ", ") != "call demo.foo, call demo.bar, run, run runtime by ci" {
		t.Errorf("lines: %v", got)
	}
	run := lines[2]
	for _, k := range []string{"time", "duration_ms", "ok", "bytes_in", "bytes_out", "tool_calls"} {
		if _, ok := run[k]; !ok {
			t.Errorf("run line lacks %q: %v", k, run)
		}
	}
}

// A stats file that cannot be created is a configuration error.
func TestStatsFileUnwritable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	cfg := config.Default()
	cfg.Output.StatsFile = filepath.Join(dir, "file", "stats.jsonl") // under a regular file
	if _, err := New(WithConfig(cfg)); err == nil || !strings.Contains(err.Error(), "output.stats_file") {
		t.Errorf("error = %v", err)
	}
}

// ot.stats() counts runs by principal when there are principals (a server
// with serve.auth); calls made for a principal carry its name to the sinks.
func TestStatsByPrincipal(t *testing.T) {
	sink := &sinkLog{}
	r := newRunner(t, WithStatsSink(sink))
	dev := config.Policy{Allow: []string{"*"}}
	ctx := context.Background()
	if res := r.Exec(ctx, `ot.stats()["runs"].get("by_principal")`); res.Text != "None" {
		t.Errorf("by_principal without principals: %s", res.Text)
	}
	r.Exec(ctx, `demo.foo(text="a")`, AsPrincipal(principal("alice", "dev", dev)))
	r.Exec(ctx, `1 // 0`, AsPrincipal(principal("bob", "dev", dev)))
	res := r.Exec(ctx, `ot.stats()["runs"]["by_principal"]`, AsPrincipal(principal("alice", "dev", dev)))
	want := `{"alice":{"runs":1,"failures":0},"bob":{"runs":1,"failures":1}}`
	if res.Text != want {
		t.Errorf("by_principal:\n got %s\nwant %s", res.Text, want)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var calls []string
	for _, c := range sink.calls {
		calls = append(calls, c.Tool+" by "+c.Principal+"/"+c.PrincipalLabel)
	}
	if !slices.Contains(calls, "demo.foo by alice/alice") || !slices.Contains(calls, "ot.stats by /") {
		t.Errorf("calls: %v", calls)
	}
}
