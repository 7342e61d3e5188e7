package db

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/onetool-dev/onetool/packs/roots"
)

// TestRunRoots: a SQLite file is confined to the roots of the run that
// calls (an MCP session's) at every call, whether or not another run
// opened its pool; with no root at all the call says how to set one, as
// the file pack does.
func TestRunRoots(t *testing.T) {
	q := map[string]any{"sql": "SELECT count(*) AS n FROM users"}
	with := func(r *roots.Roots) context.Context { return roots.NewContext(context.Background(), r) }
	for _, openFirst := range []bool{false, true} {
		e := newEnv(t, Options{ReadOnly: true})
		other, err := roots.New(filepath.Join(e.tmp, "elsewhere"))
		if err != nil {
			t.Fatal(err)
		}
		holds, err := roots.New(e.tmp) // another Roots that holds the file
		if err != nil {
			t.Fatal(err)
		}
		if openFirst {
			e.ok("db.query", q)
		}
		_, err = e.callCtx(with(other), "db.query", q)
		if !errors.Is(err, roots.ErrOutside) || errors.Is(err, roots.ErrNoRoot) {
			t.Errorf("open first %v: outside the run's roots: %v", openFirst, err)
		}
		wantErr(t, "other", err, "outside the allowed roots", filepath.Join(e.tmp, "elsewhere"))
		_, err = e.callCtx(with(roots.None("/", roots.Implicit("/", ""))), "db.query", q)
		if !errors.Is(err, roots.ErrNoRoot) {
			t.Errorf("open first %v: no root: %v", openFirst, err)
		}
		wantErr(t, "none", err, "no root directory is set: onetool was started in /", "--root DIR")
		if _, err := e.callCtx(with(holds), "db.query", q); err != nil {
			t.Errorf("open first %v: inside the run's roots: %v", openFirst, err)
		}
	}
}
