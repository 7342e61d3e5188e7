package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Held connections: what Python's sqlite3.Connection is (issue 31). A
// program's connection keeps its transaction between statements, so it
// cannot be a pooled connection that each call resets (runSQL): it is a
// connection of its own, opened through the database's guarded connector
// (the same DSN: mode=ro and query_only when read-only, defensive mode,
// the authorizer from the first statement), kept in the run's
// packs.Scope, and rolled back and closed when the program closes it or
// the run ends. It is never returned to a pool. Every statement on it
// takes the pack's own path: onSQLite (the authorizer of the call),
// guard and confirm (a yes for SQL SQLite says writes), apply (query_only
// while a read runs under confirmation, SQLITE_LIMIT_LENGTH from the
// memory budget), packs.db.timeout, the meter and Hide.

// MaxHeld is the most connections one run may hold open at once.
const MaxHeld = 64

// heldKey is the Scope key of a pack's held connections in one run.
type heldKey struct{ p *Pack }

// heldSet is one run's held connections of one pack, by id.
type heldSet struct {
	mu    sync.Mutex
	next  int64
	conns map[int64]*held
}

func (s *heldSet) add(x *held) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.conns) >= MaxHeld {
		return 0, pyops.Tag(pyops.ErrSQLOperational, fmt.Errorf("unable to open database file: this run already holds %d open connections (the most one run may hold): close() the ones it no longer uses", MaxHeld))
	}
	s.next++
	s.conns[s.next] = x
	return s.next, nil
}

func (s *heldSet) get(id int64) *held {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns[id]
}

func (s *heldSet) drop(id int64) error {
	s.mu.Lock()
	x := s.conns[id]
	delete(s.conns, id)
	s.mu.Unlock()
	if x == nil {
		return nil
	}
	return x.Close()
}

// Close rolls back and closes every connection the run still holds.
func (s *heldSet) Close() error {
	s.mu.Lock()
	conns := s.conns
	s.conns = map[int64]*held{}
	s.mu.Unlock()
	var errs []error
	for _, x := range conns {
		errs = append(errs, x.Close())
	}
	return errors.Join(errs...)
}

// held is one held connection. Its statements run one at a time (mu):
// a program's threads (parallel()) may share a Connection.
type held struct {
	mu     sync.Mutex
	p      *Pack
	h      *handle
	db     *sql.DB // a pool of this one connection, closed with it
	c      *sql.Conn
	raw    uintptr   // the connection's sqlite3*, for what database/sql does not say
	tls    *libc.TLS // for the calls made on raw
	closed bool
}

// hold opens a held connection to h.
func (p *Pack) hold(ctx context.Context, h *handle) (*held, error) {
	db := sql.OpenDB(h.connector)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	c, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	raw, err := rawHandle(c)
	if err != nil {
		c.Close()
		db.Close()
		return nil, err
	}
	return &held{p: p, h: h, db: db, c: c, raw: raw, tls: libc.NewTLS()}, nil
}

// rawHandle is the sqlite3* of c. The driver keeps it unexported; the
// field is read (never written) by reflection, and a test fails the
// build's tests if a new version of the driver renames it.
func rawHandle(c *sql.Conn) (raw uintptr, err error) {
	err = c.Raw(func(dc any) error {
		v := reflect.ValueOf(dc)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("internal error: the SQLite driver's connection is a %T", dc)
		}
		f := v.Elem().FieldByName("db")
		if !f.IsValid() || f.Kind() != reflect.Uintptr || f.Uint() == 0 {
			return fmt.Errorf("internal error: the SQLite driver's connection (%T) has no db handle", dc)
		}
		raw = uintptr(f.Uint())
		return nil
	})
	return raw, err
}

// Close rolls back what is still open and closes the connection; it is
// never pooled again.
func (x *held) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	x.closed = true
	var errs []error
	if !x.autocommit() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, err := x.c.ExecContext(ctx, "ROLLBACK"); err != nil {
			errs = append(errs, fmt.Errorf("rolling back database '%s': %w", x.h.name, err))
		}
		cancel()
	}
	errs = append(errs, x.c.Close(), x.db.Close())
	x.tls.Close()
	return errors.Join(errs...)
}

