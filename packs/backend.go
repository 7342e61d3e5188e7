package packs

import "context"

// BackendKind says where a tool runs (SPEC §4.2).
type BackendKind string

const (
	// BackendLocal runs in this process: Go or Starlark code.
	BackendLocal BackendKind = "local"
	// BackendProvider runs elsewhere on this machine or network: a command
	// or an HTTP provider.
	BackendProvider BackendKind = "provider"
	// BackendMCP is a tool of an upstream MCP server.
	BackendMCP BackendKind = "mcp"
)

// StreamHandler runs a tool and sends partial output through emit as it
// comes; it returns the final result like a Handler. emit returns an error
// when the receiver is gone, and the handler should stop then.
type StreamHandler func(ctx context.Context, args map[string]any, emit func(chunk any) error) (any, error)

// Backend is one way to execute a tool. A tool may have several (the same
// function served locally and by an upstream server, say); the runner's
// selector picks one per call.
type Backend struct {
	Kind BackendKind
	// Name says where the backend runs, for errors and statistics:
	// "go:text:slugify", "starlark:slugify.star:slugify",
	// "command:./fetch.py", "mcp:github/search_issues".
	Name    string
	Handler Handler
	// Stream is nil when the backend cannot stream partial results.
	Stream StreamHandler
	// Files are the files the backend runs outside the sandbox (a
	// command's program and the scripts its arguments name): onetool's
	// own files, which no program may write (SPEC §8.2), since a program
	// that rewrote one would run its own code at the next call.
	Files []string
}

// BackendList returns the tool's backends: Backends when set, else Handler
// as one local backend.
func (t *Tool) BackendList() []Backend {
	if len(t.Backends) > 0 {
		return t.Backends
	}
	if st := t.state.Load(); st != nil {
		return st.backends
	}
	if t.Handler != nil {
		return []Backend{{Kind: BackendLocal, Name: "go:" + t.ID(), Handler: t.Handler}}
	}
	return nil
}

// InvokeBackend runs one backend of t with args, applying the tool's
// Timeout and turning a panic into a *PanicError, like Invoke.
func InvokeBackend(ctx context.Context, t *Tool, b Backend, args map[string]any) (any, error) {
	if b.Handler == nil {
		return nil, newToolError(ErrInvalidTool, "%s: backend %s has no handler", t.ID(), b.Name)
	}
	return guarded(ctx, t, func(ctx context.Context) (any, error) { return b.Handler(ctx, args) })
}

// StreamBackend is InvokeBackend for a streaming backend.
func StreamBackend(ctx context.Context, t *Tool, b Backend, args map[string]any, emit func(any) error) (any, error) {
	if b.Stream == nil {
		return nil, newToolError(ErrInvalidTool, "%s: backend %s cannot stream", t.ID(), b.Name)
	}
	return guarded(ctx, t, func(ctx context.Context) (any, error) { return b.Stream(ctx, args, emit) })
}

// guarded runs f under the tool's timeout with panics recovered.
func guarded(ctx context.Context, t *Tool, f func(context.Context) (any, error)) (result any, err error) {
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &PanicError{ToolID: t.ID(), Value: r}
		}
	}()
	return f(ctx)
}
