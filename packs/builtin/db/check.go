package db

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"modernc.org/libc"
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
// Its connection cannot see what lives only in a pool connection (TEMP
// tables): such SQL fails to prepare here, and callers treat it as not
// proven read-only. One connection is kept per database, used by one call
// at a time.
type checker struct {
	uri string // a SQLite file: URI

	mu  sync.Mutex
	tls *libc.TLS
	db  uintptr // *sqlite3, 0 until opened
}

// verdict is what SQLite says of some SQL.
type verdict struct {
	readOnly   bool   // every statement is read-only
	writes     string // the first statement that is not, as SQLite holds it
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
		rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, at, int32(end-at), pStmt, pTail)
		if rc != sqlite3.SQLITE_OK {
			msg := libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
			return v, fmt.Errorf("%w: %s", errCheck, msg)
		}
		stmt, tail := out[0], out[1]
		if stmt != 0 { // 0: only spaces or a comment were left
			v.statements++
			v.columns = max(v.columns, int(sqlite3.Xsqlite3_column_count(c.tls, stmt)))
			if sqlite3.Xsqlite3_stmt_readonly(c.tls, stmt) == 0 && v.readOnly {
				v.readOnly = false
				v.writes = strings.TrimSpace(libc.GoString(sqlite3.Xsqlite3_sql(c.tls, stmt)))
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
	c.db = db
	return nil
}

// close closes the connection.
func (c *checker) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
		c.db = 0
	}
	if c.tls != nil {
		c.tls.Close()
		c.tls = nil
	}
}
