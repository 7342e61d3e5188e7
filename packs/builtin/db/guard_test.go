package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/redaction"
)

var errOverBudget = errors.New("memory limit of the test exceeded")

// metered returns a context whose tool call is metered against limit
// bytes, as the runner does for a run, and the run's budget.
func metered(limit int64) (context.Context, *meter.Budget, *meter.Call) {
	b := meter.NewBudget(limit, func(limit int64) error { return fmt.Errorf("%w (%d bytes)", errOverBudget, limit) })
	c := b.Call()
	return meter.With(context.Background(), c), b, c
}

// TestCheckerAsksSQLite: whether SQL writes is SQLite's own answer
// (sqlite3_stmt_readonly), for the statements keyword matching gets wrong.
func TestCheckerAsksSQLite(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(tmp, "c.db")
	makeDB(t, path, fixture)
	c := &checker{uri: "file:" + uriPath(path)}
	defer c.close()
	tests := []struct {
		sql      string
		readOnly bool
		columns  int
	}{
		{"SELECT id, name FROM users", true, 2},
		{"  -- a comment\n SELECT 1; ", true, 1},
		{"WITH x AS (SELECT 1) SELECT * FROM x", true, 1},
		{"PRAGMA user_version", true, 1},
		{"EXPLAIN DELETE FROM orders", false, 8}, // SQLite's answer: it asks
		{"DROP TABLE orders", false, 0},
		{"DELETE FROM orders RETURNING id", false, 1},
		{"INSERT INTO nums VALUES (1) RETURNING n", false, 1},
		{"WITH x AS (SELECT 1) DELETE FROM orders WHERE id IN (SELECT * FROM x)", false, 0},
		{"REPLACE INTO nums VALUES (1)", false, 0},
		{"UPDATE users SET name = name WHERE 0", false, 0},
		{"PRAGMA user_version = 3", false, 0},
		{"PRAGMA journal_mode = WAL", false, 1},
		{"VACUUM", false, 0},
		{"VACUUM INTO '/tmp/x.db'", false, 0},
		{"ANALYZE", false, 0},
		{"CREATE TEMP TABLE t (x)", false, 0},
		{"ALTER TABLE users ADD COLUMN x", false, 0},
		{"SELECT 1; DELETE FROM orders", false, 1},
		{"SELECT 1; SELECT 2, 3, 4", true, 3},
	}
	for _, tt := range tests {
		v, err := c.check(tt.sql)
		if err != nil {
			t.Errorf("%q: %v", tt.sql, err)
			continue
		}
		if v.readOnly != tt.readOnly || v.columns != tt.columns {
			t.Errorf("%q: read-only %v, %d columns; want %v, %d", tt.sql, v.readOnly, v.columns, tt.readOnly, tt.columns)
		}
		if !v.readOnly && v.writes == "" {
			t.Errorf("%q: the writing statement is not named", tt.sql)
		}
	}
	if _, err := c.check("SELEC 1"); !errors.Is(err, errCheck) {
		t.Errorf("a syntax error: %v", err)
	}
	// Nothing ran.
	got := js(t, newEnv(t, Options{ReadOnly: true, Databases: map[string]string{"c": "sqlite:" + path}, Roots: mustRoots(t, tmp)}).
		ok("db.query", map[string]any{"sql": "SELECT (SELECT count(*) FROM orders) AS o, (SELECT count(*) FROM nums) AS n"}))
	if got != `[{"o":3,"n":2500}]` {
		t.Errorf("after the checks: %s", got)
	}
}

func mustRoots(t *testing.T, dir string) *roots.Roots {
	t.Helper()
	r, err := roots.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// confirmer records what a call asked and answers with answer.
type confirmer struct {
	mu     sync.Mutex
	asked  []string
	answer error
}

func (c *confirmer) ctx(parent context.Context) context.Context {
	return packs.WithConfirmer(parent, func(_ context.Context, action string) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.asked = append(c.asked, action)
		return c.answer
	})
}

func (c *confirmer) took() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.asked
	c.asked = nil
	return out
}

var errDeclined = errors.New("not confirmed: the user declined")

