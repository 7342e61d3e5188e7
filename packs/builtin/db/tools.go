package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

// dbParam is the `db` parameter every tool but db.databases takes.
const dbParam = `"db":{"type":"string","default":"","description":"Name of the database in packs.db.databases; \"\" = the default (or the only) one. See db.databases()."}`

// paramsParam is the `params` parameter of query and execute.
const paramsParam = `"params":{"type":"array","default":[],"description":"Values for the ? placeholders, in order: str, int, float, bool, None, or {\"base64\": …} for a BLOB."}`

// Tools returns the pack's tools, ready to register.
func (p *Pack) Tools() []*packs.Tool {
	ro := packs.Annotations{ReadOnly: true}
	return []*packs.Tool{
		{
			Pack: "db", Name: "databases",
			Description: "List the configured databases (packs.db.databases in onetool.yaml): dicts {name, url, kind, default, read_only}, passwords in URLs masked. Opens nothing.",
			InputSchema: `{"type":"object","properties":{},"additionalProperties":false}`,
			Returns:     "list[dict]",
			Examples: []packs.Example{
				{Code: `db.databases()`, Result: `[{"name": "main", "url": "sqlite:/home/me/app/app.db", "kind": "sqlite", "default": True, "read_only": True}]`},
			},
			Annotations: ro,
			Handler:     p.wrap(p.databases),
		},
		{
			Pack: "db", Name: "tables",
			Description:  "List the tables and views of a database, sorted (SQLite's own sqlite_* tables left out; for other databases, from information_schema, tables outside the current schema as schema.table).",
			InputSchema:  `{"type":"object","properties":{` + dbParam + `},"additionalProperties":false}`,
			OutputSchema: `{"type":"array","items":{"type":"string"}}`,
			Synonyms:     map[string][]string{"db": {"database"}},
			Examples: []packs.Example{
				{Code: `db.tables()`, Result: `["orders", "users"]`},
				{Code: `db.tables(db="logs")`},
			},
			Annotations: ro,
			Handler:     p.wrap(p.tables),
		},
		{
			Pack: "db", Name: "schema",
			Description: "Describe a table or view: a dict {name, type, columns, indexes, foreign_keys, sql}; each column is {name, type, nullable, default, primary_key} in table order, " +
				"each index {name, columns, unique}. SQLite from its PRAGMAs; other databases from information_schema (indexes for PostgreSQL and MySQL only).",
			InputSchema: `{"type":"object","properties":{
				"table":{"type":"string","description":"Table or view name (schema.table outside the current schema)."},` + dbParam + `},
				"required":["table"],"additionalProperties":false}`,
			Returns:  "dict",
			Synonyms: map[string][]string{"table": {"name", "table_name"}, "db": {"database"}},
			Examples: []packs.Example{
				{Code: `db.schema("users")`},
				{Code: `[c["name"] for c in db.schema("users")["columns"]]`, Result: `["id", "email", "created_at"]`},
			},
			Annotations: ro,
			Handler:     p.wrap(p.schema),
		},
		{
			Pack: "db", Name: "query",
			Description: "Run SQL and return the rows as dicts, keys in column order. Bind values with ? placeholders and params (never paste values into the SQL). " +
				"NULL is None, BLOBs are {\"base64\": …, \"bytes\": n}, times are RFC 3339 strings (SQLite: DATETIME and TIMESTAMP columns, read as UTC when they name no zone; DATE columns give \"2024-01-31\"; other columns as stored). " +
				fmt.Sprintf("At most max_rows rows (default %d, up to %d): when more match, the list ends with a string note \"… N more rows not shown …\" instead of a row, so check `isinstance(rows[-1], str)` or add LIMIT/WHERE. ", p.o.MaxRows, MaxRowsLimit) +
				"Read-only unless packs.db.read_only is false; then writes work here too (INSERT … RETURNING) and db.execute reports rows affected; with security.confirm_destructive on, a statement SQLite says writes (DROP, DELETE … RETURNING, a pragma that sets, …) asks the user first. " +
				"Rows count against the run's memory budget (limits.max_memory) as they arrive: a result, or one value, too large for it ends the run with the memory-limit error. " +
				fmt.Sprintf("Each call stops after %s (packs.db.timeout).", p.o.Timeout),
			InputSchema: fmt.Sprintf(`{"type":"object","properties":{
				"sql":{"type":"string","description":"One SQL statement, with ? placeholders."},`+paramsParam+`,
				"max_rows":{"type":"integer","minimum":1,"maximum":%d,"default":%d,"description":"Most rows to return; more are counted in a final note."},`+dbParam+`},
				"required":["sql"],"additionalProperties":false}`, MaxRowsLimit, p.o.MaxRows),
			Returns:  "list[dict]",
			Synonyms: map[string][]string{"sql": {"query", "statement"}, "params": {"args", "parameters"}, "max_rows": {"limit"}, "db": {"database"}},
			Examples: []packs.Example{
				{Code: `db.query("SELECT id, email FROM users WHERE created_at >= ? ORDER BY id", ["2024-01-01"], max_rows=10)`, Result: `[{"id": 1, "email": "a@example.com"}, {"id": 2, "email": "b@example.com"}]`},
				{Code: `db.query("SELECT count(*) AS n FROM orders")[0]["n"]`, Result: "42"},
			},
			Annotations: packs.Annotations{ReadOnly: p.o.ReadOnly},
			Handler:     p.wrap(p.query),
		},
		{
			Pack: "db", Name: "execute",
			Description: "Run a statement that changes the database (INSERT, UPDATE, DELETE, CREATE, …; SQLite also takes several statements separated by ;) and return {rows_affected, last_insert_id} (last_insert_id is None where the driver has none). " +
				"Bind values with ? placeholders and params. Only when packs.db.read_only is false in onetool.yaml; read-only (the default), it refuses and runs nothing.",
			InputSchema: `{"type":"object","properties":{
				"sql":{"type":"string","description":"The statement(s), with ? placeholders."},` + paramsParam + `,` + dbParam + `},
				"required":["sql"],"additionalProperties":false}`,
			Returns:  "dict",
			Synonyms: map[string][]string{"sql": {"query", "statement"}, "params": {"args", "parameters"}, "db": {"database"}},
			Examples: []packs.Example{
				{Code: `db.execute("UPDATE users SET active = ? WHERE id = ?", [False, 7])`, Result: `{"rows_affected": 1, "last_insert_id": 12}`},
			},
			Annotations: packs.Annotations{Destructive: true},
			Handler:     p.wrap(p.execute),
		},
	}
}