// autocommit is sqlite3_get_autocommit: false inside a transaction.
func (x *held) autocommit() bool { return sqlite3.Xsqlite3_get_autocommit(x.tls, x.raw) != 0 }

func (x *held) changes() int64 { return int64(sqlite3.Xsqlite3_changes64(x.tls, x.raw)) }

func (x *held) totalChanges() int64 {
	return int64(sqlite3.Xsqlite3_total_changes64(x.tls, x.raw))
}

func (x *held) lastRowID() int64 { return int64(sqlite3.Xsqlite3_last_insert_rowid(x.tls, x.raw)) }

// stmtInfo is what preparing the first statement of some SQL tells.
type stmtInfo struct {
	empty  bool     // nothing but spaces and comments
	tail   bool     // another statement follows the first
	params []string // each parameter's name ("" for ?), in order
}

// sqlError is an error SQLite returned to a call made on raw.
type sqlError struct {
	code int32
	msg  string
}

func (e *sqlError) Error() string { return e.msg }

// inspect prepares the first statement of q on the connection (under the
// call's authorizer), as CPython's sqlite3 does before it binds.
func (x *held) inspect(q string) (stmtInfo, error) {
	var info stmtInfo
	zSQL, err := libc.CString(q)
	if err != nil {
		return info, err
	}
	defer libc.Xfree(x.tls, zSQL)
	out := new([2]uintptr) // statement, tail
	var pin runtime.Pinner
	pin.Pin(out)
	defer pin.Unpin()
	rc := sqlite3.Xsqlite3_prepare_v2(x.tls, x.raw, zSQL, int32(len(q)), uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&out[1])))
	if rc != sqlite3.SQLITE_OK {
		return info, &sqlError{code: sqlite3.Xsqlite3_extended_errcode(x.tls, x.raw), msg: libc.GoString(sqlite3.Xsqlite3_errmsg(x.tls, x.raw))}
	}
	stmt, tail := out[0], out[1]
	if stmt == 0 {
		info.empty = true
		return info, nil
	}
	defer sqlite3.Xsqlite3_finalize(x.tls, stmt)
	n := int(sqlite3.Xsqlite3_bind_parameter_count(x.tls, stmt))
	info.params = make([]string, n)
	for i := range n {
		info.params[i] = libc.GoString(sqlite3.Xsqlite3_bind_parameter_name(x.tls, stmt, int32(i+1)))
	}
	if off := int(tail - zSQL); off >= 0 && off < len(q) {
		info.tail = !onlyComments(q[off:])
	}
	return info, nil
}

// onlyComments reports whether s holds nothing but spaces, semicolons and
// SQL comments.
func onlyComments(s string) bool {
	for s != "" {
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return true
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s[2:], "*/")
			if i < 0 {
				return true
			}
			s = s[i+4:]
		case strings.ContainsRune(" \t\n\r\f;", rune(s[0])):
			s = s[1:]
		default:
			return false
		}
	}
	return true
}

// pyops are the variants of Python's sqlite3 (internal/pyops/db.go).
func (p *Pack) pyops() []*packs.Tool {
	q := packs.Annotations{ReadOnly: p.o.ReadOnly}
	obj := func(props string) string {
		return `{"type":"object","properties":{` + props + `}}`
	}
	const conn = `"conn":{"type":"integer"}`
	return []*packs.Tool{
		{Pack: "db", Name: "query", Variant: "connect", Annotations: q,
			InputSchema: obj(`"target":{"type":"string"}`), Handler: p.wrap(p.pyConnect)},
		{Pack: "db", Name: "query", Variant: "run", Annotations: q,
			InputSchema: obj(conn + `,"sql":{"type":"string"},"params":{},"many":{"type":"array"},"begin":{"type":"boolean"},"level":{"type":"string"}`),
			Handler:     p.wrap(p.pyRun)},
		// executescript runs any SQL, as db.execute does, and is asked
		// and refused as db.execute is.
		{Pack: "db", Name: "execute", Variant: "script", Annotations: packs.Annotations{Destructive: true},
			InputSchema: obj(conn + `,"sql":{"type":"string"}`), Handler: p.wrap(p.pyScript)},
		{Pack: "db", Name: "query", Variant: "end", Annotations: q,
			InputSchema: obj(conn + `,"action":{"type":"string","enum":["commit","rollback","close"]}`), Handler: p.wrap(p.pyEnd)},
	}
}

