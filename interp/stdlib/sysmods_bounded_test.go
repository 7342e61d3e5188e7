package stdlib

import (
	"testing"
	"time"
)

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

// The worst inputs of the smaller modules at a server's budgets: results
// far larger than their arguments refused before they are made, long
// texts worked over in loops stopped at the deadline.
func TestSmallModulesStop(t *testing.T) {
	checkStops(t,
		stopCase{"struct.pack('1000000000x')", wantMemory},
		stopCase{"struct.unpack('100000000B', b'x' * 100000000)", wantSpent},
		stopCase{"d = b'x' * 10**7\nfor _ in range(10**9):\n    hashlib.sha256(d).hexdigest()", wantTime},
		stopCase{"hashlib.pbkdf2_hmac('sha256', b'p', b's' * 10**6, 1, dklen=10**6)", wantSpent},
		stopCase{"hashlib.shake_256(b'x').hexdigest(10**9)", wantMemory},
		stopCase{"hmac.new(b'k', b'x' * 10**7, 'sha256')\nfor _ in range(10**9):\n    hmac.new(b'k', b'x' * 10**7, 'sha256').digest()", wantTime},
		stopCase{"s = '<&>' * 10**7\nfor _ in range(10**9):\n    html.escape(s)", wantTime},
		stopCase{"s = '&amp;' * 10**7\nfor _ in range(10**9):\n    html.unescape(s)", wantTime},
		stopCase{"s = 'a \"b\" ' * 10**6\nfor _ in range(10**9):\n    shlex.split(s)", wantTime},
		stopCase{"names = ['x' * 100] * 10**5\nfor _ in range(10**9):\n    fnmatch.filter(names, '*a*b*c*')", wantTime},
		stopCase{"secrets.token_bytes(10**9)", wantMemory},
		stopCase{"secrets.randbits(10**9)", wantInt},
		stopCase{"uuid.UUID(int=10**4000)", `ValueError`},
		stopCase{"l = []\nfor i in itertools.count():\n    bisect.insort(l, i)", wantSpent},
		stopCase{"time.strftime('%c' * 10**7)", wantSpent},
		stopCase{"calendar.TextCalendar().formatyear(2024, 10**6)", wantMemory},
		stopCase{"time.sleep(10**9)", wantTime},
		stopCase{"shlex.join(itertools.repeat('a b'))", wantSpent},
		stopCase{"for i in itertools.count():\n    logging.getLogger('x' * 1000 + str(i))", wantSpent},
	)
	checkStopsAfter(t, 3*time.Second,
		stopCase{"datetime.datetime(2020, 1, 1).strftime('%Y' * 10**8)", wantMemory},
	)
}
