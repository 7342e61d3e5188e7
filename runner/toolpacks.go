package runner

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/packs/toolpack"
)

// WithGoHandlers makes Go functions available to toolpacks of kind go:
// `module: "pkg:Callable"` names a key of handlers.
func WithGoHandlers(handlers map[string]packs.Handler) Option {
	return func(r *Runner) {
		if r.goHandlers == nil {
			r.goHandlers = map[string]packs.Handler{}
		}
		for k, h := range handlers {
			r.goHandlers[k] = h
		}
	}
}

// readToolpacks loads the toolpacks of the configured directories; New
// registers them once the built-in packs are.
func (r *Runner) readToolpacks() ([]*packs.Tool, error) {
	if len(r.cfg.Toolpacks) == 0 {
		return nil, nil
	}
	var creds []string
	tools, err := toolpack.LoadDirs(r.cfg.Toolpacks, toolpack.Executors{
		Starlark:    &starlarkToolpacks{r: r, modules: map[string]*moduleOnce{}},
		Go:          r.goHandlers,
		MCP:         r.mcpBackend,
		Credentials: func(names []string) { creds = append(creds, names...) },
	})
	r.passThroughSecrets(creds)
	return tools, err
}

// toolpackFiles are the files the toolpacks' commands run (their
// programs and scripts), as onetool's own files: a program that rewrote
// one would run its code outside the sandbox at the tool's next call.
func toolpackFiles(tools []*packs.Tool) []roots.Own {
	var own []roots.Own
	for _, t := range tools {
		for _, b := range t.BackendList() {
			for _, f := range b.Files {
				own = append(own, roots.Own{Path: f, What: fmt.Sprintf("program of toolpack tool '%s'", t.ID())})
			}
		}
	}
	return own
}

// passThroughSecrets makes the values of the variables command toolpacks
// pass through (env:) secrets of the runner: credentials onetool hands
// over, redacted where a tool's result enters a program and where a run
// ends, like values of secrets.yaml. The configuration's Secrets is
// replaced, in place, before any run: the packs and the runner read it
// when they redact; the log gets it too.
func (r *Runner) passThroughSecrets(names []string) {
	values := map[string]string{}
	for _, name := range names {
		if v, ok := os.LookupEnv(name); ok && v != "" {
			values[name] = v
		}
	}
	if len(values) == 0 {
		return
	}
	r.cfg.Secrets = r.cfg.Secrets.WithCredentials(values)
	r.log = slog.New(r.cfg.Secrets.LogHandler(r.log.Handler()))
}

// mcpBackend serves toolpacks of kind mcp; upstream servers are not
// connected yet, so none is known.
func (r *Runner) mcpBackend(server, tool string) (packs.Backend, error) {
	return packs.Backend{}, fmt.Errorf("no MCP server named %q is configured", server)
}

// starlarkToolpacks runs toolpacks of kind starlark: each .star file is
// compiled once, on first use (the pack globals it sees exist only once
// every pack is registered), and every call runs in a fresh thread with
// the runner's budgets.
type starlarkToolpacks struct {
	r       *Runner
	mu      sync.Mutex
	modules map[string]*moduleOnce
}

type moduleOnce struct {
	once sync.Once
	mod  *interp.Module
	err  error
}

func (s *starlarkToolpacks) Check(file, function string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return interp.CheckModule(filepath.Base(file), string(src), function)
}

func (s *starlarkToolpacks) Handler(file, function string) packs.Handler {
	return func(ctx context.Context, args map[string]any) (any, error) {
		mod, err := s.module(file)
		if err != nil {
			return nil, err
		}
		return mod.Call(ctx, function, args, interp.Options{
			Predeclared: s.r.globals,
			MaxSteps:    s.r.limits.MaxSteps,
			Timeout:     s.r.limits.Timeout,
			MaxOutput:   s.r.limits.MaxOutput,
		})
	}
}

func (s *starlarkToolpacks) module(file string) (*interp.Module, error) {
	s.mu.Lock()
	m, ok := s.modules[file]
	if !ok {
		m = &moduleOnce{}
		s.modules[file] = m
	}
	s.mu.Unlock()
	m.once.Do(func() {
		src, err := os.ReadFile(file)
		if err != nil {
			m.err = err
			return
		}
		m.mod, m.err = interp.CompileModule(filepath.Base(file), string(src), s.r.globals)
	})
	return m.mod, m.err
}
