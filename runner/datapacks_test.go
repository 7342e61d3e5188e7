package runner

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/quiet"
	"github.com/onetool-dev/onetool/interp"
)

// Issue 27, items 2, 6 and 7 as programs meet them: db and web results
// count against the run's memory budget as they arrive, web.fetch reaches
// only public addresses by default in every form of an address, and with
// security.confirm_destructive on a statement SQLite says writes asks
// first. In-process and under isolation: process (the tools run in the
// server either way; the run's error must cross the pipe intact).

// dataServer is a local HTTP server on addr ("127.0.0.1:0"): /secret, a
// gzip bomb and a large body. web.fetch refuses loopback addresses unless
// allow_hosts names them.
func dataServer(t *testing.T, addr string) (*httptest.Server, *sync.Map) {
	t.Helper()
	var bomb bytes.Buffer // 64 MB unpacked
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	chunk := bytes.Repeat([]byte{'z'}, 1<<20)
	for range 64 {
		_, _ = zw.Write(chunk)
	}
	_ = zw.Close()
	reached := &sync.Map{}
	mux := http.NewServeMux()
	mux.HandleFunc("/secret", func(w http.ResponseWriter, r *http.Request) {
		reached.Store(r.Host, true)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "SECRET-7f3a")
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: mux}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, reached
}

func portOf(srv *httptest.Server) string { return srv.URL[strings.LastIndexByte(srv.URL, ':')+1:] }

// dataPrograms are the attacks, for the secret server on 127.0.0.1:port
// and the allowed one on 127.0.0.2:allowed.
func dataPrograms(port, allowed string) []hostile {
	const mem = `^memory limit of 16 MiB exceeded \(set limits.max_memory to raise it\)$`
	const allow = `packs\.web\.allow_hosts`
	// Results gathered by a combinator count together in the server; in
	// a worker they are held there, under its own limits, and the copies
	// across the pipe take longer than the deadline.
	const gathered = `(memory limit of 16 MiB exceeded|^timed out after 700ms)`
	web := func(host string) string {
		return fmt.Sprintf(`web.fetch(url="http://%s:%s/secret")`, host, port)
	}
	progs := []hostile{
		{"zeroblob", `db.query(sql="SELECT zeroblob(250000000)")`, mem, "", false},
		{"four zeroblobs at once", `parallel([call(db.query, sql="SELECT zeroblob(250000000)") for i in range(4)])`, mem, "", false},
		{"zeroblobs with errors returned", `parallel([call(db.query, sql="SELECT zeroblob(250000000)") for i in range(4)], errors="return")`, mem, "", false},
		{"zeroblobs mapped", `db.query.map([{"sql": "SELECT zeroblob(250000000)"}] * 4)`, mem, "", false},
		{"zeroblobs in a plan", `plan([{"tool": "db.query", "args": {"sql": "SELECT zeroblob(250000000)"}} for i in range(4)])`, mem, "", false},
		{"texts gathered one at a time", `parallel([call(db.query, sql="SELECT printf('%.*c', 6000000, 'x')") for i in range(8)], max_parallel=1)`, gathered, "", false},
		{"texts mapped one at a time", `db.query.map([{"sql": "SELECT printf('%.*c', 6000000, 'x')"}] * 8, max_parallel=1)`, gathered, "", false},
		{"texts in a plan one at a time", `plan([{"tool": "db.query", "args": {"sql": "SELECT printf('%.*c', 6000000, 'x')"}} for i in range(8)], max_parallel=1)`, gathered, "", false},
		{"zeroblob caught", "try:\n    db.query(sql=\"SELECT zeroblob(250000000)\")\nexcept Exception:\n    print('caught')", mem, "caught", false},
		{"randomblob", `db.query(sql="SELECT randomblob(200000000)")`, mem, "", false},
		{"long text", `db.query(sql="SELECT printf('%.*c', 200000000, 'x')")`, mem, "", false},
		{"a value per column", `db.query(sql="SELECT " + ", ".join(["zeroblob(3000000)"] * 40))`, mem, "", false},
		{"a second statement", `db.query(sql="SELECT 1; SELECT " + ", ".join(["zeroblob(3000000)"] * 40))`, mem, "", false},
		{"group_concat", `db.query(sql="WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 100000) SELECT group_concat(printf('%.*c', 1000, 'x')) FROM c")`, mem, "", false},
		{"rows without end", `db.query(sql="WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT printf('%.*c', 2000, 'x') FROM c", max_rows=100000)`, mem, "", false},
		{"a stored BLOB", `db.query(sql="SELECT b FROM big", db="file")`, mem, "", false},
		{"resource pragma", `db.execute(sql="PRAGMA temp_store = MEMORY", db="mem")`, `PRAGMA temp_store = MEMORY is not allowed`, "", false},
		{"gzip bomb", fmt.Sprintf(`web.fetch(url="http://127.0.0.2:%s/bomb")`, allowed), mem, "", false},
		{"big body", fmt.Sprintf(`web.fetch(url="http://127.0.0.2:%s/big")`, allowed), mem, "", false},
		{"big bodies at once", fmt.Sprintf(`parallel([call(web.fetch, url="http://127.0.0.2:%s/big", format="raw") for i in range(8)])`, allowed), mem, "", false},
	}
	for _, h := range []string{"127.0.0.1", "0.0.0.0", "[::]", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]",
		"2130706433", "0x7f.1", "0177.0.0.1", "127.1", "127.0.0.1.", "localhost", "localhost.", "[::1%25lo]"} {
		progs = append(progs, hostile{"web " + h, web(h), allow, "SECRET-7f3a", false})
	}
	return progs
}

