package db

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// fixture is the schema and data of the test database.
const fixture = `
CREATE TABLE users (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	score REAL,
	email TEXT UNIQUE,
	joined DATE DEFAULT '2024-01-01',
	seen DATETIME,
	avatar BLOB
);
CREATE TABLE orders (
	id INTEGER PRIMARY KEY,
	user_id INTEGER NOT NULL REFERENCES users(id),
	total REAL NOT NULL,
	note TEXT
);
CREATE INDEX orders_by_user ON orders(user_id, total);
CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100;
CREATE TABLE nums (n INTEGER NOT NULL);
INSERT INTO users (id, name, score, email, joined, seen, avatar) VALUES
	(1, 'Ada', 9.5, 'ada@example.com', '2024-01-02', '2024-03-04 05:06:07', x'00010203ff'),
	(2, 'Bob', NULL, NULL, '2024-02-03', NULL, NULL),
	(3, 'Cy', 7, 'cy@example.com', '2024-03-04', '2024-05-06T07:08:09Z', x'');
INSERT INTO orders (id, user_id, total, note) VALUES (1, 1, 120.5, 'first'), (2, 1, 15, NULL), (3, 3, 250, 'big');
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2500) INSERT INTO nums SELECT x FROM c;
`

// env is a temporary directory with an allowed root holding app.db.
type env struct {
	t    *testing.T
	tmp  string // holds root, and whatever tests put outside it
	root string // the allowed root (real path)
	reg  *packs.Registry
	pack *Pack
}

// newEnv makes root/app.db from the fixture and registers the pack with
// o, whose zero fields get: main = sqlite:app.db, roots = root.
func newEnv(t *testing.T, o Options) *env {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	makeDB(t, filepath.Join(root, "app.db"), fixture)
	if o.Databases == nil {
		o.Databases = map[string]string{"main": "sqlite:app.db"}
	}
	if o.Roots == nil {
		if o.Roots, err = roots.New(root); err != nil {
			t.Fatal(err)
		}
	}
	reg := packs.NewRegistry()
	p, err := Register(reg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &env{t: t, tmp: tmp, root: root, reg: reg, pack: p}
}

// makeDB creates a SQLite file with the given SQL, without the pack.
func makeDB(t *testing.T, path, script string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
}

// call runs tool id with named args, as Starlark would.
func (e *env) call(id string, args map[string]any) (any, error) {
	return e.callCtx(context.Background(), id, args)
}

func (e *env) callCtx(ctx context.Context, id string, args map[string]any) (any, error) {
	e.t.Helper()
	tool, ok := e.reg.Tool(id)
	if !ok {
		e.t.Fatalf("no tool %s", id)
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var named []packs.NamedArg
	for _, k := range keys {
		named = append(named, packs.NamedArg{Name: k, Value: args[k]})
	}
	return packs.Call(ctx, tool, nil, named)
}

// ok calls and fails the test on error.
func (e *env) ok(id string, args map[string]any) any {
	e.t.Helper()
	res, err := e.call(id, args)
	if err != nil {
		e.t.Fatalf("%s(%v): %v", id, args, err)
	}
	return res
}

// js is the JSON text of a result.
func js(t *testing.T, v any) string {
	t.Helper()
	b, err := ordered.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantErr checks that err's message holds every part.
func wantErr(t *testing.T, what string, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one containing %q", what, parts)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q does not contain %q", what, err, p)
		}
	}
}
