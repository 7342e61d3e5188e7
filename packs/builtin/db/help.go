package db

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs"
)

// The db pack's context in its help (packs.ContextFunc, issue 29): each
// configured database's tables, a line each with its columns and types,
// so that an agent writes its first query without asking for the schema.

const (
	// helpBudget is about how many characters the tables of all
	// databases take; each database gets an equal share (at least
	// helpShare), and says how many tables it leaves out and how to see
	// them.
	helpBudget = 900
	helpShare  = 160
	// helpTTL is how long a database's lines are reused: help is asked
	// for often, schemas change rarely, and a big catalog costs queries.
	helpTTL = 30 * time.Second
	// helpColumns is the most column rows read for the help: the lines
	// of a database with more stop there.
	helpColumns = 2000
)

// helpEntry is a database's lines, as computed at a time for a handle.
type helpEntry struct {
	h     *handle
	at    time.Time
	lines []string
	total int // tables in all
}

// sqliteColumns lists every table's columns in one statement.
const sqliteColumns = `SELECT m.name, p.name, p.type FROM sqlite_schema m JOIN pragma_table_info(m.name) p
	WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY m.name, p.cid LIMIT ?`

// helpContext is the section: per database, a header and a line per
// table, as many as its share of helpBudget holds.
func (p *Pack) helpContext(ctx context.Context) string {
	if p.bad != nil || len(p.names) == 0 {
		return `No databases are configured (packs.db.databases in onetool.yaml).`
	}
	def := p.o.Default
	if def == "" && len(p.names) == 1 {
		def = p.names[0]
	}
	share := max(helpBudget/len(p.names), helpShare)
	var b strings.Builder
	for i, name := range p.names {
		if i > 0 {
			b.WriteByte('\n')
		}
		arg := fmt.Sprintf(", db=%q", name)
		head := "Database " + name
		if name == def {
			head += " (default)"
			arg = ""
		}
		e, err := p.helpLines(ctx, name)
		if err != nil {
			msg := strings.SplitN(err.Error(), "\n", 2)[0]
			fmt.Fprintf(&b, "%s: tables not listed: %s", head, packs.Clip(msg, 100))
			continue
		}
		fmt.Fprintf(&b, "%s, %s:", head, plural(e.total, "table", "tables"))
		used, shown := 0, 0
		for _, l := range e.lines {
			if used+utf8.RuneCountInString(l) > share && shown > 0 {
				break
			}
			b.WriteString("\n")
			b.WriteString(l)
			used += utf8.RuneCountInString(l) + 1
			shown++
		}
		if rest := e.total - shown; rest > 0 {
			fmt.Fprintf(&b, "\n… %d more: db.tables(%s), db.schema(table%s)", rest, strings.TrimPrefix(arg, ", "), arg)
		}
	}
	return b.String()
}

// helpLines returns a database's table lines, reused for helpTTL while
// the same handle serves it. The database is looked up for the caller
// each time: its roots decide whether it may be reached at all.
func (p *Pack) helpLines(ctx context.Context, name string) (helpEntry, error) {
	h, err := p.lookup(ctx, name)
	if err != nil {
		return helpEntry{}, err
	}
	p.helpMu.Lock()
	e, ok := p.help[name]
	p.helpMu.Unlock()
	if ok && e.h == h && time.Since(e.at) < helpTTL {
		return e, nil
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	names, err := p.tableNames(ctx, h)
	if err != nil {
		return helpEntry{}, err
	}
	e = helpEntry{h: h, at: time.Now(), total: len(names)}
	cols := map[string][]string{}
	if h.t.kind == kindSQLite {
		err = p.run(ctx, h, func(c conn) error {
			rows, err := rowsOf(ctx, c, sqliteColumns, helpColumns)
			for _, r := range rows {
				col := str(r[1])
				if t := str(r[2]); t != "" {
					col += " " + t
				}
				cols[str(r[0])] = append(cols[str(r[0])], col)
			}
			return err
		})
		if err != nil && ctx.Err() != nil {
			return helpEntry{}, p.explain(ctx, h, err)
		}
		// Otherwise (a view over a table since dropped): the names alone.
	}
	for _, n := range names {
		line := n
		if c, ok := cols[n]; ok {
			line += "(" + strings.Join(c, ", ") + ")"
		}
		e.lines = append(e.lines, packs.Clip(line, 110))
	}
	p.helpMu.Lock()
	if p.help == nil {
		p.help = map[string]helpEntry{}
	}
	p.help[name] = e
	p.helpMu.Unlock()
	return e, nil
}