// dataConfig is the configuration of the suite: a writable memory
// database, a file database (holding a 40 MB BLOB), and web.fetch allowed
// 127.0.0.2 only.
const dataConfig = `packs:
  db:
    read_only: false
    default: mem
    databases:
      mem: "sqlite::memory:"
      file: "sqlite:../big.db"
  web:
    allow_hosts: ["127.0.0.2"]
    max_bytes: 256MiB
`

func runData(t *testing.T, isolate bool) {
	if testing.Short() {
		t.Skip("the data-pack attacks take a while")
	}
	secret, reached := dataServer(t, "127.0.0.1:0")
	allowed, _ := dataServer(t, "127.0.0.2:0")
	_, load := ownWork(t, dataConfig)
	opts := []Option{WithConfig(load()), WithLimits(hostileLimits())}
	if isolate {
		opts = append(opts, WithIsolation(Isolation{Workers: 2}))
	}
	r := newRunner(t, opts...)
	defer r.Close()
	if isolate {
		waitForPool(t, r, 2)
	}
	big := DefaultLimits()
	big.Timeout = 20 * time.Second
	// Two calls: SQL that uses a table made earlier in the same script
	// cannot be checked on its own, and is bounded as if it returned 64
	// columns.
	for _, q := range []string{"CREATE TABLE big (b BLOB)", "INSERT INTO big VALUES (zeroblob(40000000))"} {
		if res := r.Exec(context.Background(), fmt.Sprintf(`db.execute(sql=%q, db="file")`, q), RunLimits(big)); res.IsError() {
			t.Fatal(res.Text)
		}
	}
	for _, p := range dataPrograms(portOf(secret), portOf(allowed)) {
		t.Run(p.name, func(t *testing.T) {
			start := time.Now()
			res := r.Exec(context.Background(), p.code)
			if took := time.Since(start); took > hostileTimeout+time.Second+time.Second*time.Duration(boolInt(isolate)) {
				t.Errorf("answered after %s", took)
			}
			text := strings.TrimPrefix(res.Text, "Error: ")
			switch {
			case !res.IsError():
				t.Errorf("succeeded: %.200s", res.Text)
			case !regexp.MustCompile(p.want).MatchString(text):
				t.Errorf("error %q, want one matching %q", res.Text, p.want)
			}
			if strings.HasPrefix(p.want, "^memory limit") && !errors.Is(res.Err, interp.ErrMemoryLimit) {
				t.Errorf("the error %v does not match interp.ErrMemoryLimit", res.Err)
			}
			if p.hide != "" && strings.Contains(res.Text, p.hide) {
				t.Errorf("shows %q: %.300s", p.hide, res.Text)
			}
			if next := r.Exec(context.Background(), `db.query(sql="SELECT 1 AS one")`); next.Text != `[{"one":1}]` {
				t.Errorf("the next run: %s", next.Text)
			}
		})
	}
	reached.Range(func(k, _ any) bool {
		t.Errorf("the secret was reached as %v", k)
		return true
	})
}

func TestDataPackAttacksInProcess(t *testing.T) { runData(t, false) }

func TestDataPackAttacksIsolated(t *testing.T) { runData(t, true) }

// TestZeroblobAttackGoesQuiet: the review's attack — four parallel
// zeroblob(250000000) at a 128 MiB budget — ends with the memory error
// without taking the memory first, and the process is idle again within
// a second of the answer: no CPU, heap and RSS back where they were.
func TestZeroblobAttackGoesQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the process")
	}
	_, load := ownWork(t, "packs: {db: {databases: {main: \"sqlite::memory:\"}}}\n")
	r := newRunner(t, WithConfig(load()))
	defer r.Close()
	limits := DefaultLimits()
	limits.MaxMemory = 128 << 20
	warm := r.Exec(context.Background(), `db.query(sql="SELECT 1")`, RunLimits(limits))
	if warm.IsError() {
		t.Fatal(warm.Text)
	}
	base := quiet.Self(t)
	for _, code := range []string{
		`parallel([call(db.query, sql="SELECT zeroblob(250000000)") for i in range(4)])`,
		`parallel([call(db.query, sql="SELECT randomblob(100000000)") for i in range(4)])`,
		`parallel([call(db.query, sql="SELECT " + ", ".join(["zeroblob(30000000)"] * 8)) for i in range(4)])`,
	} {
		res := r.Exec(context.Background(), code, RunLimits(limits))
		if !strings.HasPrefix(res.Text, "Error: memory limit of 128 MiB exceeded") {
			t.Errorf("%s: %s", code, res.Text)
		}
		quiet.Wait(t, base, time.Second+quietSlack)
	}
}

