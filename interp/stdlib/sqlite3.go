package stdlib

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// sqlite3 is Python's sqlite3 over the db pack (issue 31): connect opens
// a connection the pack holds for the run (db.query@connect), each
// statement is a call of db.query@run (db.execute@script for
// executescript), commit, rollback and close are db.query@end. Only
// databases configured in packs.db.databases open; the pack's
// authorizer, read-only mode, policy, confirmation, timeout and memory
// budget apply to every statement. Rows are fetched whole by each execute
// and held by the cursor (under the run's memory budget); Python 3.11's
// legacy transaction control (a BEGIN before INSERT, UPDATE, DELETE and
// REPLACE outside a transaction) is the module's, in_transaction the
// connection's own.

// sqliteExc are sqlite3's exception classes, made once.
type sqliteExc struct {
	warning, error, iface, database, operational, integrity, programming, data, notSupported, internal *pyrt.ExcClass
}

var sqliteClasses = sync.OnceValue(func() *sqliteExc {
	e := &sqliteExc{
		warning: pyrt.NewModuleClass("sqlite3.Warning", "Exception"),
		error:   pyrt.NewModuleClass("sqlite3.Error", "Exception"),
	}
	e.iface = pyrt.NewModuleSubclass("sqlite3.InterfaceError", e.error)
	e.database = pyrt.NewModuleSubclass("sqlite3.DatabaseError", e.error)
	e.operational = pyrt.NewModuleSubclass("sqlite3.OperationalError", e.database)
	e.integrity = pyrt.NewModuleSubclass("sqlite3.IntegrityError", e.database)
	e.programming = pyrt.NewModuleSubclass("sqlite3.ProgrammingError", e.database)
	e.data = pyrt.NewModuleSubclass("sqlite3.DataError", e.database)
	e.notSupported = pyrt.NewModuleSubclass("sqlite3.NotSupportedError", e.database)
	e.internal = pyrt.NewModuleSubclass("sqlite3.InternalError", e.database)
	return e
})

var (
	sqlConnClass   = &pyClass{module: "sqlite3", name: "Connection", is: isOf[*sqlConn]}
	sqlCursorClass = &pyClass{module: "sqlite3", name: "Cursor", is: isOf[*sqlCursor]}
	sqlRowClass    = &pyClass{module: "sqlite3", name: "Row", is: isOf[*sqlRow], ctor: newSQLRow}
)

// SQLite3 is the sqlite3 module.
func SQLite3() *starlarkstruct.Module {
	e := sqliteClasses()
	return &starlarkstruct.Module{Name: "sqlite3", Members: starlark.StringDict{
		"connect":           interp.NewBuiltin("connect", sqlConnect),
		"Connection":        sqlConnClass,
		"Cursor":            sqlCursorClass,
		"Row":               sqlRowClass,
		"Warning":           e.warning,
		"Error":             e.error,
		"InterfaceError":    e.iface,
		"DatabaseError":     e.database,
		"OperationalError":  e.operational,
		"IntegrityError":    e.integrity,
		"ProgrammingError":  e.programming,
		"DataError":         e.data,
		"NotSupportedError": e.notSupported,
		"InternalError":     e.internal,
		"sqlite_version":    starlark.String(pyops.SQLiteVersion),
		"version":           starlark.String("2.6.0"),
		"PARSE_DECLTYPES":   starlark.MakeInt(1),
		"PARSE_COLNAMES":    starlark.MakeInt(2),
		"paramstyle":        starlark.String("qmark"),
		"threadsafety":      starlark.MakeInt(1),
		"apilevel":          starlark.String("2.0"),
	}}
}

// sqlRaise raises sqlite3's class cls with msg.
func sqlRaise(cls *pyrt.ExcClass, msg string) error { return cls.Raise(msg, nil) }

