package db

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

func TestTables(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	got := js(t, e.ok("db.tables", nil))
	if want := `["big_orders","nums","orders","users"]`; got != want {
		t.Errorf("tables = %s, want %s", got, want)
	}
	// The database parameter, by name and synonym.
	if got := js(t, e.ok("db.tables", map[string]any{"database": "main"})); !strings.Contains(got, "users") {
		t.Errorf("tables(database=main) = %s", got)
	}
}

func TestSchema(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	got := e.ok("db.schema", map[string]any{"table": "users"}).(*ordered.Map)
	if want := []string{"name", "type", "columns", "indexes", "foreign_keys", "sql"}; strings.Join(got.Keys(), ",") != strings.Join(want, ",") {
		t.Errorf("keys = %v, want %v", got.Keys(), want)
	}
	cols, _ := got.Get("columns")
	wantCols := `[{"name":"id","type":"INTEGER","nullable":false,"default":null,"primary_key":true},` +
		`{"name":"name","type":"TEXT","nullable":false,"default":null,"primary_key":false},` +
		`{"name":"score","type":"REAL","nullable":true,"default":null,"primary_key":false},` +
		`{"name":"email","type":"TEXT","nullable":true,"default":null,"primary_key":false},` +
		`{"name":"joined","type":"DATE","nullable":true,"default":"'2024-01-01'","primary_key":false},` +
		`{"name":"seen","type":"DATETIME","nullable":true,"default":null,"primary_key":false},` +
		`{"name":"avatar","type":"BLOB","nullable":true,"default":null,"primary_key":false}]`
	if js(t, cols) != wantCols {
		t.Errorf("columns =\n%s\nwant\n%s", js(t, cols), wantCols)
	}
	idx, _ := got.Get("indexes")
	if s := js(t, idx); !strings.Contains(s, `"columns":["email"],"unique":true,"origin":"unique constraint"`) {
		t.Errorf("indexes = %s", s)
	}
	if s, _ := got.Get("sql"); !strings.HasPrefix(s.(string), "CREATE TABLE users") {
		t.Errorf("sql = %v", s)
	}

	orders := e.ok("db.schema", map[string]any{"table": "ORDERS"}).(*ordered.Map) // names are case-insensitive
	if name, _ := orders.Get("name"); name != "orders" {
		t.Errorf("name = %v", name)
	}
	idx, _ = orders.Get("indexes")
	if s := js(t, idx); s != `[{"name":"orders_by_user","columns":["user_id","total"],"unique":false,"origin":"create index"}]` {
		t.Errorf("orders indexes = %s", s)
	}
	fk, _ := orders.Get("foreign_keys")
	if s := js(t, fk); s != `[{"columns":["user_id"],"table":"users","references":["id"]}]` {
		t.Errorf("foreign keys = %s", s)
	}
	view := e.ok("db.schema", map[string]any{"name": "big_orders"}).(*ordered.Map) // synonym
	if typ, _ := view.Get("type"); typ != "view" {
		t.Errorf("view type = %v", typ)
	}

	_, err := e.call("db.schema", map[string]any{"table": "user"})
	wantErr(t, "unknown table", err, "no table or view 'user'", "Did you mean 'users'?", "Tables: big_orders, nums, orders, users")
	_, err = e.call("db.schema", map[string]any{"table": ""})
	wantErr(t, "empty table", err, "empty table name")
}

