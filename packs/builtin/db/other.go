package db

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// driverNames are the database/sql drivers tried, in order, for a kind;
// other schemes name their driver themselves.
var driverNames = map[string][]string{
	kindPostgres: {"postgres", "pgx", "pgx/v5"},
	kindMySQL:    {"mysql"},
}

// openOther opens h's pool with the database/sql driver its URL's scheme
// names. The driver must be linked into the binary.
func (p *Pack) openOther(h *handle) error {
	candidates, ok := driverNames[h.t.kind]
	if !ok {
		candidates = []string{h.t.scheme}
	}
	registered := sql.Drivers()
	name := ""
	for _, c := range candidates {
		if slices.Contains(registered, c) {
			name = c
			break
		}
	}
	if name == "" {
		return fmt.Errorf("database '%s' (%s): no driver for %s URLs is built into this program (drivers: %s). Use a SQLite database, or a build that links a %s driver for database/sql",
			h.name, h.shown, h.t.scheme, strings.Join(registered, ", "), h.t.scheme)
	}
	db, err := sql.Open(name, h.t.dsn)
	if err != nil {
		return fmt.Errorf("database '%s' (%s): %v", h.name, h.shown, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(2)
	db.SetConnMaxIdleTime(5 * time.Minute)
	h.db = db
	return nil
}

// placeholders rewrites ? placeholders to $1, $2, … for PostgreSQL, when
// there are params and the SQL does not number them itself. Quoted text,
// quoted names, comments and dollar-quoted strings are left alone.
func (h *handle) placeholders(q string, n int) string {
	if h.t.kind != kindPostgres || n == 0 || strings.Contains(q, "$1") {
		return q
	}
	return numberPlaceholders(q)
}

func numberPlaceholders(q string) string {
	var b strings.Builder
	k := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			j := strings.Index(q[i+2:], "*/")
			end := len(q)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(q[i:end])
			i = end - 1
		case c == '$':
			// $tag$ … $tag$ (tag may be empty); $1 is a parameter.
			j := i + 1
			for j < len(q) && (q[j] == '_' || q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z' || j > i+1 && q[j] >= '0' && q[j] <= '9') {
				j++
			}
			if j < len(q) && q[j] == '$' {
				tag := q[i : j+1]
				end := strings.Index(q[j+1:], tag)
				stop := len(q)
				if end >= 0 {
					stop = j + 1 + end + len(tag)
				}
				b.WriteString(q[i:stop])
				i = stop - 1
			} else {
				b.WriteByte(c)
			}
		case c == '?':
			k++
			b.WriteString("$" + strconv.Itoa(k))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tablesQuery lists tables and views from information_schema.
func (h *handle) tablesQuery() string {
	switch h.t.kind {
	case kindPostgres:
		return `SELECT CASE WHEN table_schema = current_schema() THEN table_name ELSE table_schema || '.' || table_name END AS name
			FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`
	case kindMySQL:
		return `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name`
	}
	return `SELECT table_name FROM information_schema.tables
		WHERE table_schema NOT IN ('information_schema', 'pg_catalog', 'sys', 'mysql', 'performance_schema') ORDER BY table_name`
}

// otherSchema describes a table from information_schema (plus pg_indexes
// for PostgreSQL and information_schema.statistics for MySQL).
func (p *Pack) otherSchema(ctx context.Context, h *handle, table string) (any, error) {
	schema, name := "", table
	if i := strings.LastIndexByte(table, '.'); i > 0 {
		schema, name = table[:i], table[i+1:]
	}
	// cond restricts a query to the table's schema; col is the schema column.
	cond := func(col string) (string, []any) {
		switch {
		case schema != "":
			return " AND " + col + " = ?", []any{schema}
		case h.t.kind == kindPostgres:
			return " AND " + col + " = current_schema()", nil
		case h.t.kind == kindMySQL:
			return " AND " + col + " = DATABASE()", nil
		}
		return "", nil
	}
	q := func(sql string) string { return h.placeholders(sql, 1) }
	out := ordered.NewMap(7)
	missing := false
	err := p.run(ctx, h, func(c conn) error {
		where, args := cond("table_schema")
		kinds, err := rowsOf(ctx, c, q(`SELECT table_type FROM information_schema.tables WHERE table_name = ?`+where), append([]any{name}, args...)...)
		if err != nil {
			return err
		}
		if len(kinds) == 0 {
			missing = true
			return nil
		}
		typ := "table"
		if strings.Contains(strings.ToUpper(str(kinds[0][0])), "VIEW") {
			typ = "view"
		}
		out.Set("name", table)
		out.Set("type", typ)

		where, args = cond("tc.table_schema")
		pkRows, err := rowsOf(ctx, c, q(`SELECT kcu.column_name FROM information_schema.table_constraints tc
			JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
				AND kcu.table_schema = tc.table_schema AND kcu.table_name = tc.table_name
			WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = ?`+where), append([]any{name}, args...)...)
		if err != nil {
			return err
		}
		pk := map[string]bool{}
		for _, r := range pkRows {
			pk[str(r[0])] = true
		}

		where, args = cond("table_schema")
		cols, err := rowsOf(ctx, c, q(`SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
			WHERE table_name = ?`+where+` ORDER BY ordinal_position`), append([]any{name}, args...)...)
		if err != nil {
			return err
		}
		columns := make([]any, 0, len(cols))
		for _, r := range cols {
			m := ordered.NewMap(5)
			m.Set("name", r[0])
			m.Set("type", r[1])
			m.Set("nullable", strings.EqualFold(str(r[2]), "YES"))
			m.Set("default", r[3])
			m.Set("primary_key", pk[str(r[0])])
			columns = append(columns, m)
		}
		out.Set("columns", columns)

		indexes := []any{}
		switch h.t.kind {
		case kindPostgres:
			where, args := cond("schemaname")
			rows, err := rowsOf(ctx, c, q(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ?`+where+` ORDER BY indexname`), append([]any{name}, args...)...)
			if err != nil {
				return err
			}
			for _, r := range rows {
				def := str(r[1])
				m := ordered.NewMap(4)
				m.Set("name", r[0])
				m.Set("columns", indexColumns(def))
				m.Set("unique", strings.Contains(strings.ToUpper(def), "UNIQUE INDEX"))
				m.Set("definition", def)
				indexes = append(indexes, m)
			}
		case kindMySQL:
			where, args := cond("table_schema")
			rows, err := rowsOf(ctx, c, `SELECT index_name, column_name, non_unique FROM information_schema.statistics
				WHERE table_name = ?`+where+` ORDER BY index_name, seq_in_index`, append([]any{name}, args...)...)
			if err != nil {
				return err
			}
			var last *ordered.Map
			for _, r := range rows {
				if prev, _ := last.Get("name"); last == nil || fmt.Sprint(prev) != fmt.Sprint(r[0]) {
					last = ordered.NewMap(3)
					last.Set("name", r[0])
					last.Set("columns", []any{})
					last.Set("unique", fmt.Sprint(r[2]) == "0")
					indexes = append(indexes, last)
				}
				cs, _ := last.Get("columns")
				last.Set("columns", append(cs.([]any), r[1]))
			}
		default:
			out.Set("note", "indexes and foreign keys are listed for SQLite, PostgreSQL and MySQL only; query this database's own catalog with db.query")
		}
		out.Set("indexes", indexes)
		out.Set("foreign_keys", []any{})
		out.Set("sql", nil)
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

// indexColumns reads the column list of a PostgreSQL index definition:
// "CREATE INDEX i ON t USING btree (a, lower(b))" gives ["a", "lower(b)"].
func indexColumns(def string) []any {
	open := strings.Index(def, " (")
	if open < 0 {
		return []any{}
	}
	depth, start := 0, open+2
	var out []any
	for i := open + 1; i < len(def); i++ {
		switch def[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				if s := strings.TrimSpace(def[start:i]); s != "" {
					out = append(out, s)
				}
				return out
			}
		case ',':
			if depth == 1 {
				out = append(out, strings.TrimSpace(def[start:i]))
				start = i + 1
			}
		}
	}
	return out
}
