package stdlib

import "testing"

// Logging, tracebacks and the output streams in loops, with huge
// paddings or deep recursion end with the run's budget.
func TestSysModsBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import logging, io\ns = io.StringIO()\nlogging.basicConfig(stream=s)\nfor _ in range(10 ** 8):\n    logging.warning('x' * 100)",
		"import logging\nlogging.basicConfig(format='%(message)999999999s')\nlogging.warning('x')",
		"import logging\nfor _ in range(10 ** 8):\n    logging.debug('hidden %s', 1)",
		"import sys\nfor _ in range(10 ** 8):\n    sys.stdout.write('')",
		"import sys\nsys.stdout.write('x' * 10 ** 9)",
		"import traceback\ndef f(n):\n    return f(n + 1)\nfor _ in range(10 ** 6):\n    try:\n        f(0)\n    except RecursionError:\n        traceback.format_exc()",
		"import traceback\ne = ValueError('x')\nfor _ in range(10 ** 8):\n    try:\n        raise e\n    except ValueError as x:\n        traceback.format_exception(x)",
	)
}

// What a run configures (logging, the first weekday, the recursion
// limit) is its own: the next run starts as a new process does (the
// module-level warning() configures the root with the default format).
func TestSysModsStatePerRun(t *testing.T) {
	first := "import logging, calendar, sys\nlogging.basicConfig(level=logging.DEBUG, format='%(message)s')\nlogging.getLogger('a').setLevel(logging.DEBUG)\ncalendar.setfirstweekday(6)\nsys.setrecursionlimit(50)\nlogging.debug('first')"
	got, err := printedOf(first)
	if err != nil || got != "first\n" {
		t.Fatalf("first run: %q, %v", got, err)
	}
	second := "import logging, calendar, sys\nlogging.debug('hidden')\nlogging.warning('w')\nprint(logging.getLogger('a').level, calendar.firstweekday(), sys.getrecursionlimit())"
	got, err = printedOf(second)
	if err != nil || got != "WARNING:root:w\n0 0 1000\n" {
		t.Fatalf("second run: %q, %v", got, err)
	}
}
