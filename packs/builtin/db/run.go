package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
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
	c, err := h.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if h.t.kind == kindSQLite {
		rec := &refusal{}
		err := c.Raw(func(dc any) error {
			ar, ok := dc.(sqlite.AuthorizerRegisterer)
			if !ok {
				return errors.New("the SQLite driver offers no authorizer")
			}
			return ar.RegisterAuthorizer(authorizer(p.o.ReadOnly, rec))
		})
		if err != nil {
			return err
		}
		err = fn(c)
		if reason, ro := rec.get(); err != nil && reason != "" {
			return &refusedError{reason: reason, readOnly: ro, err: err}
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

// explain turns a failure of a call on h into the message the caller
// sees: what went wrong and what to do.
func (p *Pack) explain(ctx context.Context, h *handle, err error) error {
	if ctx.Err() != nil {
		return stopped(ctx, p.o.Timeout)
	}
	var ref *refusedError
	if errors.As(err, &ref) {
		return fmt.Errorf("%s%w", p.label(h), ref)
	}
	msg := cleanMessage(err)
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