// TestDestructiveSQLConfirmed: with a confirmer in the context (the runner
// puts one there when security.confirm_destructive is on), db.query asks
// before every statement SQLite says writes, runs nothing when the user
// says no, and asks nothing for reads.
func TestDestructiveSQLConfirmed(t *testing.T) {
	for _, target := range []string{"sqlite:app.db", "sqlite::memory:"} {
		t.Run(target, func(t *testing.T) {
			e := newEnv(t, Options{Databases: map[string]string{"main": target}})
			if target == "sqlite::memory:" {
				e.ok("db.execute", map[string]any{"sql": fixture})
			}
			no := &confirmer{answer: errDeclined}
			writes := []string{
				"DROP TABLE orders",
				"DELETE FROM orders RETURNING id",
				"INSERT INTO nums VALUES (-1) RETURNING n",
				"WITH x AS (SELECT 3) DELETE FROM orders WHERE id IN (SELECT * FROM x) RETURNING id",
				"REPLACE INTO nums VALUES (-2)",
				"UPDATE users SET name = 'Eve' RETURNING name",
				"PRAGMA user_version = 7",
				"VACUUM",
				"ALTER TABLE users RENAME TO people",
			}
			for _, q := range writes {
				_, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": q})
				if !errors.Is(err, errDeclined) {
					t.Errorf("%s: %v, want the refusal", q, err)
				}
				if asked := no.took(); len(asked) != 1 || !strings.Contains(asked[0], "which SQLite says writes to it") {
					t.Errorf("%s: asked %q", q, asked)
				}
			}
			// Nothing was changed.
			got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT (SELECT count(*) FROM orders) AS o, (SELECT count(*) FROM nums) AS n, (SELECT group_concat(name) FROM users) AS u, (SELECT user_version FROM pragma_user_version) AS v"}))
			if got != `[{"o":3,"n":2500,"u":"Ada,Bob,Cy","v":0}]` {
				t.Errorf("after the refusals: %s", got)
			}
			// Reads ask nothing and run.
			for _, q := range []string{"SELECT count(*) AS n FROM users", "PRAGMA user_version", "WITH x AS (SELECT 1) SELECT * FROM x"} {
				if _, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": q}); err != nil {
					t.Errorf("%s: %v", q, err)
				}
				if asked := no.took(); len(asked) != 0 {
					t.Errorf("%s asked %q", q, asked)
				}
			}
			// Yes: it runs.
			yes := &confirmer{}
			got = js(t, mustCall(t, e, yes.ctx(context.Background()), "DELETE FROM orders WHERE id = 2 RETURNING id"))
			if got != `[{"id":2}]` || len(yes.took()) != 1 {
				t.Errorf("confirmed DELETE … RETURNING: %s", got)
			}
			// TEMP tables are seen only by their connection: SQL on them is
			// not proven read-only, so it asks.
			e.ok("db.execute", map[string]any{"sql": "CREATE TEMP TABLE scratch (x); INSERT INTO scratch VALUES (1)"})
			if _, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": "INSERT INTO scratch VALUES (2)"}); !errors.Is(err, errDeclined) {
				t.Errorf("INSERT into a TEMP table: %v", err)
			}
			// An error of the SQL itself is reported, not asked about.
			_, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": "SELEC 1"})
			wantErr(t, "syntax error", err, "syntax error")
			if asked := no.took(); len(asked) != 1 { // the TEMP insert only
				t.Errorf("asked %q", asked)
			}
			// Without a confirmer (confirm_destructive off), nothing asks.
			e.ok("db.query", map[string]any{"sql": "INSERT INTO nums VALUES (-3) RETURNING n"})
		})
	}
}

func mustCall(t *testing.T, e *env, ctx context.Context, q string) any {
	t.Helper()
	res, err := e.callCtx(ctx, "db.query", map[string]any{"sql": q})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}

// TestReadOnlyPackAsksNothing: a read-only pack refuses writes itself, so
// it never asks.
func TestReadOnlyPackAsksNothing(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	no := &confirmer{answer: errDeclined}
	_, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": "DROP TABLE orders"})
	wantErr(t, "read-only DROP", err, "read-only")
	if asked := no.took(); len(asked) != 0 {
		t.Errorf("asked %q", asked)
	}
}

