package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// conn is what a call's statements run on: a *sql.Conn or a *sql.Tx.
type conn interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// errTimeout is the cause of a call stopped by packs.db.timeout.
var errTimeout = errors.New("packs.db.timeout reached")

// withTimeout bounds a call by packs.db.timeout.
func (p *Pack) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, p.o.Timeout, errTimeout)
}

// refusal records why the SQLite authorizer refused a statement of one
// call. The authorizer runs inside SQLite, on whichever goroutine prepares
// the statement, hence the lock.
type refusal struct {
	mu       sync.Mutex
	reason   string
	readOnly bool // refused because the pack is read-only (else: never allowed)
	watching bool // the program's SQL is being prepared (not the guard's own)
	changed  bool // it changes the connection: a setting, a transaction, a savepoint
}

// watch starts or stops noting what the program's SQL changes of the
// connection.
func (r *refusal) watch(on bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.watching = on
}

// change notes that the program's SQL changes the connection.
func (r *refusal) change() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.watching {
		r.changed = true
	}
}

func (r *refusal) connectionChanged() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}

func (r *refusal) set(reason string, readOnly bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reason == "" {
		r.reason, r.readOnly = reason, readOnly
	}
}

func (r *refusal) get() (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reason, r.readOnly
}

// refusedError is a statement the authorizer refused.
type refusedError struct {
	reason   string
	readOnly bool
	err      error
}

func (e *refusedError) Error() string {
	if e.readOnly {
		return fmt.Sprintf("%s is not allowed: the db pack is read-only (packs.db.read_only is true, the default), so only reading statements run. To allow writes, set packs.db.read_only: false in onetool.yaml", e.reason)
	}
	return e.reason
}

func (e *refusedError) Unwrap() error { return e.err }

// run runs fn on one connection of h's pool. On SQLite it first sets the
// connection's authorizer for this call, so that a refusal can be told
// apart and explained. Other drivers run fn in a read-only transaction,
// rolled back afterwards, when the pack is read-only.
func (p *Pack) run(ctx context.Context, h *handle, fn func(conn) error) error {
	return p.runSQL(ctx, h, nil, fn)
}