// operational tags a refusal of sqlite3.connect and the like.
func operational(format string, a ...any) error {
	return pyops.Tag(pyops.ErrSQLOperational, fmt.Errorf(format, a...))
}

func programming(msg string) error {
	return pyops.Tag(pyops.ErrSQLProgramming, errors.New(msg))
}

// errClosed is CPython's error for a closed connection (or one a previous
// run held: a session's globals).
var errClosed = "Cannot operate on a closed database."

func (p *Pack) pyConnect(ctx context.Context, args map[string]any) (any, error) {
	scope := packs.ScopeFrom(ctx)
	if scope == nil {
		return nil, operational("unable to open database file: sqlite3 works only inside a run")
	}
	target := str(args["target"])
	name, err := p.configuredName(ctx, target)
	if err != nil {
		return nil, err
	}
	h, err := p.lookup(ctx, name)
	if err != nil {
		return nil, operational("unable to open database file: %w", err)
	}
	if h.t.kind != kindSQLite {
		return nil, pyops.Tag(pyops.ErrSQLNotSupported, fmt.Errorf("database '%s' is not a SQLite database: sqlite3 opens SQLite only; use db.query(db=\"%s\", …) for it", name, name))
	}
	v, err := scope.Value(heldKey{p}, func() (io.Closer, error) { return &heldSet{conns: map[int64]*held{}}, nil })
	if err != nil {
		return nil, programming(errClosed)
	}
	set := v.(*heldSet)
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	x, err := p.hold(ctx, h)
	if err != nil {
		return nil, p.pyErr(ctx, h, err)
	}
	id, err := set.add(x)
	if err != nil {
		x.Close()
		return nil, err
	}
	return map[string]any{"conn": id, "name": name, "read_only": p.o.ReadOnly}, nil
}

// configuredName is the configured database a program's
// sqlite3.connect(target) means: a name of packs.db.databases, the path
// (relative to the run's roots' base, links followed) of a configured
// SQLite file, or ":memory:" when a memory database is configured.
func (p *Pack) configuredName(ctx context.Context, target string) (string, error) {
	if p.bad != nil {
		return "", operational("unable to open database file: %w", p.bad)
	}
	if _, ok := p.o.Databases[target]; ok {
		return target, nil
	}
	configured := func() string {
		if len(p.names) == 0 {
			return "none (packs.db.databases is empty)"
		}
		return strings.Join(p.names, ", ") + " (packs.db.databases)"
	}
	var memory []string
	want := ""
	if target != ":memory:" && target != "" {
		base := "."
		if r := roots.FromContext(ctx, p.o.Roots); r != nil {
			base = r.Base()
		}
		want = realOrClean(target, base)
	}
	for _, name := range p.names {
		t, err := parseTarget(p.o.Databases[name])
		if err != nil || t.kind != kindSQLite {
			continue
		}
		if t.memory {
			memory = append(memory, name)
			continue
		}
		base := "."
		if p.o.Roots != nil {
			base = p.o.Roots.Base()
		}
		if want != "" && realOrClean(t.path, base) == want {
			return name, nil
		}
	}
	if target == ":memory:" {
		if len(memory) > 0 {
			return memory[0], nil
		}
		return "", operational("unable to open database file: ':memory:' is not a configured database (a memory database works only when packs.db.databases has one, e.g. scratch: \"sqlite::memory:\"); configured: %s", configured())
	}
	return "", operational("unable to open database file: '%s' is not a configured database; configured: %s", target, configured())
}

