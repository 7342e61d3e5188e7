package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/onetool-dev/onetool/runner/auth/authtest"
	"github.com/onetool-dev/onetool/runner/config"
)

const testAudience = "https://onetool.example.com/mcp"

// oauthConfig is serve.auth with a static token beside OAuth of is.
func oauthConfig(is *authtest.Issuer) *config.Config {
	cfg := testConfig()
	cfg.Serve.Auth.OAuth = &config.OAuth{
		Issuer: is.URL, Audience: testAudience, Scopes: []string{"onetool.run"},
		PolicyClaim: "onetool_policy", DefaultPolicy: "reader",
	}
	return cfg
}

// oauthServer is Protect around a handler that reports the principal
// (name/policy) it was given.
func oauthServer(t *testing.T, cfg *config.Config) (*Authenticator, http.Handler) {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a, a.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pr := PrincipalOf(sdkauth.TokenInfoFromContext(r.Context()))
		if pr == nil {
			http.Error(w, "no principal", 500)
			return
		}
		w.Write([]byte(pr.Name + "/" + pr.Policy.Name))
	}))
}

func send(h http.Handler, token string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/mcp", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

const (
	challenge401 = `Bearer resource_metadata="https://onetool.example.com/.well-known/oauth-protected-resource"`
	challenge403 = `Bearer error="insufficient_scope", scope="onetool.run", resource_metadata="https://onetool.example.com/.well-known/oauth-protected-resource"`
)

func TestOAuthTokens(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.AddECKey(t, "ec1")
	_, h := oauthServer(t, oauthConfig(is))
	now := time.Now()
	claims := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := is.Claims(testAudience, "openid onetool.run")
		if edit != nil {
			edit(c)
		}
		return c
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := x509.MarshalPKIXPublicKey(is.Key("k1").Public())
	for _, tt := range []struct {
		name  string
		token string
		code  int
		body  string // a substring of the body
		chal  string // WWW-Authenticate
	}{
		{"valid RS256, default policy", is.Sign(t, "k1", claims(nil)), 200, "alice/reader", ""},
		{"valid ES256", is.Sign(t, "ec1", claims(nil)), 200, "alice/reader", ""},
		{"policy from the claim", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["onetool_policy"] = "dev" })), 200, "alice/dev", ""},
		{"unknown policy in the claim", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["onetool_policy"] = "admin" })), 403,
			`the token's onetool_policy claim names policy "admin", which serve's policies do not define`, `Bearer resource_metadata="https://onetool.example.com/.well-known/oauth-protected-resource"`},
		{"aud as a list", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["aud"] = []string{"other", testAudience} })), 200, "alice/reader", ""},
		{"aud with a trailing slash", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["aud"] = testAudience + "/" })), 200, "alice/reader", ""},
		{"scp as a list", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { delete(c, "scope"); c["scp"] = []string{"onetool.run"} })), 200, "alice/reader", ""},
		{"no sub: client_id", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { delete(c, "sub"); c["client_id"] = "svc" })), 200, "svc/reader", ""},
		{"no subject at all", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { delete(c, "sub") })), 401, "names no subject", challenge401},
		{"expired", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Minute).Unix() })), 401, "the token has expired", challenge401},
		{"expired within the leeway", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-OAuthLeeway / 2).Unix() })), 200, "alice", ""},
		{"no exp", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { delete(c, "exp") })), 401, "no exp claim", challenge401},
		{"nbf in the future", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["nbf"] = now.Add(2 * time.Minute).Unix() })), 401, "not valid yet", challenge401},
		{"nbf within the leeway", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["nbf"] = now.Add(OAuthLeeway / 2).Unix() })), 200, "alice", ""},
		{"wrong iss", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.com" })), 401, "not issued by " + is.URL, challenge401},
		{"wrong aud", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["aud"] = "https://other.example.com/mcp" })), 401, `for audience ["https://other.example.com/mcp"]`, challenge401},
		{"no aud", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { delete(c, "aud") })), 401, "for audience", challenge401},
		{"missing scope", is.Sign(t, "k1", claims(func(c jwt.MapClaims) { c["scope"] = "openid" })), 403, `lacks scope "onetool.run"`, challenge403},
		{"bad signature (another key, same kid)", authtest.SignWith(t, jwt.SigningMethodRS256, "k1", other, claims(nil)), 401, "signature is invalid", challenge401},
		{"unknown kid", authtest.SignWith(t, jwt.SigningMethodRS256, "nope", other, claims(nil)), 401, "no key of the issuer", challenge401},
		{"alg none", authtest.SignWith(t, jwt.SigningMethodNone, "k1", jwt.UnsafeAllowNoneSignatureType, claims(nil)), 401, "signing algorithm is not accepted", challenge401},
		{"HS256 keyed with the public key", authtest.SignWith(t, jwt.SigningMethodHS256, "k1", pub, claims(nil)), 401, "signing algorithm is not accepted", challenge401},
		{"not a JWT", "garbage", 401, "neither one of serve.auth.tokens nor a JWT", challenge401},
		{"static token beside OAuth", "alice-token", 200, "alice/dev", ""},
		{"no token", "", 401, "Bearer <token> with an access token of " + is.URL, challenge401},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := send(h, tt.token)
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.body) {
				t.Errorf("%d %q, want %d with %q", rec.Code, rec.Body, tt.code, tt.body)
			}
			if got := rec.Header().Get("WWW-Authenticate"); got != tt.chal {
				t.Errorf("WWW-Authenticate %q, want %q", got, tt.chal)
			}
		})
	}
	// The keys were fetched once, and the unknown kid refetched them
	// once: the limiter keeps made-up kids from causing more.
	if n := is.JWKSFetches.Load(); n != 2 {
		t.Errorf("JWKS fetched %d times, want 2", n)
	}
}

