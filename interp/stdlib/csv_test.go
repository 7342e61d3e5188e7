package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialCSV checks the csv module against CPython
// (testdata/csv_cases.txt).
func TestDifferentialCSV(t *testing.T) {
	pydiff.Check(t, "testdata/csv_cases.txt", *update, eval)
}

// Reading or writing huge inputs ends with the run's budget.
func TestCSVBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import csv\nlist(csv.reader(['a,b,c'] * 10 ** 7))",
		"import csv\nlist(csv.reader(['\"a,b\",' * 1000] * 10 ** 5))",
		"import csv\nfor row in csv.DictReader(['a,b'] + ['1,2'] * 10 ** 7):\n    pass",
		"import csv, io\nf = io.StringIO()\nw = csv.writer(f)\nw.writerows([['x' * 100, 'y,z']] * 10 ** 7)",
		"import csv, io\nf = io.StringIO()\nw = csv.DictWriter(f, fieldnames=['a', 'b'])\nfor _ in range(10 ** 7):\n    w.writerow({'a': 'x' * 100, 'b': 1})",
		"import csv\nlist(csv.reader(io.StringIO('a,' * 10 ** 7)))",
		// One row of a few shared fields, 10 GB written out: the line
		// stops at the memory budget instead of being built first.
		"import csv, io\ncsv.writer(io.StringIO()).writerow(['x' * 10 ** 6] * 10 ** 4)",
		"import csv, io\ncsv.writer(io.StringIO(), quoting=csv.QUOTE_ALL).writerow(['\"' * 10 ** 5] * 10 ** 5)",
	)
}

// The worst inputs of csv at a server's budgets: a record of a hundred
// million fields (no watchdog sees them before it is returned), a record
// over endless lines, endless rows written, endless dialects registered
// (the run's registry, where the memory meter does not look).
func TestCSVStop(t *testing.T) {
	checkStops(t,
		stopCase{"next(csv.reader([',' * 10**8]))", wantSpent},
		stopCase{"csv.field_size_limit(10**12)\nnext(csv.reader(itertools.chain(['\"'], itertools.repeat('x' * 10**6))))", wantSpent},
		stopCase{"next(csv.reader(itertools.chain(['\"'], itertools.repeat('x' * 10**6))))", `field larger than field limit`},
		stopCase{"f = io.StringIO()\ncsv.writer(f).writerows(itertools.repeat(['x' * 1000] * 10))", wantSpent},
		stopCase{"f = io.StringIO()\ncsv.writer(f).writerow(itertools.repeat('x' * 1000))", wantSpent},
		stopCase{"for row in csv.reader(itertools.repeat('a,b,c')):\n    pass", wantTime},
		// The registry counts each terminator it keeps by its length (one
		// shared by all too: it cannot tell).
		stopCase{"t = 'x' * 10**6\nfor i in range(10**9):\n    csv.register_dialect(str(i), lineterminator=t)", wantMemory},
	)
}