// wrap guards a handler: panics become errors, and a call whose context
// is already done does nothing.
func (p *Pack) wrap(fn packs.Handler) packs.Handler {
	return func(ctx context.Context, args map[string]any) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("internal error: %v", r)
			}
		}()
		if ctx.Err() != nil {
			return nil, stopped(ctx, 0)
		}
		return fn(ctx, args)
	}
}

func (p *Pack) databases(_ context.Context, _ map[string]any) (any, error) {
	if p.bad != nil {
		return nil, p.bad
	}
	if len(p.names) == 0 {
		return nil, noDatabases
	}
	def := p.o.Default
	if def == "" && len(p.names) == 1 {
		def = p.names[0]
	}
	out := make([]any, 0, len(p.names))
	for _, name := range p.names {
		u := p.o.Databases[name]
		kind := "unknown"
		if t, err := parseTarget(u); err == nil {
			kind = t.kind
			if t.kind == kindOther {
				kind = t.scheme
			}
		}
		m := ordered.NewMap(5)
		m.Set("name", name)
		m.Set("url", mask(u))
		m.Set("kind", kind)
		m.Set("default", name == def)
		m.Set("read_only", p.o.ReadOnly)
		out = append(out, m)
	}
	return out, nil
}

func (p *Pack) tables(ctx context.Context, args map[string]any) (any, error) {
	h, err := p.lookup(ctx, str(args["db"]))
	if err != nil {
		return nil, err
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	names, err := p.tableNames(ctx, h)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out, nil
}

func (p *Pack) schema(ctx context.Context, args map[string]any) (any, error) {
	table := str(args["table"])
	if table == "" {
		return nil, errors.New(`empty table name: give one of the names db.tables() lists, e.g. db.schema("users")`)
	}
	h, err := p.lookup(ctx, str(args["db"]))
	if err != nil {
		return nil, err
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	if h.t.kind == kindSQLite {
		return p.sqliteSchema(ctx, h, table)
	}
	return p.otherSchema(ctx, h, table)
}

func (p *Pack) query(ctx context.Context, args map[string]any) (any, error) {
	q, params, err := statement(args)
	if err != nil {
		return nil, err
	}
	maxRows := p.o.MaxRows
	if n, ok := wholeNumber(args["max_rows"]); ok && n > 0 {
		maxRows = int(min(n, MaxRowsLimit))
	}
	h, err := p.lookup(ctx, str(args["db"]))
	if err != nil {
		return nil, err
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	q = h.placeholders(q, len(params))
	g, err := p.guard(ctx, h, q, true)
	if err != nil {
		return nil, err
	}
	var out []any
	err = p.runSQL(ctx, h, g, func(c conn) error {
		defer g.done()
		if err := g.apply(ctx, c); err != nil {
			return err
		}
		g.watch(true)
		rows, err := c.QueryContext(ctx, q, params...)
		if err != nil {
			return g.over(err)
		}
		defer rows.Close()
		out, err = collect(rows, maxRows, h.t.kind == kindSQLite, g.m, p.o.Hide)
		return g.over(err)
	})
	if err != nil {
		return nil, p.explain(ctx, h, err)
	}
	return out, nil
}

func (p *Pack) execute(ctx context.Context, args map[string]any) (any, error) {
	q, params, err := statement(args)
	if err != nil {
		return nil, err
	}
	if p.o.ReadOnly {
		return nil, errors.New("the db pack is read-only (packs.db.read_only is true, the default), so nothing was run: to allow writes set packs.db.read_only: false in onetool.yaml; to read, use db.query")
	}
	h, err := p.lookup(ctx, str(args["db"]))
	if err != nil {
		return nil, err
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	q = h.placeholders(q, len(params))
	// db.execute is marked destructive: the call was confirmed as a whole.
	g, err := p.guard(ctx, h, q, false)
	if err != nil {
		return nil, err
	}
	m := ordered.NewMap(2)
	err = p.runSQL(ctx, h, g, func(c conn) error {
		defer g.done()
		if err := g.apply(ctx, c); err != nil {
			return err
		}
		g.watch(true)
		res, err := c.ExecContext(ctx, q, params...)
		if err != nil {
			return g.over(err)
		}
		var affected, lastID any
		if n, err := res.RowsAffected(); err == nil {
			affected = n
		}
		if n, err := res.LastInsertId(); err == nil && h.t.kind != kindPostgres {
			lastID = n
		}
		m.Set("rows_affected", affected)
		m.Set("last_insert_id", lastID)
		return nil
	})
	if err != nil {
		return nil, p.explain(ctx, h, err)
	}
	return m, nil
}

// statement reads the sql and params arguments.
func statement(args map[string]any) (string, []any, error) {
	q := str(args["sql"])
	if isBlank(q) {
		return "", nil, errors.New(`empty SQL: give a statement, e.g. "SELECT * FROM users LIMIT 10"`)
	}
	var list []any
	switch x := args["params"].(type) {
	case nil:
	case []any:
		list = x
	default:
		return "", nil, fmt.Errorf("params must be a list of values for the ? placeholders, got %s", shown(x))
	}
	params := make([]any, len(list))
	for i, v := range list {
		a, err := bindValue(v)
		if err != nil {
			return "", nil, fmt.Errorf("params[%d]: %w", i, err)
		}
		params[i] = a
	}
	return q, params, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// isBlank reports whether SQL text holds nothing but spaces and semicolons.
func isBlank(q string) bool {
	for _, r := range q {
		switch r {
		case ' ', '\t', '\n', '\r', ';':
		default:
			return false
		}
	}
	return true
}