// sqlErr turns the error of a db variant into sqlite3's exception; a
// budget's or a cancellation's error, and an exception, are returned as
// they are (the first end the run).
func sqlErr(err error) error {
	var ex *pyrt.Exception
	if errors.Is(err, interp.ErrLimit) || errors.Is(err, interp.ErrCancelled) || errors.As(err, &ex) {
		return err
	}
	if pe, ok := err.(interface{ Exception() *pyrt.ExcValue }); ok && pe.Exception() != nil {
		return err
	}
	e := sqliteClasses()
	cls := e.operational
	switch {
	case errors.Is(err, pyops.ErrSQLIntegrity):
		cls = e.integrity
	case errors.Is(err, pyops.ErrSQLProgramming):
		cls = e.programming
	case errors.Is(err, pyops.ErrSQLData):
		cls = e.data
	case errors.Is(err, pyops.ErrSQLNotSupported):
		cls = e.notSupported
	}
	return sqlRaise(cls, err.Error())
}

// sqlCall calls a db variant for the module.
func sqlCall(thread *starlark.Thread, op string, args map[string]any) (map[string]any, error) {
	v, err := call(thread, op, args)
	if err != nil {
		return nil, sqlErr(err)
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func sqlConnect(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var database starlark.Value
	var timeout, detectTypes, checkSameThread, factory, cached starlark.Value
	var isolation starlark.Value = starlark.String("")
	uri := false
	if err := starlark.UnpackArgs("connect", args, kwargs, "database", &database, "timeout?", &timeout,
		"detect_types?", &detectTypes, "isolation_level?", &isolation, "check_same_thread?", &checkSameThread,
		"factory?", &factory, "cached_statements?", &cached, "uri?", &uri); err != nil {
		return nil, err
	}
	if factory != nil && factory != starlark.None && factory != sqlConnClass {
		return nil, sqlRaise(sqliteClasses().notSupported, "connect(factory=…) is not supported here")
	}
	level, err := isolationLevel(isolation)
	if err != nil {
		return nil, err
	}
	target, err := fsPath(thread, "", database)
	if err != nil {
		return nil, err
	}
	if uri && strings.HasPrefix(target, "file:") {
		target = strings.TrimPrefix(target, "file:")
		target, _, _ = strings.Cut(target, "?")
	}
	res, err := sqlCall(thread, pyops.DBConnect, map[string]any{"target": target})
	if err != nil {
		return nil, err
	}
	id, _ := res["conn"].(int64)
	if f, ok := res["conn"].(float64); ok {
		id = int64(f)
	}
	return &sqlConn{id: id, isolation: level, rowFactory: starlark.None}, nil
}

// isolationLevel checks an isolation_level: None or one of SQLite's
// BEGIN kinds, as CPython checks it.
func isolationLevel(v starlark.Value) (starlark.Value, error) {
	if v == starlark.None {
		return v, nil
	}
	s, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "isolation_level must be str or None, not %s", pyrt.TypeName(v))
	}
	switch strings.ToUpper(s) {
	case "", "DEFERRED", "IMMEDIATE", "EXCLUSIVE":
		return starlark.String(s), nil
	}
	return nil, pyrt.Errorf("ValueError", "isolation_level string must be '', 'DEFERRED', 'IMMEDIATE', or 'EXCLUSIVE'")
}

// sqlConn is sqlite3.Connection: a connection the db pack holds.
type sqlConn struct {
	id           int64
	closed       bool
	inTx         bool
	totalChanges int64
	isolation    starlark.Value // None: autocommit
	rowFactory   starlark.Value
	// commitPending: isolation_level was set to None inside a
	// transaction; CPython commits then, this module at the next call.
	commitPending bool
}

var (
	_ starlark.HasAttrs    = (*sqlConn)(nil)
	_ starlark.HasSetField = (*sqlConn)(nil)
)

func (c *sqlConn) String() string          { return fmt.Sprintf("<sqlite3.Connection object at %p>", c) }
func (c *sqlConn) Type() string            { return "sqlite3.Connection" }
func (c *sqlConn) Freeze()                 {}
func (c *sqlConn) Truth() starlark.Bool    { return true }
func (c *sqlConn) Hash() (uint32, error)   { return hashPointer(c), nil }
func (c *sqlConn) PyClass() starlark.Value { return sqlConnClass }
func (c *sqlConn) Held(visit func(starlark.Value)) {
	visit(c.isolation)
	visit(c.rowFactory)
}

func hashPointer(p any) uint32 {
	h, _ := starlark.String(fmt.Sprintf("%p", p)).Hash()
	return h
}

