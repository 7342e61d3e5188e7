package db

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/packs/catalog"
	"github.com/onetool-dev/onetool/packs/roots"
)

// help is ot.help(query="db") as the caller of ctx sees it.
func (e *env) help(ctx context.Context) string {
	e.t.Helper()
	p, ok := e.reg.Pack("db")
	if !ok {
		e.t.Fatal("no db pack")
	}
	return catalog.PackHelp(ctx, p, catalog.Options{})
}

// The help of db lists each table of a real SQLite file with its columns
// and types, a line each, after the stub lines.
func TestHelpListsTables(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	got := e.help(context.Background())
	for _, want := range []string{
		"\nquery(sql: str, params: list = [], max_rows: int = 1000",
		"\n\nDatabase main (default), 4 tables:\n" +
			"big_orders(id INTEGER, user_id INTEGER, total REAL, note TEXT)\n" +
			"nums(n INTEGER)\n" +
			"orders(id INTEGER, user_id INTEGER, total REAL, note TEXT)\n" +
			"users(id INTEGER, name TEXT, score REAL, email TEXT, joined DATE, seen DATETIME, avatar BLOB)\n\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
	if n := utf8.RuneCountInString(got); n > catalog.PackBudget {
		t.Errorf("help is %d characters, want ≤ %d:\n%s", n, catalog.PackBudget, got)
	}
}

// A database of many tables is summarised: the lines its share of the
// budget holds, then how many more there are and how to see them.
func TestHelpBoundsManyTables(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true})
	var script strings.Builder
	for i := range 400 {
		fmt.Fprintf(&script, "CREATE TABLE t%03d (id INTEGER PRIMARY KEY, name TEXT, created_at DATETIME, amount REAL, note TEXT);\n", i)
	}
	makeDB(t, filepath.Join(e.root, "big.db"), "BEGIN;\n"+script.String()+"COMMIT;")
	e = newEnv(t, Options{ReadOnly: true, Databases: map[string]string{"big": "sqlite:" + filepath.Join(e.root, "big.db"), "main": "sqlite:" + filepath.Join(e.root, "app.db")},
		Roots: mustRoots(t, e.root)})
	got := e.help(context.Background())
	section := got[strings.Index(got, "\n\nDatabase big"):]
	if n := utf8.RuneCountInString(section); n > helpBudget+300 {
		t.Errorf("tables take %d characters, want about %d:\n%s", n, helpBudget, section)
	}
	for _, want := range []string{
		"Database big, 400 tables:\nt000(id INTEGER, name TEXT, created_at DATETIME, amount REAL, note TEXT)\n",
		` more: db.tables(db="big"), db.schema(table, db="big")` + "\nDatabase main, 4 tables:\nbig_orders(",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("help lacks %q:\n%s", want, section)
		}
	}
}

// The help shows a database only to a run whose roots hold it, and never
// a password of a database's URL.
func TestHelpHonoursRootsAndHidesPasswords(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Databases: map[string]string{
		"main": "sqlite:app.db", "remote": "nosuchdriver://admin:hunter2secret@db.example.com/app"}})
	got := e.help(context.Background())
	if !strings.Contains(got, "\nusers(id INTEGER") || strings.Contains(got, "hunter2secret") {
		t.Errorf("help:\n%s", got)
	}
	if !strings.Contains(got, "Database remote: tables not listed: ") {
		t.Errorf("help does not say why remote is not listed:\n%s", got)
	}
	other := t.TempDir()
	ctx := roots.NewContext(context.Background(), mustRoots(t, other))
	got = e.help(ctx)
	if strings.Contains(got, "users(") || !strings.Contains(got, "Database main: tables not listed: ") {
		t.Errorf("a run with other roots sees:\n%s", got)
	}
}

// Without databases, the help says how to configure one.
func TestHelpWithoutDatabases(t *testing.T) {
	e := newEnv(t, Options{ReadOnly: true, Databases: map[string]string{}})
	if got := e.help(context.Background()); !strings.Contains(got, "No databases are configured (packs.db.databases in onetool.yaml).") {
		t.Errorf("help:\n%s", got)
	}
}
