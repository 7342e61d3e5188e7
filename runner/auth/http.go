package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/onetool-dev/onetool/runner/config"
)

// Authenticator checks the bearer tokens of HTTP requests against
// serve.auth.tokens and, with serve.auth.oauth, as JWT access tokens.
type Authenticator struct {
	tokens  []token
	metrics *[sha256.Size]byte // nil: /metrics is open
	oauth   *oauthVerifier     // nil: static tokens only
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
		if strings.Contains(t.Name, ":") {
			// The namespace of OAuth subjects' names (oauth:…).
			return nil, fmt.Errorf("serve.auth.tokens: the name %q holds ':', which only OAuth principals' names do", t.Name)
		}
		a.tokens = append(a.tokens, token{sum: sha256.Sum256([]byte(t.Token)), principal: &Principal{Name: t.Name, ID: TokenID(t.Name), Policy: pol}})
	}
	if mt := cfg.Serve.Auth.MetricsToken; mt != "" {
		sum := sha256.Sum256([]byte(mt))
		a.metrics = &sum
	}
	if o := cfg.Serve.Auth.OAuth; o != nil {
		v, err := newOAuthVerifier(o, policies)
		if err != nil {
			return nil, err
		}
		a.oauth = v
	}
	return a, nil
}

// Close stops what the authenticator runs in the background (the
// refresh of the OAuth issuer's keys). A nil Authenticator may be closed.
func (a *Authenticator) Close() {
	if a != nil && a.oauth != nil {
		a.oauth.stop()
	}
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

// Names are the names of the configured static tokens. With
// serve.auth.oauth, JWT principals are named by their tokens' sub, which
// any number of users may have: a label of bounded cardinality must not
// take those as they are.
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

// verifiedKey carries the TokenInfo Protect decided on to the verifier
// it gives go-sdk's middleware, which is the only way into the context
// key the MCP handler reads.
type verifiedKey struct{}

// Protect requires a valid bearer token on every request to next (the
// MCP endpoint): one of serve.auth.tokens, tried first, or with
// serve.auth.oauth a JWT access token of the issuer. A request without a
// token, or with a bad one, gets 401 with `WWW-Authenticate: Bearer` (and
// with OAuth the resource_metadata URL clients discover the issuer from);
// a valid JWT without a required scope, or naming a policy that does not
// exist, gets 403; while the issuer cannot be reached to fetch its keys,
// a JWT gets 503 with Retry-After. The principal reaches the MCP handlers
// as the request's TokenInfo (see PrincipalOf); its UserID, the
// principal's identity (Principal.Key), also keeps one principal from
// using another's session.
func (a *Authenticator) Protect(next http.Handler) http.Handler {
	verify := func(ctx context.Context, _ string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		if ti, _ := ctx.Value(verifiedKey{}).(*sdkauth.TokenInfo); ti != nil {
			return ti, nil
		}
		return nil, sdkauth.ErrInvalidToken
	}
	// Static tokens do not expire: they last until the operator changes
	// them. A JWT's exp was checked with the same leeway.
	h := sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: OAuthLeeway})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := bearer(r)
		if tok == "" {
			// The SDK would say only "no bearer token"; say what to send.
			a.refuse(w, http.StatusUnauthorized, "", "Unauthorized: send Authorization: Bearer <token> with "+a.what())
			return
		}
		ti, err := a.check(r.Context(), tok)
		switch {
		case err == nil:
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verifiedKey{}, ti)))
		case errors.Is(err, errScope):
			a.refuse(w, http.StatusForbidden, "insufficient_scope", "Forbidden: "+err.Error())
		case errors.Is(err, errNoPolicy):
			a.refuse(w, http.StatusForbidden, "", "Forbidden: "+err.Error())
		case errors.Is(err, errUnavailable):
			w.Header().Set("Retry-After", strconv.Itoa(int(oauthRetry/time.Second)))
			http.Error(w, "Service Unavailable: cannot check the token: "+err.Error()+"; try again shortly", http.StatusServiceUnavailable)
		default:
			a.refuse(w, http.StatusUnauthorized, "", err.Error())
		}
	})
}

// check returns the TokenInfo of a presented token: a static token's, or
// with OAuth a verified JWT's.
func (a *Authenticator) check(ctx context.Context, tok string) (*sdkauth.TokenInfo, error) {
	if pr := a.Lookup(tok); pr != nil {
		return &sdkauth.TokenInfo{UserID: pr.Key(), Extra: map[string]any{extraKey: pr}}, nil
	}
	if a.oauth == nil {
		return nil, fmt.Errorf("%w: the bearer token is not one of serve.auth.tokens", sdkauth.ErrInvalidToken)
	}
	return a.oauth.check(ctx, tok)
}

// what names the tokens a client may send.
func (a *Authenticator) what() string {
	if a.oauth != nil {
		return "an access token of " + a.oauth.issuer + " for " + a.oauth.audience
	}
	return "a token of serve.auth.tokens"
}

// refuse answers 401 or 403 with the challenge of RFC 6750 §3 and RFC
// 9728 §5.1: with OAuth, where the protected resource metadata is, and
// for insufficient_scope the scopes needed.
func (a *Authenticator) refuse(w http.ResponseWriter, code int, errCode, msg string) {
	ch := "Bearer"
	if a.oauth != nil {
		var params []string
		if errCode != "" {
			params = append(params, fmt.Sprintf("error=%q", errCode))
			if len(a.oauth.scopes) > 0 {
				params = append(params, fmt.Sprintf("scope=%q", strings.Join(a.oauth.scopes, " ")))
			}
		}
		params = append(params, fmt.Sprintf("resource_metadata=%q", a.oauth.resourceMetadata))
		ch += " " + strings.Join(params, ", ")
	}
	w.Header().Set("WWW-Authenticate", ch)
	http.Error(w, msg, code)
}

// MetadataHandlers are the handlers of the protected resource metadata
// (RFC 9728) by path, when serve.auth.oauth is set: at
// /.well-known/oauth-protected-resource, and at the path-aware form for
// the audience's path (/.well-known/oauth-protected-resource/mcp), which
// clients try first. They need no token.
func (a *Authenticator) MetadataHandlers() map[string]http.Handler {
	if a == nil || a.oauth == nil {
		return nil
	}
	h := sdkauth.ProtectedResourceMetadataHandler(a.oauth.metadata())
	const wk = "/.well-known/oauth-protected-resource"
	out := map[string]http.Handler{wk: h}
	if u, err := url.Parse(a.oauth.audience); err == nil && strings.Trim(u.Path, "/") != "" {
		out[wk+"/"+strings.Trim(u.Path, "/")] = h
	}
	return out
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