var sqlConnMethods = []string{"close", "commit", "cursor", "execute", "executemany", "executescript", "rollback", "__enter__", "__exit__"}

func (c *sqlConn) AttrNames() []string {
	return append([]string{"in_transaction", "isolation_level", "row_factory", "text_factory", "total_changes"}, sqlConnMethods...)
}

func (c *sqlConn) Attr(name string) (starlark.Value, error) {
	switch name {
	case "in_transaction":
		if err := c.check(); err != nil {
			return nil, err
		}
		return starlark.Bool(c.inTx), nil
	case "total_changes":
		if err := c.check(); err != nil {
			return nil, err
		}
		return starlark.MakeInt64(c.totalChanges), nil
	case "isolation_level":
		return c.isolation, nil
	case "row_factory":
		return c.rowFactory, nil
	case "text_factory":
		return builtins()["str"], nil
	}
	for _, m := range sqlConnMethods {
		if m == name {
			return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				return c.method(thread, name, args, kwargs)
			}).BindReceiver(c), nil
		}
	}
	return nil, nil
}

func (c *sqlConn) SetField(name string, v starlark.Value) error {
	switch name {
	case "row_factory":
		c.rowFactory = v
		return nil
	case "text_factory":
		if v != builtins()["str"] {
			return sqlRaise(sqliteClasses().notSupported, "text_factory other than str is not supported here: TEXT is always returned as str")
		}
		return nil
	case "isolation_level":
		level, err := isolationLevel(v)
		if err != nil {
			return err
		}
		if level == starlark.None && c.inTx {
			// CPython commits when autocommit is turned on; no thread is
			// at hand here, so the commit waits for the next call.
			c.commitPending = true
		}
		c.isolation = level
		return nil
	}
	return starlark.NoSuchAttrError(fmt.Sprintf("'sqlite3.Connection' object attribute '%s' is read-only", name))
}

// check fails on a closed connection.
func (c *sqlConn) check() error {
	if c.closed {
		return sqlRaise(sqliteClasses().programming, "Cannot operate on a closed database.")
	}
	return nil
}

func (c *sqlConn) method(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if name == "close" {
		if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		if c.closed {
			return starlark.None, nil
		}
		c.closed = true
		if _, err := sqlCall(thread, pyops.DBEnd, map[string]any{"conn": c.id, "action": "close"}); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	switch name {
	case "cursor":
		if err := starlark.UnpackArgs(name, args, kwargs, "factory?", new(starlark.Value)); err != nil {
			return nil, err
		}
		return c.cursor(), nil
	case "execute", "executemany", "executescript":
		cur := c.cursor()
		return cur.method(thread, name, args, kwargs)
	case "commit", "rollback":
		if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		return starlark.None, c.end(thread, name)
	case "__enter__":
		return c, nil
	case "__exit__":
		var typ, val, tb starlark.Value = starlark.None, starlark.None, starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "type?", &typ, "value?", &val, "traceback?", &tb); err != nil {
			return nil, err
		}
		action := "commit"
		if typ != starlark.None {
			action = "rollback"
		}
		return starlark.False, c.end(thread, action)
	}
	return nil, fmt.Errorf("internal error: sqlite3.Connection.%s", name)
}

// end commits or rolls back the connection's transaction.
func (c *sqlConn) end(thread *starlark.Thread, action string) error {
	c.commitPending = false
	res, err := sqlCall(thread, pyops.DBEnd, map[string]any{"conn": c.id, "action": action})
	if err != nil {
		return err
	}
	c.update(res)
	return nil
}

// update takes what a variant says of the connection.
func (c *sqlConn) update(res map[string]any) {
	if b, ok := res["in_transaction"].(bool); ok {
		c.inTx = b
	}
	if n, ok := asInt64(res["total_changes"]); ok {
		c.totalChanges = n
	}
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}

func (c *sqlConn) cursor() *sqlCursor {
	return &sqlCursor{conn: c, rowcount: -1, lastrowid: starlark.None, arraysize: 1, rowFactory: c.rowFactory}
}

