package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs/meter"
	"github.com/onetool-dev/onetool/packs/roots"
	"modernc.org/sqlite"
)

// openSQLite opens h's pool: the file checked against the roots and, in
// a read-only pack, opened with mode=ro and query_only. Every connection
// gets the authorizer before first use.
func (p *Pack) openSQLite(h *handle) error {
	guards := "&_defensive=1&_busy_timeout=5000"
	var dsn string
	if h.t.memory {
		// A named database of the memdb VFS rather than ":memory:", so that
		// the checker's connection sees the same schema.
		name := "/onetool-" + rand.Text()
		dsn = "file:" + name + "?vfs=memdb" + guards
		if p.o.ReadOnly {
			dsn += "&_query_only=1"
		}
		h.check = &checker{uri: "file:" + name + "?vfs=memdb"}
	} else {
		path := h.t.path
		if !filepath.IsAbs(path) {
			base := "." // the configuration's, not a session's: the operator named the file
			if p.o.Roots != nil {
				base = p.o.Roots.Base()
			}
			abs, err := filepath.Abs(filepath.Join(base, path))
			if err != nil {
				return fmt.Errorf("database '%s': %s: %w", h.name, path, err)
			}
			path = abs
		}
		real, err := p.realPath(h.roots, path)
		if err != nil {
			return fmt.Errorf("database '%s' (%s): %w", h.name, h.shown, err)
		}
		st, err := os.Stat(real)
		switch {
		case err == nil && st.IsDir():
			return fmt.Errorf("database '%s': %s is a directory, not a SQLite file: fix packs.db.databases.%s in onetool.yaml", h.name, real, h.name)
		case errors.Is(err, fs.ErrNotExist) && p.o.ReadOnly:
			return fmt.Errorf("database '%s': %s does not exist. Check packs.db.databases.%s in onetool.yaml (relative paths start at the config file's directory); a read-only pack never creates a database", h.name, real, h.name)
		case errors.Is(err, fs.ErrNotExist):
			if _, derr := os.Stat(filepath.Dir(real)); derr != nil {
				return fmt.Errorf("database '%s': the directory of %s does not exist: create it, or fix packs.db.databases.%s in onetool.yaml", h.name, real, h.name)
			}
		case err != nil:
			return fmt.Errorf("database '%s': %w", h.name, err)
		}
		h.path = real
		mode := "rwc"
		if p.o.ReadOnly {
			mode = "ro"
			guards += "&_query_only=1"
		}
		dsn = "file:" + uriPath(real) + "?mode=" + mode + guards
		h.check = &checker{uri: "file:" + uriPath(real)}
	}
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return fmt.Errorf("database '%s': %w", h.name, err)
	}
	h.connector = &guarded{Connector: base, readOnly: p.o.ReadOnly}
	h.db = sql.OpenDB(h.connector)
	if h.t.memory {
		// One connection, kept: each connection has its own memory database.
		h.db.SetMaxOpenConns(1)
		h.db.SetMaxIdleConns(1)
		h.db.SetConnMaxLifetime(0)
		h.db.SetConnMaxIdleTime(0)
	} else {
		h.db.SetMaxOpenConns(4)
		h.db.SetMaxIdleConns(2)
		h.db.SetConnMaxIdleTime(5 * time.Minute)
	}
	return nil
}

// realPath resolves an absolute path (symbolic links followed), confined
// to the roots when there are some, and never one of onetool's own files
// (SPEC §8.2): SQL could read or rewrite them, and SQLite writes its
// journal beside the database.
func (p *Pack) realPath(r *roots.Roots, path string) (string, error) {
	if r != nil {
		real, err := r.Resolve(path)
		if err != nil {
			switch {
			case errors.Is(err, roots.ErrNoRoot):
				return "", err // says how to set a root
			case errors.Is(err, roots.ErrOutside):
				return "", &outsideError{fmt.Sprintf("the SQLite file %s is outside the allowed roots (%s): move it inside, or add its directory as a project or to packs.file.allowed_dirs in onetool.yaml",
					path, strings.Join(r.Dirs(), ", "))}
			}
			var pe *roots.ProtectedError
			if errors.As(err, &pe) {
				own := *pe
				own.Hint = "keep databases out of them (.onetool/ included): move the file and fix packs.db.databases in onetool.yaml"
				return "", &own
			}
			return "", err
		}
		return real, nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	}
	return path, nil
}