func TestQueryValues(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT * FROM users ORDER BY id"}))
	want := `[{"id":1,"name":"Ada","score":9.5,"email":"ada@example.com","joined":"2024-01-02","seen":"2024-03-04T05:06:07Z","avatar":{"base64":"AAECA/8=","bytes":5}},` +
		`{"id":2,"name":"Bob","score":null,"email":null,"joined":"2024-02-03","seen":null,"avatar":null},` +
		`{"id":3,"name":"Cy","score":7.0,"email":"cy@example.com","joined":"2024-03-04","seen":"2024-05-06T07:08:09Z","avatar":{"base64":"","bytes":0}}]`
	if got != want {
		t.Errorf("rows =\n%s\nwant\n%s", got, want)
	}
	// Column order follows the SELECT; repeated names are told apart.
	got = js(t, e.ok("db.query", map[string]any{"sql": "SELECT o.id, u.id, u.name, 1 + 1 FROM orders o JOIN users u ON u.id = o.user_id WHERE o.id = 1"}))
	if want := `[{"id":1,"id_2":1,"name":"Ada","1 + 1":2}]`; got != want {
		t.Errorf("join = %s, want %s", got, want)
	}
	// No rows: an empty list.
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT * FROM users WHERE id < 0"})); got != "[]" {
		t.Errorf("no rows = %s", got)
	}
}

func TestQueryParams(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	tests := []struct {
		sql    string
		params []any
		want   string
	}{
		{"SELECT name FROM users WHERE id = ?", []any{int64(2)}, `[{"name":"Bob"}]`},
		{"SELECT name FROM users WHERE score > ? AND name <> ? ORDER BY id", []any{5.5, "Cy"}, `[{"name":"Ada"}]`},
		{"SELECT ? IS NULL AS none, ? AS b", []any{nil, true}, `[{"none":1,"b":1}]`},
		{"SELECT id FROM users WHERE avatar = ?", []any{map[string]any{"base64": "AAECA/8="}}, `[{"id":1}]`},
		{"SELECT 'it''s ?' AS s, ? AS v", []any{"x"}, `[{"s":"it's ?","v":"x"}]`},
		{"SELECT count(*) AS n FROM users WHERE name IN (?, ?)", []any{"Ada", "Bob"}, `[{"n":2}]`},
		{"SELECT ?2 AS a, ?1 AS b", []any{"x", "y"}, `[{"a":"y","b":"x"}]`},
	}
	for _, tt := range tests {
		got := js(t, e.ok("db.query", map[string]any{"sql": tt.sql, "params": tt.params}))
		if got != tt.want {
			t.Errorf("%s %v = %s, want %s", tt.sql, tt.params, got, tt.want)
		}
	}
	// Positional call: sql, params.
	tool, _ := e.reg.Tool("db.query")
	res, err := packs.Call(context.Background(), tool, []any{"SELECT ? AS v", []any{int64(5)}}, nil)
	if err != nil || js(t, res) != `[{"v":5}]` {
		t.Errorf("positional call = %v, %v", res, err)
	}

	errs := []struct {
		sql    string
		params []any
		parts  []string
	}{
		{"SELECT ?", []any{[]any{int64(1), int64(2)}}, []string{"params[0]", "one ? per value"}},
		{"SELECT ?", []any{map[string]any{"a": int64(1)}}, []string{"params[0]", "dict cannot fill"}},
		{"SELECT ?", []any{map[string]any{"base64": "!!"}}, []string{"params[0]", "base64"}},
		{"SELECT ?, ?", []any{int64(1)}, []string{"arg"}},
		{"SELEC 1", nil, []string{`near "SELEC": syntax error`}},
		{"SELECT * FROM userz", nil, []string{"no such table: userz", "Did you mean 'users'?", "Tables: big_orders, nums, orders, users"}},
		{"   ;  ", nil, []string{"empty SQL"}},
	}
	for _, tt := range errs {
		_, err := e.call("db.query", map[string]any{"sql": tt.sql, "params": tt.params})
		wantErr(t, tt.sql, err, tt.parts...)
		if err != nil && strings.Contains(err.Error(), "db.query") {
			t.Errorf("%s: error repeats the tool name: %v", tt.sql, err)
		}
	}
}