// TestOtherDriverStatementsAsk: a database/sql driver cannot prove a
// statement read-only, so with a confirmer every statement asks.
func TestOtherDriverStatementsAsk(t *testing.T) {
	e := fakeEnv(t, false)
	no := &confirmer{answer: errDeclined}
	_, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": "SELECT 1"})
	if !errors.Is(err, errDeclined) {
		t.Errorf("got %v", err)
	}
	if asked := no.took(); len(asked) != 1 || !strings.Contains(asked[0], "cannot prove read-only") {
		t.Errorf("asked %q", asked)
	}
}

// TestResourcePragmasRefused: no program sets how much memory or how many
// threads SQLite uses, even in a writable pack; reading them is fine.
func TestResourcePragmasRefused(t *testing.T) {
	e := newEnv(t, Options{})
	for _, q := range []string{"PRAGMA temp_store = MEMORY", "PRAGMA cache_size = -10000000", "PRAGMA mmap_size = 1000000000", "PRAGMA threads = 8", "PRAGMA hard_heap_limit = 1", "PRAGMA soft_heap_limit = 1"} {
		_, err := e.call("db.execute", map[string]any{"sql": q})
		wantErr(t, q, err, "is not allowed", "memory or how many threads")
	}
	e.ok("db.query", map[string]any{"sql": "PRAGMA temp_store"})
	e.ok("db.query", map[string]any{"sql": "PRAGMA cache_size"})
}

// TestResultsMetered: what a query returns is charged to the run's budget
// as rows arrive, and one value too long for the budget is refused by
// SQLite before it is made.
func TestResultsMetered(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: false})
	// A stored value longer than the budget allows.
	e.ok("db.execute", map[string]any{"sql": "CREATE TABLE big (b BLOB); INSERT INTO big VALUES (zeroblob(3000000))"})
	const limit = 2 << 20
	tests := []struct{ name, sql string }{
		{"zeroblob", "SELECT zeroblob(250000000)"},
		{"randomblob", "SELECT randomblob(250000000)"},
		{"long text", "SELECT printf('%.*c', 250000000, 'x')"},
		{"stored BLOB", "SELECT b FROM big"},
		{"one value per column", "SELECT zeroblob(300000), zeroblob(300000), zeroblob(300000), zeroblob(300000), zeroblob(300000), zeroblob(300000), zeroblob(300000)"},
		{"group_concat", "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 20000) SELECT group_concat(printf('%.*c', 1000, 'x')) FROM c"},
		{"rows", "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 100000) SELECT printf('%.*c', 1000, 'x') AS s FROM c"},
		{"second statement", "SELECT 1; SELECT zeroblob(1500000), zeroblob(1500000)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, b, call := metered(limit)
			start := time.Now()
			_, err := e.callCtx(ctx, "db.query", map[string]any{"sql": tt.sql, "max_rows": int64(100000)})
			if !errors.Is(err, errOverBudget) {
				t.Errorf("got %v, want the budget's error", err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("took %s", took)
			}
			call.End(true)
			if b.Held() != 0 {
				t.Errorf("held %d after the call", b.Held())
			}
		})
	}
	// Within the budget, results are whole; the connection's limits are
	// back afterwards for a call of another run.
	ctx, _, call := metered(limit)
	if got := js(t, mustCall(t, e, ctx, "SELECT length(zeroblob(100000)) AS n, count(*) AS c FROM users")); got != `[{"n":100000,"c":3}]` {
		t.Errorf("within the budget: %s", got)
	}
	call.End(false)
	for range 4 { // every pooled connection
		if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT length(b) AS n FROM big"})); got != `[{"n":3000000}]` {
			t.Errorf("unmetered after a metered call: %s", got)
		}
	}
}

