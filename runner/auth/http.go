package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/onetool-dev/onetool/runner/config"
)

// Authenticator checks the bearer tokens of HTTP requests against
// serve.auth.tokens.
type Authenticator struct {
	tokens  []token
	metrics *[sha256.Size]byte // nil: /metrics is open
}

type token struct {
	sum       [sha256.Size]byte
	principal *Principal
}

// New returns the authenticator of cfg's serve.auth, or nil when there
// is none (every request is served). The configuration was validated when
// loaded; a token naming an unknown policy is still an error here, for
// configurations built by programs.
func New(cfg *config.Config) (*Authenticator, error) {
	if cfg == nil || cfg.Serve.Auth == nil {
		return nil, nil
	}
	a := &Authenticator{}
	policies := map[string]*Policy{}
	for name, p := range cfg.Policies {
		policies[name] = NewPolicy(name, p)
	}
	for _, t := range cfg.Serve.Auth.Tokens {
		pol, ok := policies[t.Policy]
		if !ok {
			return nil, fmt.Errorf("serve.auth.tokens: %s names unknown policy %q", t.Name, t.Policy)
		}
		if t.Token == "" {
			return nil, fmt.Errorf("serve.auth.tokens: %s has an empty token", t.Name)
		}
		a.tokens = append(a.tokens, token{sum: sha256.Sum256([]byte(t.Token)), principal: &Principal{Name: t.Name, Policy: pol}})
	}
	if mt := cfg.Serve.Auth.MetricsToken; mt != "" {
		sum := sha256.Sum256([]byte(mt))
		a.metrics = &sum
	}
	return a, nil
}

// Lookup returns the principal whose token is presented, or nil. It takes
// the same time whichever token matches, or none: every configured token
// is compared, over fixed-length digests so that lengths do not show
// either.
func (a *Authenticator) Lookup(presented string) *Principal {
	sum := sha256.Sum256([]byte(presented))
	found := -1
	for i := range a.tokens {
		eq := subtle.ConstantTimeCompare(sum[:], a.tokens[i].sum[:])
		found = subtle.ConstantTimeSelect(eq, i, found)
	}
	if found < 0 {
		return nil
	}
	return a.tokens[found].principal
}

// Names are the names of the configured tokens: the only principal names
// there can be, so a label made of them has bounded cardinality.
func (a *Authenticator) Names() []string {
	out := make([]string, len(a.tokens))
	for i, t := range a.tokens {
		out[i] = t.principal.Name
	}
	return out
}

// extraKey is where the principal travels inside go-sdk's TokenInfo, which
// the SDK hands to every request of the session as req.Extra.TokenInfo.
const extraKey = "onetool.principal"

// Protect requires a known bearer token on every request to next (the MCP
// endpoint). A request without one, or with an unknown one, gets 401 with
// `WWW-Authenticate: Bearer`. The principal reaches the MCP handlers as
// the request's TokenInfo (see PrincipalOf); its UserID, the principal's
// name, also keeps one principal from using another's session.
func (a *Authenticator) Protect(next http.Handler) http.Handler {
	verify := func(_ context.Context, tok string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		pr := a.Lookup(tok)
		if pr == nil {
			return nil, fmt.Errorf("%w: the bearer token is not one of serve.auth.tokens", sdkauth.ErrInvalidToken)
		}
		return &sdkauth.TokenInfo{UserID: pr.Name, Extra: map[string]any{extraKey: pr}}, nil
	}
	// Static tokens do not expire: they last until the operator changes them.
	h := sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bearer(r) == "" {
			// The SDK would say only "no bearer token"; say what to send.
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "Unauthorized: send Authorization: Bearer <token> with a token of serve.auth.tokens", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(&challenger{ResponseWriter: w}, r)
	})
}

// ProtectMetrics requires serve.auth.metrics_token on every request to
// next, when one is set; without it next is returned as it is.
func (a *Authenticator) ProtectMetrics(next http.Handler) http.Handler {
	if a == nil || a.metrics == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha256.Sum256([]byte(bearer(r)))
		if subtle.ConstantTimeCompare(sum[:], a.metrics[:]) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "Unauthorized: /metrics needs serve.auth.metrics_token as a bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearer returns the token of an `Authorization: Bearer …` header, or "".
func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// PrincipalOf returns the principal Protect put in a request's TokenInfo,
// or nil.
func PrincipalOf(ti *sdkauth.TokenInfo) *Principal {
	if ti == nil {
		return nil
	}
	pr, _ := ti.Extra[extraKey].(*Principal)
	return pr
}

// challenger adds `WWW-Authenticate: Bearer` to a 401 that has none: the
// SDK's middleware only writes the header when it has parameters to give
// (resource_metadata, scope), but RFC 6750 wants it on every 401.
type challenger struct {
	http.ResponseWriter
}

func (c *challenger) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", "Bearer")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the real writer (flushing
// the event stream).
func (c *challenger) Unwrap() http.ResponseWriter { return c.ResponseWriter }
