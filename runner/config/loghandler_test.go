package config

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
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
