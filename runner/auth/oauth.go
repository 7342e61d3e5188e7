package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/time/rate"

	"github.com/onetool-dev/onetool/runner/config"
)

const (
	// OAuthLeeway is the clock skew allowed on exp and nbf: a token is
	// still accepted this long after it expired, and this long before it
	// becomes valid, so that clocks a few seconds apart do not refuse it.
	OAuthLeeway = 30 * time.Second
	// oauthFetchTimeout bounds each request to the issuer (metadata, JWKS).
	oauthFetchTimeout = 5 * time.Second
	// oauthRetry is how long after a failed discovery the next request
	// tries again; meanwhile requests needing it fail at once, so a dead
	// issuer is not hammered and clients are not kept waiting.
	oauthRetry = 5 * time.Second
	// oauthKIDRefresh spaces the JWKS refetches an unknown key id may
	// cause, so that tokens with made-up kids cannot flood the issuer.
	oauthKIDRefresh = 30 * time.Second
	// oauthMetadataMax bounds the issuer's metadata document.
	oauthMetadataMax = 1 << 20
	// oauthKeysRefresh is how often the issuer's JWKS is fetched again,
	// so that a key the issuer withdraws stops verifying tokens.
	oauthKeysRefresh = 5 * time.Minute
	// oauthCacheTTL and oauthCacheMax bound the cache of tokens already
	// verified: a client sends the same token with every request, and a
	// signature check costs ~100 µs. A token stays cached at most this
	// long (and never past its exp), so a withdrawn key stops opening
	// doors at most this long after the keys were refreshed.
	oauthCacheTTL = time.Minute
	oauthCacheMax = 4096
)

// cached is a verified token: its principal's TokenInfo until when.
type cached struct {
	ti    *sdkauth.TokenInfo
	until time.Time
}

// oauthAlgs are the signature algorithms a token may use: asymmetric
// ones only. "none" and HMAC (HS*) never verify against a published key.
var oauthAlgs = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

var (
	// errUnavailable: the issuer's metadata or keys cannot be fetched, so
	// no token can be checked (503).
	errUnavailable = errors.New("the OAuth issuer cannot be reached")
	// errScope: a valid token without a required scope (403).
	errScope = errors.New("insufficient scope")
	// errNoPolicy: a valid token whose policy does not exist (403).
	errNoPolicy = errors.New("no policy")
)

// oauthVerifier checks JWT access tokens of serve.auth.oauth. The issuer's
// metadata and keys are fetched on the first token that needs them, not
// at start: a server whose issuer is down starts, and answers 503 until
// the issuer is back.
type oauthVerifier struct {
	issuer, audience string
	scopes           []string
	policyClaim      string
	defaultPolicy    *Policy // nil: a token must name its policy
	policies         map[string]*Policy
	resourceMetadata string // URL of the protected resource metadata
	client           *http.Client
	parser           *jwt.Parser
	retry            time.Duration
	now              func() time.Time // time.Now; tests move it

	// life ends the JWKS refresh goroutine (Authenticator.Close).
	life context.Context
	stop context.CancelFunc

	cacheMu sync.Mutex
	cache   map[[sha256.Size]byte]cached

	mu       sync.Mutex
	stopKeys context.CancelFunc
	kf       keyfunc.Keyfunc // nil until discovery succeeded
	failedAt time.Time
	failErr  error
}

func newOAuthVerifier(o *config.OAuth, policies map[string]*Policy) (*oauthVerifier, error) {
	aud, err := url.Parse(o.Audience)
	if err != nil || aud.Scheme == "" || aud.Host == "" {
		return nil, fmt.Errorf("serve.auth.oauth.audience: want an absolute URL, got %q", o.Audience)
	}
	if _, err := url.Parse(o.Issuer); err != nil || o.Issuer == "" {
		return nil, fmt.Errorf("serve.auth.oauth.issuer: want an absolute URL, got %q", o.Issuer)
	}
	v := &oauthVerifier{
		issuer:      o.Issuer,
		audience:    o.Audience,
		scopes:      o.Scopes,
		policyClaim: o.PolicyClaim,
		policies:    policies,
		// The public URL the operator gave, never the request's Host.
		resourceMetadata: aud.Scheme + "://" + aud.Host + "/.well-known/oauth-protected-resource",
		client:           &http.Client{Timeout: oauthFetchTimeout},
		retry:            oauthRetry,
		now:              time.Now,
		cache:            map[[sha256.Size]byte]cached{},
	}
	v.parser = jwt.NewParser(
		jwt.WithValidMethods(oauthAlgs),
		jwt.WithLeeway(OAuthLeeway),
		jwt.WithIssuer(o.Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return v.now() }),
	)
	if o.DefaultPolicy != "" {
		p, ok := policies[o.DefaultPolicy]
		if !ok {
			return nil, fmt.Errorf("serve.auth.oauth.default_policy: unknown policy %q", o.DefaultPolicy)
		}
		v.defaultPolicy = p
	}
	v.life, v.stop = context.WithCancel(context.Background())
	return v, nil
}

