package db

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// settingKeys are the keys of the packs.db section ParseSettings reads.
var settingKeys = []string{"databases", "default", "max_rows", "read_only", "timeout"}

// ParseSettings turns the extra keys of the packs.db section (decoded
// YAML: string, int64, float64, bool, nil, []any, map[string]any) into
// Options:
//
//	databases: a mapping of names to URLs: "sqlite:app.db", "sqlite::memory:",
//	    a path ending in .db, .sqlite or .sqlite3, or "postgres://…" and
//	    other database/sql URLs whose driver is built in
//	default:   the database used when a call names none
//	read_only: true (the default) refuses every write
//	max_rows:  the default cap on the rows db.query returns (1000)
//	timeout:   per statement, a duration such as "30s" or a number of seconds
//
// Relative SQLite paths are made absolute against baseDir, the directory
// of the configuration file. A key set to null keeps its default. Unknown
// keys and wrong values are errors, all of them joined, each naming its
// key as "packs.db.<key>".
func ParseSettings(settings map[string]any, baseDir string) (Options, error) {
	o := Options{ReadOnly: true}
	err := packs.ReadSettings("db", settings, settingKeys, func(key string, v any) error {
		var err error
		switch key {
		case "databases":
			o.Databases, err = parseDatabases(v, baseDir)
		case "default":
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("want the name of a database as a string, got %s", packs.ShowSetting(v))
			}
			o.Default = s
		case "read_only":
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("want true or false, got %s", packs.ShowSetting(v))
			}
			o.ReadOnly = b
		case "max_rows":
			var n int64
			n, err = packs.SettingInt(v, "a number of rows", 1, MaxRowsLimit)
			o.MaxRows = int(n)
		case "timeout":
			o.Timeout, err = packs.SettingDuration(v, MaxTimeout)
		}
		return err
	})
	if err == nil && o.Default != "" {
		if _, ok := o.Databases[o.Default]; !ok {
			err = fmt.Errorf("packs.db.default: %s", unknownDB(o.Default, o.Databases))
		}
	}
	return o, err
}