// TestParallelQueriesShareTheBudget: calls of one run at once (parallel())
// share one budget: each reserves half of what is left before SQLite runs,
// so together they never hold more than the budget.
func TestParallelQueriesShareTheBudget(t *testing.T) {
	e := newEnv(t, Options{})
	const limit = 8 << 20
	b := meter.NewBudget(limit, func(int64) error { return errOverBudget })
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := b.Call()
			var err error
			defer func() { c.End(err != nil) }()
			_, err = e.callCtx(meter.With(context.Background(), c), "db.query", map[string]any{"sql": "SELECT zeroblob(3000000) AS z"})
			errs[i] = err
		}()
	}
	wg.Wait()
	over := 0
	for _, err := range errs {
		switch {
		case errors.Is(err, errOverBudget):
			over++
		case err != nil:
			t.Errorf("unexpected error: %v", err)
		}
	}
	// 3 MB each: two at most fit in 8 MiB with their rows.
	if over < 6 {
		t.Errorf("%d of 8 parallel 3 MB values refused, want at least 6", over)
	}
}

// BenchmarkQuery measures a small query's call unmetered, metered (the
// checker's prepare and SQLite's length limit set and restored), and
// metered with confirmations wanted.
func BenchmarkQuery(b *testing.B) {
	t := &testing.T{}
	e := newEnv(t, Options{})
	e.t = t
	args := map[string]any{"sql": "SELECT id, name FROM users WHERE id = ?", "params": []any{int64(1)}}
	run := func(b *testing.B, ctx func() (context.Context, func())) {
		for b.Loop() {
			c, end := ctx()
			if _, err := e.callCtx(c, "db.query", args); err != nil {
				b.Fatal(err)
			}
			end()
		}
	}
	b.Run("unmetered", func(b *testing.B) {
		run(b, func() (context.Context, func()) { return context.Background(), func() {} })
	})
	budget := meter.NewBudget(512<<20, func(int64) error { return errOverBudget })
	b.Run("metered", func(b *testing.B) {
		run(b, func() (context.Context, func()) {
			c := budget.Call()
			return meter.With(context.Background(), c), func() { c.End(false) }
		})
	})
	yes := &confirmer{}
	b.Run("metered+confirm", func(b *testing.B) {
		run(b, func() (context.Context, func()) {
			c := budget.Call()
			return yes.ctx(meter.With(context.Background(), c)), func() { c.End(false) }
		})
	})
}

// redTeamStatements are the 37 statements of the red team's probe of
// security.confirm_destructive (issue 27, finding F5), run through
// db.query.
var redTeamStatements = []string{
	"DROP TABLE t", "DELETE FROM t RETURNING *", "INSERT INTO t VALUES(9) RETURNING *", "WITH x AS (SELECT 1) DELETE FROM t", "REPLACE INTO t VALUES(5)",
	"PRAGMA user_version = 5", "PRAGMA journal_mode = WAL", "PRAGMA writable_schema = 1", "ATTACH '%s/x.db' AS x", "VACUUM INTO '%s/vac.db'", "VACUUM",
	"UPDATE t SET a = 0", "CREATE TABLE z(a)", "SELECT * FROM t; DELETE FROM t", "SELECT 1; DROP TABLE t", "ANALYZE", "REINDEX", "PRAGMA optimize", "PRAGMA incremental_vacuum",
	"CREATE TEMP TABLE tt(a)", "SAVEPOINT a", "BEGIN; DELETE FROM t; COMMIT", "PRAGMA wal_checkpoint(TRUNCATE)", "SELECT load_extension('x')", "PRAGMA foreign_keys=OFF",
	"PRAGMA secure_delete=1", "PRAGMA auto_vacuum=1", "PRAGMA locking_mode=EXCLUSIVE", "PRAGMA schema_version=100", "PRAGMA application_id=7", "PRAGMA recursive_triggers=1",
	"CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END", "DETACH x", "PRAGMA journal_mode=OFF", "PRAGMA synchronous=OFF", "PRAGMA ignore_check_constraints=1", "PRAGMA query_only=0",
}

