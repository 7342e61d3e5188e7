package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"
)

// fakeDriver stands in for a database/sql driver other than SQLite: it is
// SQLite underneath, with an information_schema attached, and read-only
// transactions that refuse writes the way PostgreSQL's do.
type fakeDriver struct{}

var registerFake sync.Once

func (fakeDriver) Open(name string) (driver.Conn, error) {
	c, err := sqliteConnect(strings.TrimPrefix(name, "fakedb://"))
	if err != nil {
		return nil, err
	}
	ex := c.(driver.ExecerContext)
	if _, err := ex.ExecContext(context.Background(), infoSchema, nil); err != nil {
		c.Close()
		return nil, err
	}
	return &fakeConn{Conn: c}, nil
}

func sqliteConnect(path string) (driver.Conn, error) {
	cn, err := sqlite.NewConnector("file:" + path)
	if err != nil {
		return nil, err
	}
	return cn.Connect(context.Background())
}

// infoSchema is a small information_schema describing the fixture.
const infoSchema = `
ATTACH ':memory:' AS information_schema;
CREATE TABLE information_schema.tables (table_schema, table_name, table_type);
INSERT INTO information_schema.tables VALUES ('main', 'users', 'BASE TABLE'), ('main', 'orders', 'BASE TABLE'), ('main', 'big_orders', 'VIEW');
CREATE TABLE information_schema.columns (table_schema, table_name, column_name, data_type, is_nullable, column_default, ordinal_position);
INSERT INTO information_schema.columns VALUES
	('main', 'users', 'name', 'text', 'NO', NULL, 2),
	('main', 'users', 'id', 'integer', 'NO', 'nextval(''users_id_seq'')', 1),
	('main', 'users', 'score', 'real', 'YES', NULL, 3);
CREATE TABLE information_schema.table_constraints (constraint_name, table_schema, table_name, constraint_type);
INSERT INTO information_schema.table_constraints VALUES ('users_pkey', 'main', 'users', 'PRIMARY KEY');
CREATE TABLE information_schema.key_column_usage (constraint_name, table_schema, table_name, column_name, ordinal_position);
INSERT INTO information_schema.key_column_usage VALUES ('users_pkey', 'main', 'users', 'id', 1);
`

type fakeConn struct {
	driver.Conn
	ro bool
}

func (c *fakeConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.ro = opts.ReadOnly
	return &fakeTx{Tx: tx, c: c}, nil
}

func (c *fakeConn) Prepare(query string) (driver.Stmt, error) {
	if c.ro && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(query)), "SELECT") {
		return nil, fakeError("ERROR: cannot execute " + strings.Fields(query)[0] + " in a read-only transaction (SQLSTATE 25006)")
	}
	return c.Conn.Prepare(query)
}

type fakeError string

func (e fakeError) Error() string { return string(e) }

type fakeTx struct {
	driver.Tx
	c *fakeConn
}

func (t *fakeTx) Rollback() error { t.c.ro = false; return t.Tx.Rollback() }
func (t *fakeTx) Commit() error   { t.c.ro = false; return t.Tx.Commit() }

func fakeEnv(t *testing.T, readOnly bool) *env {
	registerFake.Do(func() { sql.Register("fakedb", fakeDriver{}) })
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	path := filepath.Join(tmp, "fake.db")
	makeDB(t, path, fixture)
	return newEnv(t, Options{ReadOnly: readOnly, Databases: map[string]string{"f": "fakedb://" + path}})
}

