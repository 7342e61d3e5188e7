package runner

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner/config"
)

// The I/O corpus (testdata/corpus_io, see its README.md): programs that
// read, transform and write files with open/os/pathlib/glob/shutil, query
// SQLite with sqlite3 and fetch from a local site with urllib and
// requests, as agents write them. Each program runs over its own copy of
// the same tree (testdata/corpus_io/tree, plus shop.db made from
// shop.sql), by CPython for the expected output and by onetool with that
// copy as its root, the database configured and the site's host allowed.
// The site's address reaches programs as os.environ["SITE_URL"]
// (security.environ); outputs show it as SITE and the tree's path as
// TREE.

const corpusIODir = "../testdata/corpus_io"

func TestCorpusIO(t *testing.T) {
	site := corpusSite(t)
	t.Setenv("SITE_URL", site.URL)
	set := corpusSet{dir: corpusIODir, minPrograms: 80, minAgreement: corpusMinAgreement}
	progs := corpusPrograms(t, set)
	if *updateCorpus {
		regenerateCorpusIO(t, site.URL, progs)
	}
	known := corpusKnown(t, corpusIODir, progs)
	var (
		mu      sync.Mutex
		results []corpusResult
	)
	t.Run("programs", func(t *testing.T) {
		for _, name := range progs {
			t.Run(strings.TrimSuffix(name, ".py"), func(t *testing.T) {
				t.Parallel()
				dir := corpusTree(t)
				src := readCorpusFile(t, corpusIODir, name)
				want := strings.TrimSuffix(readCorpusFile(t, corpusIODir, strings.TrimSuffix(name, ".py")+".out"), "\n")
				r := corpusIORunner(t, dir)
				rr, err := roots.New(dir)
				if err != nil {
					t.Fatal(err)
				}
				got := corpusIONormal(corpusOutput(r.Exec(context.Background(), src, RunRoots(rr))), site.URL, dir)
				res := corpusResult{name: name, same: got == want}
				res.reason, res.listed = known[name]
				if !res.same {
					res.first = corpusFirstDiff(got, want)
					t.Logf("differs from CPython:\n%s", corpusDiff(got, want))
				}
				mu.Lock()
				results = append(results, res)
				mu.Unlock()
			})
		}
	})
	if len(results) == 0 {
		return
	}
	corpusReport(t, results, len(progs), set.minAgreement)
}

// corpusIORunner is a runner as a user would configure one for the tree
// in dir: its database writable, the local site allowed, SITE_URL passed.
func corpusIORunner(t *testing.T, dir string) *Runner {
	t.Helper()
	cfgDir := t.TempDir()
	yaml := "packs:\n" +
		"  db:\n    databases:\n      shop: \"sqlite:" + filepath.Join(dir, "shop.db") + "\"\n    read_only: false\n" +
		"  web:\n    allow_hosts: [\"127.0.0.1\"]\n" +
		"security:\n  environ: [SITE_URL]\n"
	path := filepath.Join(cfgDir, "onetool.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, config.LoadOptions{WorkDir: cfgDir, HomeDir: cfgDir})
	if err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits()
	limits.Timeout = 10 * time.Second
	r := newRunner(t, WithConfig(cfg), WithLimits(limits))
	t.Cleanup(func() { r.Close() })
	return r
}

// corpusTree is a fresh copy of the tree with shop.db made from shop.sql.
func corpusTree(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(corpusIODir, "tree")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(corpusIODir, "shop.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatalf("shop.sql: %v", err)
	}
	return dir
}

// corpusSite serves testdata/corpus_io/site, and a few endpoints whose
// answers depend on the request.
func corpusSite(t testing.TB) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(corpusIODir, "site"))))
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"method": r.Method, "query": r.URL.RawQuery, "body": string(body),
			"content_type": r.Header.Get("Content-Type"), "x_token": r.Header.Get("X-Token"),
		})
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		code := 500
		switch strings.TrimPrefix(r.URL.Path, "/status/") {
		case "404":
			code = 404
		case "403":
			code = 403
		case "204":
			code = 204
		}
		w.WriteHeader(code)
		if code != 204 {
			_, _ = io.WriteString(w, http.StatusText(code))
		}
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/items.json", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// corpusIONormal shows the site's address as SITE and the tree's path as
// TREE, in CPython's output and onetool's alike.
func corpusIONormal(out, site, dir string) string {
	out = strings.ReplaceAll(out, site, "SITE")
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		out = strings.ReplaceAll(out, real, "TREE")
	}
	return strings.ReplaceAll(out, dir, "TREE")
}

// regenerateCorpusIO rewrites every .out file with what CPython prints
// over a fresh copy of the tree (with its site-packages: requests), the
// same for two hash seeds.
func regenerateCorpusIO(t *testing.T, site string, progs []string) {
	t.Helper()
	python := os.Getenv("CORPUS_PYTHON")
	if python == "" {
		python = "python3"
	}
	if _, err := exec.LookPath(python); err != nil {
		t.Skipf("-update needs %s: %v", python, err)
	}
	for _, name := range progs {
		var texts [2]string
		for i, seed := range []string{"1", "2"} {
			text, err := cpythonIOOutput(t, python, name, seed, site)
			if err != nil {
				t.Fatal(err)
			}
			texts[i] = text
		}
		if texts[0] != texts[1] {
			t.Fatalf("%s prints differently from one PYTHONHASHSEED to another:\n%s", name, corpusDiff(texts[1], texts[0]))
		}
		if err := os.WriteFile(filepath.Join(corpusIODir, strings.TrimSuffix(name, ".py")+".out"), []byte(texts[0]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cpythonIOOutput is what CPython shows of a program run over a fresh
// copy of the tree (with site-packages, for requests), in the shape of
// the .out files.
func cpythonIOOutput(t *testing.T, python, name, seed, site string) (string, error) {
	dir := corpusTree(t)
	src, err := filepath.Abs(filepath.Join(corpusIODir, name))
	if err != nil {
		return "", err
	}
	text, err := cpythonRun(python, []string{src}, dir, name, "SITE_URL="+site, "PYTHONHASHSEED="+seed)
	return corpusIONormal(text, site, dir), err
}
