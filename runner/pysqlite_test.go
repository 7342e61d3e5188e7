package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/runner/config"
)

// sqlite3 through the runner (issue 31), in-process and in a worker of
// isolation: process: its statements are db.query and db.execute calls to
// stats and policy, a policy without db.execute refuses executescript
// (PermissionError's cause, as sqlite3.OperationalError), and a
// connection left open is rolled back when the run ends, releasing its
// lock for the next run.
func TestSQLite3ThroughRunner(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolated=%v", isolate), func(t *testing.T) {
			if isolate && testing.Short() {
				t.Skip("starts workers")
			}
			_, load := ownWork(t, "packs: {db: {read_only: false, databases: {shop: \"sqlite:../shop.db\"}}}\n")
			sink := &sinkLog{}
			opts := []Option{WithConfig(load()), WithStatsSink(sink)}
			if isolate {
				opts = append(opts, WithIsolation(Isolation{Workers: 1}))
			}
			r := newRunner(t, opts...)
			defer r.Close()
			if isolate {
				waitForPool(t, r, 1)
			}
			setup := "import sqlite3\ncon = sqlite3.connect('shop')\ncon.executescript('CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2);')\ncon.close()\n"
			if res := r.Exec(context.Background(), setup); res.IsError() {
				t.Fatal(res.Text)
			}
			var ids []string
			for _, c := range sink.calls {
				ids = append(ids, c.Tool)
			}
			if !slices.Equal(ids, []string{"db.query", "db.execute", "db.query"}) {
				t.Errorf("stats: %v, want connect, executescript and close as db.query, db.execute, db.query", ids)
			}
			// A transaction left open: rolled back at the run's end.
			res := r.Exec(context.Background(), "import sqlite3\ncon = sqlite3.connect('shop')\ncon.execute('DELETE FROM t')\nprint(con.in_transaction)")
			if res.IsError() || res.Printed != "True" {
				t.Fatalf("%s %s", res.Printed, res.Text)
			}
			res = r.Exec(context.Background(), "import sqlite3\ncon = sqlite3.connect('shop')\ncon.execute('INSERT INTO t VALUES (3)')\ncon.commit()\nprint(con.execute('SELECT count(*) FROM t').fetchone())")
			if res.IsError() || res.Printed != "(3,)" {
				t.Fatalf("after the rollback, and no lock left: %s %s", res.Printed, res.Text)
			}
			// A policy that has db.query but not db.execute.
			reader := principal("ci", "reader", config.Policy{Allow: []string{"ot.*", "db.query"}})
			res = r.Exec(context.Background(), "import sqlite3\ncon = sqlite3.connect('shop')\nprint(con.execute('SELECT count(*) FROM t').fetchone())\ntry:\n    con.executescript('DELETE FROM t')\nexcept sqlite3.OperationalError as e:\n    print(e)", AsPrincipal(reader))
			if res.IsError() || res.Printed != "(3,)\ndb.execute is not allowed by policy 'reader'" {
				t.Errorf("policy: %q %s", res.Printed, res.Text)
			}
			// No db.query at all: not even connect.
			none := principal("ci", "none", config.Policy{Allow: []string{"ot.*"}})
			res = r.Exec(context.Background(), "import sqlite3\ntry:\n    sqlite3.connect('shop')\nexcept sqlite3.Error as e:\n    print(type(e).__name__, e)", AsPrincipal(none))
			if res.IsError() || !strings.HasPrefix(res.Printed, "OperationalError db.query is not allowed by policy 'none'") {
				t.Errorf("policy without db.query: %q %s", res.Printed, res.Text)
			}
		})
	}
}