// sqlCursor is sqlite3.Cursor. An execute's rows are fetched whole and
// held here until read.
type sqlCursor struct {
	conn       *sqlConn
	closed     bool
	rows       []starlark.Value // tuples, or what a row_factory callable made of them
	pos        int
	columns    []string // nil: the last statement returned no rows
	rowcount   int64
	lastrowid  starlark.Value
	arraysize  int
	rowFactory starlark.Value
}

var (
	_ starlark.HasAttrs    = (*sqlCursor)(nil)
	_ starlark.HasSetField = (*sqlCursor)(nil)
	_ starlark.Iterable    = (*sqlCursor)(nil)
)

func (c *sqlCursor) String() string          { return fmt.Sprintf("<sqlite3.Cursor object at %p>", c) }
func (c *sqlCursor) Type() string            { return "sqlite3.Cursor" }
func (c *sqlCursor) Freeze()                 {}
func (c *sqlCursor) Truth() starlark.Bool    { return true }
func (c *sqlCursor) Hash() (uint32, error)   { return hashPointer(c), nil }
func (c *sqlCursor) PyClass() starlark.Value { return sqlCursorClass }
func (c *sqlCursor) Held(visit func(starlark.Value)) {
	visit(c.conn)
	visit(c.lastrowid)
	visit(c.rowFactory)
	for _, r := range c.rows[c.pos:] {
		visit(r)
	}
}

var sqlCursorMethods = []string{"close", "execute", "executemany", "executescript", "fetchall", "fetchmany", "fetchone", "setinputsizes", "setoutputsize", "__iter__", "__next__"}

func (c *sqlCursor) AttrNames() []string {
	return append([]string{"arraysize", "connection", "description", "lastrowid", "row_factory", "rowcount"}, sqlCursorMethods...)
}

func (c *sqlCursor) Attr(name string) (starlark.Value, error) {
	switch name {
	case "arraysize":
		return starlark.MakeInt(c.arraysize), nil
	case "connection":
		return c.conn, nil
	case "rowcount":
		return starlark.MakeInt64(c.rowcount), nil
	case "lastrowid":
		return c.lastrowid, nil
	case "row_factory":
		return c.rowFactory, nil
	case "description":
		if c.columns == nil {
			return starlark.None, nil
		}
		d := make(starlark.Tuple, len(c.columns))
		for i, n := range c.columns {
			d[i] = starlark.Tuple{interp.MakeString(n), starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None}
		}
		return d, nil
	}
	for _, m := range sqlCursorMethods {
		if m == name {
			return interp.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				return c.method(thread, name, args, kwargs)
			}).BindReceiver(c), nil
		}
	}
	return nil, nil
}

func (c *sqlCursor) SetField(name string, v starlark.Value) error {
	switch name {
	case "arraysize":
		n, err := starlark.AsInt32(v)
		if err != nil {
			return pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
		}
		c.arraysize = n
		return nil
	case "row_factory":
		c.rowFactory = v
		return nil
	}
	return starlark.NoSuchAttrError(fmt.Sprintf("'sqlite3.Cursor' object attribute '%s' is read-only", name))
}

func (c *sqlCursor) Iterate() starlark.Iterator { return &sqlCursorIter{c: c} }

type sqlCursorIter struct{ c *sqlCursor }

func (it *sqlCursorIter) Next(p *starlark.Value) bool {
	if it.c.pos >= len(it.c.rows) || it.c.closed {
		return false
	}
	*p = it.c.next()
	return true
}
func (it *sqlCursorIter) Done() {}

// check fails on a closed cursor or connection.
func (c *sqlCursor) check() error {
	if err := c.conn.check(); err != nil {
		return err
	}
	if c.closed {
		return sqlRaise(sqliteClasses().programming, "Cannot operate on a closed cursor.")
	}
	return nil
}

// next is the next row: a tuple, a sqlite3.Row, or what the row_factory
// callable made of it when the statement ran.
func (c *sqlCursor) next() starlark.Value {
	row := c.rows[c.pos]
	c.rows[c.pos] = nil // what is read is the program's to keep, not the cursor's
	c.pos++
	if t, ok := row.(starlark.Tuple); ok && c.rowFactory == sqlRowClass {
		return &sqlRow{cols: c.columns, vals: t}
	}
	return row
}