// parseDatabases reads packs.db.databases, checking each URL and making
// relative SQLite paths absolute against baseDir. Its errors about one
// entry are marked with packs.Subkey.
func parseDatabases(v any, baseDir string) (map[string]string, error) {
	entries := map[string]any{}
	switch m := v.(type) {
	case map[string]any:
		entries = m
	case *ordered.Map:
		m.Range(func(k string, v any) bool { entries[k] = v; return true })
	case map[string]string:
		for k, s := range m {
			entries[k] = s
		}
	default:
		return nil, fmt.Errorf(`want a mapping of names to URLs, like {main: "sqlite:app.db"}, got %s`, packs.ShowSetting(v))
	}
	names := make([]string, 0, len(entries))
	for k := range entries {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make(map[string]string, len(entries))
	var errs []error
	for _, name := range names {
		if err := checkName(name); err != nil {
			errs = append(errs, packs.Subkey(name, err))
			continue
		}
		s, ok := entries[name].(string)
		if !ok {
			errs = append(errs, packs.Subkey(name, fmt.Errorf(`want a URL string like "sqlite:app.db" or "postgres://user@host/db", got %s`, packs.ShowSetting(entries[name]))))
			continue
		}
		t, err := parseTarget(s)
		if err != nil {
			errs = append(errs, packs.Subkey(name, err))
			continue
		}
		if t.kind == kindSQLite && !t.memory && !filepath.IsAbs(t.path) && baseDir != "" {
			t.path = filepath.Join(baseDir, t.path)
			s = "sqlite:" + t.path
		}
		out[name] = s
	}
	return out, errors.Join(errs...)
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`) })

// checkName checks a database name: calls pass it as db="name".
func checkName(name string) error {
	if !nameRE().MatchString(name) || len(name) > 64 {
		return fmt.Errorf("%q is not a usable database name: use letters, digits, _, - and ., starting with a letter", name)
	}
	return nil
}

// Database kinds: how the pack talks to a database.
const (
	kindSQLite   = "sqlite"
	kindPostgres = "postgres"
	kindMySQL    = "mysql"
	kindOther    = "other"
)

// target is a parsed database URL.
type target struct {
	kind   string
	path   string // SQLite: the file (maybe relative); "" for memory
	memory bool   // SQLite: sqlite::memory:
	scheme string // others: the URL's scheme, which names the driver
	dsn    string // others: what the driver is opened with
}

// sqliteExts are the endings that make a bare path a SQLite database.
var sqliteExts = []string{".db", ".sqlite", ".sqlite3"}

// parseTarget reads a database URL.
func parseTarget(s string) (target, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return target{}, errors.New(`empty URL: write "sqlite:app.db" or a URL like "postgres://user@host/db"`)
	}
	if strings.ContainsRune(s, 0) {
		return target{}, errors.New("the URL contains a NUL byte")
	}
	scheme, rest, hasScheme := strings.Cut(s, ":")
	lower := strings.ToLower(scheme)
	switch {
	case hasScheme && (lower == "sqlite" || lower == "sqlite3" || lower == "file"):
		if rest == ":memory:" || rest == "//:memory:" {
			return target{kind: kindSQLite, memory: true}, nil
		}
		path := strings.TrimPrefix(rest, "//") // sqlite:///abs/app.db, as in file:///abs
		if path == "" {
			return target{}, fmt.Errorf(`%q names no file: write "sqlite:app.db", "sqlite:/abs/path/app.db" or "sqlite::memory:"`, s)
		}
		if strings.ContainsAny(path, "?#") {
			return target{}, fmt.Errorf(`%q: query parameters are not accepted in SQLite URLs (the pack sets the open mode and pragmas itself); give just the path`, s)
		}
		return target{kind: kindSQLite, path: filepath.FromSlash(path)}, nil
	case !hasScheme || len(scheme) == 1 || strings.ContainsAny(scheme, `/\.`): // a path, maybe C:\…
		for _, ext := range sqliteExts {
			if strings.HasSuffix(strings.ToLower(s), ext) {
				if strings.ContainsAny(s, "?#") {
					return target{}, fmt.Errorf("%q: a SQLite path cannot hold '?' or '#'", s)
				}
				return target{kind: kindSQLite, path: s}, nil
			}
		}
		return target{}, fmt.Errorf(`%q is not a database URL: write "sqlite:PATH", a path ending in .db, .sqlite or .sqlite3, or a URL like "postgres://user@host/db"`, s)
	}
	t := target{kind: kindOther, scheme: lower, dsn: s}
	switch lower {
	case "postgres", "postgresql", "pgx":
		t.kind = kindPostgres
	case "mysql", "mariadb":
		t.kind = kindMySQL
		// go-sql-driver/mysql takes "user:pass@tcp(host)/db", not a URL.
		t.dsn = strings.TrimPrefix(rest, "//")
	}
	if !validScheme(lower) {
		return target{}, fmt.Errorf("%q: %q is not a URL scheme (the scheme names the database driver)", mask(s), scheme)
	}
	return t, nil
}

func validScheme(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '_')) {
			return false
		}
	}
	return s != ""
}

// secretParams are query parameters masked in shown URLs.
var secretParams = []string{"password", "pass", "pwd", "passwd", "secret", "token", "access_token", "api_key", "apikey", "key", "sslpassword", "auth", "authtoken"}

// userinfoRE matches the "user:password@" of DSNs that are not URLs
// (go-sql-driver/mysql: "user:pass@tcp(host)/db").
var userinfoRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^:@/?]*):([^@]*)@`) })

// mask returns a URL fit to show: its password and secret-looking query
// parameters replaced by "xxxxx".
func mask(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || (u.Host == "" && u.User == nil) {
		// Not a hierarchical URL: mask "user:password@" at the start of
		// what follows the scheme, and key=value secrets anywhere.
		prefix, rest := "", s
		if scheme, after, ok := strings.Cut(s, "://"); ok && validScheme(strings.ToLower(scheme)) {
			prefix, rest = scheme+"://", after
		}
		rest = userinfoRE().ReplaceAllString(rest, "$1:xxxxx@")
		return prefix + maskPairs(rest)
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for k := range q {
			if slices.Contains(secretParams, strings.ToLower(k)) {
				q[k] = []string{"xxxxx"}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// pairRE matches key=value pairs (libpq "host=x password=y" DSNs, or query strings).
var pairRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(password|pass|pwd|passwd|secret|token|access_token|api_key|apikey|sslpassword)=('[^']*'|[^\s&;]*)`)
})

func maskPairs(s string) string {
	return pairRE().ReplaceAllString(s, "$1=xxxxx")
}

// wholeNumber reads an int from YAML or a call: int64, or a float64 with
// no fraction.
func wholeNumber(v any) (int64, bool) {
	n, err := packs.SettingInt(v, "a whole number", math.MinInt64, math.MaxInt64)
	return n, err == nil
}

// shown describes a wrong value in a message.
func shown(v any) string { return packs.ShowSetting(v) }