func TestQueryMaxRows(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	rows := e.ok("db.query", map[string]any{"sql": "SELECT n FROM nums ORDER BY n"}).([]any)
	if len(rows) != DefaultMaxRows+1 {
		t.Fatalf("%d elements, want %d rows and a note", len(rows), DefaultMaxRows)
	}
	note, ok := rows[DefaultMaxRows].(string)
	if !ok || !strings.HasPrefix(note, "… 1500 more rows not shown: only the first 1000 are listed (max_rows=1000)") || !strings.Contains(note, "OFFSET 1000") {
		t.Errorf("note = %#v", rows[DefaultMaxRows])
	}
	if last := js(t, rows[DefaultMaxRows-1]); last != `{"n":1000}` {
		t.Errorf("last row = %s", last)
	}

	rows = e.ok("db.query", map[string]any{"sql": "SELECT n FROM nums ORDER BY n", "max_rows": int64(10)}).([]any)
	if len(rows) != 11 || !strings.HasPrefix(rows[10].(string), "… 2490 more rows not shown") {
		t.Errorf("max_rows=10: %d elements, last %#v", len(rows), rows[len(rows)-1])
	}
	rows = e.ok("db.query", map[string]any{"sql": "SELECT n FROM nums LIMIT 5", "limit": int64(4)}).([]any) // synonym
	if len(rows) != 5 || rows[4] != "… 1 more row not shown: only the first 4 are listed (max_rows=4). Narrow the query (WHERE, LIMIT … OFFSET 4 for the next page) or raise max_rows (up to 100000)" {
		t.Errorf("one more row: %#v", rows[len(rows)-1])
	}
	// Exactly max_rows rows: no note.
	rows = e.ok("db.query", map[string]any{"sql": "SELECT n FROM nums LIMIT 3", "max_rows": int64(3)}).([]any)
	if len(rows) != 3 {
		t.Errorf("exactly max_rows: %d elements", len(rows))
	}

	// The configured default.
	e2 := newEnv(t, Options{ReadOnly: true, MaxRows: 7})
	rows = e2.ok("db.query", map[string]any{"sql": "SELECT n FROM nums"}).([]any)
	if len(rows) != 8 {
		t.Errorf("MaxRows 7: %d elements", len(rows))
	}
	tool, _ := e2.reg.Tool("db.query")
	if sig := tool.Signature(); sig != "db.query(sql: str, params: list = [], max_rows: int = 7, db: str = \"\") -> list[dict]" {
		t.Errorf("signature = %s", sig)
	}

	_, err := e.call("db.query", map[string]any{"sql": "SELECT 1", "max_rows": int64(0)})
	if err == nil {
		t.Error("max_rows=0: no error")
	}
}

