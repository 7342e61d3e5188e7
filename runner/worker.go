package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/isolate"
)

// WorkerEnv is the environment variable that makes a program a worker of
// isolation: process. A program that embeds the runner and uses process
// isolation with its own executable as the worker calls [IsWorker] first
// thing in main, and [WorkerMain] when it is true.
const WorkerEnv = isolate.Env

// IsWorker reports whether this process was started as a worker.
func IsWorker() bool { return isolate.IsWorker() }

// WorkerMain serves the worker protocol on stdin and stdout until stdin
// closes, under the hard memory limit the server set, and returns the exit
// status.
func WorkerMain() int {
	if err := isolate.LimitMemory(); err != nil {
		fmt.Fprintf(os.Stderr, "onetool worker: memory limit: %v\n", err)
		return 1
	}
	if err := ServeWorker(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "onetool worker: %v\n", err)
		return 1
	}
	return 0
}

// ServeWorker runs programs for a server over in and out (package
// isolate) until in ends, each with a runner built from the server's
// setup whose tool calls go back to the server.
func ServeWorker(ctx context.Context, in io.Reader, out io.Writer) error {
	return serveWorker(ctx, in, out)
}

// serveWorker is ServeWorker, each runner built with opts besides (tests
// give their workers what they give the server: withGlobals).
func serveWorker(ctx context.Context, in io.Reader, out io.Writer, opts ...Option) error {
	setup := func(s json.RawMessage, call isolate.CallFunc) (isolate.Engine, error) {
		return workerEngine(s, call, opts...)
	}
	return isolate.Serve(ctx, in, out, isolate.ServeOptions{Setup: setup, Errors: workerErrorTable()})
}

// workerEngine builds the worker's runner: the server's tools, each calling
// back to the server, and the configuration programs see (aliases,
// snippets, projects). No server, toolpack or built-in pack starts here.
func workerEngine(setup json.RawMessage, call isolate.CallFunc, opts ...Option) (isolate.Engine, error) {
	var s wireSetup
	if err := json.Unmarshal(setup, &s); err != nil {
		return nil, err
	}
	reg := packs.NewRegistry()
	for name, d := range s.Packs {
		reg.SetPackDescription(name, d)
	}
	tools := make([]*packs.Tool, 0, len(s.Tools))
	var variants []*packs.Tool
	for _, t := range s.Tools {
		list := &tools
		if t.Variant != "" {
			list = &variants
		}
		*list = append(*list, &packs.Tool{
			Pack: t.Pack, Name: t.Name, Variant: t.Variant, Version: t.Version, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Returns: t.Returns,
			Examples: t.Examples, Synonyms: t.Synonyms, Deterministic: t.Deterministic,
			Annotations: t.Annotations, Timeout: t.Timeout,
			Handler: func(context.Context, map[string]any) (any, error) {
				return nil, errors.New("runs in the server") // calls go through r.remote
			},
		})
	}
	if err := reg.Register(tools...); err != nil {
		return nil, err
	}
	if err := reg.RegisterVariants(variants...); err != nil {
		return nil, err
	}
	cfg := config.Default()
	for k, v := range s.Aliases {
		cfg.Aliases[k] = v
	}
	for k, v := range s.Snippets {
		cfg.Snippets[k] = v
	}
	for k, v := range s.Projects {
		cfg.Projects[k] = v
	}
	if len(s.FileDirs) > 0 {
		cfg.Packs["file"] = &config.Pack{AllowedDirs: s.FileDirs}
	}
	env := s.Environ
	if env == nil {
		env = map[string]string{} // never this process's own environment
	}
	r, err := New(append([]Option{WithRegistry(reg), WithConfig(cfg), WithValidation(false, false), WithCache(0, 0), WithProtected(s.Own...), withRootsSpec(s.Roots),
		func(r *Runner) { r.pyEnv = env }}, opts...)...)
	if err != nil {
		return nil, err
	}
	r.remote = func(ctx context.Context, t *packs.Tool, args map[string]any) (any, error) {
		return call(ctx, t.VariantID(), args) // a variant's id names it for the server
	}
	r.maxInline = 0                                        // the server stores large results, where ot.result reads them
	r.watchdog = interp.NewWatchdogEvery(time.Millisecond) // one run per worker: look often
	return &workerRunner{r: r}, nil
}

// workerRunner is a worker's runner as the engine of isolate.Serve.
type workerRunner struct {
	r *Runner
	// The roots of the last run that had its own: a session's runs come
	// one after another with the same.
	rootsKey string
	roots    *roots.Roots
}

func (w *workerRunner) Close() { w.r.Close() }

// runRoots returns the roots of spec with the runner's own files refused.
func (w *workerRunner) runRoots(spec roots.Spec) (*roots.Roots, error) {
	if k := spec.Key(); k != w.rootsKey || w.roots == nil {
		rr, err := roots.FromSpec(spec)
		if err != nil {
			return nil, err
		}
		w.rootsKey, w.roots = k, w.r.roots.WithDirs(rr)
	}
	return w.roots, nil
}

func (w *workerRunner) Run(ctx context.Context, code string, limits json.RawMessage, onStep func(any)) isolate.Result {
	var opts []ExecOption
	if onStep != nil {
		opts = append(opts, OnPlanStep(func(p PlanStep) { onStep(p) }))
	}
	if len(limits) > 0 {
		var l wireRun
		if err := json.Unmarshal(limits, &l); err != nil {
			err = fmt.Errorf("%w: the run's limits: %w", ErrWorker, err)
			return isolate.Result{Text: "Error: " + err.Error(), Err: err}
		}
		opts = append(opts, RunLimits(l.Limits))
		if l.Argv != nil {
			opts = append(opts, ProgramArgs(l.Argv, l.OrigArgv))
		}
		if l.Roots != nil {
			rr, err := w.runRoots(*l.Roots)
			if err != nil {
				err = fmt.Errorf("%w: the run's roots: %w", ErrWorker, err)
				return isolate.Result{Text: "Error: " + err.Error(), Err: err}
			}
			opts = append(opts, RunRoots(rr))
		}
	}
	res := w.r.Exec(ctx, code, opts...)
	out := isolate.Result{Text: res.Text, HasValue: res.HasValue, Printed: res.Printed, Err: res.Err}
	if res.HasValue {
		if b, err := ordered.Encode(res.Value); err == nil {
			out.Value = b
		}
	}
	return out
}
