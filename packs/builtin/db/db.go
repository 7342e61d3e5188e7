// Package db is the built-in db pack (SPEC §3.5): SQL over the databases
// configured under packs.db.databases in onetool.yaml. SQLite is built in
// (modernc.org/sqlite, no cgo); any other database/sql driver linked into
// the binary is reached by a URL whose scheme names it ("postgres://…").
//
// Tools: db.databases, db.tables, db.schema, db.query and db.execute.
//
// Read-only by default (packs.db.read_only: true). A read-only SQLite
// database is opened with mode=ro and PRAGMA query_only=ON, and an SQLite
// authorizer refuses every write (INSERT, UPDATE, DELETE, CREATE, DROP,
// ALTER, setting pragmas) before it runs; other drivers run each call in
// a read-only transaction. Whatever the mode, ATTACH, DETACH, VACUUM INTO
// and load_extension() are refused: they would reach files outside the
// configured ones (and outside the allowed roots).
//
// SQLite paths are confined to Options.Roots when it is set, or to the
// roots the run's context carries (roots.NewContext: an MCP session's):
// a database file (symbolic links followed) outside them is refused, at
// every call, whichever run opened its pool.
//
// Nothing is opened until a call needs a database; each database gets one
// connection pool, which Pack.Close closes. A read-only pack never
// creates a SQLite file; a writable one creates a missing file (not its
// directory). "sqlite::memory:" keeps one connection, so its data lasts
// as long as the pack.
//
// Values are bound to ? placeholders (SQLite also takes ?NNN); for
// PostgreSQL, ? is rewritten to $1, $2, … when params are given and the
// SQL has no $1 of its own.
//
// Results: db.query returns a list of dicts, one per row, keys in column
// order. NULL is None; BLOBs are dicts {"base64": "…", "bytes": n}; time
// values are RFC 3339 strings. (The SQLite driver reads text in DATE,
// DATETIME and TIMESTAMP columns as times, in UTC unless they name a
// zone; a DATE column's midnight comes back as "2024-01-31". Text that is
// not a time, and every other column, comes back as stored.) When
// more rows match than max_rows, the list ends with one more element, a
// string note "… N more rows not shown …", so no caller can take a cut
// result for the whole.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/packs/roots"
)

// Description is the pack's one-line description.
const Description = "SQL over the databases in packs.db.databases (SQLite built in): list tables, describe one, query with ? parameters; read-only unless packs.db.read_only is false"

// Limits and defaults.
const (
	DefaultMaxRows = 1000             // rows db.query returns unless max_rows says otherwise
	MaxRowsLimit   = 100000           // the largest max_rows
	DefaultTimeout = 30 * time.Second // per call
	MaxTimeout     = time.Hour        // the largest packs.db.timeout
	MaxResultBytes = 16 << 20         // a query result stops growing past this (bytes, roughly)
	MaxBlobBytes   = 1 << 20          // bytes of one BLOB returned; longer ones are cut
	moreCountCap   = 100000           // rows counted past max_rows for the note
)

// Options configure the pack.
type Options struct {
	// Databases maps names to URLs: "sqlite:relative/or/abs.db",
	// "sqlite::memory:", a bare path ending in .db, .sqlite or .sqlite3,
	// or another database/sql URL ("postgres://…") whose driver is
	// registered in the binary (the scheme names the driver). Relative
	// SQLite paths are relative to Roots.Base() when Roots is set, else to
	// the working directory (ParseSettings makes them absolute against the
	// configuration file's directory).
	Databases map[string]string
	// Default is the database used when a call names none; "" means the
	// only one, when exactly one is configured.
	Default string
	// ReadOnly refuses writes. ParseSettings sets it unless the
	// configuration says read_only: false; Go callers must set it.
	ReadOnly bool
	// MaxRows is db.query's default cap on rows (DefaultMaxRows when 0).
	MaxRows int
	// Timeout bounds each call's statements (DefaultTimeout when 0).
	Timeout time.Duration
	// Roots, if set, confines SQLite files: a path outside is refused.
	Roots *roots.Roots
	// Hide, if set, hides pieces of secrets in the text values of a
	// query's rows (runner/redaction.Fragments: eight characters or more
	// of a secret, any case), besides the redaction every tool result
	// gets: SQL computes on stored values before any boundary sees them
	// (substr(), lower(), replace()). A second line only: see
	// docs/security.md.
	Hide func(string) string
}

// Pack is the db pack's state: its options and the connection pools
// opened so far. Close it when the tools are no longer used.
type Pack struct {
	o     Options
	names []string // configured database names, sorted
	bad   error    // invalid options (Tools): every call fails with it

	mu     sync.Mutex
	dbs    map[string]*handle
	closed bool

	helpMu sync.Mutex
	help   map[string]helpEntry // the tables shown in help, by database (help.go)
}

