package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/ratelimit"
)

// HTTPOptions configures the streamable HTTP endpoint.
type HTTPOptions struct {
	// Stateless serves the sessionless mode of protocol 2026-07-28: every
	// request stands alone. Default: stateful sessions.
	Stateless bool
	// Metrics, when set, is served at GET /metrics (Prometheus; see
	// runner/promstats).
	Metrics http.Handler
	// SessionIdle ends a stateful session that has had no request for
	// this long (serve.session_idle): its goroutines and, with
	// Options.SessionState, its globals are freed, and the client's next
	// request gets 404 "session not found", after which it initializes
	// anew. 0 means config.DefaultSessionIdle (30m); a negative value
	// keeps idle sessions for ever.
	SessionIdle time.Duration
	// MaxSessions caps the stateful sessions alive at once
	// (serve.max_sessions): a new session beyond the cap ends the session
	// idle longest (one with a request in flight only when every session
	// has one). 0 means config.DefaultMaxSessions (1000); a negative value
	// means no cap.
	MaxSessions int
	// Auth, when set, requires a bearer token of serve.auth.tokens (or,
	// with serve.auth.oauth, a JWT access token) on every /mcp request
	// and serve.auth.metrics_token (when set) on /metrics (SPEC §7.4);
	// /healthz and the protected resource metadata stay open. Nil serves
	// everyone.
	Auth *auth.Authenticator
	// RateLimit, when set, bounds the runs of each principal
	// (serve.rate_limit): a run over a bound gets 429 Too Many Requests
	// with Retry-After. Without Auth, every client counts as one. Give
	// the server the same limiter in Options.RateLimit.
	RateLimit *ratelimit.Limiter
	// Drain, when set, makes the server drain on Drain.Start: /mcp
	// refuses new work with 503 and Retry-After, and /healthz answers 503
	// {"status":"draining"}. Use the Drain of Options.Drain.
	Drain *Drain
}

// HTTPHandler serves s at /mcp (streamable HTTP) with /healthz and
// /metrics beside it.
//
// Every path, those to come included, is behind one guard against
// requests a web page can make: a request that arrived on a loopback
// address must name a loopback host (localhost, 127.0.0.1, [::1]) in its
// Host header, which defeats DNS rebinding, and a cross-origin browser
// request (Origin or Sec-Fetch-Site) is refused, whatever its method.
// Both answer 403.
func HTTPHandler(s *mcp.Server, opts HTTPOptions) http.Handler {
	idle := opts.SessionIdle
	switch {
	case idle == 0:
		idle = config.DefaultSessionIdle
	case idle < 0:
		idle = 0 // go-sdk: never
	}
	var mcpHandler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    opts.Stateless,
		PropagateRequestCancellation: true,
		SessionTimeout:               idle,
	})
	maxSessions := opts.MaxSessions
	if maxSessions == 0 {
		maxSessions = config.DefaultMaxSessions
	}
	if !opts.Stateless && maxSessions > 0 {
		mcpHandler = newSessionCap(s, mcpHandler, maxSessions)
	}
	// Inside Protect, which names the principal the limit counts for.
	mcpHandler = opts.RateLimit.Middleware(principalName, mcpHandler)
	if opts.Auth != nil {
		// Outside the session cap: a request without a token must not
		// create, or end, any session.
		mcpHandler = opts.Auth.Protect(mcpHandler)
	}
	if opts.Drain != nil {
		mcpHandler = opts.Drain.guardMCP(mcpHandler)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpHandler)
	mux.HandleFunc("GET /healthz", opts.Drain.healthz)
	if opts.Metrics != nil {
		mux.Handle("GET /metrics", opts.Auth.ProtectMetrics(opts.Metrics))
	}
	// With serve.auth.oauth: the protected resource metadata (RFC 9728),
	// open to all. It stays behind the guard like every path: /mcp
	// refuses browser pages anyway, so a page could not use what it
	// learnt here, and desktop and command-line clients send no Origin.
	for path, h := range opts.Auth.MetadataHandlers() {
		mux.Handle(path, h)
	}
	return guard(mux)
}

// principalName names who sent r, as Protect found it: "" without
// serve.auth.
func principalName(r *http.Request) string {
	if pr := auth.PrincipalOf(sdkauth.TokenInfoFromContext(r.Context())); pr != nil {
		return pr.Name
	}
	return ""
}

// guard refuses, before any route sees it, a request that a web page
// could have sent: see HTTPHandler.
func guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A page on an attacker's domain that resolves to 127.0.0.1 reaches
		// a loopback listener with its own name as Host. On any other
		// address the Host is whatever name the operator routes, and a
		// probe to the pod IP must get through.
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil &&
			isLoopback(local.String()) && !isLoopback(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not a loopback name; a server listening on loopback answers only requests to localhost, 127.0.0.1 or [::1]", r.Host), http.StatusForbidden)
			return
		}
		if why := crossOrigin(r); why != "" {
			http.Error(w, "Forbidden: "+why+"; browsers may not call this server from a web page", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopback reports whether a host or host:port names the loopback
// interface: localhost or a loopback IP, with or without a port.
func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// crossOrigin says why r is a cross-origin browser request, or "" when it
// is not one. Browsers send Sec-Fetch-Site with every request; older ones
// only Origin, which a same-origin GET may omit. Clients that are not
// browsers send neither.
func crossOrigin(r *http.Request) string {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "same-origin", "none":
		return ""
	case "":
	default:
		return fmt.Sprintf("cross-origin request (Sec-Fetch-Site: %s)", site)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	if u, err := url.Parse(origin); err != nil || !strings.EqualFold(u.Host, r.Host) {
		return fmt.Sprintf("cross-origin request (Origin %s, Host %s)", origin, r.Host)
	}
	return ""
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
