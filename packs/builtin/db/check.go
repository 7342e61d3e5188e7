package db

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// checker asks SQLite what SQL would do without running it: it prepares
// each statement on a connection of its own to the same database (opened
// read-only, through modernc's lib package, since the driver does not
// expose its statements) and reads sqlite3_stmt_readonly and
// sqlite3_column_count. SQLite decides, not keywords: DROP, DELETE …
// RETURNING, WITH … DELETE, REPLACE, a pragma that writes, VACUUM are all
// "not read-only" because their programs open a write transaction.
//
// sqlite3_stmt_readonly only speaks of the database file: a statement that
// changes the connection (PRAGMA foreign_keys=OFF, locking_mode, query_only,
// writable_schema, SAVEPOINT, BEGIN, REINDEX, PRAGMA optimize) is
// "read-only" to it. So the connection also has an authorizer
// (checkAuthorizer), which SQLite calls for each action while it compiles
// a statement: a pragma given a value, a transaction or savepoint, REINDEX,
// ANALYZE, any write marks the statement as changing something, and only
// a statement in which it saw a SELECT or a pragma read, and no change,
// counts as a read (default deny: what SQLite compiles to neither, such
// as a REINDEX that finds no index, is not known to be a read). What the
// pack never allows (ATTACH, load_extension(), …) is denied here, so that
// such SQL fails to prepare and the call's own connection, whose authorizer
// explains the refusal, is the one to say so.
//
// Its connection cannot see what lives only in a pool connection (TEMP
// tables): such SQL fails to prepare here, and callers treat it as not
// proven read-only. One connection is kept per database, used by one call
// at a time.
type checker struct {
	uri string // a SQLite file: URI

	mu   sync.Mutex
	tls  *libc.TLS
	db   uintptr // *sqlite3, 0 until opened
	seen uintptr // one byte of C memory checkAuthorizer sets (a change)
}

// verdict is what SQLite says of some SQL.
type verdict struct {
	readOnly   bool   // every statement is read-only and changes nothing
	writes     string // the first statement that is not, as SQLite holds it
	state      bool   // writes is not a write of the file: it changes the connection, or is not known to be a read
	columns    int    // the most result columns of any statement
	statements int
}

// errCheck marks SQL the checker could not prepare.
var errCheck = errors.New("SQLite could not prepare the statement on its own")

// check prepares every statement of q.
func (c *checker) check(q string) (verdict, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.open(); err != nil {
		return verdict{}, err
	}
	zSQL, err := libc.CString(q)
	if err != nil {
		return verdict{}, err
	}
	defer libc.Xfree(c.tls, zSQL)

	// The out-parameters live in Go memory, pinned: no conversion of a
	// libc address back to a Go pointer is needed to read them.
	out := new([2]uintptr) // statement, tail
	var pin runtime.Pinner
	pin.Pin(out)
	defer pin.Unpin()
	pStmt := uintptr(unsafe.Pointer(&out[0]))
	pTail := uintptr(unsafe.Pointer(&out[1]))

	v := verdict{readOnly: true}
	at, end := zSQL, zSQL+uintptr(len(q))
	for at < end {
		libc.Xmemset(c.tls, c.seen, 0, 1)
		rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, at, int32(end-at), pStmt, pTail)
		if rc != sqlite3.SQLITE_OK {
			msg := libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
			return v, fmt.Errorf("%w: %s", errCheck, msg)
		}
		stmt, tail := out[0], out[1]
		if stmt != 0 { // 0: only spaces or a comment were left
			v.statements++
			v.columns = max(v.columns, int(sqlite3.Xsqlite3_column_count(c.tls, stmt)))
			// A read is what SQLite finds read-only, in which its
			// authorizer saw a SELECT or a pragma read and no change. A
			// statement that compiles to neither (REINDEX of a database
			// without indexes) is not counted as one: what is not known
			// to be a read asks.
			writes := sqlite3.Xsqlite3_stmt_readonly(c.tls, stmt) == 0
			seen := libc.GoBytes(c.seen, 1)[0]
			if read := !writes && seen == sawRead; !read && v.readOnly {
				v.readOnly = false
				v.writes = strings.TrimSpace(libc.GoString(sqlite3.Xsqlite3_sql(c.tls, stmt)))
				v.state = !writes
			}
			sqlite3.Xsqlite3_finalize(c.tls, stmt)
		}
		if tail <= at {
			break
		}
		at = tail
	}
	return v, nil
}