func TestReadOnlyRefusals(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	outside := filepath.Join(e.tmp, "other.db")
	writes := []struct {
		sql   string
		parts []string
	}{
		{"INSERT INTO users (name) VALUES ('Eve')", []string{"INSERT into users is not allowed", "packs.db.read_only: false"}},
		{"UPDATE users SET name = 'x'", []string{"UPDATE of users", "packs.db.read_only: false"}},
		{"DELETE FROM orders", []string{"DELETE from orders", "packs.db.read_only: false"}},
		{"DROP TABLE orders", []string{"packs.db.read_only: false"}},
		{"CREATE TABLE t (x)", []string{"packs.db.read_only: false"}},
		{"CREATE TEMP TABLE t (x)", []string{"packs.db.read_only: false"}},
		{"ALTER TABLE users ADD COLUMN x", []string{"packs.db.read_only: false"}},
		{"CREATE INDEX i ON users(name)", []string{"packs.db.read_only: false"}},
		{"REINDEX", []string{"REINDEX", "packs.db.read_only: false"}},
		{"ANALYZE", []string{"packs.db.read_only: false"}},
		{"PRAGMA user_version = 5", []string{"PRAGMA user_version = 5", "packs.db.read_only: false"}},
		{"PRAGMA query_only = 0", []string{"PRAGMA query_only", "packs.db.read_only: false"}},
		{"PRAGMA journal_mode = DELETE", []string{"packs.db.read_only: false"}},
		{"PRAGMA optimize", []string{"packs.db.read_only: false"}},
		{"SELECT 1; DELETE FROM orders", []string{"DELETE from orders"}},
		{"WITH x AS (SELECT 1) DELETE FROM orders", []string{"DELETE from orders"}},
		{"INSERT INTO users (name) VALUES ('Eve') RETURNING id", []string{"INSERT into users"}},
		{"ATTACH '" + outside + "' AS o", []string{"ATTACH and VACUUM INTO are not allowed"}},
		{"VACUUM INTO '" + outside + "'", []string{"ATTACH and VACUUM INTO are not allowed"}},
		{"DETACH main", []string{"DETACH is not allowed"}},
		{"SELECT load_extension('x')", []string{"load_extension() is not allowed"}},
		{"PRAGMA temp_store_directory = '/tmp'", []string{"is not allowed"}},
	}
	for _, w := range writes {
		_, err := e.call("db.query", map[string]any{"sql": w.sql})
		wantErr(t, w.sql, err, w.parts...)
	}
	_, err := e.call("db.execute", map[string]any{"sql": "DELETE FROM orders"})
	wantErr(t, "execute", err, "read-only", "nothing was run", "packs.db.read_only: false")

	// Nothing changed, nothing was created.
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT (SELECT count(*) FROM users) AS u, (SELECT count(*) FROM orders) AS o"})); got != `[{"u":3,"o":3}]` {
		t.Errorf("counts after refusals = %s", got)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("ATTACH or VACUUM INTO created a file outside the roots")
	}
	// Reading pragmas still work.
	for _, q := range []string{"PRAGMA user_version", "PRAGMA table_info(users)", "SELECT * FROM pragma_index_list('orders')", "PRAGMA integrity_check", "PRAGMA query_only"} {
		if _, err := e.call("db.query", map[string]any{"sql": q}); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	// The annotations say so.
	tool, _ := e.reg.Tool("db.query")
	if !tool.Annotations.ReadOnly {
		t.Error("db.query is not annotated read-only in a read-only pack")
	}
}

func TestWritesAllowed(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: false})
	res := e.ok("db.execute", map[string]any{"sql": "INSERT INTO users (name, score) VALUES (?, ?)", "params": []any{"Eve", 3.5}})
	if got := js(t, res); got != `{"rows_affected":1,"last_insert_id":4}` {
		t.Errorf("insert = %s", got)
	}
	res = e.ok("db.execute", map[string]any{"sql": "UPDATE orders SET note = ? WHERE user_id = ?", "params": []any{"x", int64(1)}})
	if got := js(t, res); !strings.HasPrefix(got, `{"rows_affected":2,`) {
		t.Errorf("update = %s", got)
	}
	res = e.ok("db.execute", map[string]any{"sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('a'), ('b')"})
	if got := js(t, res); !strings.HasPrefix(got, `{"rows_affected":2,`) {
		t.Errorf("script = %s", got)
	}
	// db.query takes writes too, e.g. with RETURNING.
	res = e.ok("db.query", map[string]any{"sql": "INSERT INTO notes (body) VALUES (?) RETURNING id, body", "params": []any{map[string]any{"base64": "aGk="}}})
	if got := js(t, res); got != `[{"id":3,"body":{"base64":"aGk=","bytes":2}}]` {
		t.Errorf("returning = %s", got)
	}
	e.ok("db.execute", map[string]any{"sql": "PRAGMA user_version = 7"})
	if got := js(t, e.ok("db.query", map[string]any{"sql": "PRAGMA user_version"})); got != `[{"user_version":7}]` {
		t.Errorf("user_version = %s", got)
	}
	e.ok("db.execute", map[string]any{"sql": "DROP TABLE notes"})

	// Still never: other files.
	outside := filepath.Join(e.tmp, "other.db")
	for _, q := range []string{"ATTACH '" + outside + "' AS o", "VACUUM INTO '" + outside + "'"} {
		_, err := e.call("db.execute", map[string]any{"sql": q})
		wantErr(t, q, err, "not allowed")
		if err != nil && strings.Contains(err.Error(), "read_only") {
			t.Errorf("%s: the refusal blames read_only: %v", q, err)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a file was created outside the roots")
	}
	tool, _ := e.reg.Tool("db.query")
	if tool.Annotations.ReadOnly {
		t.Error("db.query annotated read-only in a writable pack")
	}
	// A constraint failure is reported as SQLite words it.
	_, err := e.call("db.execute", map[string]any{"sql": "INSERT INTO users (id, name) VALUES (1, 'dup')"})
	wantErr(t, "constraint", err, "UNIQUE constraint failed: users.id")
}

