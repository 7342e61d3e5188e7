package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// Statistics of runs and tool calls (SPEC §7.2): kept in memory for
// ot.stats(), and handed to every StatsSink — the JSON-lines file of
// output.stats_file, Prometheus metrics in `onetool serve --http`.

// RunStat describes one finished run.
type RunStat struct {
	Start     time.Time
	Duration  time.Duration
	OK        bool
	ErrorKind string // "" on success; an interp.ErrorKind otherwise ("runtime", "limit", …)
	BytesIn   int    // the command as sent
	BytesOut  int    // the text returned
	ToolCalls int
	// Overrun is set when the run outlived its deadline or cancellation
	// and had to be cut off from outside: under isolation: process, its
	// worker was killed (SPEC §8.5).
	Overrun bool
	// Principal is the name of who ran it (serve.auth); "" when nobody
	// was authenticated (stdio, or HTTP without serve.auth).
	Principal string
	// PrincipalLabel is Principal for a metric's label: the first
	// MaxPrincipalLabels names a runner meets are themselves, later ones
	// "other", so that names taken from tokens (an OAuth subject) cannot
	// grow a metric's series without bound.
	PrincipalLabel string
}

// CallStat describes one finished tool call.
type CallStat struct {
	Start     time.Time
	Tool      string // "demo.foo"
	Duration  time.Duration
	OK        bool
	ErrorKind string // "" on success; see callErrorKind
	Cached    bool   // answered from the cache of deterministic results
	BytesIn   int    // the arguments as JSON
	BytesOut  int    // the result as JSON
	// Principal and PrincipalLabel are those of the run that made the
	// call (see RunStat); "" for a call from Go outside any run.
	Principal, PrincipalLabel string
}

// StatsSink receives the statistics of every run and tool call. Methods
// are called on the path of the run, from several goroutines at once:
// they must be quick and safe for concurrent use.
type StatsSink interface {
	RecordRun(RunStat)
	RecordCall(CallStat)
}

// WithStatsSink adds a receiver of run and call statistics.
func WithStatsSink(s StatsSink) Option {
	return func(r *Runner) { r.sinks = append(r.sinks, s) }
}

// callErrorKind names the way a call failed, for statistics.
func callErrorKind(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNotConfirmed):
		return "not_confirmed"
	case errors.Is(err, interp.ErrLimit):
		return "limit"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrToolNotFound), errors.Is(err, ErrInvalidToolID):
		return "not_found"
	case errors.Is(err, packs.ErrArgs), errors.Is(err, ErrValidation):
		return "validation"
	case errors.Is(err, ErrOutputValidation):
		return "output_validation"
	}
	return "execution"
}

// jsonSize is the length of v as JSON; 0 when it has none.
func jsonSize(v any) int {
	b, err := ordered.Encode(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// recordCall counts a finished call in memory and hands it to the sinks.
func (r *Runner) recordCall(ctx context.Context, id string, start time.Time, args map[string]any, res *Result, err error) {
	d := time.Since(start)
	cached := res != nil && res.Cached
	r.metrics.record(id, d, err != nil, cached)
	if len(r.sinks) == 0 {
		return // sizes cost a JSON encoding: only when someone reads them
	}
	st := CallStat{Start: start, Tool: id, Duration: d, OK: err == nil, ErrorKind: callErrorKind(err), Cached: cached, BytesIn: jsonSize(args)}
	if run := runStateFrom(ctx); run != nil && run.principal != nil {
		st.Principal = run.principal.Name
		st.PrincipalLabel = r.metrics.principals.label(st.Principal)
	}
	if res != nil {
		st.BytesOut = jsonSize(res.Value)
	}
	for _, s := range r.sinks {
		s.RecordCall(st)
	}
}

// recordRun counts a finished run.
func (r *Runner) recordRun(start time.Time, command string, run *runState, res *ExecResult) {
	st := RunStat{Start: start, Duration: res.Duration, OK: res.Err == nil, BytesIn: len(command), BytesOut: len(res.Text), ToolCalls: res.ToolCalls,
		Overrun: errors.Is(res.Err, interp.ErrOverrun)}
	if run.principal != nil {
		st.Principal = run.principal.Name
		st.PrincipalLabel = r.metrics.principals.label(st.Principal)
	}
	if st.Overrun {
		r.metrics.overrun()
	}
	if res.Err != nil {
		st.ErrorKind = errorKind(res.Err)
	}
	r.metrics.run(st)
	for _, s := range r.sinks {
		s.RecordRun(st)
	}
}

// errorKind is the kind of a run's error, for statistics and the audit log.
func errorKind(err error) string {
	var ie *interp.Error
	switch {
	case errors.As(err, &ie):
		return string(ie.Kind)
	case errors.Is(err, ErrWorker):
		return "worker"
	default: // a fence or snippet invocation the runner could not read
		return "input"
	}
}

// statsFile appends one JSON object per line for every run and tool call
// to output.stats_file. Writes go straight to the file, each line in one
// write to an O_APPEND descriptor, so lines of concurrent runs (and of
// other processes sharing the file) never interleave.
type statsFile struct {
	mu     sync.Mutex
	f      *os.File
	log    *slog.Logger
	failed bool
}

func openStatsFile(path string, log *slog.Logger) (*statsFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("%w: output.stats_file: %w", ErrConfig, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: output.stats_file: %w", ErrConfig, err)
	}
	return &statsFile{f: f, log: log}, nil
}

type runLine struct {
	Kind       string  `json:"kind"` // "run"
	Time       string  `json:"time"`
	Principal  string  `json:"principal,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	OK         bool    `json:"ok"`
	ErrorKind  string  `json:"error_kind,omitempty"`
	BytesIn    int     `json:"bytes_in"`
	BytesOut   int     `json:"bytes_out"`
	ToolCalls  int     `json:"tool_calls"`
}

type callLine struct {
	Kind       string  `json:"kind"` // "call"
	Time       string  `json:"time"`
	Principal  string  `json:"principal,omitempty"`
	Tool       string  `json:"tool"`
	DurationMS float64 `json:"duration_ms"`
	OK         bool    `json:"ok"`
	ErrorKind  string  `json:"error_kind,omitempty"`
	Cached     bool    `json:"cached,omitempty"`
	BytesIn    int     `json:"bytes_in"`
	BytesOut   int     `json:"bytes_out"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func (s *statsFile) RecordRun(st RunStat) {
	s.write(runLine{"run", stamp(st.Start), st.Principal, ms(st.Duration), st.OK, st.ErrorKind, st.BytesIn, st.BytesOut, st.ToolCalls})
}

func (s *statsFile) RecordCall(st CallStat) {
	s.write(callLine{"call", stamp(st.Start), st.Principal, st.Tool, ms(st.Duration), st.OK, st.ErrorKind, st.Cached, st.BytesIn, st.BytesOut})
}

func (s *statsFile) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	b = append(b, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.f.Write(b); err != nil && !s.failed {
		s.failed = true // say it once, not on every run
		s.log.Warn("writing statistics failed; further errors are not logged", "file", s.f.Name(), "error", err)
	}
}

func (s *statsFile) Close() error { return s.f.Close() }