// New checks o and returns a pack that has opened nothing yet.
func New(o Options) (*Pack, error) {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxRows > MaxRowsLimit {
		return nil, fmt.Errorf("db pack: MaxRows %d is above the limit of %d", o.MaxRows, MaxRowsLimit)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	p := &Pack{o: o, dbs: map[string]*handle{}}
	var errs []error
	for name, u := range o.Databases {
		p.names = append(p.names, name)
		if err := checkName(name); err != nil {
			errs = append(errs, fmt.Errorf("packs.db.databases.%s: %w", name, err))
		} else if _, err := parseTarget(u); err != nil {
			errs = append(errs, fmt.Errorf("packs.db.databases.%s: %w", name, err))
		}
	}
	slices.Sort(p.names)
	if o.Default != "" && len(errs) == 0 {
		if _, ok := o.Databases[o.Default]; !ok {
			errs = append(errs, fmt.Errorf("packs.db.default: %s", unknownDB(o.Default, o.Databases)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// Register adds the db pack to r, with its description. The returned Pack
// holds the connection pools, opened on first use: Close it when r is
// dropped (a process that exits need not).
func Register(r *packs.Registry, o Options) (*Pack, error) {
	p, err := New(o)
	if err != nil {
		return nil, err
	}
	r.SetPackDescription("db", Description)
	r.SetPackContext("db", p.helpContext)
	if err := r.RegisterBuiltin(p.Tools()...); err != nil {
		return nil, err
	}
	// Python's sqlite3 (issue 31): variants of db.query and db.execute.
	if err := r.RegisterVariants(p.pyops()...); err != nil {
		return nil, err
	}
	return p, nil
}

// Tools returns new db tools for o, ready to register. Their connection
// pools live as long as the process; use New and Pack.Tools to be able to
// close them. Invalid options make every call fail with the reason.
func Tools(o Options) []*packs.Tool {
	p, err := New(o)
	if err != nil {
		p = &Pack{o: o, dbs: map[string]*handle{}, closed: true, bad: err}
	}
	return p.Tools()
}

// Names are the configured databases' names, sorted.
func (p *Pack) Names() []string { return slices.Clone(p.names) }

// Close closes every connection pool. Calls made afterwards fail.
func (p *Pack) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for _, h := range p.dbs {
		if h.check != nil {
			h.check.close()
		}
		if err := h.db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing database '%s': %w", h.name, err))
		}
	}
	clear(p.dbs)
	return errors.Join(errs...)
}

// handle is one configured database, opened.
type handle struct {
	name  string
	t     target
	shown string       // the URL, passwords masked
	db    *sql.DB      // the pool
	path  string       // SQLite: the real file path ("" for memory)
	roots *roots.Roots // SQLite: the roots path was checked against when the pool opened
	check *checker     // SQLite: what statements would do
	// connector opens SQLite connections with the authorizer set (the
	// pool's, and each held connection's own: held.go).
	connector driver.Connector
}

// noDatabases is the error of every call when nothing is configured.
var noDatabases = errors.New(`no databases are configured: add one to onetool.yaml, e.g. packs: {db: {databases: {main: "sqlite:app.db"}}} (SQLite paths are relative to the config file; postgres://… and other URLs work when their driver is built in)`)

// unknownDB words an unknown database name.
func unknownDB(name string, dbs map[string]string) string {
	names := make([]string, 0, len(dbs))
	for n := range dbs {
		names = append(names, n)
	}
	slices.Sort(names)
	msg := fmt.Sprintf("no database '%s' is configured", name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(". Did you mean '%s'?", s)
	}
	if len(names) == 0 {
		return msg + " (packs.db.databases is empty)"
	}
	return msg + " Configured: " + strings.Join(names, ", ") + " (packs.db.databases in onetool.yaml)"
}

// lookup finds the database a call names ("" = the default) and opens it
// on first use, its SQLite file confined to the roots of the run of ctx.
func (p *Pack) lookup(ctx context.Context, name string) (*handle, error) {
	if p.bad != nil {
		return nil, p.bad
	}
	if len(p.o.Databases) == 0 {
		return nil, noDatabases
	}
	if name == "" {
		switch {
		case p.o.Default != "":
			name = p.o.Default
		case len(p.names) == 1:
			name = p.names[0]
		default:
			return nil, fmt.Errorf(`%d databases are configured (%s): name one with db="%s", or set packs.db.default in onetool.yaml`,
				len(p.names), strings.Join(p.names, ", "), p.names[0])
		}
	}
	u, ok := p.o.Databases[name]
	if !ok {
		return nil, errors.New(unknownDB(name, p.o.Databases))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("the db pack is closed")
	}
	runRoots := roots.FromContext(ctx, p.o.Roots)
	if h, ok := p.dbs[name]; ok {
		if err := p.confine(h, runRoots); err != nil {
			return nil, err
		}
		return h, nil
	}
	t, err := parseTarget(u)
	if err != nil {
		return nil, fmt.Errorf("packs.db.databases.%s: %w", name, err)
	}
	h := &handle{name: name, t: t, shown: mask(u), roots: runRoots}
	if t.kind == kindSQLite {
		err = p.openSQLite(h)
	} else {
		err = p.openOther(h)
	}
	if err != nil {
		return nil, err
	}
	p.dbs[name] = h
	return h, nil
}

// label names a database in messages when there is more than one.
func (p *Pack) label(h *handle) string {
	if len(p.names) > 1 {
		return fmt.Sprintf("database '%s': ", h.name)
	}
	return ""
}
