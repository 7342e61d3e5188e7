package mcpserver

import (
	"fmt"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configures the streamable HTTP endpoint.
type HTTPOptions struct {
	// Stateless serves the sessionless mode of protocol 2026-07-28: every
	// request stands alone. Default: stateful sessions.
	Stateless bool
	// Metrics, when set, is served at GET /metrics (Prometheus; see
	// runner/promstats).
	Metrics http.Handler
}

// HTTPHandler serves s at /mcp (streamable HTTP) with /healthz and
// /metrics beside it.
// Requests that could come from a web page are refused: a Host header that
// is not the loopback name the server listens on (DNS rebinding), and
// cross-origin browser requests (Origin or Sec-Fetch-Site).
func HTTPHandler(s *mcp.Server, opts HTTPOptions) http.Handler {
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    opts.Stateless,
		PropagateRequestCancellation: true,
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(mcpHandler))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	if opts.Metrics != nil {
		mux.Handle("GET /metrics", opts.Metrics)
	}
	return mux
}

// ListenAddr completes an address for --http: a bare port or ":port" binds
// loopback only, because a server that runs code must not be reachable
// from the network unless the user names an interface.
func ListenAddr(addr string) (string, error) {
	if addr == "" {
		return "127.0.0.1:8080", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, perr := net.LookupPort("tcp", addr); perr == nil {
			return net.JoinHostPort("127.0.0.1", addr), nil
		}
		return "", fmt.Errorf("invalid --http address %q: use HOST:PORT, e.g. 127.0.0.1:8080", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