// runSQL is run for a call that runs the program's SQL, readied by g: on
// SQLite, what that SQL changes of the connection (a pragma's setting, a
// transaction left open, a savepoint: the authorizer sees them) ends with
// the call, so that it reaches no later call, of this run or another
// principal's. A file database's connection is closed rather than pooled;
// the one connection of a memory database has its transaction rolled
// back (its settings stay: closing it would lose the database).
func (p *Pack) runSQL(ctx context.Context, h *handle, g *stmtGuard, fn func(conn) error) error {
	c, err := h.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if h.t.kind == kindSQLite {
		changed, err := p.onSQLite(c, g, fn)
		if changed {
			p.reset(h, c)
		}
		return err
	}
	if !p.o.ReadOnly {
		return fn(c)
	}
	tx, err := c.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("starting a read-only transaction: %w", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// onSQLite runs fn on the SQLite connection c with the pack's authorizer
// set for this call (its refusals recorded, so that one can be told apart
// and explained), readied by g when it is not nil. It reports whether
// the program's SQL changed the connection (a pragma's setting, a
// transaction, a savepoint): a pooled connection is then reset (runSQL),
// a held one (held.go) keeps it for the run.
func (p *Pack) onSQLite(c *sql.Conn, g *stmtGuard, fn func(conn) error) (changed bool, err error) {
	rec := &refusal{}
	err = c.Raw(func(dc any) error {
		ar, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("the SQLite driver offers no authorizer")
		}
		return ar.RegisterAuthorizer(authorizer(p.o.ReadOnly, rec))
	})
	if err != nil {
		return false, err
	}
	if g != nil {
		g.rec = rec
	}
	err = fn(c)
	if reason, ro := rec.get(); err != nil && reason != "" {
		err = &refusedError{reason: reason, readOnly: ro, err: err}
	}
	return rec.connectionChanged(), err
}

// reset ends what a call changed of its connection c (runSQL).
func (p *Pack) reset(h *handle, c *sql.Conn) {
	if h.t.memory {
		_, _ = c.ExecContext(context.Background(), "ROLLBACK") // "no transaction is active" is fine
		return
	}
	_ = c.Raw(func(any) error { return driver.ErrBadConn }) // database/sql closes it
}

// explain turns a failure of a call on h into the message the caller
// sees: what went wrong and what to do.
func (p *Pack) explain(ctx context.Context, h *handle, err error) error {
	if ctx.Err() != nil {
		return stopped(ctx, p.o.Timeout)
	}
	var own *asIs
	if errors.As(err, &own) {
		return own.err
	}
	var ref *refusedError
	if errors.As(err, &ref) {
		return fmt.Errorf("%s%w", p.label(h), ref)
	}
	msg := cleanMessage(err)
	if p.o.Hide != nil {
		msg = p.o.Hide(msg) // SQL can put a stored value in a message (RAISE, a conversion's error)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_READONLY:
			if p.o.ReadOnly {
				return fmt.Errorf("%sa write is not allowed: the db pack is read-only (packs.db.read_only is true, the default), so only reading statements run. To allow writes, set packs.db.read_only: false in onetool.yaml", p.label(h))
			}
			return fmt.Errorf("%s%s: the file or its directory is not writable by this process", p.label(h), msg)
		case sqlite3.SQLITE_INTERRUPT:
			return fmt.Errorf("%sthe statement was interrupted; run it again", p.label(h))
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return fmt.Errorf("%s%s: another program holds a lock on %s; try again later", p.label(h), msg, h.path)
		}
	}
	lower := strings.ToLower(msg)
	if p.o.ReadOnly && (strings.Contains(lower, "read-only transaction") || strings.Contains(lower, "read only transaction")) {
		return fmt.Errorf("%s%s: the db pack is read-only (packs.db.read_only is true, the default), so only reading statements run. To allow writes, set packs.db.read_only: false in onetool.yaml", p.label(h), msg)
	}
	if m := noTableRE().FindStringSubmatch(msg); m != nil {
		table := m[1] + m[2] + m[3] // the one group that matched
		msg += p.tablesHint(h, table)
	}
	return fmt.Errorf("%s%s", p.label(h), msg)
}

// noTableRE finds the table of "no such table" errors (SQLite,
// PostgreSQL, MySQL).
var noTableRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`no such table: (?:main\.)?(\S+)|relation "([^"]+)" does not exist|Table '[^.']*\.([^']+)' doesn't exist`)
})

// tablesHint lists the tables after an unknown-table error, with a
// did-you-mean.
func (p *Pack) tablesHint(h *handle, table string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	names, err := p.tableNames(ctx, h)
	if err != nil {
		return ""
	}
	if len(names) == 0 {
		return ". The database has no tables"
	}
	hint := ""
	if s := suggest.Closest(table, names); s != "" {
		hint = fmt.Sprintf(". Did you mean '%s'?", s)
	}
	const most = 30
	if len(names) > most {
		return fmt.Sprintf("%s Tables: %s, … (%d in all: db.tables())", hint, strings.Join(names[:most], ", "), len(names))
	}
	if hint == "" {
		hint = "."
	}
	return hint + " Tables: " + strings.Join(names, ", ")
}

