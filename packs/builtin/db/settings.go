package db

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
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
	var errs []error
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := settings[k]
		if v == nil && slices.Contains(settingKeys, k) {
			continue
		}
		var err error
		switch k {
		case "databases":
			var es []error
			o.Databases, es = parseDatabases(v, baseDir)
			errs = append(errs, es...)
		case "default":
			s, ok := v.(string)
			if !ok {
				err = fmt.Errorf("want the name of a database as a string, got %s", shown(v))
			}
			o.Default = s
		case "read_only":
			b, ok := v.(bool)
			if !ok {
				err = fmt.Errorf("want true or false, got %s", shown(v))
			}
			o.ReadOnly = b
		case "max_rows":
			n, ok := wholeNumber(v)
			switch {
			case !ok:
				err = fmt.Errorf("want a number of rows (1 to %d), got %s", MaxRowsLimit, shown(v))
			case n < 1 || n > MaxRowsLimit:
				err = fmt.Errorf("want a number of rows from 1 to %d, got %d", MaxRowsLimit, n)
			default:
				o.MaxRows = int(n)
			}
		case "timeout":
			o.Timeout, err = parseTimeout(v)
		default:
			msg := "unknown setting; the db pack reads " + strings.Join(settingKeys, ", ")
			if s := suggest.Closest(k, settingKeys); s != "" {
				msg = fmt.Sprintf("unknown setting: did you mean %s? The db pack reads %s", s, strings.Join(settingKeys, ", "))
			}
			err = errors.New(msg)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("packs.db.%s: %w", k, err))
		}
	}
	if o.Default != "" && len(errs) == 0 {
		if _, ok := o.Databases[o.Default]; !ok {
			errs = append(errs, fmt.Errorf("packs.db.default: %s", unknownDB(o.Default, o.Databases)))
		}
	}
	return o, errors.Join(errs...)
}

// parseDatabases reads packs.db.databases, checking each URL and making
// relative SQLite paths absolute against baseDir.
func parseDatabases(v any, baseDir string) (map[string]string, []error) {
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
		return nil, []error{fmt.Errorf(`packs.db.databases: want a mapping of names to URLs, like {main: "sqlite:app.db"}, got %s`, shown(v))}
	}
	names := make([]string, 0, len(entries))
	for k := range entries {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make(map[string]string, len(entries))
	var errs []error
	for _, name := range names {
		key := "packs.db.databases." + name
		if err := checkName(name); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
			continue
		}
		s, ok := entries[name].(string)
		if !ok {
			errs = append(errs, fmt.Errorf(`%s: want a URL string like "sqlite:app.db" or "postgres://user@host/db", got %s`, key, shown(entries[name])))
			continue
		}
		t, err := parseTarget(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
			continue
		}
		if t.kind == kindSQLite && !t.memory && !filepath.IsAbs(t.path) && baseDir != "" {
			t.path = filepath.Join(baseDir, t.path)
			s = "sqlite:" + t.path
		}
		out[name] = s
	}
	return out, errs
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// checkName checks a database name: calls pass it as db="name".
func checkName(name string) error {
	if !nameRE.MatchString(name) || len(name) > 64 {
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
var userinfoRE = regexp.MustCompile(`^([^:@/?]*):([^@]*)@`)

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
		rest = userinfoRE.ReplaceAllString(rest, "$1:xxxxx@")
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
var pairRE = regexp.MustCompile(`(?i)\b(password|pass|pwd|passwd|secret|token|access_token|api_key|apikey|sslpassword)=('[^']*'|[^\s&;]*)`)

func maskPairs(s string) string {
	return pairRE.ReplaceAllString(s, "$1=xxxxx")
}

// wholeNumber reads an int from YAML: int64, or a float64 with no fraction.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	}
	return 0, false
}

// parseTimeout reads a duration: "30s", "1m30s", or a number of seconds.
func parseTimeout(v any) (time.Duration, error) {
	const want = `want a duration such as "30s" or "2m", or a number of seconds`
	var d time.Duration
	switch x := v.(type) {
	case string:
		s := strings.TrimSpace(x)
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil {
				return 0, fmt.Errorf("%s, got %q", want, x)
			}
			d = time.Duration(f * float64(time.Second))
		}
	case int64, int, float64:
		var f float64
		switch x := x.(type) {
		case int64:
			f = float64(x)
		case int:
			f = float64(x)
		case float64:
			f = x
		}
		if math.IsNaN(f) || f > float64(MaxTimeout/time.Second) {
			return 0, fmt.Errorf("want at most %s, got %v seconds", MaxTimeout, x)
		}
		d = time.Duration(f * float64(time.Second))
	default:
		return 0, fmt.Errorf("%s, got %s", want, shown(v))
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a duration above zero, got %s", d)
	}
	if d > MaxTimeout {
		return 0, fmt.Errorf("want at most %s, got %s", MaxTimeout, d)
	}
	return d, nil
}

// shown describes a wrong value in a message.
func shown(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 60 {
			x = x[:60] + "…"
		}
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, int, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any, *ordered.Map:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}
