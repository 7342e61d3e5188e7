package mcpclient

import (
	"errors"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Spec is one configured upstream server: an entry of `servers:`. Set
// Command (stdio) or URL (streamable HTTP).
type Spec struct {
	Name string // the `servers:` key, e.g. "my-server"

	// stdio: the command is run directly (no shell) in Cwd with only PATH,
	// HOME and Env in its environment.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// Streamable HTTP: Headers go with every request (Authorization, say).
	URL     string
	Headers map[string]string
	// ShownURL is URL as errors, Status and logs show it, in its place
	// wherever a message would quote URL: with the secrets in it masked
	// (config.Config.ShownURL). "" shows URL as it is.
	ShownURL string

	// Timeout is how long a caller waits for a server still connecting,
	// the limit of one connection attempt, and the default limit of a
	// call. 0 means 30 s.
	Timeout time.Duration

	// ToolPrefix is tried before a name that matches no tool: with
	// "github_", a call to "search" finds "github_search".
	ToolPrefix  string
	Description string
}

// Options configures a Manager.
type Options struct {
	// Logger receives connection events and the go-sdk's own logs, with a
	// "server" attribute. Default: discard.
	Logger *slog.Logger
	// OnChange is called, from any goroutine and without locks held, when
	// a server's tool list becomes known or changes: on connecting, on
	// reconnecting, on notifications/tools/list_changed.
	OnChange func(server string)
	// Tracer, when set, records a client span per tools/call and passes
	// its trace context on to the server (the traceparent header over
	// HTTP, _meta.traceparent always). Nil: no spans, nothing added.
	Tracer trace.Tracer
}

// Manager owns the upstream servers of one onetool instance.
type Manager struct {
	servers []*Server // sorted by name
	byName  map[string]*Server

	startOnce sync.Once
	closeOnce sync.Once
	closeErr  error
}

// NewManager prepares a Server per spec; nothing runs until Start or the
// first use of a server. Of several specs with one name, the first wins
// (the rest are logged and ignored).
func NewManager(specs []Spec, opts Options) *Manager {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manager{byName: make(map[string]*Server, len(specs))}
	for _, spec := range specs {
		if _, dup := m.byName[spec.Name]; dup {
			log.Warn("duplicate upstream MCP server name: ignored", "server", spec.Name)
			continue
		}
		s := newServer(spec, opts, log.With("server", spec.Name))
		m.byName[spec.Name] = s
		m.servers = append(m.servers, s)
	}
	slices.SortFunc(m.servers, func(a, b *Server) int { return strings.Compare(a.Name(), b.Name()) })
	return m
}

// Start begins connecting every server in the background and returns at
// once. Calling it again does nothing.
func (m *Manager) Start() {
	m.startOnce.Do(func() {
		for _, s := range m.servers {
			s.start()
		}
	})
}

// Server returns the server with the given `servers:` key.
func (m *Manager) Server(name string) (*Server, bool) {
	s, ok := m.byName[name]
	return s, ok
}

// Servers returns every server, sorted by name.
func (m *Manager) Servers() []*Server {
	return slices.Clone(m.servers)
}

// Close closes every server at once: calls in flight fail, every session
// ends, every process is gone (stdin EOF, then SIGTERM, then SIGKILL, for
// its whole process group) — within about 2 s even for a server that
// ignores all of it. Later calls get ErrNotConnected. Closing twice is
// harmless; the second call returns the first one's result.
func (m *Manager) Close() error {
	m.closeOnce.Do(func() {
		errs := make([]error, len(m.servers))
		var wg sync.WaitGroup
		for i, s := range m.servers {
			wg.Go(func() { errs[i] = s.close() })
		}
		wg.Wait()
		m.closeErr = errors.Join(errs...)
	})
	return m.closeErr
}

// version is onetool's module version for the MCP clientInfo.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