func (c *sqlCursor) method(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if name == "close" {
		if err := c.conn.check(); err != nil {
			return nil, err
		}
		c.closed, c.rows, c.pos = true, nil, 0
		return starlark.None, nil
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	switch name {
	case "execute":
		var q, params starlark.Value = nil, starlark.Tuple{}
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &q, &params); err != nil {
			return nil, err
		}
		return c, c.execute(thread, name, q, []starlark.Value{params}, false)
	case "executemany":
		var q, seq starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 2, &q, &seq); err != nil {
			return nil, err
		}
		it := starlark.Iterate(seq)
		if it == nil {
			return nil, pyrt.Errorf("TypeError", "'%s' object is not iterable", pyrt.TypeName(seq))
		}
		defer it.Done()
		var sets []starlark.Value
		var x starlark.Value
		for it.Next(&x) {
			if err := interp.BudgetOf(thread).Charge(1); err != nil {
				return nil, err
			}
			sets = append(sets, x)
		}
		if e, ok := it.(interface{ Err() error }); ok && e.Err() != nil {
			return nil, e.Err()
		}
		return c, c.execute(thread, name, q, sets, true)
	case "executescript":
		var q starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &q); err != nil {
			return nil, err
		}
		s, ok := interp.AsText(q)
		if !ok {
			return nil, pyrt.Errorf("ValueError", "script argument must be unicode.")
		}
		c.rows, c.pos, c.columns = nil, 0, nil
		if err := c.conn.flushPending(thread); err != nil {
			return nil, err
		}
		res, err := sqlCall(thread, pyops.DBScript, map[string]any{"conn": c.conn.id, "sql": s})
		if err != nil {
			return nil, err
		}
		c.conn.update(res)
		return c, nil
	case "fetchone":
		if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		if c.pos >= len(c.rows) {
			return starlark.None, nil
		}
		return c.next(), nil
	case "fetchmany", "fetchall":
		n := len(c.rows) - c.pos
		if name == "fetchmany" {
			size := c.arraysize
			if err := starlark.UnpackArgs(name, args, kwargs, "size?", &size); err != nil {
				return nil, err
			}
			n = min(max(size, 0), n)
		} else if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, 0, n)
		for range n {
			out = append(out, c.next())
		}
		return starlark.NewList(out), nil
	case "setinputsizes", "setoutputsize":
		return starlark.None, nil
	case "__iter__":
		return c, nil
	case "__next__":
		if c.pos >= len(c.rows) {
			return nil, pyrt.Errorf("StopIteration", "")
		}
		return c.next(), nil
	}
	return nil, fmt.Errorf("internal error: sqlite3.Cursor.%s", name)
}

// flushPending commits what turning autocommit on left to commit.
func (c *sqlConn) flushPending(thread *starlark.Thread) error {
	if !c.commitPending {
		return nil
	}
	return c.end(thread, "commit")
}

// isDML is CPython 3.11's test for a statement that opens a transaction
// in its legacy mode: INSERT, UPDATE, DELETE or REPLACE first, after
// spaces and comments.
func isDML(q string) bool {
	for {
		q = strings.TrimLeft(q, " \t\n\r\f")
		switch {
		case strings.HasPrefix(q, "--"):
			i := strings.IndexByte(q, '\n')
			if i < 0 {
				return false
			}
			q = q[i+1:]
			continue
		case strings.HasPrefix(q, "/*"):
			i := strings.Index(q[2:], "*/")
			if i < 0 {
				return false
			}
			q = q[i+4:]
			continue
		}
		break
	}
	for _, kw := range []string{"insert", "update", "delete", "replace"} {
		if len(q) >= len(kw) && strings.EqualFold(q[:len(kw)], kw) {
			return true
		}
	}
	return false
}