// TestEveryChangeAsks: with security.confirm_destructive, every statement
// that changes the database or the connection's state asks — SQLite's
// sqlite3_stmt_readonly and its authorizer decide, so the setting pragmas,
// SAVEPOINT, BEGIN and REINDEX, which stmt_readonly calls read-only, ask
// too — and what the pack never allows is refused without asking. Reads,
// pragma reads included, ask nothing. Over the red team's 37 statements,
// on their database (one table, no index) and on one with indexes.
func TestEveryChangeAsks(t *testing.T) {
	never := map[string]string{
		"ATTACH '%s/x.db' AS x":      "ATTACH and VACUUM INTO are not allowed",
		"DETACH x":                   "DETACH is not allowed",
		"SELECT load_extension('x')": "load_extension() is not allowed",
	}
	reads := []string{
		"SELECT * FROM t", "VALUES (1)", "WITH x AS (SELECT 1) SELECT * FROM x", "SELECT 1; SELECT 2",
		"PRAGMA table_info(t)", "PRAGMA main.table_info(t)", "SELECT * FROM pragma_table_info('t')", "PRAGMA index_list(t)",
		"PRAGMA foreign_keys", "PRAGMA user_version", "PRAGMA locking_mode", "PRAGMA recursive_triggers", "PRAGMA integrity_check",
		"EXPLAIN QUERY PLAN SELECT * FROM t",
	}
	for _, schema := range []string{"CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)", "CREATE TABLE t(a UNIQUE); CREATE INDEX ta ON t(a); INSERT INTO t VALUES (1), (2)"} {
		t.Run(schema, func(t *testing.T) {
			e := newEnv(t, Options{Databases: map[string]string{"main": "sqlite:d.db"}})
			makeDB(t, filepath.Join(e.root, "d.db"), schema)
			no := &confirmer{answer: errDeclined}
			snapshot := func() string {
				return js(t, e.ok("db.query", map[string]any{"sql": "SELECT (SELECT group_concat(a) FROM t) AS a, (SELECT group_concat(sql, ';') FROM sqlite_schema) AS s"}))
			}
			before := snapshot()
			for _, q := range redTeamStatements {
				if strings.Contains(q, "%s") {
					q = fmt.Sprintf(q, e.root)
				}
				_, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": q})
				asked := no.took()
				if reason, ok := never[strings.ReplaceAll(q, e.root, "%s")]; ok {
					wantErr(t, q, err, reason)
					if len(asked) != 0 {
						t.Errorf("%s: asked %q, want a refusal without asking", q, asked)
					}
					continue
				}
				if !errors.Is(err, errDeclined) {
					t.Errorf("%s: %v, want the user's no", q, err)
				}
				if len(asked) != 1 {
					t.Errorf("%s: asked %d times, want once", q, len(asked))
				}
			}
			if after := snapshot(); after != before {
				t.Errorf("the database changed: %s, was %s", after, before)
			}
			for _, q := range reads {
				if _, err := e.callCtx(no.ctx(context.Background()), "db.query", map[string]any{"sql": q}); err != nil {
					t.Errorf("%s: %v", q, err)
				}
				if asked := no.took(); len(asked) != 0 {
					t.Errorf("%s: asked %q", q, asked)
				}
			}
			// With the user's yes, a setting runs.
			yes := &confirmer{}
			mustCall(t, e, yes.ctx(context.Background()), "PRAGMA recursive_triggers = 1")
			if asked := yes.took(); len(asked) != 1 || !strings.Contains(asked[0], "which is not a read") {
				t.Errorf("asked %q", asked)
			}
		})
	}
}