func TestCreatesDatabaseOnlyWhenWritable(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Databases: map[string]string{"new": "sqlite:sub/new.db"}})
	if err := os.Mkdir(filepath.Join(e.root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := e.call("db.tables", nil)
	wantErr(t, "read-only missing file", err, "new.db does not exist", "packs.db.databases.new", "never creates")
	if _, err := os.Stat(filepath.Join(e.root, "sub", "new.db")); err == nil {
		t.Error("a read-only pack created the database")
	}

	w := newEnv(t, Options{ReadOnly: false, Databases: map[string]string{"new": "sqlite:new.db"}})
	w.ok("db.execute", map[string]any{"sql": "CREATE TABLE t (x)"})
	if _, err := os.Stat(filepath.Join(w.root, "new.db")); err != nil {
		t.Errorf("writable pack did not create the database: %v", err)
	}
	w2 := newEnv(t, Options{ReadOnly: false, Databases: map[string]string{"new": "sqlite:nodir/new.db"}})
	_, err = w2.call("db.tables", nil)
	wantErr(t, "missing directory", err, "directory of", "does not exist")
}

func TestRootsConfinement(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	outsideDir := filepath.Join(tmp, "outside")
	if err := os.Mkdir(outsideDir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(outsideDir, "secret.db")
	makeDB(t, outside, "CREATE TABLE secrets (s TEXT); INSERT INTO secrets VALUES ('x');")

	e := newEnv(t, Options{ReadOnly: true, Databases: map[string]string{
		"abs":    "sqlite:" + outside,
		"rel":    "sqlite:../rel/secret.db",
		"link":   "sqlite:link.db",
		"inside": "app.db",
	}})
	if err := os.Mkdir(filepath.Join(e.tmp, "rel"), 0o755); err != nil {
		t.Fatal(err)
	}
	makeDB(t, filepath.Join(e.tmp, "rel", "secret.db"), "CREATE TABLE secrets (s TEXT);")
	if err := os.Symlink(outside, filepath.Join(e.root, "link.db")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"abs", "rel", "link"} {
		_, err := e.call("db.query", map[string]any{"sql": "SELECT * FROM secrets", "db": name})
		wantErr(t, name, err, "outside the allowed roots", e.root)
	}
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT count(*) AS n FROM users", "db": "inside"})); got != `[{"n":3}]` {
		t.Errorf("inside = %s", got)
	}
	// Without roots, any path goes.
	free, err := New(Options{ReadOnly: true, Databases: map[string]string{"abs": "sqlite:" + outside}})
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	reg := packs.NewRegistry()
	if err := reg.Register(free.Tools()...); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("db.tables")
	if res, err := packs.Call(context.Background(), tool, nil, nil); err != nil || js(t, res) != `["secrets"]` {
		t.Errorf("no roots: %v, %v", res, err)
	}
}

func TestCancellation(t *testing.T) {
	const forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
	e := newEnv(t, Options{ReadOnly: true, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := e.call("db.query", map[string]any{"sql": forever})
	wantErr(t, "timeout", err, "stopped after 200ms (packs.db.timeout)")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s to stop", d)
	}

	e = newEnv(t, Options{ReadOnly: true})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	_, err = e.callCtx(ctx, "db.query", map[string]any{"sql": forever})
	wantErr(t, "cancel", err, "stopped: the call was cancelled")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error does not wrap context.Canceled: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s to stop", d)
	}
	// The pool is still usable.
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT 1 AS one"})); got != `[{"one":1}]` {
		t.Errorf("after cancel = %s", got)
	}
}

