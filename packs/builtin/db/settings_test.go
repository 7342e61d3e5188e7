package db

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

func TestParseSettings(t *testing.T) {
	base := filepath.FromSlash("/etc/onetool")
	o, err := ParseSettings(map[string]any{
		"databases": map[string]any{
			"main":  "sqlite:data/app.db",
			"abs":   "sqlite:/var/lib/x.db",
			"url":   "sqlite:///var/lib/y.db",
			"bare":  "logs.sqlite3",
			"mem":   "sqlite::memory:",
			"pg":    "postgres://u:p@h/db",
			"my":    "mysql://u:p@tcp(h:3306)/db",
			"other": "clickhouse://h:9000/db",
		},
		"default":  "main",
		"max_rows": int64(50),
		"timeout":  "2s",
	}, base)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"main":  "sqlite:" + filepath.Join(base, "data", "app.db"),
		"abs":   "sqlite:/var/lib/x.db",
		"url":   "sqlite:///var/lib/y.db",
		"bare":  "sqlite:" + filepath.Join(base, "logs.sqlite3"),
		"mem":   "sqlite::memory:",
		"pg":    "postgres://u:p@h/db",
		"my":    "mysql://u:p@tcp(h:3306)/db",
		"other": "clickhouse://h:9000/db",
	}
	for k, v := range want {
		if o.Databases[k] != v {
			t.Errorf("databases[%s] = %q, want %q", k, o.Databases[k], v)
		}
	}
	if !o.ReadOnly || o.Default != "main" || o.MaxRows != 50 || o.Timeout != 2*time.Second {
		t.Errorf("options = %+v", o)
	}
	if _, err := New(o); err != nil {
		t.Errorf("New(parsed): %v", err)
	}

	// Defaults, read_only false, timeout in seconds, nulls, an ordered map.
	dbs := ordered.NewMap(1)
	dbs.Set("main", "app.db")
	o, err = ParseSettings(map[string]any{"databases": dbs, "read_only": false, "timeout": int64(5), "max_rows": nil}, base)
	if err != nil {
		t.Fatal(err)
	}
	if o.ReadOnly || o.Timeout != 5*time.Second || o.MaxRows != 0 || o.Databases["main"] != "sqlite:"+filepath.Join(base, "app.db") {
		t.Errorf("options = %+v", o)
	}
	if o, err := ParseSettings(nil, base); err != nil || !o.ReadOnly || len(o.Databases) != 0 {
		t.Errorf("empty settings = %+v, %v", o, err)
	}
	if o, _ := ParseSettings(map[string]any{"timeout": 1.5}, base); o.Timeout != 1500*time.Millisecond {
		t.Errorf("timeout 1.5 = %s", o.Timeout)
	}
}