// outsideError is a SQLite file outside the roots, worded for the db
// pack; errors.Is matches roots.ErrOutside.
type outsideError struct{ msg string }

func (e *outsideError) Error() string { return e.msg }
func (e *outsideError) Unwrap() error { return roots.ErrOutside }

// confine refuses a call on h, whose pool is open, when the run's roots r
// are not those its SQLite file was checked against and do not hold it:
// the pool is shared by every run, its roots are not.
func (p *Pack) confine(h *handle, r *roots.Roots) error {
	if h.t.kind != kindSQLite || h.t.memory || r == nil || r == h.roots {
		return nil
	}
	if _, err := p.realPath(r, h.path); err != nil {
		return fmt.Errorf("database '%s' (%s): %w", h.name, h.shown, err)
	}
	return nil
}

// uriPath escapes a file path for a SQLite file: URI.
func uriPath(p string) string {
	p = filepath.ToSlash(p)
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

// guarded opens SQLite connections with the authorizer installed, so that
// no connection of the pool ever runs a statement without it.
type guarded struct {
	driver.Connector
	readOnly bool
}

func (g *guarded) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := g.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ar, ok := c.(sqlite.AuthorizerRegisterer)
	if !ok {
		c.Close()
		return nil, errors.New("the SQLite driver offers no authorizer")
	}
	if err := ar.RegisterAuthorizer(authorizer(g.readOnly, nil)); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// readPragmas are pragmas whose argument names what to read, not a new
// setting.
var readPragmas = []string{
	"table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list",
	"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
}

// actingPragmas are pragmas that change something even without a value.
var actingPragmas = []string{"optimize", "wal_checkpoint", "incremental_vacuum", "shrink_memory"}

// dirPragmas point SQLite at other directories: never allowed.
var dirPragmas = []string{"temp_store_directory", "data_store_directory"}

// resourcePragmas set how much memory and how many threads SQLite uses:
// never set by a program. temp_store=MEMORY would let a sort grow in
// memory without bound (the driver's SQLite keeps no heap statistics, so
// heap limits do not apply), and the heap limits are the whole process's.
var resourcePragmas = []string{"temp_store", "cache_size", "cache_spill", "mmap_size", "threads", "soft_heap_limit", "hard_heap_limit"}

// authorizer returns SQLite's authorizer for the pack: ATTACH, DETACH
// (and so VACUUM INTO), load_extension() and directory pragmas are always
// refused; a read-only pack also refuses every write and every pragma
// that sets something. Refusals are recorded in rec (which may be nil).
func authorizer(readOnly bool, rec *refusal) sqlite.AuthorizerFn {
	return func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
		never := func(reason string) sqlite.AuthorizerReturnCode {
			rec.set(reason, false)
			return sqlite.AuthorizerDeny
		}
		write := func(what string) sqlite.AuthorizerReturnCode {
			if !readOnly {
				return sqlite.AuthorizerOK
			}
			rec.set(what, true)
			return sqlite.AuthorizerDeny
		}
		switch action {
		case sqlite.AuthAttach:
			return never("ATTACH and VACUUM INTO are not allowed: they open other files, which could lie outside the allowed roots. Configure each database under packs.db.databases in onetool.yaml and name it with db=")
		case sqlite.AuthDetach:
			return never("DETACH is not allowed (nor is ATTACH)")
		case sqlite.AuthFunction:
			if strings.EqualFold(arg2, "load_extension") {
				return never("load_extension() is not allowed")
			}
			return sqlite.AuthorizerOK
		case sqlite.AuthTransaction, sqlite.AuthSavepoint:
			rec.change()
			return sqlite.AuthorizerOK
		case sqlite.AuthPragma:
			name := strings.ToLower(arg1)
			if !slices.Contains(readPragmas, name) && (arg2 != "" || slices.Contains(actingPragmas, name)) {
				rec.change() // allowed or not: the call's connection is not trusted after it
			}
			switch {
			case slices.Contains(dirPragmas, name):
				return never(fmt.Sprintf("PRAGMA %s is not allowed", name))
			case slices.Contains(readPragmas, name):
				return sqlite.AuthorizerOK
			case arg2 != "" && slices.Contains(resourcePragmas, name):
				return never(fmt.Sprintf("PRAGMA %s = %s is not allowed: it changes how much memory or how many threads SQLite uses, which onetool sets", name, arg2))
			case slices.Contains(actingPragmas, name):
				return write("PRAGMA " + name)
			case arg2 != "":
				return write(fmt.Sprintf("PRAGMA %s = %s (setting a pragma)", name, arg2))
			}
			return sqlite.AuthorizerOK
		case sqlite.AuthInsert, sqlite.AuthUpdate, sqlite.AuthDelete:
			verb := map[sqlite.AuthorizerActionCode]string{sqlite.AuthInsert: "INSERT into", sqlite.AuthUpdate: "UPDATE of", sqlite.AuthDelete: "DELETE from"}[action]
			if isSchemaTable(arg1) {
				return write("changing the schema (CREATE, DROP, ALTER)")
			}
			return write(fmt.Sprintf("%s %s", verb, arg1))
		case sqlite.AuthCreateIndex, sqlite.AuthCreateTable, sqlite.AuthCreateTempIndex, sqlite.AuthCreateTempTable,
			sqlite.AuthCreateTempTrigger, sqlite.AuthCreateTempView, sqlite.AuthCreateTrigger, sqlite.AuthCreateView,
			sqlite.AuthCreateVTable:
			return write("CREATE")
		case sqlite.AuthDropIndex, sqlite.AuthDropTable, sqlite.AuthDropTempIndex, sqlite.AuthDropTempTable,
			sqlite.AuthDropTempTrigger, sqlite.AuthDropTempView, sqlite.AuthDropTrigger, sqlite.AuthDropView,
			sqlite.AuthDropVTable:
			return write("DROP")
		case sqlite.AuthAlterTable:
			return write("ALTER TABLE")
		case sqlite.AuthReindex:
			return write("REINDEX")
		case sqlite.AuthAnalyze:
			return write("ANALYZE")
		}
		return sqlite.AuthorizerOK
	}
}

