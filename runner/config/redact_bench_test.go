package config

import (
	"encoding/base64"
	"strings"
	"testing"
)

// plainSecretValues are tokens of letters, digits, dashes and
// underscores, the usual kind.
var plainSecretValues = map[string]string{
	"API_TOKEN":  "sk-live-0123456789abcdef",
	"GH_TOKEN":   "ghp_supersecret123",
	"SLACK_HOOK": "T0000-B0000-XXXXXXXXXXXXXXXX",
}

// specialSecretValues add passwords with characters that JSON, URLs and
// HTML escape, and non-ASCII text.
var specialSecretValues = map[string]string{
	"API_TOKEN": "sk-live-0123456789abcdef",
	"DB_PASS":   `correct"horse\battery<staple>&1/2 x`,
	"PHRASE":    "grüße-aus-köln-am-rhein",
}

// worstSecretValues have a password made almost only of such characters,
// with no run of six letters or digits to anchor a search on: every text
// with an escape of one of them is decoded.
var worstSecretValues = map[string]string{
	"API_TOKEN": "sk-live-0123456789abcdef",
	"DB_PASS":   `p"a\ss<w>&rd/x y`,
}

// benchText is n bytes of a typical result: compact JSON with quotes,
// newlines, HTML entities and percent escapes in its strings, and no secret.
func benchText(n int) string {
	const unit = `{"id":42,"title":"Quarterly \"report\"\nline two","html":"&lt;b&gt;bold&lt;/b&gt; &amp; more","url":"https://example.com/a%20b?q=1%2B2","note":"plain words and numbers 0123456789"},`
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// shortSecretValues add a PIN of four characters, the shortest redacted:
// runs of hex and base64 as short as its encodings are decoded.
var shortSecretValues = map[string]string{
	"API_TOKEN": "sk-live-0123456789abcdef",
	"PIN":       "9f3Q",
}

// benchEncodedText is n bytes of results full of what looks like
// encodings: hashes, UUIDs, base64 blobs, percent-encoded URLs, dates and
// long numbers, and no secret.
func benchEncodedText(n int) string {
	const unit = `{"id":"550e8400-e29b-41d4-a716-446655440000","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",` +
		`"avatar":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",` +
		`"next":"https://api.example.com/v2/items?cursor=eyJwYWdlIjoyfQ%3D%3D&sort=created%2Cdesc","ts":1700000000123,"day":"2024-01-15"},`
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// BenchmarkRedact measures Redact, which runs on every result, error and
// log line: mostly on text holding no secret (none), sometimes on text
// holding one, escaped as JSON escapes it (one).
func BenchmarkRedact(b *testing.B) {
	for _, bc := range []struct {
		name    string
		secrets map[string]string
		text    string
	}{
		{"plain/none-1KiB", plainSecretValues, benchText(1 << 10)},
		{"plain/none-64KiB", plainSecretValues, benchText(64 << 10)},
		{"plain/one-64KiB", plainSecretValues, benchText(32<<10) + `"sk-live-0123456789abcdef"` + benchText(32<<10)},
		{"special/none-1KiB", specialSecretValues, benchText(1 << 10)},
		{"special/none-64KiB", specialSecretValues, benchText(64 << 10)},
		{"special/one-64KiB", specialSecretValues, benchText(32<<10) + `"correct\"horse\\battery\u003cstaple\u003e\u00261/2 x"` + benchText(32<<10)},
		{"worst/none-64KiB", worstSecretValues, benchText(64 << 10)},
		{"plain/encoded-64KiB", plainSecretValues, benchEncodedText(64 << 10)},
		{"short/none-64KiB", shortSecretValues, benchText(64 << 10)},
		{"short/encoded-64KiB", shortSecretValues, benchEncodedText(64 << 10)},
		{"plain/mime-1MiB", plainSecretValues, benchMIME(1 << 20)},
	} {
		s := testSecrets(bc.secrets)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				s.Redact(bc.text)
			}
		})
	}
}

func testSecrets(values map[string]string) *Secrets { return newSecrets("", values) }

// benchMIME is n bytes of base64.encodebytes output (a mail attachment, a
// file a tool returns as base64), holding no secret.
func benchMIME(n int) string {
	raw := make([]byte, n*3/4)
	x := uint32(2463534242)
	for i := range raw { // bytes at random, as compressed data is
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		raw[i] = byte(x)
	}
	e := base64.StdEncoding.EncodeToString(raw)
	var b strings.Builder
	for len(e) > 76 {
		b.WriteString(e[:76] + "\n")
		e = e[76:]
	}
	b.WriteString(e + "\n")
	return b.String()
}