func TestParseSettingsErrors(t *testing.T) {
	tests := []struct {
		settings map[string]any
		parts    []string
	}{
		{map[string]any{"databse": map[string]any{}}, []string{"packs.db.databse: unknown setting: did you mean databases?"}},
		{map[string]any{"colour": true}, []string{"packs.db.colour: unknown setting; the db pack reads databases, default, max_rows, read_only, timeout"}},
		{map[string]any{"databases": "sqlite:app.db"}, []string{"packs.db.databases: want a mapping of names to URLs", `the string "sqlite:app.db"`}},
		{map[string]any{"databases": map[string]any{"main": int64(3)}}, []string{"packs.db.databases.main: want a URL string", "the number 3"}},
		{map[string]any{"databases": map[string]any{"main": "app.txt"}}, []string{"packs.db.databases.main:", "is not a database URL"}},
		{map[string]any{"databases": map[string]any{"main": ""}}, []string{"packs.db.databases.main: empty URL"}},
		{map[string]any{"databases": map[string]any{"main": "sqlite:"}}, []string{"packs.db.databases.main:", "names no file"}},
		{map[string]any{"databases": map[string]any{"main": "sqlite:app.db?mode=rw"}}, []string{"packs.db.databases.main:", "query parameters are not accepted"}},
		{map[string]any{"databases": map[string]any{"bad name": "app.db"}}, []string{"packs.db.databases.bad name:", "not a usable database name"}},
		{map[string]any{"databases": map[string]any{"pg": "post gres://x"}}, []string{"packs.db.databases.pg:"}},
		{map[string]any{"databases": map[string]any{"main": "app.db"}, "default": "mian"}, []string{"packs.db.default: no database 'mian' is configured. Did you mean 'main'?"}},
		{map[string]any{"default": int64(1)}, []string{"packs.db.default: want the name of a database"}},
		{map[string]any{"read_only": "yes"}, []string{"packs.db.read_only: want true or false", `the string "yes"`}},
		{map[string]any{"max_rows": int64(0)}, []string{"packs.db.max_rows: want a number of rows from 1 to 100000, got 0"}},
		{map[string]any{"max_rows": 2.5}, []string{"packs.db.max_rows: want a number of rows"}},
		{map[string]any{"max_rows": int64(1000001)}, []string{"packs.db.max_rows:"}},
		{map[string]any{"timeout": "soon"}, []string{"packs.db.timeout: want a duration", `"soon"`}},
		{map[string]any{"timeout": int64(-1)}, []string{"packs.db.timeout: want a duration above 0, got -1"}},
		{map[string]any{"timeout": "2h"}, []string{`packs.db.timeout: want a duration up to 1h, got "2h"`}},
		{map[string]any{"timeout": math.NaN()}, []string{"packs.db.timeout:"}},
		{map[string]any{"timeout": true}, []string{"packs.db.timeout:", "the boolean true"}},
	}
	for _, tt := range tests {
		_, err := ParseSettings(tt.settings, "/base")
		wantErr(t, strings.Join(keysOf(tt.settings), ","), err, tt.parts...)
	}
	// Several errors are all reported.
	_, err := ParseSettings(map[string]any{"read_only": int64(1), "max_rows": "x", "nope": 1}, "/base")
	wantErr(t, "joined", err, "packs.db.read_only", "packs.db.max_rows", "packs.db.nope")
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in, kind, path, dsn string
		memory              bool
	}{
		{in: "sqlite:app.db", kind: kindSQLite, path: "app.db"},
		{in: "sqlite3:/abs/app.db", kind: kindSQLite, path: "/abs/app.db"},
		{in: "sqlite:///abs/app.db", kind: kindSQLite, path: "/abs/app.db"},
		{in: "file:rel/x.sqlite", kind: kindSQLite, path: "rel/x.sqlite"},
		{in: "sqlite::memory:", kind: kindSQLite, memory: true},
		{in: "data/app.DB", kind: kindSQLite, path: "data/app.DB"},
		{in: "/abs/app.sqlite", kind: kindSQLite, path: "/abs/app.sqlite"},
		{in: "postgres://u:p@h:5432/db?sslmode=disable", kind: kindPostgres, dsn: "postgres://u:p@h:5432/db?sslmode=disable"},
		{in: "postgresql://h/db", kind: kindPostgres, dsn: "postgresql://h/db"},
		{in: "mysql://u:p@tcp(h:3306)/db?parseTime=true", kind: kindMySQL, dsn: "u:p@tcp(h:3306)/db?parseTime=true"},
		{in: "sqlserver://u:p@h?database=x", kind: kindOther, dsn: "sqlserver://u:p@h?database=x"},
	}
	for _, tt := range tests {
		got, err := parseTarget(tt.in)
		if err != nil {
			t.Errorf("parseTarget(%q): %v", tt.in, err)
			continue
		}
		if got.kind != tt.kind || got.path != filepath.FromSlash(tt.path) || got.dsn != tt.dsn || got.memory != tt.memory {
			t.Errorf("parseTarget(%q) = %+v", tt.in, got)
		}
	}
}

func TestMask(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://admin:s3cret@db.example.com:5432/shop", "postgres://admin:xxxxx@db.example.com:5432/shop"},
		{"postgres://admin@db.example.com/shop", "postgres://admin@db.example.com/shop"},
		{"postgres://h/db?sslmode=require&password=s3cret", "postgres://h/db?password=xxxxx&sslmode=require"},
		{"mysql://root:s3cret@tcp(localhost:3306)/app", "mysql://root:xxxxx@tcp(localhost:3306)/app"},
		{"sqlserver://sa:p%40ss@host?database=x", "sqlserver://sa:xxxxx@host?database=x"},
		{"clickhouse://h:9000/db?username=u&password=s3cret", "clickhouse://h:9000/db?password=xxxxx&username=u"},
		{"postgres:host=h user=u password=s3cret dbname=d", "postgres:host=h user=u password=xxxxx dbname=d"},
		{"sqlite:/abs/app.db", "sqlite:/abs/app.db"},
		{"sqlite::memory:", "sqlite::memory:"},
		{"app.db", "app.db"},
	}
	for _, tt := range tests {
		if got := mask(tt.in); got != tt.want {
			t.Errorf("mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(mask(tt.in), "s3cret") {
			t.Errorf("mask(%q) leaks the password", tt.in)
		}
	}
}
