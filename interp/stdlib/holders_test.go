package stdlib

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// Module values count against the memory budget for what they hold: a
// list of module values, each holding 100 KB that no other value
// holds, ends at the budget (before, the meter counted a Counter, a match
// or a Fraction as nothing beyond its slot, and the list took the heap).
func TestModuleValuesCountAgainstMemory(t *testing.T) {
	// big(i) is a fresh 100 KB each time: only the module value keeps it,
	// and 300 of them are four times the budget of 8 MiB.
	const big = "def big(i):\n    return 'x' * 10**5 + str(i)\n" +
		"d = decimal.Decimal('7' * 20000)\n" +
		"def started(it):\n    next(it)\n    return it\n" +
		"keep = []\nfor i in range(300):\n    keep.append("
	for _, make := range []string{
		"collections.Counter({big(i): 1})",
		"collections.OrderedDict([(big(i), 1)])",
		"collections.defaultdict(list, {1: big(i)})",
		"collections.deque([big(i)])",
		"collections.ChainMap({1: big(i)})",
		"collections.namedtuple('P', 'a')(big(i))",
		"collections.namedtuple('P', ['a' + big(i)[:5000] + str(j) for j in range(20)])",
		"re.match('x', big(i))",
		"difflib.SequenceMatcher(None, [big(i)], [])",
		"string.Template(big(i))",
		"csv.reader([big(i)])",
		"csv.writer(io.StringIO(big(i)))",
		"textwrap.TextWrapper(initial_indent=big(i))",
		"datetime.timezone(datetime.timedelta(0), big(i))",
		"logging.Formatter(big(i) + '%(message)s')",
		"json.JSONEncoder(separators=(big(i), ':'))",
		// 50 generators of 2.5 KB each, 300 times; 20,000 digits (8 KB)
		// 6,000 times.
		"[random.Random(j) for j in range(50)]",
		"[d.copy_abs() for j in range(20)]",
		"functools.partial(print, big(i))",
		"started(heapq.merge([1], [2], key=lambda x: big(i)))",
		"operator.itemgetter(big(i))",
		"operator.methodcaller('f', x=big(i))",
		"logging.Filter(big(i))",
		"(csv.register_dialect('d', lineterminator=big(i)), csv.get_dialect('d'))[1]",
		"io.StringIO(big(i))",
		"fractions.Fraction((7 << 1000000) + i)",
	} {
		// The watchdog samples the heap: the run goes on (idle) for a
		// few samples after it has made its values.
		// The watchdog's baseline is the heap live at the last collection:
		// the previous case's values are garbage.
		code := big + make + ")\nfor _ in range(10**6):\n    pass"
		runtime.GC()
		start := time.Now()
		_, err := run(code, interp.Options{Timeout: 20 * time.Second, MaxMemory: 8 << 20, MaxIntDigits: 1 << 20,
			Watchdog: interp.NewWatchdogEvery(time.Millisecond)})
		if !errors.Is(err, interp.ErrMemoryLimit) {
			t.Errorf("%s: %v, want the memory limit", make, err)
		}
		t.Logf("%s: %v in %v", make, err, time.Since(start))
	}
}