// A token signed with a key the issuer published after onetool fetched
// its keys (rotation) is accepted: the unknown kid refetches the JWKS.
func TestOAuthKeyRotation(t *testing.T) {
	is := authtest.NewIssuer(t)
	_, h := oauthServer(t, oauthConfig(is))
	if rec := send(h, is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))); rec.Code != 200 {
		t.Fatalf("before rotation: %d %s", rec.Code, rec.Body)
	}
	is.AddRSAKey(t, "k2")
	if rec := send(h, is.Sign(t, "k2", is.Claims(testAudience, "onetool.run"))); rec.Code != 200 {
		t.Fatalf("after rotation: %d %s", rec.Code, rec.Body)
	}
	if n := is.JWKSFetches.Load(); n != 2 {
		t.Errorf("JWKS fetched %d times, want 2", n)
	}
}

// The issuer is not needed to start; while it is down, a JWT gets 503
// with Retry-After (static tokens still work), and once it is back, the
// next request after the retry delay succeeds.
func TestOAuthIssuerDownThenUp(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.Down.Store(true)
	a, h := oauthServer(t, oauthConfig(is))
	a.oauth.retry = 100 * time.Millisecond
	if n := is.MetadataFetches.Load(); n != 0 {
		t.Errorf("New fetched the metadata %d times; it must wait for a token", n)
	}
	tok := is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))
	rec := send(h, tok)
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "cannot check the token: the OAuth issuer cannot be reached") {
		t.Errorf("issuer down: %d %q Retry-After %q", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	if rec := send(h, "ci-token"); rec.Code != 200 {
		t.Errorf("a static token while the issuer is down: %d", rec.Code)
	}
	if rec := send(h, "garbage"); rec.Code != 401 {
		t.Errorf("a non-JWT while the issuer is down: %d, want 401", rec.Code)
	}
	is.Down.Store(false)
	if rec := send(h, tok); rec.Code != 503 {
		t.Errorf("within the retry delay: %d, want 503 without asking again", rec.Code)
	}
	time.Sleep(150 * time.Millisecond)
	if rec := send(h, tok); rec.Code != 200 {
		t.Errorf("issuer back: %d %s", rec.Code, rec.Body)
	}
}

// Discovery falls back to OpenID Connect's well-known path, and refuses
// metadata that names another issuer.
func TestOAuthDiscovery(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.OIDCOnly.Store(true)
	_, h := oauthServer(t, oauthConfig(is))
	if rec := send(h, is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))); rec.Code != 200 {
		t.Errorf("OpenID Connect discovery: %d %s", rec.Code, rec.Body)
	}

	is2 := authtest.NewIssuer(t)
	is2.SetMetadataIssuer("https://elsewhere.example.com")
	_, h2 := oauthServer(t, oauthConfig(is2))
	rec := send(h2, is2.Sign(t, "k1", is2.Claims(testAudience, "onetool.run")))
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), `names issuer "https://elsewhere.example.com"`) {
		t.Errorf("metadata of another issuer: %d %s", rec.Code, rec.Body)
	}
	if n := is2.JWKSFetches.Load(); n != 0 {
		t.Errorf("keys fetched from an issuer whose metadata does not match")
	}
}

// Without default_policy, a token must name its policy.
func TestOAuthNoDefaultPolicy(t *testing.T) {
	is := authtest.NewIssuer(t)
	cfg := oauthConfig(is)
	cfg.Serve.Auth.OAuth.DefaultPolicy = ""
	_, h := oauthServer(t, cfg)
	rec := send(h, is.Sign(t, "k1", is.Claims(testAudience, "onetool.run")))
	if rec.Code != 403 || !strings.Contains(rec.Body.String(), "has no onetool_policy claim and serve.auth.oauth has no default_policy") {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
}

func TestOAuthNew(t *testing.T) {
	is := authtest.NewIssuer(t)
	cfg := oauthConfig(is)
	cfg.Serve.Auth.OAuth.DefaultPolicy = "nope"
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), `default_policy: unknown policy "nope"`) {
		t.Errorf("unknown default_policy: %v", err)
	}
}