// open opens the connection on first use. c.mu is held.
func (c *checker) open() error {
	if c.db != 0 {
		return nil
	}
	if c.tls == nil {
		c.tls = libc.NewTLS()
	}
	name, err := libc.CString(c.uri)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, name)
	out := new(uintptr)
	var pin runtime.Pinner
	pin.Pin(out)
	defer pin.Unpin()
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, uintptr(unsafe.Pointer(out)), sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_URI, 0)
	db := *out
	if rc != sqlite3.SQLITE_OK {
		msg := "out of memory"
		if db != 0 {
			msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, db))
			sqlite3.Xsqlite3_close_v2(c.tls, db)
		}
		return fmt.Errorf("%w: opening the database to check the statement: %s", errCheck, msg)
	}
	sqlite3.Xsqlite3_busy_timeout(c.tls, db, 5000)
	seen := libc.Xcalloc(c.tls, 1, 1)
	if seen == 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, db)
		return fmt.Errorf("%w: out of memory", errCheck)
	}
	if rc := sqlite3.Xsqlite3_set_authorizer(c.tls, db, cFunc(checkAuthorizer), seen); rc != sqlite3.SQLITE_OK {
		libc.Xfree(c.tls, seen)
		sqlite3.Xsqlite3_close_v2(c.tls, db)
		return fmt.Errorf("%w: setting the authorizer: %s", errCheck, libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc)))
	}
	c.db, c.seen = db, seen
	return nil
}

// What checkAuthorizer saw in a statement, bits of the byte at seen.
const (
	sawChange = 1 << iota // an action that changes the database or the connection
	sawRead               // a SELECT, or a pragma read
)

// checkAuthorizer is the checker connection's authorizer (SQLite's
// xAuth): it records in the byte at seen whether the action reads or
// changes something, and denies what the pack never allows. It is a
// top-level function because SQLite keeps its address.
func checkAuthorizer(tls *libc.TLS, seen uintptr, action int32, z1, z2, _, _ uintptr) int32 {
	arg1, arg2 := libc.GoString(z1), libc.GoString(z2) // GoString(0) is ""
	code := sqlite.AuthorizerActionCode(action)
	if authorizer(false, nil)(code, arg1, arg2, "", "") == sqlite.AuthorizerDeny {
		return sqlite3.SQLITE_DENY
	}
	was := libc.GoBytes(seen, 1)[0]
	switch {
	case changes(code, arg1, z2 != 0):
		libc.Xmemset(tls, seen, int32(was|sawChange), 1)
	case code == sqlite.AuthSelect || code == sqlite.AuthPragma:
		libc.Xmemset(tls, seen, int32(was|sawRead), 1)
	}
	return sqlite3.SQLITE_OK
}

// changes says whether an action SQLite presents to an authorizer changes
// the database or the connection: any write, a pragma given a value (NULL
// is no value: PRAGMA foreign_keys reads, PRAGMA foreign_keys=OFF sets),
// except those whose argument names what to read (table_info(t)), the
// pragmas that act without one (optimize, wal_checkpoint, …), transactions
// and savepoints, REINDEX, ANALYZE, ATTACH and DETACH.
func changes(action sqlite.AuthorizerActionCode, arg1 string, hasArg2 bool) bool {
	switch action {
	case sqlite.AuthRead, sqlite.AuthSelect, sqlite.AuthFunction, sqlite.AuthRecursive:
		return false
	case sqlite.AuthPragma:
		name := strings.ToLower(arg1)
		if slices.Contains(readPragmas, name) {
			return false
		}
		return hasArg2 || slices.Contains(actingPragmas, name)
	}
	// Every other action is a write, a change of the schema or of the
	// connection (transactions, savepoints, REINDEX, ANALYZE, ATTACH,
	// DETACH), or one SQLite added since: counted as a change.
	return true
}

// cFunc is the C function pointer of a Go function (modernc's calling
// convention: the address of the function value, which for a top-level
// function is static).
func cFunc[T any](f T) uintptr {
	return *(*uintptr)(unsafe.Pointer(&struct{ f T }{f}))
}

// close closes the connection.
func (c *checker) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
		c.db = 0
		libc.Xfree(c.tls, c.seen)
		c.seen = 0
	}
	if c.tls != nil {
		c.tls.Close()
		c.tls = nil
	}
}