func TestDatabaseSelection(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Databases: map[string]string{}})
	for _, id := range []string{"db.tables", "db.databases"} {
		_, err := e.call(id, nil)
		wantErr(t, id+" with none", err, "no databases are configured", `packs: {db: {databases: {main: "sqlite:app.db"}}}`)
	}
	_, err := e.call("db.query", map[string]any{"sql": "SELECT 1"})
	wantErr(t, "query with none", err, "no databases are configured")

	two := map[string]string{"main": "sqlite:app.db", "logs": "sqlite::memory:"}
	e = newEnv(t, Options{ReadOnly: true, Databases: two})
	_, err = e.call("db.tables", nil)
	wantErr(t, "no default", err, "2 databases are configured (logs, main)", `db="logs"`, "packs.db.default")
	_, err = e.call("db.tables", map[string]any{"db": "mian"})
	wantErr(t, "typo", err, "no database 'mian' is configured", "Did you mean 'main'?", "Configured: logs, main")
	if got := js(t, e.ok("db.tables", map[string]any{"db": "main"})); !strings.Contains(got, "users") {
		t.Errorf("db=main: %s", got)
	}
	// Errors name the database when there are several.
	_, err = e.call("db.query", map[string]any{"sql": "SELECT * FROM nope", "db": "logs"})
	wantErr(t, "label", err, "database 'logs': no such table: nope", "The database has no tables")

	e = newEnv(t, Options{ReadOnly: true, Databases: two, Default: "main"})
	if got := js(t, e.ok("db.tables", nil)); !strings.Contains(got, "users") {
		t.Errorf("default main: %s", got)
	}
	if _, err := New(Options{Databases: two, Default: "nope"}); err == nil || !strings.Contains(err.Error(), "packs.db.default") {
		t.Errorf("New with unknown default: %v", err)
	}
}

func TestDatabasesTool(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Default: "main", Databases: map[string]string{
		"main": "sqlite:app.db",
		"pg":   "postgres://admin:s3cret@db.example.com:5432/shop?sslmode=disable",
		"mem":  "sqlite::memory:",
	}})
	got := js(t, e.ok("db.databases", nil))
	want := `[{"name":"main","url":"sqlite:app.db","kind":"sqlite","default":true,"read_only":true},` +
		`{"name":"mem","url":"sqlite::memory:","kind":"sqlite","default":false,"read_only":true},` +
		`{"name":"pg","url":"postgres://admin:xxxxx@db.example.com:5432/shop?sslmode=disable","kind":"postgres","default":false,"read_only":true}]`
	if got != want {
		t.Errorf("databases =\n%s\nwant\n%s", got, want)
	}
	// A driver that is not built in: a clear error, no password.
	_, err := e.call("db.tables", map[string]any{"db": "pg"})
	wantErr(t, "no driver", err, "no driver for postgres URLs is built into this program", "xxxxx")
	if err != nil && strings.Contains(err.Error(), "s3cret") {
		t.Errorf("password leaked: %v", err)
	}
}

func TestMemoryDatabase(t *testing.T) {
	e := newEnv(t, Options{Databases: map[string]string{"mem": "sqlite::memory:"}})
	e.ok("db.execute", map[string]any{"sql": "CREATE TABLE kv (k TEXT PRIMARY KEY, v)"})
	e.ok("db.execute", map[string]any{"sql": "INSERT INTO kv VALUES (?, ?), (?, ?)", "params": []any{"a", int64(1), "b", 2.5}})
	// The data outlives calls: one connection is kept.
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT * FROM kv ORDER BY k"})); got != `[{"k":"a","v":1},{"k":"b","v":2.5}]` {
		t.Errorf("kv = %s", got)
	}
	if got := js(t, e.ok("db.tables", nil)); got != `["kv"]` {
		t.Errorf("tables = %s", got)
	}
}