// keys returns the issuer's key set, discovering it first when needed.
// Concurrent callers wait for one discovery; after a failure, callers
// within v.retry get the same error without a new attempt.
func (v *oauthVerifier) keys(ctx context.Context) (keyfunc.Keyfunc, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.kf != nil {
		return v.kf, nil
	}
	if v.failErr != nil && time.Since(v.failedAt) < v.retry {
		return nil, v.failErr
	}
	kf, err := v.discover(ctx)
	if err != nil {
		err = fmt.Errorf("%w: %v", errUnavailable, err)
		// A client that gave up says nothing about the issuer: only a
		// failure of the issuer holds the others back.
		if ctx.Err() == nil {
			v.failedAt, v.failErr = time.Now(), err
		}
		return nil, err
	}
	v.kf, v.failErr = kf, nil
	return kf, nil
}

// discover reads the issuer's metadata (RFC 8414, then OpenID Connect
// discovery) for its jwks_uri and fetches the key set.
func (v *oauthVerifier) discover(ctx context.Context) (keyfunc.Keyfunc, error) {
	var meta *oauthex.AuthServerMeta
	var errs []string
	for _, u := range metadataURLs(v.issuer) {
		m, err := v.getMetadata(ctx, u)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		meta = m
		break
	}
	if meta == nil {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	if meta.Issuer != v.issuer {
		return nil, fmt.Errorf("the metadata of %s names issuer %q: set serve.auth.oauth.issuer to exactly the issuer your authorization server reports", v.issuer, meta.Issuer)
	}
	if meta.JWKSURI == "" {
		return nil, fmt.Errorf("the metadata of %s has no jwks_uri", v.issuer)
	}
	if u, err := url.Parse(meta.JWKSURI); err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("the metadata of %s has a jwks_uri that is not an http(s) URL: %q", v.issuer, meta.JWKSURI)
	}
	// A context of its own per attempt: the refresh goroutine keyfunc
	// starts must end when this attempt fails, or with the verifier. The
	// first fetch of the keys happens under it too (keyfunc takes one
	// context for both), bounded by HTTPTimeout rather than by ctx.
	life, cancel := context.WithCancel(v.life)
	no := false
	kf, err := keyfunc.NewDefaultOverrideCtx(life, []string{meta.JWKSURI}, keyfunc.Override{
		Client:                    v.client,
		HTTPTimeout:               oauthFetchTimeout,
		RefreshInterval:           oauthKeysRefresh,
		NoErrorReturnFirstHTTPReq: &no,
		RefreshUnknownKID:         rate.NewLimiter(rate.Every(oauthKIDRefresh), 1),
		// The wait for the limiter and the refetch share this bound: a
		// request with an unknown kid waits at most this long.
		RateLimitWaitMax:        oauthFetchTimeout,
		RefreshErrorHandlerFunc: func(string) func(context.Context, error) { return func(context.Context, error) {} },
	})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("fetching the keys at %s: %w", meta.JWKSURI, err)
	}
	v.stopKeys = cancel // with v.stop, which ends it too
	return kf, nil
}

// metadataURLs are where an issuer's metadata may be: RFC 8414 puts the
// well-known segment before the issuer's path, OpenID Connect after it.
func metadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	path := strings.TrimSuffix(u.Path, "/")
	origin := u.Scheme + "://" + u.Host
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + path + "/.well-known/openid-configuration",
	}
}

func (v *oauthVerifier) getMetadata(ctx context.Context, u string) (*oauthex.AuthServerMeta, error) {
	ctx, cancel := context.WithTimeout(ctx, oauthFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, fmt.Errorf("GET %s: content type %q, want application/json", u, resp.Header.Get("Content-Type"))
	}
	var m oauthex.AuthServerMeta
	if err := json.NewDecoder(io.LimitReader(resp.Body, oauthMetadataMax)).Decode(&m); err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	return &m, nil
}

// check is verify with the cache of tokens verified lately.
func (v *oauthVerifier) check(ctx context.Context, raw string) (*sdkauth.TokenInfo, error) {
	key := sha256.Sum256([]byte(raw))
	now := v.now()
	v.cacheMu.Lock()
	c, ok := v.cache[key]
	v.cacheMu.Unlock()
	if ok && now.Before(c.until) {
		return c.ti, nil
	}
	_, ti, err := v.verify(ctx, raw)
	if err != nil {
		return nil, err
	}
	until := now.Add(oauthCacheTTL)
	if exp := ti.Expiration.Add(OAuthLeeway); exp.Before(until) {
		until = exp
	}
	v.cacheMu.Lock()
	if len(v.cache) >= oauthCacheMax {
		// Full: drop what has expired, or else everything; a client
		// whose token was dropped pays one verification.
		for k, e := range v.cache {
			if !now.Before(e.until) {
				delete(v.cache, k)
			}
		}
		if len(v.cache) >= oauthCacheMax {
			clear(v.cache)
		}
	}
	v.cache[key] = cached{ti, until}
	v.cacheMu.Unlock()
	return ti, nil
}