// The protected resource metadata (RFC 9728), at both paths clients try.
func TestOAuthMetadata(t *testing.T) {
	is := authtest.NewIssuer(t)
	a, _ := oauthServer(t, oauthConfig(is))
	hs := a.MetadataHandlers()
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		h := hs[path]
		if h == nil {
			t.Fatalf("no handler at %s (have %v)", path, hs)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		want := `{"authorization_servers":["` + is.URL + `"],"bearer_methods_supported":["header"],"resource":"https://onetool.example.com/mcp","resource_name":"onetool","scopes_supported":["onetool.run"]}`
		if got, _ := json.Marshal(m); string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", path, got, want)
		}
	}
	static, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if hs := static.MetadataHandlers(); hs != nil {
		t.Errorf("static tokens only: metadata served at %v", hs)
	}
}

// FuzzOAuthToken: whatever a client sends as a bearer token, the answer is
// 401 (or 200/403 for a real token), never a panic or a 5xx.
func FuzzOAuthToken(f *testing.F) {
	is := authtest.NewIssuer(f)
	a, err := New(oauthConfig(is))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(a.Close)
	h := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	good := is.Sign(f, "k1", is.Claims(testAudience, "onetool.run"))
	for _, s := range []string{good, "garbage", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", good[:len(good)-3], strings.Replace(good, ".", "..", 1), "alice-token"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.Header["Authorization"] = []string{"Bearer " + tok}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("token %q: %d %s", tok, rec.Code, rec.Body)
		}
	})
}

// A verified token is remembered (a client sends it with every request),
// but never past its exp (plus leeway), nor longer than oauthCacheTTL.
func TestOAuthCache(t *testing.T) {
	is := authtest.NewIssuer(t)
	a, h := oauthServer(t, oauthConfig(is))
	clock := time.Now()
	a.oauth.now = func() time.Time { return clock }
	short := is.Claims(testAudience, "onetool.run")
	short["exp"] = clock.Add(10 * time.Second).Unix()
	tok := is.Sign(t, "k1", short)
	long := is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))
	for _, tok := range []string{tok, long} {
		if rec := send(h, tok); rec.Code != 200 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	if n := len(a.oauth.cache); n != 2 {
		t.Errorf("%d tokens cached, want 2", n)
	}
	clock = clock.Add(10*time.Second + OAuthLeeway + time.Second)
	if rec := send(h, tok); rec.Code != 401 || !strings.Contains(rec.Body.String(), "expired") {
		t.Errorf("a cached token past its exp: %d %s", rec.Code, rec.Body)
	}
	// The issuer now withdraws its key, and onetool's periodic refresh
	// has dropped it (simulated: it comes every oauthKeysRefresh): the
	// long-lived token, verified a moment ago, keeps working from the
	// cache until oauthCacheTTL, then is checked again and refused.
	is.RemoveKey("k1")
	is.AddRSAKey(t, "k2")
	if ok, err := a.oauth.kf.Storage().KeyDelete(t.Context(), "k1"); !ok || err != nil {
		t.Fatal(err)
	}
	if rec := send(h, long); rec.Code != 200 {
		t.Errorf("within the cache TTL: %d %s", rec.Code, rec.Body)
	}
	clock = clock.Add(oauthCacheTTL)
	if rec := send(h, long); rec.Code != 401 {
		t.Errorf("after the cache TTL, with its key withdrawn: %d %s", rec.Code, rec.Body)
	}
}

// A client that hangs up during discovery does not hold the next ones
// back for the retry delay: only the issuer's failures do.
func TestOAuthDiscoveryCancelled(t *testing.T) {
	is := authtest.NewIssuer(t)
	_, h := oauthServer(t, oauthConfig(is))
	tok := is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "POST", "/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	h.ServeHTTP(httptest.NewRecorder(), req)
	if rec := send(h, tok); rec.Code != 200 {
		t.Errorf("the next request: %d %s", rec.Code, rec.Body)
	}
}

// An OAuth subject and a static token of the same name are two
// principals: their identities (rate limits, sessions, results, session
// state), the names users see (stats, metrics, the audit log) and the
// UserID that binds their sessions all differ. A static token's name
// cannot take the OAuth namespace.
func TestOAuthSubjectIsNotStaticToken(t *testing.T) {
	is := authtest.NewIssuer(t)
	a, err := New(oauthConfig(is))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	var got []string
	h := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ti := sdkauth.TokenInfoFromContext(r.Context())
		pr := PrincipalOf(ti)
		got = append(got, pr.Name+" | "+pr.Key()+" | "+ti.UserID)
	}))
	send(h, "alice-token")
	send(h, is.Sign(t, "k1", is.Claims(testAudience, "onetool.run"))) // sub: alice
	want := []string{
		"alice | token:alice | token:alice",
		"oauth:alice | oauth:" + is.URL + "#alice | oauth:" + is.URL + "#alice",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("principals:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	cfg := testConfig()
	cfg.Serve.Auth.Tokens[0].Name = "oauth:alice"
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), `the name "oauth:alice" holds ':'`) {
		t.Errorf("a static token named oauth:alice: %v", err)
	}
}
