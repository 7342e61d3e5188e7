package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// resolvePath expands a leading ~ with home, makes p absolute against base
// and cleans it. "~user" forms are refused rather than guessed.
func resolvePath(p, base, home string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("want a path, got an empty string")
	case strings.ContainsRune(p, 0):
		return "", errors.New("a path must not contain a NUL byte")
	case p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)):
		if home == "" {
			return "", fmt.Errorf("cannot expand ~ in %q: no home directory is known", p)
		}
		p = filepath.Join(home, p[1:])
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("%q is not absolute after expansion: only ~ and ~/… are expanded, not ~user", p)
	}
	if !filepath.IsAbs(p) {
		if base == "" {
			return "", fmt.Errorf("%q is not absolute after expansion", p)
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p), nil
}