// verify checks a JWT access token and returns its principal and the
// token's information for go-sdk. Errors wrap sdkauth.ErrInvalidToken
// (401), errScope or errNoPolicy (403) or errUnavailable (503).
func (v *oauthVerifier) verify(ctx context.Context, raw string) (*Principal, *sdkauth.TokenInfo, error) {
	// Anything that is not even a JWT is refused without asking the issuer.
	if _, _, err := v.parser.ParseUnverified(raw, jwt.MapClaims{}); err != nil {
		return nil, nil, fmt.Errorf("%w: the bearer token is neither one of serve.auth.tokens nor a JWT access token", sdkauth.ErrInvalidToken)
	}
	kf, err := v.keys(ctx)
	if err != nil {
		return nil, nil, err
	}
	claims := jwt.MapClaims{}
	if _, err := v.parser.ParseWithClaims(raw, claims, kf.KeyfuncCtx(ctx)); err != nil {
		return nil, nil, fmt.Errorf("%w: %s", sdkauth.ErrInvalidToken, v.why(err))
	}
	aud, _ := claims.GetAudience()
	if !oauthex.MatchesResource(aud, v.audience) {
		return nil, nil, fmt.Errorf("%w: the token is for audience %q, not %s", sdkauth.ErrInvalidToken, []string(aud), v.audience)
	}
	granted := grantedScopes(claims)
	for _, s := range v.scopes {
		if !slices.Contains(granted, s) {
			return nil, nil, fmt.Errorf("%w: the token lacks scope %q (it has %q)", errScope, s, strings.Join(granted, " "))
		}
	}
	name := firstString(claims, "sub", "client_id", "azp")
	if name == "" {
		return nil, nil, fmt.Errorf("%w: the token names no subject (sub, client_id or azp)", sdkauth.ErrInvalidToken)
	}
	pol := v.defaultPolicy
	if v.policyClaim != "" {
		if c, ok := claims[v.policyClaim]; ok {
			s, _ := c.(string)
			p, ok := v.policies[s]
			if !ok {
				return nil, nil, fmt.Errorf("%w: the token's %s claim names policy %q, which serve's policies do not define", errNoPolicy, v.policyClaim, fmt.Sprint(c))
			}
			pol = p
		}
	}
	if pol == nil {
		return nil, nil, fmt.Errorf("%w: the token has no %s claim and serve.auth.oauth has no default_policy", errNoPolicy, v.policyClaim)
	}
	exp, _ := claims.GetExpirationTime()
	// Another principal than a static token of the same name, and than
	// the same subject of another issuer: its own rate limit, sessions,
	// results, stats and audit lines.
	pr := &Principal{Name: "oauth:" + name, ID: OAuthID(v.issuer, name), Policy: pol}
	// UserID binds the sessions this principal opens.
	ti := &sdkauth.TokenInfo{Scopes: granted, Expiration: exp.Time, UserID: pr.ID, Extra: map[string]any{extraKey: pr}}
	return pr, ti, nil
}

// why says in a sentence why golang-jwt refused a token.
func (v *oauthVerifier) why(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "the token is not a well-formed JWT"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid) && strings.Contains(err.Error(), "signing method"):
		return fmt.Sprintf("the token's signing algorithm is not accepted (only %s)", strings.Join(oauthAlgs, ", "))
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return "no key of the issuer verifies the token (unknown key id?)"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return "the token's signature is invalid"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "the token has no exp claim"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "the token has expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "the token is not valid yet (nbf)"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer):
		return "the token was not issued by " + v.issuer
	}
	return "the token is invalid: " + err.Error()
}

// grantedScopes reads `scope` (a space-separated string, RFC 9068) or
// `scp` (a list, or a string, as some providers write it).
func grantedScopes(c jwt.MapClaims) []string {
	var out []string
	for _, k := range []string{"scope", "scp"} {
		switch v := c[k].(type) {
		case string:
			out = append(out, strings.Fields(v)...)
		case []any:
			for _, s := range v {
				if s, ok := s.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func firstString(c jwt.MapClaims, keys ...string) string {
	for _, k := range keys {
		if s, ok := c[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// metadata is the protected resource metadata (RFC 9728) of this server.
func (v *oauthVerifier) metadata() *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               v.audience,
		AuthorizationServers:   []string{v.issuer},
		ScopesSupported:        v.scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "onetool",
	}
}