// quietSlack allows for quiet's own window of measurement.
const quietSlack = 500 * time.Millisecond

// TestDestructiveSQLAsks: with security.confirm_destructive on, db.query
// of a statement SQLite says writes asks through the run's Confirmer,
// naming the statement; a no runs nothing; reads ask nothing. In-process
// and isolated (the question comes from the server either way).
func TestDestructiveSQLAsks(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolated=%v", isolate), func(t *testing.T) {
			if isolate && testing.Short() {
				t.Skip("starts workers")
			}
			_, load := ownWork(t, "security: {confirm_destructive: true}\npacks: {db: {read_only: false, databases: {main: \"sqlite:../data.db\"}}}\n")
			opts := []Option{WithConfig(load())}
			if isolate {
				opts = append(opts, WithIsolation(Isolation{Workers: 1}))
			}
			r := newRunner(t, opts...)
			defer r.Close()
			if isolate {
				waitForPool(t, r, 1)
			}
			var mu sync.Mutex
			var asked []ConfirmRequest
			answer := func(yes bool) ExecOption {
				return ConfirmWith(func(_ context.Context, c ConfirmRequest) error {
					mu.Lock()
					defer mu.Unlock()
					asked = append(asked, c)
					if yes {
						return nil
					}
					return fmt.Errorf("%w: the user declined", ErrNotConfirmed)
				})
			}
			took := func() []ConfirmRequest {
				mu.Lock()
				defer mu.Unlock()
				out := asked
				asked = nil
				return out
			}
			if res := r.Exec(context.Background(), `db.execute(sql="CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)")`, answer(true)); res.IsError() {
				t.Fatal(res.Text)
			}
			took()
			for _, q := range []string{"DROP TABLE t", "DELETE FROM t RETURNING x", "INSERT INTO t VALUES (3) RETURNING x", "WITH k AS (SELECT 1) DELETE FROM t WHERE x IN (SELECT * FROM k)", "REPLACE INTO t VALUES (4)", "PRAGMA user_version = 9", "VACUUM"} {
				res := r.Exec(context.Background(), fmt.Sprintf("db.query(sql=%q)", q), answer(false))
				if !res.IsError() || !strings.Contains(res.Text, "writes to the database: not confirmed: the user declined") || !errors.Is(res.Err, ErrNotConfirmed) {
					t.Errorf("%s: %s (%v)", q, res.Text, res.Err)
				}
				got := took()
				if len(got) != 1 || got[0].Tool.ID() != "db.query" || !strings.Contains(got[0].Action, "which SQLite says writes to it") {
					t.Errorf("%s: asked %+v", q, got)
				}
			}
			// What changes the connection rather than the file asks too
			// (red-team finding F5): SQLite calls these read-only.
			for _, q := range []string{"PRAGMA locking_mode=EXCLUSIVE", "PRAGMA foreign_keys=OFF", "PRAGMA writable_schema=1", "PRAGMA query_only=0", "SAVEPOINT a", "BEGIN", "REINDEX", "PRAGMA optimize"} {
				res := r.Exec(context.Background(), fmt.Sprintf("db.query(sql=%q)", q), answer(false))
				if !res.IsError() || !strings.Contains(res.Text, "is not a read (it changes the connection's state): not confirmed: the user declined") || !errors.Is(res.Err, ErrNotConfirmed) {
					t.Errorf("%s: %s (%v)", q, res.Text, res.Err)
				}
				if got := took(); len(got) != 1 || !strings.Contains(got[0].Action, "changes the connection's state") {
					t.Errorf("%s: asked %+v", q, got)
				}
			}
			res := r.Exec(context.Background(), `db.query(sql="SELECT count(*) AS n, (SELECT user_version FROM pragma_user_version) AS v FROM t")`, answer(false))
			if res.Text != `[{"n":2,"v":0}]` || len(took()) != 0 {
				t.Errorf("after the refusals: %s", res.Text)
			}
			res = r.Exec(context.Background(), `db.query(sql="DELETE FROM t WHERE x = 2 RETURNING x")`, answer(true))
			if res.Text != `[{"x":2}]` || len(took()) != 1 {
				t.Errorf("confirmed: %s", res.Text)
			}
		})
	}
}
