package config

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLogHandlerRedacts(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("TOKEN: tok-12345\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("limits: {timeout: 5s}\n"), 0o644)
	cfg, err := Load(filepath.Join(dir, "onetool.yaml"), LoadOptions{WorkDir: dir, HomeDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(cfg.Secrets.LogHandler(slog.NewTextHandler(&buf, nil)))
	log = log.With("header", "Bearer tok-12345")
	log.Info("calling with tok-12345", "err", errors.New("denied: tok-12345"), slog.Group("g", "v", "tok-12345"), "n", 3)
	out := buf.String()
	if strings.Contains(out, "tok-12345") || strings.Count(out, "[secret:TOKEN]") != 4 || !strings.Contains(out, "n=3") {
		t.Errorf("log line = %s", out)
	}
	var nilSecrets *Secrets
	h := slog.NewTextHandler(&buf, nil)
	if nilSecrets.LogHandler(h) != slog.Handler(h) {
		t.Error("no secrets should leave the handler as it is")
	}
}

// A secret with characters that JSON, URLs and HTML escape is hidden in a
// JSON log line whatever form it reaches the handler in: as it is (the
// handler would escape it), percent-encoded in a URL or a url.Error, or
// already JSON-escaped in a message.
func TestLogHandlerRedactsEveryEncoding(t *testing.T) {
	const secret = `pa"ss <wörd>&/x`
	s := newSecrets("", map[string]string{"PASS": secret})
	var buf bytes.Buffer
	log := slog.New(s.LogHandler(slog.NewJSONHandler(&buf, nil)))
	u := &url.URL{Scheme: "https", Host: "h", Path: "/mcp", RawQuery: url.Values{"key": {secret}}.Encode()}
	log.Warn("failed to connect",
		"raw", secret,
		"url", u,
		"err", &url.Error{Op: "Post", URL: u.String(), Err: errors.New("connection refused")},
		"quoted", strconv.Quote(secret),
	)
	out := buf.String()
	if n := strings.Count(out, "[secret:PASS]"); n != 4 {
		t.Errorf("%d markers, want 4: %s", n, out)
	}
	for _, form := range []string{"wörd", `w\u00f6rd`, "w%C3%B6rd", "pa\\\"ss"} {
		if strings.Contains(out, form) {
			t.Errorf("log line holds %q: %s", form, out)
		}
	}
}
