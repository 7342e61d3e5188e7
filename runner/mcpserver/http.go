package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/auth"
	"github.com/onetool-dev/onetool/runner/config"
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
	// Drain, when set, makes the server drain on Drain.Start: /mcp
	// refuses new work with 503 and Retry-After, and /healthz answers 503
	// {"status":"draining"}. Use the Drain of Options.Drain.
	Drain *Drain
	// ReadTimeout bounds how long a request may take to arrive, its
	// headers and then its body (serve.read_timeout): a client that
	// trickles a body, authenticated or not, has its connection closed.
	// 0 means config.DefaultReadTimeout (30s); a negative value means no
	// bound. See NewHTTPServer; the bound on the body is also set here,
	// for servers built otherwise.
	ReadTimeout time.Duration
	// IdleTimeout closes a kept-alive connection with no request for
	// this long (serve.idle_timeout). 0 means config.DefaultIdleTimeout
	// (2m); a negative value means never. See NewHTTPServer.
	IdleTimeout time.Duration
	// MaxBody bounds a request body in bytes (serve.max_body), before
	// authentication: a larger one gets 413. 0 means
	// config.DefaultMaxBody (4 MiB).
	MaxBody int64
}

// maxHeaderWait bounds the wait for a request's headers: they are small,
// and a client that trickles them is not one that needs read_timeout.
const maxHeaderWait = 10 * time.Second

// NewHTTPServer is the http.Server of HTTPHandler(s, opts), with its
// timeouts: a request's headers within 10 s (or opts.ReadTimeout, if
// shorter), the whole request within opts.ReadTimeout, a kept-alive
// connection idle at most opts.IdleTimeout. No write timeout: answers
// stream (progress, long runs, the GET event stream) for as long as their
// run or session lasts, which limits.timeout and serve.session_idle
// bound. (Go's server clears the read deadline once a body has been read,
// so ReadTimeout does not cancel a long run.)
func NewHTTPServer(s *mcp.Server, opts HTTPOptions) *http.Server {
	read := readTimeout(opts.ReadTimeout)
	idle := opts.IdleTimeout
	if idle == 0 {
		idle = config.DefaultIdleTimeout
	} // negative: never (http.Server reads 0 as ReadTimeout)
	header := maxHeaderWait
	if read > 0 && read < header {
		header = read
	}
	return &http.Server{
		Handler:           HTTPHandler(s, opts),
		ReadHeaderTimeout: header,
		ReadTimeout:       read,
		IdleTimeout:       idle,
	}
}

// readTimeout is opts.ReadTimeout with its default: 0 for no bound.
func readTimeout(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return config.DefaultReadTimeout
	case d < 0:
		return 0
	}
	return d
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
//
// Before authentication, a body larger than opts.MaxBody gets 413, and
// one that takes longer than opts.ReadTimeout to arrive closes its
// connection. HTTPHandler adds to s the middleware that ties each message
// go-sdk dispatches to its HTTP exchange, so that a refusal of the
// server's admission (rate limits, draining; see Options) answers 429 or
// 503 with Retry-After.
func HTTPHandler(s *mcp.Server, opts HTTPOptions) http.Handler {
	idle := opts.SessionIdle
	switch {
	case idle == 0:
		idle = config.DefaultSessionIdle
	case idle < 0:
		idle = 0 // go-sdk: never
	}
	maxBody := opts.MaxBody
	if maxBody <= 0 {
		maxBody = int64(config.DefaultMaxBody)
	}
	var mcpHandler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    opts.Stateless,
		PropagateRequestCancellation: true,
		SessionTimeout:               idle,
		MaxRequestBodyBytes:          maxBody,
	})
	maxSessions := opts.MaxSessions
	if maxSessions == 0 {
		maxSessions = config.DefaultMaxSessions
	}
	if !opts.Stateless && maxSessions > 0 {
		mcpHandler = newSessionCap(s, mcpHandler, maxSessions)
	}
	if opts.Auth != nil {
		// Outside the session cap: a request without a token must not
		// create, or end, any session.
		mcpHandler = opts.Auth.Protect(mcpHandler)
	}
	xs := newExchanges()
	s.AddReceivingMiddleware(xs.middleware)
	mcpHandler = intake(xs, opts.Drain, maxBody, readTimeout(opts.ReadTimeout), mcpHandler)
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

// intake is the first handler of /mcp, before authentication: it bounds
// the body (maxBody, and the time to read it), refuses a GET while
// draining, and makes each POST an exchange (see admit.go): counted as
// work in flight unless it arrived while draining, its messages tied to
// it for the admission middleware, its answer made a refusal's when the
// one request it carries was refused.
func intake(xs *exchanges, d *Drain, maxBody int64, read time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(exchangeHeader) // only intake names exchanges
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
			if read > 0 {
				// http.Server's ReadTimeout does this; a server built
				// otherwise (httptest, an embedding program) gets it too.
				// Go's server clears the deadline once the body is read.
				_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(read))
			}
		}
		switch r.Method {
		case http.MethodPost:
		case http.MethodGet:
			if d != nil && d.Draining() {
				d.noteRefused()
				refuseDraining(w)
				return
			}
			next.ServeHTTP(w, r)
			return
		default:
			next.ServeHTTP(w, r)
			return
		}
		ex := &exchange{}
		if d != nil {
			if d.enter() {
				defer d.leave() // Wait covers writing the answers
			} else {
				ex.draining = true
			}
		}
		if r.Body != nil && r.Body != http.NoBody {
			ex.body = &sniffer{ReadCloser: r.Body}
			r.Body = ex.body
		}
		id := xs.open(ex)
		defer xs.close(id)
		r.Header.Set(exchangeHeader, id)
		aw := &answerWriter{ResponseWriter: w, ex: ex}
		next.ServeHTTP(aw, r)
		aw.finish()
	})
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