// realOrClean is path, absolute against base, with its links followed
// when it exists.
func realOrClean(path, base string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

// heldConn is the held connection args["conn"] names in the run of ctx.
func (p *Pack) heldConn(ctx context.Context, args map[string]any) (*held, error) {
	scope := packs.ScopeFrom(ctx)
	id, _ := wholeNumber(args["conn"])
	if scope == nil {
		return nil, programming(errClosed)
	}
	v, ok := scope.Lookup(heldKey{p})
	if !ok {
		return nil, programming(errClosed)
	}
	x := v.(*heldSet).get(id)
	if x == nil {
		return nil, programming(errClosed)
	}
	return x, nil
}

func (p *Pack) pyRun(ctx context.Context, args map[string]any) (any, error) {
	x, err := p.heldConn(ctx, args)
	if err != nil {
		return nil, err
	}
	q := str(args["sql"])
	var sets []any
	many, isMany := args["many"].([]any)
	if isMany {
		sets = many
	} else {
		sets = []any{args["params"]}
	}
	begin, _ := args["begin"].(bool)
	level := str(args["level"])
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, programming(errClosed)
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	g, err := p.guard(ctx, x.h, q, true)
	if err != nil {
		return nil, p.pyErr(ctx, x.h, err)
	}
	out := map[string]any{"columns": []any{}, "decltypes": []any{}, "rows": []any{}}
	var rowcount int64
	_, err = p.onSQLite(x.c, g, func(c conn) error {
		defer g.done()
		info, err := x.inspect(q)
		if err != nil {
			return err
		}
		if info.tail {
			return programming("You can only execute one statement at a time.")
		}
		if info.empty {
			return nil
		}
		if err := g.apply(ctx, c); err != nil {
			return err
		}
		if begin && x.autocommit() {
			if _, err := c.ExecContext(ctx, strings.TrimSpace("BEGIN "+level)); err != nil {
				return err
			}
		}
		g.watch(true)
		for _, set := range sets {
			bound, err := bindPy(info.params, set)
			if err != nil {
				return err
			}
			rows, err := c.QueryContext(ctx, q, bound...)
			if err != nil {
				return g.over(err)
			}
			if isMany {
				for rows.Next() {
				}
			} else if err := collectRaw(rows, out, g.m, p.o.Hide); err != nil {
				rows.Close()
				return g.over(err)
			}
			if err := rows.Close(); err != nil {
				return g.over(err)
			}
			if err := rows.Err(); err != nil {
				return g.over(err)
			}
			rowcount += x.changes()
		}
		return nil
	})
	if err != nil {
		return nil, p.pyErr(ctx, x.h, err)
	}
	out["rowcount"] = rowcount
	out["lastrowid"] = x.lastRowID()
	out["in_transaction"] = !x.autocommit()
	out["total_changes"] = x.totalChanges()
	return out, nil
}

// bindPy binds one execute's parameters as CPython's sqlite3 does: a
// list fills the placeholders in order, a dict fills named ones (:name,
// @name, $name).
func bindPy(names []string, set any) ([]any, error) {
	if m, ok := set.(*ordered.Map); ok {
		plain := map[string]any{}
		m.Range(func(k string, v any) bool { plain[k] = v; return true })
		set = plain
	}
	switch x := set.(type) {
	case nil, []any:
		list, _ := x.([]any)
		if len(list) != len(names) {
			return nil, programming(fmt.Sprintf("Incorrect number of bindings supplied. The current statement uses %d, and there are %d supplied.", len(names), len(list)))
		}
		out := make([]any, len(list))
		for i, v := range list {
			b, err := bindOne(v, i+1)
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return out, nil
	case map[string]any:
		var out []any
		seen := map[string]bool{}
		for i, name := range names {
			if name == "" || name[0] == '?' {
				return nil, programming(fmt.Sprintf("Binding %d has no name, but you supplied a dictionary (which has only names).", i+1))
			}
			key := name[1:]
			v, ok := x[key]
			if !ok {
				return nil, programming(fmt.Sprintf("You did not supply a value for binding parameter %s.", name))
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			b, err := bindOne(v, i+1)
			if err != nil {
				return nil, err
			}
			out = append(out, sql.Named(key, b))
		}
		return out, nil
	}
	return nil, programming(fmt.Sprintf("parameters are of unsupported type (%T)", set))
}

// bindOne converts one parameter: bytes arrive as a content map.
func bindOne(v any, at int) (any, error) {
	switch x := v.(type) {
	case nil, bool, int64, float64, string:
		return x, nil
	case int:
		return int64(x), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		return x.Float64()
	case map[string]any, *ordered.Map:
		b, err := pyops.GetContent(x)
		if err != nil {
			return nil, programming(fmt.Sprintf("Error binding parameter %d: %v", at, err))
		}
		if b == nil {
			b = []byte{}
		}
		return b, nil
	}
	return nil, programming(fmt.Sprintf("Error binding parameter %d: type '%T' is not supported", at, v))
}

// collectRaw reads rows as CPython's sqlite3 gives them (INTEGER int64,
// REAL float64, TEXT string, BLOB bytes as a content map, NULL nil),
// charging each row to m as it arrives and hiding secrets' pieces in text.
func collectRaw(rows *sql.Rows, out map[string]any, m meter.Meter, hide func(string) string) error {
	types, err := rows.ColumnTypes()
	if err != nil {
		return err
	}
	cols := make([]any, len(types))
	decl := make([]any, len(types))
	for i, t := range types {
		cols[i] = t.Name()
		decl[i] = t.DatabaseTypeName()
	}
	out["columns"], out["decltypes"] = cols, decl
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var list []any
	for rows.Next() {
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		row := make([]any, len(vals))
		charge := int64(16 + 16*len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case string:
				if hide != nil {
					x = hide(x)
				}
				row[i] = x
				charge += int64(len(x))
			case []byte:
				b := x
				if hide != nil && utf8.Valid(b) {
					b = []byte(hide(string(b)))
				}
				c := map[string]any{}
				pyops.PutContent(c, b)
				row[i] = c
				charge += int64(len(x)) * 2 // what arrived, and what is kept
			case time.Time:
				// The driver reads text in DATE, DATETIME and TIMESTAMP
				// columns as times: written back as SQLite's own form.
				row[i] = sqliteTime(x, decl[i] == "DATE")
				charge += 32
			default:
				row[i] = x
			}
		}
		if err := m.Charge(charge); err != nil {
			return &asIs{err}
		}
		list = append(list, row)
	}
	if list == nil {
		list = []any{}
	}
	out["rows"] = list
	return rows.Err()
}

// sqliteTime writes a time as SQLite's date and time functions do:
// "2024-01-02" for a midnight in a DATE column, else "2024-01-02
// 03:04:05" (with the fraction and a zone offset when there are some).
func sqliteTime(t time.Time, date bool) string {
	if date && t.Equal(t.Truncate(24*time.Hour)) && t.Location() == time.UTC {
		return t.Format(time.DateOnly)
	}
	s := t.Format("2006-01-02 15:04:05.999999999")
	if _, off := t.Zone(); off != 0 {
		s += t.Format("-07:00")
	}
	return s
}

func (p *Pack) pyScript(ctx context.Context, args map[string]any) (any, error) {
	if p.o.ReadOnly {
		return nil, operational("executescript() is not allowed: the db pack is read-only (packs.db.read_only is true, the default), so nothing was run. To allow writes, set packs.db.read_only: false in onetool.yaml; to read, use execute()")
	}
	x, err := p.heldConn(ctx, args)
	if err != nil {
		return nil, err
	}
	q := str(args["sql"])
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, programming(errClosed)
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	// db.execute@script is marked destructive: the call was confirmed.
	g, err := p.guard(ctx, x.h, q, false)
	if err != nil {
		return nil, p.pyErr(ctx, x.h, err)
	}
	_, err = p.onSQLite(x.c, g, func(c conn) error {
		defer g.done()
		if !x.autocommit() { // CPython commits first
			if _, err := c.ExecContext(ctx, "COMMIT"); err != nil {
				return err
			}
		}
		if err := g.apply(ctx, c); err != nil {
			return err
		}
		g.watch(true)
		if isBlank(q) {
			return nil
		}
		_, err := c.ExecContext(ctx, q)
		return g.over(err)
	})
	if err != nil {
		return nil, p.pyErr(ctx, x.h, err)
	}
	return map[string]any{"in_transaction": !x.autocommit(), "total_changes": x.totalChanges()}, nil
}

func (p *Pack) pyEnd(ctx context.Context, args map[string]any) (any, error) {
	action := str(args["action"])
	if action == "close" {
		if scope := packs.ScopeFrom(ctx); scope != nil {
			if v, ok := scope.Lookup(heldKey{p}); ok {
				id, _ := wholeNumber(args["conn"])
				if err := v.(*heldSet).drop(id); err != nil {
					return nil, operational("%v", err)
				}
			}
		}
		return map[string]any{"in_transaction": false}, nil
	}
	stmt := map[string]string{"commit": "COMMIT", "rollback": "ROLLBACK"}[action]
	if stmt == "" {
		return nil, programming(fmt.Sprintf("unknown action %q: commit, rollback or close", action))
	}
	x, err := p.heldConn(ctx, args)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, programming(errClosed)
	}
	if x.autocommit() { // nothing to end, as CPython
		return map[string]any{"in_transaction": false}, nil
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	_, err = p.onSQLite(x.c, nil, func(c conn) error {
		_, err := c.ExecContext(ctx, stmt)
		return err
	})
	if err != nil {
		return nil, p.pyErr(ctx, x.h, err)
	}
	return map[string]any{"in_transaction": !x.autocommit(), "total_changes": x.totalChanges()}, nil
}

// pyErr is the error of a variant: the run's budget and a refused
// confirmation as they are (the runner knows them), a kind of its own as
// it is, and every other failure tagged with sqlite3's class for its
// SQLite result code, worded as SQLite words it (onetool's refusals, the
// read-only mode and the timeout as the pack words them).
func (p *Pack) pyErr(ctx context.Context, h *handle, err error) error {
	var own *asIs
	if errors.As(err, &own) {
		return own.err
	}
	if pyops.KindOf(err) != nil {
		return err
	}
	code := int32(-1)
	var se *sqlite.Error
	var ce *sqlError
	switch {
	case errors.As(err, &se):
		code = int32(se.Code())
	case errors.As(err, &ce):
		code = ce.code
	}
	kind := kindOfCode(code)
	var ref *refusedError
	if ctx.Err() != nil || errors.As(err, &ref) || code&0xff == sqlite3.SQLITE_READONLY || code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED {
		return pyops.Tag(kind, p.explain(ctx, h, err))
	}
	msg := cleanMessage(err)
	if code >= 0 {
		tls := libc.NewTLS()
		msg = strings.TrimPrefix(msg, libc.GoString(sqlite3.Xsqlite3_errstr(tls, code&0xff))+": ")
		tls.Close()
	}
	if p.o.Hide != nil {
		msg = p.o.Hide(msg)
	}
	return pyops.Tag(kind, errors.New(msg))
}

// kindOfCode is sqlite3's exception class for a SQLite result code, as
// CPython's sqlite3 chooses it.
func kindOfCode(code int32) error {
	switch code & 0xff {
	case sqlite3.SQLITE_CONSTRAINT:
		return pyops.ErrSQLIntegrity
	case sqlite3.SQLITE_MISUSE, sqlite3.SQLITE_RANGE:
		return pyops.ErrSQLProgramming
	case sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_MISMATCH:
		return pyops.ErrSQLData
	}
	return pyops.ErrSQLOperational
}