func TestClose(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	e.ok("db.tables", nil)
	if err := e.pack.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := e.call("db.tables", nil)
	wantErr(t, "after close", err, "closed")
}

func TestToolsWithBadOptions(t *testing.T) {
	tools := Tools(Options{Databases: map[string]string{"main": "nonsense"}})
	reg := packs.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("db.tables")
	_, err := packs.Call(context.Background(), tool, nil, nil)
	wantErr(t, "bad options", err, "packs.db.databases.main", "not a database URL")
}

func TestSignatures(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	want := map[string]string{
		"db.databases": "db.databases() -> list[dict]",
		"db.tables":    `db.tables(db: str = "") -> list[str]`,
		"db.schema":    `db.schema(table: str, db: str = "") -> dict`,
		"db.query":     `db.query(sql: str, params: list = [], max_rows: int = 1000, db: str = "") -> list[dict]`,
		"db.execute":   `db.execute(sql: str, params: list = [], db: str = "") -> dict`,
	}
	for id, sig := range want {
		tool, ok := e.reg.Tool(id)
		if !ok {
			t.Errorf("no %s", id)
			continue
		}
		if got := tool.Signature(); got != sig {
			t.Errorf("%s signature = %s, want %s", id, got, sig)
		}
	}
}

func TestConcurrentQueries(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	done := make(chan error, 8)
	for i := range 8 {
		go func() {
			res, err := e.call("db.query", map[string]any{"sql": "SELECT count(*) AS n FROM nums WHERE n > ?", "params": []any{int64(i)}})
			if err == nil && js(t, res) != `[{"n":`+strconv.Itoa(2500-i)+`}]` {
				err = errors.New(js(t, res))
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// A SQLite path that names one of onetool's own files, or lies in a
// .onetool directory, is refused (SPEC §8.2), even when it is a real
// database: by name, through a link and through a hard link. A writable
// pack does not create one there either.
func TestOwnFilesRefused(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(tmp, "root")
	if err := os.MkdirAll(filepath.Join(root, ".onetool"), 0o755); err != nil {
		t.Fatal(err)
	}
	makeDB(t, filepath.Join(root, ".onetool", "app.db"), "CREATE TABLE secrets (s TEXT);")
	makeDB(t, filepath.Join(root, "conf.db"), "CREATE TABLE secrets (s TEXT);")
	if err := os.Symlink(".onetool/app.db", filepath.Join(root, "link.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(root, "conf.db"), filepath.Join(root, "hard.db")); err != nil {
		t.Fatal(err)
	}
	r, err := roots.New(root)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = r.Protect(roots.Own{Path: "conf.db", What: "config file"}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{ReadOnly: false, Roots: r, Databases: map[string]string{
		"dir": "sqlite:" + filepath.Join(root, ".onetool", "app.db"), "case": "sqlite:" + filepath.Join(root, ".ONETOOL", "app.db"),
		"own": "sqlite:" + filepath.Join(root, "conf.db"), "link": "sqlite:" + filepath.Join(root, "link.db"),
		"hard": "sqlite:" + filepath.Join(root, "hard.db"), "new": "sqlite:" + filepath.Join(root, ".onetool", "new.db"),
	}})
	for _, name := range []string{"dir", "case", "own", "link", "hard", "new"} {
		_, err := e.call("db.execute", map[string]any{"sql": "INSERT INTO secrets VALUES ('x')", "db": name})
		if !errors.Is(err, roots.ErrProtected) {
			t.Errorf("%s: %v, want refused as onetool's own", name, err)
			continue
		}
		wantErr(t, name, err, "onetool's own", "keep databases out of them (.onetool/ included)", "packs.db.databases")
	}
	if _, err := os.Stat(filepath.Join(root, ".onetool", "new.db")); !os.IsNotExist(err) {
		t.Errorf("a database was created in .onetool: %v", err)
	}
}
