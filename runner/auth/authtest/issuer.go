// Package authtest is an OAuth authorization server for tests: an
// httptest server publishing metadata and a JWKS, and signing access
// tokens with its keys (serve.auth.oauth, SPEC §7.4).
package authtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// Issuer is a running authorization server. Its URL is its issuer.
type Issuer struct {
	URL string
	srv *httptest.Server

	// Down makes every request answer 503, as an issuer that is away.
	Down atomic.Bool
	// OIDCOnly serves metadata only at /.well-known/openid-configuration.
	OIDCOnly atomic.Bool
	// MetadataFetches and JWKSFetches count the requests served.
	MetadataFetches, JWKSFetches atomic.Int32

	mu        sync.Mutex
	keys      map[string]crypto.Signer // kid → key, published
	algs      map[string]string        // kid → alg
	metaIssue string                   // issuer the metadata claims; "" = URL
}

// NewIssuer starts an issuer with one RSA key, kid "k1"; it stops with the
// test.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is := &Issuer{keys: map[string]crypto.Signer{}, algs: map[string]string{}}
	mux := http.NewServeMux()
	meta := func(w http.ResponseWriter, _ *http.Request) {
		is.MetadataFetches.Add(1)
		is.mu.Lock()
		iss := is.metaIssue
		is.mu.Unlock()
		if iss == "" {
			iss = is.URL
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": iss, "jwks_uri": is.URL + "/jwks", "token_endpoint": is.URL + "/token",
			"response_types_supported": []string{"code"},
		})
	}
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		if is.OIDCOnly.Load() {
			http.NotFound(w, r)
			return
		}
		meta(w, r)
	})
	mux.HandleFunc("/.well-known/openid-configuration", meta)
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		is.JWKSFetches.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		set := jwkset.JWKSMarshal{}
		for kid, k := range is.keys {
			jwk, err := jwkset.NewJWKFromKey(k.Public(), jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{
				KID: kid, ALG: jwkset.ALG(is.algs[kid]), USE: jwkset.UseSig,
			}})
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			set.Keys = append(set.Keys, jwk.Marshal())
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(set)
	})
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if is.Down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(is.srv.Close)
	is.URL = is.srv.URL
	is.AddRSAKey(t, "k1")
	return is
}

// AddRSAKey generates an RSA key published as kid (RS256).
func (is *Issuer) AddRSAKey(t testing.TB, kid string) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is.publish(kid, "RS256", k)
	return k
}

// AddECKey generates a P-256 key published as kid (ES256).
func (is *Issuer) AddECKey(t testing.TB, kid string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is.publish(kid, "ES256", k)
	return k
}

func (is *Issuer) publish(kid, alg string, k crypto.Signer) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid], is.algs[kid] = k, alg
}

// SetMetadataIssuer makes the metadata name another issuer than URL.
func (is *Issuer) SetMetadataIssuer(iss string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.metaIssue = iss
}

// Key returns the private key of kid, or nil.
func (is *Issuer) Key(kid string) crypto.Signer {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.keys[kid]
}

// Claims are the claims of a valid token for audience with scope,
// subject "alice", issued now and valid for an hour.
func (is *Issuer) Claims(audience, scope string) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{
		"iss": is.URL, "aud": audience, "sub": "alice", "scope": scope,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// Sign signs claims with the key kid, in its algorithm.
func (is *Issuer) Sign(t testing.TB, kid string, claims jwt.MapClaims) string {
	t.Helper()
	is.mu.Lock()
	k, alg := is.keys[kid], is.algs[kid]
	is.mu.Unlock()
	if k == nil {
		t.Fatalf("no key %q", kid)
	}
	return SignWith(t, jwt.GetSigningMethod(alg), kid, k, claims)
}

// SignWith signs claims with any method and key, with kid in the header
// when not "".
func SignWith(t testing.TB, m jwt.SigningMethod, kid string, key any, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// RemoveKey stops publishing kid.
func (is *Issuer) RemoveKey(kid string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	delete(is.keys, kid)
	delete(is.algs, kid)
}
