package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/interp"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialRandom checks the random module against CPython
// (testdata/random_cases.txt): seeded, every number must be CPython's.
func TestDifferentialRandom(t *testing.T) {
	pydiff.Check(t, "testdata/random_cases.txt", *update, eval)
}

// Huge counts of choices and samples, a huge shuffle and a huge
// getrandbits end with the run's budget.
func TestRandomBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import random\nrandom.choices(range(10), k=10 ** 9)",
		"import random\nrandom.choices(range(10), weights=range(10), k=10 ** 8)",
		"import random\nrandom.sample(range(10 ** 12), 10 ** 8)",
		"import random\nrandom.sample(range(10 ** 6), 10 ** 5)\nrandom.sample(range(10 ** 6), 10 ** 5)\nrandom.sample(range(10 ** 6), 10 ** 5)",
		"import random\nl = [0] * 10 ** 5\nfor _ in range(10 ** 6):\n    random.shuffle(l)",
		"import random\nrandom.getrandbits(10 ** 10)",
		"import random\nrandom.randbytes(10 ** 9)",
		"import random\nn = 2 ** (10 ** 7)\nfor _ in range(10 ** 6):\n    random.randrange(n)",
	)
}

// The module's generator belongs to the run: seeding in one run gives
// that run CPython's sequence and leaves the next run's generator
// unseeded.
func TestRandomStatePerRun(t *testing.T) {
	seeded := "import random\nrandom.seed(1)\nrandom.random()"
	first, err := run(seeded, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Text != "0.13436424411240122" {
		t.Errorf("seeded run gave %s, want CPython's 0.13436424411240122", first.Text)
	}
	for i := 0; i < 3; i++ {
		next, err := run("import random\nrandom.random()", interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if next.Text == first.Text {
			t.Errorf("an unseeded run repeated the seeded run's number %s", next.Text)
		}
	}
}

// The worst inputs of random at a server's budgets: ints past
// limits.max_int_digits, bytes past the memory budget, endless weights.
func TestRandomStop(t *testing.T) {
	checkStops(t,
		stopCase{"random.getrandbits(10**9)", wantInt},
		stopCase{"random.getrandbits(16610 + 100)", wantInt},
		stopCase{"random.Random(5).getrandbits(10**6)", wantInt},
		stopCase{"random.randbytes(10**9)", wantMemory},
		stopCase{"for _ in range(10**9):\n    random.randbytes(10**7)", wantTime},
		stopCase{"random.choices([1], weights=itertools.count(), k=1)", `ValueError: The number of weights`},
		stopCase{"random.sample([1], 1, counts=itertools.count())", `ValueError: The number of counts`},
		stopCase{"random.choices(range(10), k=10**8)", wantSpent},
		stopCase{"random.shuffle(list(range(10**6)))\nfor _ in range(10**9):\n    random.sample(range(10**6), 10**5)", wantTime},
	)
}