// TestComputedSecretPiecesHidden: with Options.Hide (the runner sets
// runner/redaction.Fragments), what SQL computes from a stored secret —
// its pieces of eight characters or more, its other case, the runs
// between inserted characters — comes back hidden (red-team finding F3).
// What stays possible (pieces shorter than eight, character codes, LIKE
// as an oracle) is the limit docs/security.md states.
func TestComputedSecretPiecesHidden(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("API_KEY: sk-SuperSecretValue1234\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{ReadOnly: false, Hide: redaction.NewFragments(cfg.Secrets).Hide})
	e.ok("db.execute", map[string]any{"sql": "CREATE TABLE s (k TEXT, v TEXT); INSERT INTO s VALUES ('api', 'sk-SuperSecretValue1234'), ('plain', 'hello world')"})
	tests := []struct{ sql, want string }{
		{"SELECT substr(v, 1, 10) AS a, substr(v, 11) AS b FROM s WHERE k = 'api'", `[{"a":"[secret:API_KEY]","b":"[secret:API_KEY]"}]`},
		{"SELECT lower(v) AS l, upper(v) AS u FROM s WHERE k = 'api'", `[{"l":"[secret:API_KEY]","u":"[secret:API_KEY]"}]`},
		{"SELECT replace(v, 'S', 'S ') AS r FROM s WHERE k = 'api'", `[{"r":"sk-S uperS [secret:API_KEY]"}]`},
		{"SELECT 'key=' || v || ';' AS c FROM s WHERE k = 'api'", `[{"c":"key=[secret:API_KEY];"}]`},
		{"SELECT v FROM s WHERE k = 'plain'", `[{"v":"hello world"}]`},
	}
	for _, tt := range tests {
		if got := js(t, e.ok("db.query", map[string]any{"sql": tt.sql})); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.sql, got, tt.want)
		}
	}
	// An error whose message SQL made of the value.
	e.ok("db.execute", map[string]any{"sql": "CREATE TABLE w (x); CREATE TRIGGER tw BEFORE INSERT ON w BEGIN SELECT RAISE(ABORT, (SELECT lower(v) FROM s WHERE k = 'api')); END"})
	_, err = e.call("db.execute", map[string]any{"sql": "INSERT INTO w VALUES (1)"})
	if err == nil || strings.Contains(strings.ToLower(err.Error()), "ecretvalue") {
		t.Errorf("RAISE of the value: %v", err)
	}
}

// TestConnectionChangesEndWithTheCall: what one call's SQL changes of its
// connection — a pragma's setting, a transaction left open, a savepoint —
// reaches no later call (of this run or another principal's): a file
// database's connection is closed rather than pooled, and the one
// connection of a memory database has its transaction rolled back.
func TestConnectionChangesEndWithTheCall(t *testing.T) {
	e := newEnv(t, Options{})
	count := func() int64 {
		t.Helper()
		db, err := sql.Open("sqlite", filepath.Join(e.root, "app.db")+"?_pragma=busy_timeout(2000)")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int64
		if err := db.QueryRow("SELECT count(*) FROM nums").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, open := range []string{"BEGIN", "BEGIN IMMEDIATE", "SAVEPOINT a"} {
		e.ok("db.execute", map[string]any{"sql": open})
		before := count()
		for i := range 6 { // every pooled connection in turn
			e.ok("db.execute", map[string]any{"sql": "INSERT INTO nums VALUES (?)", "params": []any{int64(-i)}})
		}
		if after := count(); after != before+6 {
			t.Errorf("after %s: another reader sees %d rows, want %d: the inserts went into the open transaction", open, after, before+6)
		}
	}
	for _, set := range []string{"PRAGMA recursive_triggers = 1", "PRAGMA foreign_keys = ON", "PRAGMA query_only = 1"} {
		e.ok("db.query", map[string]any{"sql": set})
		for range 6 {
			got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT * FROM pragma_recursive_triggers, pragma_foreign_keys, pragma_query_only"}))
			if got != `[{"recursive_triggers":0,"foreign_keys":0,"query_only":0}]` {
				t.Fatalf("after %s: %s", set, got)
			}
		}
	}
	// One statement's own transaction still commits.
	e.ok("db.execute", map[string]any{"sql": "BEGIN; INSERT INTO nums VALUES (-100); COMMIT"})
	if got := js(t, e.ok("db.query", map[string]any{"sql": "SELECT count(*) AS n FROM nums WHERE n = -100"})); got != `[{"n":1}]` {
		t.Errorf("BEGIN … COMMIT in one call: %s", got)
	}

	mem := newEnv(t, Options{Databases: map[string]string{"m": "sqlite::memory:"}})
	mem.ok("db.execute", map[string]any{"sql": "CREATE TABLE t (x)"})
	mem.ok("db.execute", map[string]any{"sql": "BEGIN"})
	mem.ok("db.execute", map[string]any{"sql": "INSERT INTO t VALUES (1)"})
	_, err := mem.call("db.execute", map[string]any{"sql": "COMMIT"})
	wantErr(t, "COMMIT in a later call", err, "no transaction is active")
	if got := js(t, mem.ok("db.query", map[string]any{"sql": "SELECT count(*) AS n FROM t"})); got != `[{"n":1}]` {
		t.Errorf("memory database: %s", got)
	}
}
