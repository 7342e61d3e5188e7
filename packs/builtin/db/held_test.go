package db

import (
	"context"
	"errors"
	"testing"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs"
	sqlite3 "modernc.org/sqlite/lib"
)

// variant calls a variant's handler with ctx, as the runner would.
func (e *env) variant(ctx context.Context, id string, args map[string]any) (map[string]any, error) {
	e.t.Helper()
	v, ok := e.reg.Variant(id)
	if !ok {
		e.t.Fatalf("no variant %s", id)
	}
	res, err := v.Handler(ctx, args)
	m, _ := res.(map[string]any)
	return m, err
}

// The constant sqlite3.sqlite_version shows is the linked SQLite's.
func TestSQLiteVersion(t *testing.T) {
	if pyops.SQLiteVersion != sqlite3.SQLITE_VERSION {
		t.Errorf("pyops.SQLiteVersion %s, the driver links %s", pyops.SQLiteVersion, sqlite3.SQLITE_VERSION)
	}
}

// A held connection keeps its transaction between statements, knows
// in_transaction from SQLite itself (the driver's handle, read by
// reflection: this fails if the driver renames it), and is rolled back
// when the run's Scope closes; a closed one is CPython's ProgrammingError.
func TestHeldConnection(t *testing.T) {
	e := newEnv(t, Options{})
	e.pack.o.ReadOnly = false
	scope := packs.NewScope()
	ctx := packs.WithScope(context.Background(), scope)
	c, err := e.variant(ctx, pyops.DBConnect, map[string]any{"target": "app.db"})
	if err != nil {
		t.Fatal(err)
	}
	conn := c["conn"]
	run := func(q string, params any, begin bool) map[string]any {
		t.Helper()
		res, err := e.variant(ctx, pyops.DBRun, map[string]any{"conn": conn, "sql": q, "params": params, "begin": begin})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	res := run("DELETE FROM nums WHERE n > :n", map[string]any{"n": int64(10)}, true)
	if res["rowcount"] != int64(2490) || res["in_transaction"] != true {
		t.Errorf("delete: %v", res)
	}
	res = run("SELECT count(*), x'00ff', 'é', 1.5, NULL FROM nums", []any{}, false)
	row := res["rows"].([]any)[0].([]any)
	b, _ := pyops.GetContent(row[1])
	if row[0] != int64(10) || string(b) != "\x00\xff" || row[2] != "é" || row[3] != 1.5 || row[4] != nil {
		t.Errorf("row: %#v", row)
	}
	if err := scope.Close(); err != nil {
		t.Fatal(err)
	}
	if n := e.ok("db.query", map[string]any{"sql": "SELECT count(*) AS n FROM nums"}); js(t, n) != `[{"n":2500}]` {
		t.Errorf("after the run: %s, want the delete rolled back", js(t, n))
	}
	_, err = e.variant(ctx, pyops.DBRun, map[string]any{"conn": conn, "sql": "SELECT 1"})
	if !errors.Is(err, pyops.ErrSQLProgramming) || err.Error() != "Cannot operate on a closed database." {
		t.Errorf("after the run: %v", err)
	}
}

// Each kind of failure has sqlite3's class; a run holds at most MaxHeld
// connections; connect needs a run.
func TestHeldErrors(t *testing.T) {
	e := newEnv(t, Options{})
	e.pack.o.ReadOnly = false
	scope := packs.NewScope()
	defer scope.Close()
	ctx := packs.WithScope(context.Background(), scope)
	c, err := e.variant(ctx, pyops.DBConnect, map[string]any{"target": "main"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sql    string
		params any
		kind   error
		text   string
	}{
		{"INSERT INTO users(id, name) VALUES (1, 'x')", []any{}, pyops.ErrSQLIntegrity, "UNIQUE constraint failed: users.id"},
		{"SELECT * FROM nope", []any{}, pyops.ErrSQLOperational, "no such table: nope"},
		{"SELECT ?", []any{}, pyops.ErrSQLProgramming, "Incorrect number of bindings supplied. The current statement uses 1, and there are 0 supplied."},
		{"SELECT 1; SELECT 2", []any{}, pyops.ErrSQLProgramming, "You can only execute one statement at a time."},
		{"SELECT :a", map[string]any{"b": int64(1)}, pyops.ErrSQLProgramming, "You did not supply a value for binding parameter :a."},
		{"SELECT ?", map[string]any{"b": int64(1)}, pyops.ErrSQLProgramming, "Binding 1 has no name, but you supplied a dictionary (which has only names)."},
		{"SELECT abs(-9223372036854775807 - 1)", []any{}, pyops.ErrSQLOperational, "integer overflow"},
	} {
		_, err := e.variant(ctx, pyops.DBRun, map[string]any{"conn": c["conn"], "sql": tc.sql, "params": tc.params})
		if !errors.Is(err, tc.kind) || err.Error() != tc.text {
			t.Errorf("%s: %v, want %v %q", tc.sql, err, tc.kind, tc.text)
		}
	}
	for i := 1; i < MaxHeld; i++ {
		if _, err := e.variant(ctx, pyops.DBConnect, map[string]any{"target": "main"}); err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
	}
	_, err = e.variant(ctx, pyops.DBConnect, map[string]any{"target": "main"})
	wantErr(t, "one too many", err, "already holds 64 open connections")
	_, err = e.variant(context.Background(), pyops.DBConnect, map[string]any{"target": "main"})
	wantErr(t, "outside a run", err, "only inside a run")
}