// execute runs q once per element of sets (executemany: many).
func (c *sqlCursor) execute(thread *starlark.Thread, name string, qv starlark.Value, sets []starlark.Value, many bool) error {
	q, ok := interp.AsText(qv)
	if !ok {
		return pyrt.Errorf("TypeError", "%s() argument 1 must be str, not %s", name, pyrt.TypeName(qv))
	}
	c.rows, c.pos, c.columns = nil, 0, nil
	c.rowFactory = c.conn.rowFactory
	dml := isDML(q)
	if many && !dml {
		return sqlRaise(sqliteClasses().programming, "executemany() can only execute DML statements.")
	}
	if err := c.conn.flushPending(thread); err != nil {
		return err
	}
	args := map[string]any{"conn": c.conn.id, "sql": q}
	if many {
		list := make([]any, len(sets))
		for i, s := range sets {
			p, err := sqlParams(s)
			if err != nil {
				return err
			}
			list[i] = p
		}
		args["many"] = list
	} else {
		p, err := sqlParams(sets[0])
		if err != nil {
			return err
		}
		args["params"] = p
	}
	if level, ok := interp.AsText(c.conn.isolation); ok && dml && !c.conn.inTx {
		args["begin"], args["level"] = true, level
	}
	res, err := sqlCall(thread, pyops.DBRun, args)
	if err != nil {
		return err
	}
	c.conn.update(res)
	if dml {
		c.rowcount, _ = asInt64(res["rowcount"])
	} else {
		c.rowcount = -1
	}
	if !many {
		if n, ok := asInt64(res["lastrowid"]); ok {
			c.lastrowid = starlark.MakeInt64(n)
		}
	}
	cols, _ := res["columns"].([]any)
	if len(cols) > 0 {
		c.columns = make([]string, len(cols))
		for i, n := range cols {
			c.columns[i], _ = n.(string)
		}
	}
	rows, _ := res["rows"].([]any)
	budget := interp.BudgetOf(thread)
	c.rows = make([]starlark.Value, 0, len(rows))
	f := c.rowFactory
	custom := f != nil && f != starlark.None && f != sqlRowClass
	for _, r := range rows {
		cells, _ := r.([]any)
		if err := budget.Charge(1); err != nil {
			return err
		}
		t := make(starlark.Tuple, len(cells))
		for i, v := range cells {
			t[i] = sqlValue(v)
		}
		var row starlark.Value = t
		if custom {
			var err error
			if row, err = starlark.Call(thread, f, starlark.Tuple{c, t}, nil); err != nil {
				return err
			}
		}
		c.rows = append(c.rows, row)
	}
	return nil
}

// sqlValue is a column's value as CPython's sqlite3 gives it.
func sqlValue(v any) starlark.Value {
	switch x := v.(type) {
	case nil:
		return starlark.None
	case int64:
		return starlark.MakeInt64(x)
	case float64:
		return starlark.Float(x)
	case string:
		return interp.MakeString(x)
	case bool:
		return starlark.Bool(x)
	case map[string]any:
		b, err := pyops.GetContent(x)
		if err == nil {
			return interp.Bytes(b)
		}
	}
	return interp.MakeString(fmt.Sprint(v))
}

// sqlParams converts one execute's parameters: a sequence for ?
// placeholders, a mapping for named ones.
func sqlParams(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case *starlark.Dict:
		m := make(map[string]any, x.Len())
		for _, kv := range x.Items() {
			k, ok := interp.AsText(kv[0])
			if !ok {
				continue
			}
			b, err := sqlBind(kv[1], 0)
			if err != nil {
				return nil, err
			}
			m[k] = b
		}
		return m, nil
	case starlark.Tuple, *starlark.List:
		seq := x.(starlark.Indexable)
		out := make([]any, seq.Len())
		for i := range out {
			b, err := sqlBind(seq.Index(i), i+1)
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return out, nil
	case *sqlRow:
		out := make([]any, len(x.vals))
		for i, e := range x.vals {
			b, err := sqlBind(e, i+1)
			if err != nil {
				return nil, err
			}
			out[i] = b
		}
		return out, nil
	}
	return nil, sqlRaise(sqliteClasses().programming, "parameters are of unsupported type")
}

