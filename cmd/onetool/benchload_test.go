package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

// TestBenchLoadInProcess loads the real HTTP stack in-process with 20
// clients for a second, in both modes: no errors, some throughput, and no
// goroutine left behind once the clients have closed.
func TestBenchLoadInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("a second of load per mode")
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, stateless := range []bool{false, true} {
		name := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		t.Run(name, func(t *testing.T) {
			h := mcpserver.HTTPHandler(mcpserver.New(r, mcpserver.Options{}), mcpserver.HTTPOptions{Stateless: stateless})
			rep, err := benchLoad(context.Background(), loadOptions{
				Clients: 20, Duration: time.Second, Command: `demo.foo(text="hi")`,
				Handler: h, Stateless: stateless,
			})
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			rep.writeText(&text)
			t.Logf("\n%s", text.String())
			if rep.Errors != 0 {
				t.Errorf("%d errors: %+v", rep.Errors, rep.ErrorKinds)
			}
			if rep.Sessions != 20 || rep.Runs == 0 || rep.RunsPerSec <= 0 {
				t.Errorf("sessions %d, runs %d, throughput %.1f", rep.Sessions, rep.Runs, rep.RunsPerSec)
			}
			if rep.LatencyMS.P50 <= 0 || rep.LatencyMS.P50 > rep.LatencyMS.P99 || rep.LatencyMS.P99 > rep.LatencyMS.Max {
				t.Errorf("latency %+v", rep.LatencyMS)
			}
			// Connections are reused: a few per client over
			// the whole run, never one per call.
			if rep.Dials > 5*int64(rep.Clients) {
				t.Errorf("%d TCP connections for %d clients and %d runs: connections are churned", rep.Dials, rep.Clients, rep.Runs)
			}
			g := rep.Goroutines
			if g == nil {
				t.Fatal("no goroutine counts for an in-process server")
			}
			// A leak per run would leave hundreds. The runner's executor
			// keeps an idle goroutine per run that was in flight at once
			// (at most one per client) for a minute, and a few more (the
			// watchdog, connections closing) may outlive the settling on
			// a loaded machine (seen: 13).
			if g.Peak <= g.Before || g.After > g.Before+rep.Clients+4 {
				t.Errorf("goroutines before %d, peak %d, after %d", g.Before, g.Peak, g.After)
			}
		})
	}
}

// Failed runs are errors, with their message; the throughput counts only
// successful runs.
func TestBenchLoadCountsErrors(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := mcpserver.HTTPHandler(mcpserver.New(r, mcpserver.Options{}), mcpserver.HTTPOptions{})
	rep, err := benchLoad(context.Background(), loadOptions{
		Clients: 2, Duration: 200 * time.Millisecond, Command: `demo.fail(message="boom")`, Handler: h,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs == 0 || rep.Errors != rep.Runs || rep.RunsPerSec != 0 {
		t.Errorf("runs %d, errors %d, throughput %.1f", rep.Runs, rep.Errors, rep.RunsPerSec)
	}
	if len(rep.ErrorKinds) != 1 || rep.ErrorKinds[0].Count != rep.Errors || !strings.Contains(rep.ErrorKinds[0].Message, "boom") {
		t.Errorf("error messages %+v", rep.ErrorKinds)
	}
}

// With --url the server runs elsewhere: its goroutines are not reported.
func TestBenchLoadURL(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(mcpserver.HTTPHandler(mcpserver.New(r, mcpserver.Options{}), mcpserver.HTTPOptions{}))
	defer srv.Close()
	rep, err := benchLoad(context.Background(), loadOptions{
		Clients: 3, Duration: 200 * time.Millisecond, Command: `demo.foo(text="hi")`, URL: srv.URL + "/mcp",
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Runs == 0 || rep.InProcess || rep.Goroutines != nil {
		t.Errorf("report %+v", rep)
	}
	var text strings.Builder
	rep.writeText(&text)
	if !strings.Contains(text.String(), "goroutines:  n/a") {
		t.Errorf("text report:\n%s", text.String())
	}
}

// Cancelling (Ctrl-C) stops the load early and still reports.
func TestBenchLoadInterrupted(t *testing.T) {
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := mcpserver.HTTPHandler(mcpserver.New(r, mcpserver.Options{}), mcpserver.HTTPOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	rep, err := benchLoad(ctx, loadOptions{Clients: 5, Duration: time.Minute, Command: `demo.foo(text="hi")`, Handler: h})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("interrupted load took %v", d)
	}
	if !rep.Interrupted || rep.Errors != 0 || rep.Runs == 0 {
		t.Errorf("report %+v", rep)
	}
}

func TestLatencySummary(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	got := latencySummary(d)
	want := latencyReport{P50: 50, P90: 90, P99: 99, Max: 100, Mean: 50.5}
	if got != want {
		t.Errorf("latencySummary = %+v, want %+v", got, want)
	}
	if (latencySummary(nil) != latencyReport{}) {
		t.Error("latencySummary(nil) is not zero")
	}
}

// --token sends a bearer token with every request: against a server with
// serve.auth, the runs succeed with it and fail without it.
func TestBenchLoadToken(t *testing.T) {
	cfg := config.Default()
	cfg.Policies["dev"] = &config.Policy{Allow: []string{"*"}}
	cfg.Serve.Auth = &config.Auth{Tokens: []config.Token{{Name: "bench", Token: "s3cret-bench-token", Policy: "dev"}}}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := mcpserver.HTTPHandler(mcpserver.New(r, mcpserver.Options{}), mcpserver.HTTPOptions{Auth: a})
	for _, tt := range []struct {
		token string
		ok    bool
	}{{"s3cret-bench-token", true}, {"", false}} {
		rep, err := benchLoad(context.Background(), loadOptions{
			Clients: 2, Duration: 200 * time.Millisecond, Command: `demo.foo(text="hi")`, Handler: h, Token: tt.token,
			SettleTimeout: 100 * time.Millisecond,
		})
		if err != nil {
			t.Fatalf("token %q: %v", tt.token, err)
		}
		if ok := rep.Errors == 0 && rep.Runs > 0; ok != tt.ok {
			t.Errorf("token %q: %d runs, %d errors %v", tt.token, rep.Runs, rep.Errors, rep.ErrorKinds)
		}
	}
}