func TestOtherDriver(t *testing.T) {
	e := fakeEnv(t, true)
	if got := js(t, e.ok("db.tables", nil)); got != `["big_orders","orders","users"]` {
		t.Errorf("tables = %s", got)
	}
	got := js(t, e.ok("db.schema", map[string]any{"table": "users"}))
	want := `{"name":"users","type":"table","columns":[` +
		`{"name":"id","type":"integer","nullable":false,"default":"nextval('users_id_seq')","primary_key":true},` +
		`{"name":"name","type":"text","nullable":false,"default":null,"primary_key":false},` +
		`{"name":"score","type":"real","nullable":true,"default":null,"primary_key":false}],` +
		`"note":"indexes and foreign keys are listed for SQLite, PostgreSQL and MySQL only; query this database's own catalog with db.query",` +
		`"indexes":[],"foreign_keys":[],"sql":null}`
	if got != want {
		t.Errorf("schema =\n%s\nwant\n%s", got, want)
	}
	if got := js(t, e.ok("db.schema", map[string]any{"table": "main.big_orders"})); !strings.Contains(got, `"type":"view"`) {
		t.Errorf("schema.table = %s", got)
	}
	_, err := e.call("db.schema", map[string]any{"table": "user"})
	wantErr(t, "unknown table", err, "no table or view 'user'", "Did you mean 'users'?")

	rows := e.ok("db.query", map[string]any{"sql": "SELECT id, name, avatar FROM users WHERE id = ?", "params": []any{int64(1)}})
	if got := js(t, rows); got != `[{"id":1,"name":"Ada","avatar":{"base64":"AAECA/8=","bytes":5}}]` {
		t.Errorf("query = %s", got)
	}
	// A read-only transaction refuses writes; the message says what to change.
	_, err = e.call("db.query", map[string]any{"sql": "DELETE FROM orders"})
	wantErr(t, "write", err, "read-only transaction", "packs.db.read_only: false")

	w := fakeEnv(t, false)
	res := w.ok("db.execute", map[string]any{"sql": "DELETE FROM orders WHERE id = ?", "params": []any{int64(2)}})
	if got := js(t, res); !strings.HasPrefix(got, `{"rows_affected":1`) {
		t.Errorf("execute = %s", got)
	}
}

func TestNumberPlaceholders(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = $1 AND b = $2"},
		{"SELECT '?', \"?\", ? -- ?\n, ?", "SELECT '?', \"?\", $1 -- ?\n, $2"},
		{"SELECT 'it''s ?', ? /* ? */ , ?", "SELECT 'it''s ?', $1 /* ? */ , $2"},
		{"SELECT $$ ? $$, $tag$ ? $tag$, ?", "SELECT $$ ? $$, $tag$ ? $tag$, $1"},
		{"SELECT 'unterminated ?", "SELECT 'unterminated ?"},
	}
	for _, tt := range tests {
		if got := numberPlaceholders(tt.in); got != tt.want {
			t.Errorf("numberPlaceholders(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	h := &handle{t: target{kind: kindPostgres}}
	if got := h.placeholders("SELECT $1, ?", 1); got != "SELECT $1, ?" {
		t.Errorf("numbered SQL was rewritten: %q", got)
	}
	if got := h.placeholders("SELECT '{}'::jsonb ? 'a'", 0); got != "SELECT '{}'::jsonb ? 'a'" {
		t.Errorf("SQL without params was rewritten: %q", got)
	}
}

func TestIndexColumns(t *testing.T) {
	got := js(t, indexColumns("CREATE UNIQUE INDEX i ON public.t USING btree (a, lower((b)::text), c DESC)"))
	if want := `["a","lower((b)::text)","c DESC"]`; got != want {
		t.Errorf("indexColumns = %s, want %s", got, want)
	}
}

func TestCell(t *testing.T) {
	tm := time.Date(2024, 5, 6, 7, 8, 9, 500, time.FixedZone("x", 2*3600))
	tests := []struct {
		in     any
		binary bool
		want   string
	}{
		{tm, false, `"2024-05-06T07:08:09.0000005+02:00"`},
		{[]byte("text"), false, `"text"`},
		{[]byte("text"), true, `{"base64":"dGV4dA==","bytes":4}`},
		{[]byte{0xff, 0xfe}, false, `{"base64":"//4=","bytes":2}`},
		{uint64(math.MaxUint64), false, `"18446744073709551615"`},
		{int32(-5), false, `-5`},
		{float32(1.5), false, `1.5`},
		{math.Inf(1), false, `"+Inf"`},
		{nil, false, `null`},
	}
	for _, tt := range tests {
		c, _ := cell(tt.in, tt.binary)
		if got := js(t, c); got != tt.want {
			t.Errorf("cell(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	big := make([]byte, MaxBlobBytes+10)
	c, _ := cell(big, true)
	if s := js(t, c); !strings.HasSuffix(s, `"bytes":1048586,"truncated":true}`) {
		t.Errorf("big blob = …%s", s[len(s)-60:])
	}
	if _, err := bindValue(c); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("binding a cut BLOB: %v", err)
	}
}

func TestResultSizeCap(t *testing.T) {
	old := resultBudget
	resultBudget = 10000
	defer func() { resultBudget = old }()
	e := newEnv(t, Options{ReadOnly: true})
	rows := e.ok("db.query", map[string]any{"sql": "SELECT n, printf('%.500c', 'x') AS pad FROM nums"}).([]any)
	note, ok := rows[len(rows)-1].(string)
	if !ok || !strings.Contains(note, "more rows not shown: the result reached") || len(rows) > 30 {
		t.Errorf("%d elements, last %#v", len(rows), rows[len(rows)-1])
	}
}