func isSchemaTable(name string) bool {
	switch strings.ToLower(name) {
	case "sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema", "sqlite_sequence":
		return true
	}
	return false
}

// sqliteTables lists the tables and views of a SQLite database.
const sqliteTables = `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`

// sqliteSchema describes a SQLite table or view.
func (p *Pack) sqliteSchema(ctx context.Context, h *handle, table string) (any, error) {
	out := ordered.NewMap(6)
	var missing bool
	err := p.run(ctx, h, func(c conn) error {
		found, err := rowsOf(ctx, c, `SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE ORDER BY name = ? DESC LIMIT 1`, table, table)
		if err != nil {
			return err
		}
		if len(found) == 0 {
			missing = true
			return nil
		}
		name := str(found[0][0])
		out.Set("name", name)
		out.Set("type", found[0][1])

		cols, err := rowsOf(ctx, c, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, name)
		if err != nil {
			return err
		}
		pks := 0
		for _, r := range cols {
			if n, _ := r[4].(int64); n > 0 {
				pks++
			}
		}
		columns := make([]any, 0, len(cols))
		for _, r := range cols {
			pk, _ := r[4].(int64)
			notNull, _ := r[2].(int64)
			typ := str(r[1])
			m := ordered.NewMap(5)
			m.Set("name", r[0])
			m.Set("type", typ)
			// An INTEGER PRIMARY KEY is the rowid: never NULL.
			rowid := pk > 0 && pks == 1 && strings.EqualFold(typ, "INTEGER")
			m.Set("nullable", notNull == 0 && !rowid)
			m.Set("default", r[3])
			m.Set("primary_key", pk > 0)
			columns = append(columns, m)
		}
		out.Set("columns", columns)

		idx, err := rowsOf(ctx, c, `SELECT name, "unique", origin FROM pragma_index_list(?) ORDER BY name`, name)
		if err != nil {
			return err
		}
		indexes := make([]any, 0, len(idx))
		for _, r := range idx {
			parts, err := rowsOf(ctx, c, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, r[0])
			if err != nil {
				return err
			}
			names := make([]any, len(parts))
			for i, part := range parts {
				if part[0] == nil {
					names[i] = "<expression>"
				} else {
					names[i] = part[0]
				}
			}
			unique, _ := r[1].(int64)
			m := ordered.NewMap(4)
			m.Set("name", r[0])
			m.Set("columns", names)
			m.Set("unique", unique != 0)
			m.Set("origin", map[string]string{"c": "create index", "u": "unique constraint", "pk": "primary key"}[str(r[2])])
			indexes = append(indexes, m)
		}
		out.Set("indexes", indexes)

		fks, err := rowsOf(ctx, c, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
		if err != nil {
			return err
		}
		var foreign []any
		var last *ordered.Map
		lastID := int64(-1)
		for _, r := range fks {
			id, _ := r[0].(int64)
			if last == nil || id != lastID {
				last = ordered.NewMap(3)
				last.Set("columns", []any{})
				last.Set("table", r[1])
				last.Set("references", []any{})
				foreign = append(foreign, last)
				lastID = id
			}
			cs, _ := last.Get("columns")
			rs, _ := last.Get("references")
			last.Set("columns", append(cs.([]any), r[2]))
			last.Set("references", append(rs.([]any), r[3])) // nil: the other table's primary key
		}
		if foreign == nil {
			foreign = []any{}
		}
		out.Set("foreign_keys", foreign)
		out.Set("sql", found[0][2])
		return nil
	})
	if err != nil {
		return nil, p.explain(ctx, h, err)
	}
	if missing {
		return nil, p.unknownTable(ctx, h, table)
	}
	return out, nil
}

// unknownTable words a table that is not there.
func (p *Pack) unknownTable(ctx context.Context, h *handle, table string) error {
	names, err := p.tableNames(ctx, h)
	if err != nil {
		return fmt.Errorf("%sno table or view '%s'", p.label(h), table)
	}
	if len(names) == 0 {
		return fmt.Errorf("%sno table or view '%s': the database has none", p.label(h), table)
	}
	msg := fmt.Sprintf("%sno table or view '%s'", p.label(h), table)
	if s := suggest.Closest(table, names); s != "" {
		msg += fmt.Sprintf(". Did you mean '%s'?", s)
	} else {
		msg += "."
	}
	const most = 30
	if len(names) > most {
		return fmt.Errorf("%s Tables: %s, … (%d in all: db.tables())", msg, strings.Join(names[:most], ", "), len(names))
	}
	return fmt.Errorf("%s Tables: %s", msg, strings.Join(names, ", "))
}

// tableNames lists h's tables (and views), sorted.
func (p *Pack) tableNames(ctx context.Context, h *handle) ([]string, error) {
	q := sqliteTables
	if h.t.kind != kindSQLite {
		q = h.tablesQuery()
	}
	var names []string
	err := p.run(ctx, h, func(c conn) error {
		rows, err := rowsOf(ctx, c, q)
		if err != nil {
			return err
		}
		for _, r := range rows {
			names = append(names, fmt.Sprint(plain(r[0])))
		}
		return nil
	})
	if err != nil {
		err = p.explain(ctx, h, err)
		if h.t.kind != kindSQLite && ctx.Err() == nil {
			return nil, fmt.Errorf("%s (listing tables reads information_schema; if this database has none, query its own catalog with db.query)", err)
		}
		return nil, err
	}
	if names == nil {
		names = []string{}
	}
	return names, nil
}

// rowsOf runs a catalog query and returns its rows as raw values.
func rowsOf(ctx context.Context, c conn, q string, args ...any) ([][]any, error) {
	rows, err := c.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	m := meter.From(ctx)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		size := 0
		for i, v := range vals {
			c, n := cell(v, false)
			vals[i], size = c, size+n+8
		}
		if err := m.Charge(int64(size)); err != nil {
			return nil, &asIs{err}
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}