// codeSuffix is the " (1)" result code modernc appends to messages.
var codeSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(\d+\)$`) })

// cleanMessage drops SQLite's generic prefixes and result codes.
func cleanMessage(err error) string {
	msg := codeSuffix().ReplaceAllString(err.Error(), "")
	for _, prefix := range []string{"SQL logic error: ", "sqlite: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return msg
}

// stopped words a call ended by its context.
func stopped(ctx context.Context, timeout time.Duration) error {
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errTimeout):
		return fmt.Errorf("stopped after %s (packs.db.timeout): the statement ran too long; narrow it (WHERE, LIMIT, an index) or raise packs.db.timeout in onetool.yaml", timeout)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("stopped: the time limit was reached (%w)", ctx.Err())
	}
	return fmt.Errorf("stopped: the call was cancelled (%w)", ctx.Err())
}

// asIs is an error of a call that is not the database's: the run's memory
// budget, a refused confirmation. explain returns it unchanged.
type asIs struct{ err error }

func (e *asIs) Error() string { return e.err.Error() }
func (e *asIs) Unwrap() error { return e.err }

// sqliteMaxLength is SQLite's own longest value (SQLITE_MAX_LENGTH).
const sqliteMaxLength = 1_000_000_000

// unknownColumns is how many columns SQL that the checker cannot prepare
// (it uses TEMP tables) is taken to return, after its first statement's
// own count: enough that several wide statements cannot each use the
// whole budget.
const unknownColumns = 64

// stmtGuard readies one call's SQL: what SQLite says it would do, the
// user's yes when it writes, and what was set on the connection.
type stmtGuard struct {
	p       *Pack
	h       *handle
	q       string
	m       meter.Meter
	asking  bool    // security.confirm_destructive wants a yes for writes
	metered bool    // the run's memory budget applies
	v       verdict // SQLite's answer; checked false when it could not tell yet
	checked bool
	length  int64    // SQLite's longest value for the call; 0: not lowered
	undo    []func() // in reverse order
	rec     *refusal // the call's authorizer record (SQLite), set by runSQL
}

// watch brackets the program's own SQL, so that what it changes of the
// connection is told from the guard's settings.
func (g *stmtGuard) watch(on bool) { g.rec.watch(on) }

// done undoes the guard's settings: the connection goes back to the pool.
func (g *stmtGuard) done() {
	g.watch(false)
	for i := len(g.undo) - 1; i >= 0; i-- {
		g.undo[i]()
	}
	g.undo = nil
}

// over turns SQLite's "string or blob too big", met under the length the
// guard set from the run's budget, into the run's memory-limit error: the
// value is longer than the call's share of what the budget has left. The
// charge that makes the error is the call's, let go when it ends.
func (g *stmtGuard) over(err error) error {
	var se *sqlite.Error
	if err == nil || g.length == 0 || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_TOOBIG {
		return err
	}
	if cerr := g.m.Charge(max(g.m.Available(), 0) + 1); cerr != nil {
		return &asIs{cerr}
	}
	return err
}

// guard starts readying one call's SQL, before it has a connection. It
// asks SQLite what the SQL would do (checker) and, when ask is set and
// security.confirm_destructive wants it, waits for the user's yes to SQL
// that SQLite does not find read-only — holding no connection meanwhile.
// apply does the rest on the call's connection.
func (p *Pack) guard(ctx context.Context, h *handle, q string, ask bool) (*stmtGuard, error) {
	g := &stmtGuard{p: p, h: h, q: q, m: meter.From(ctx)}
	g.asking = ask && !p.o.ReadOnly && packs.AsksConfirmation(ctx)
	g.metered = !meter.Unlimited(g.m)
	if h.t.kind != kindSQLite {
		if g.asking {
			// database/sql cannot tell whether a statement writes: none is
			// proven read-only.
			if err := packs.ConfirmDestructive(ctx, fmt.Sprintf("run the SQL statement %s on database '%s', which onetool cannot prove read-only there", shownSQL(q), h.name)); err != nil {
				return nil, fmt.Errorf("the SQL statement %s may write to the database: %w", shownSQL(q), err)
			}
		}
		return g, nil
	}
	if !g.asking && !g.metered {
		return g, nil
	}
	if v, err := h.check.check(q); err == nil {
		g.v, g.checked = v, true
		if err := g.confirm(ctx); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// confirm asks for the user's yes when the SQL writes.
func (g *stmtGuard) confirm(ctx context.Context) error {
	if !g.asking || g.v.readOnly {
		return nil
	}
	stmt := g.v.writes
	if stmt == "" {
		stmt = g.q
	}
	does, what := "which SQLite says writes to it", "writes to the database"
	if g.v.state {
		does = "which is not a read: as SQLite compiles it, it changes the connection's state (a pragma's setting, a transaction or savepoint, REINDEX, …)"
		what = "is not a read (it changes the connection's state)"
	}
	if err := packs.ConfirmDestructive(ctx, fmt.Sprintf("run the SQL statement %s on database '%s', %s", shownSQL(stmt), g.h.name, does)); err != nil {
		return fmt.Errorf("the SQL statement %s %s: %w", shownSQL(stmt), what, err)
	}
	g.asking = false // asked and allowed
	return nil
}

// apply readies the call's connection. SQL that SQLite proved read-only
// runs under PRAGMA query_only when a write would have needed a yes, so
// that a wrong answer could not write either. And what SQLite
// materialises is bounded by the run's memory budget: half of what the
// budget has left is reserved for the call, and no value (string, BLOB,
// row) may be longer than that share of one result column
// (SQLITE_LIMIT_LENGTH), so SQLite refuses "SELECT zeroblob(250000000)"
// before it allocates, and parallel calls share what is left.
func (g *stmtGuard) apply(ctx context.Context, c conn) error {
	if g.h.t.kind != kindSQLite || (!g.asking && !g.metered) {
		return nil
	}
	sc, ok := c.(*sql.Conn)
	if !ok {
		return fmt.Errorf("internal error: a SQLite call runs on a %T", c)
	}
	if !g.checked {
		// The checker could not prepare the SQL: the call's own
		// connection tells an error of the SQL from what only it can see
		// (TEMP tables), and such SQL is not proven read-only.
		cols, err := columnCount(sc, g.q)
		if err != nil {
			return err
		}
		g.v, g.checked = verdict{columns: max(cols, unknownColumns)}, true
		if err := g.confirm(ctx); err != nil {
			return &asIs{err}
		}
	}
	if g.asking && g.v.readOnly {
		if _, err := sc.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
			return err
		}
		g.undo = append(g.undo, func() { _, _ = sc.ExecContext(context.WithoutCancel(ctx), "PRAGMA query_only = OFF") })
	}
	if !g.metered {
		return nil
	}
	reserve := g.m.Available() / 2
	if reserve <= 0 {
		if err := g.m.Charge(1); err != nil {
			return &asIs{err}
		}
		reserve = 1
	}
	if err := g.m.Charge(reserve); err != nil {
		return &asIs{err}
	}
	g.undo = append(g.undo, func() { g.m.Release(reserve) })
	g.length = min(max(reserve/int64(max(g.v.columns, 1)), 1), sqliteMaxLength)
	prev, err := sqlite.Limit(sc, sqlite3.SQLITE_LIMIT_LENGTH, int(g.length))
	if err != nil {
		return err
	}
	g.undo = append(g.undo, func() { _, _ = sqlite.Limit(sc, sqlite3.SQLITE_LIMIT_LENGTH, prev) })
	return nil
}

// columnCount is how many columns the first statement of q returns,
// prepared (not run) on c.
func columnCount(c *sql.Conn, q string) (n int, err error) {
	err = c.Raw(func(dc any) error {
		ci, ok := dc.(interface {
			ColumnInfo(query string) ([]sqlite.ColumnInfo, error)
		})
		if !ok {
			return errors.New("the SQLite driver cannot describe a statement")
		}
		info, err := ci.ColumnInfo(q)
		n = len(info)
		return err
	})
	return n, err
}

// shownSQL quotes SQL for a message, cut short.
func shownSQL(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	const most = 200
	if r := []rune(q); len(r) > most {
		q = string(r[:most]) + "…"
	}
	return "`" + q + "`"
}