// sqlBind converts one parameter as CPython's sqlite3 adapts it.
func sqlBind(v starlark.Value, at int) (any, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return int64(map[bool]int{false: 0, true: 1}[bool(x)]), nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to SQLite INTEGER")
		}
		return n, nil
	case starlark.Float:
		return float64(x), nil
	}
	if s, ok := interp.AsText(v); ok {
		return s, nil
	}
	if b, ok := interp.AsBytes(v); ok {
		m := map[string]any{}
		pyops.PutContent(m, []byte(b))
		return m, nil
	}
	return nil, sqlRaise(sqliteClasses().programming, fmt.Sprintf("Error binding parameter %d: type '%s' is not supported", at, pyrt.TypeName(v)))
}

// sqlRow is sqlite3.Row: a row's values by index and by column name
// (case-insensitive).
type sqlRow struct {
	cols []string
	vals starlark.Tuple
}

var (
	_ starlark.Indexable  = (*sqlRow)(nil)
	_ starlark.Mapping    = (*sqlRow)(nil)
	_ starlark.Comparable = (*sqlRow)(nil)
	_ starlark.HasAttrs   = (*sqlRow)(nil)
)

func newSQLRow(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cur, row starlark.Value
	if err := starlark.UnpackPositionalArgs("Row", args, kwargs, 2, &cur, &row); err != nil {
		return nil, err
	}
	c, ok := cur.(*sqlCursor)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "Row() argument 1 must be sqlite3.Cursor, not %s", pyrt.TypeName(cur))
	}
	t, ok := row.(starlark.Tuple)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "Row() argument 2 must be tuple, not %s", pyrt.TypeName(row))
	}
	return &sqlRow{cols: c.columns, vals: t}, nil
}

func (r *sqlRow) String() string          { return fmt.Sprintf("<sqlite3.Row object at %p>", r) }
func (r *sqlRow) Type() string            { return "sqlite3.Row" }
func (r *sqlRow) Freeze()                 { r.vals.Freeze() }
func (r *sqlRow) Truth() starlark.Bool    { return len(r.vals) > 0 }
func (r *sqlRow) PyClass() starlark.Value { return sqlRowClass }
func (r *sqlRow) Len() int                { return len(r.vals) }
func (r *sqlRow) Index(i int) starlark.Value {
	return r.vals[i]
}
func (r *sqlRow) Iterate() starlark.Iterator      { return r.vals.Iterate() }
func (r *sqlRow) Held(visit func(starlark.Value)) { visit(r.vals) }

func (r *sqlRow) Hash() (uint32, error) {
	h, err := r.vals.Hash()
	if err != nil {
		return 0, err
	}
	k, _ := starlark.String(strings.Join(r.cols, "\x00")).Hash()
	return h ^ k, nil
}

func (r *sqlRow) Get(k starlark.Value) (starlark.Value, bool, error) {
	if i, err := starlark.AsInt32(k); err == nil {
		if _, isBool := k.(starlark.Bool); !isBool {
			n := len(r.vals)
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return nil, false, pyrt.Errorf("IndexError", "Index %d out of range", i)
			}
			return r.vals[i], true, nil
		}
	}
	if s, ok := interp.AsText(k); ok {
		for i, c := range r.cols {
			if strings.EqualFold(c, s) {
				return r.vals[i], true, nil
			}
		}
		return nil, false, pyrt.Errorf("IndexError", "No item with that key")
	}
	return nil, false, pyrt.Errorf("IndexError", "Index must be int or string")
}

func (r *sqlRow) AttrNames() []string { return []string{"keys"} }
func (r *sqlRow) Attr(name string) (starlark.Value, error) {
	if name != "keys" {
		return nil, nil
	}
	return interp.NewBuiltin("keys", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackArgs("keys", args, kwargs); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(r.cols))
		for i, c := range r.cols {
			out[i] = interp.MakeString(c)
		}
		return starlark.NewList(out), nil
	}).BindReceiver(r), nil
}

func (r *sqlRow) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*sqlRow)
	switch op {
	case syntax.EQL, syntax.NEQ:
		eq := strings.Join(r.cols, "\x00") == strings.Join(o.cols, "\x00")
		if eq {
			var err error
			eq, err = starlark.EqualDepth(r.vals, o.vals, depth)
			if err != nil {
				return false, err
			}
		}
		return eq == (op == syntax.EQL), nil
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'sqlite3.Row' and 'sqlite3.Row'", op)
}
