package stdlib

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
)

// TestDifferentialDateTime checks the datetime module against CPython
// (testdata/datetime_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialDateTime -update).
func TestDifferentialDateTime(t *testing.T) {
	pydiff.Check(t, "testdata/datetime_cases.txt", *update, eval)
}

// TestDifferentialZoneInfo checks zoneinfo and aware datetimes in its
// zones against CPython.
func TestDifferentialZoneInfo(t *testing.T) {
	pydiff.Check(t, "testdata/zoneinfo_cases.txt", *update, eval)
}

// TestDifferentialTime checks Python's time module against CPython.
func TestDifferentialTime(t *testing.T) {
	pydiff.Check(t, "testdata/time_cases.txt", *update, eval)
}

// A huge strftime format, a huge strptime text, and building values
// without end all end with the run's budget.
func TestDateTimeBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import datetime\ndatetime.datetime(2024, 1, 2).strftime('%c' * 10 ** 6)",
		"import datetime\ntz = datetime.timezone(datetime.timedelta(0), 'x' * 10 ** 6)\ndatetime.datetime(2024, 1, 2, tzinfo=tz).strftime('%Z' * 100)",
		"import datetime\nd = datetime.date(2024, 1, 1)\nf = '%A %B' * 10 ** 6\nwhile True:\n    f = d.strftime(f)",
		"import datetime\ndatetime.datetime.strptime('2024' * 10 ** 5, '%Y' * 10 ** 5)",
		"import datetime\nxs = []\nwhile True:\n    xs.append(datetime.datetime(2024, 1, 1) + datetime.timedelta(seconds=len(xs)))",
		"import datetime\nx = datetime.timedelta(0)\nfor i in range(10 ** 9):\n    x += datetime.timedelta(microseconds=i)",
	)
}

// zoneinfo conversions in a loop end with the budget.
func TestZoneInfoBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"from zoneinfo import ZoneInfo\nimport datetime\nz = ZoneInfo('Europe/Paris')\nd = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)\nwhile True:\n    d = (d + datetime.timedelta(hours=1)).astimezone(z)",
		"from zoneinfo import ZoneInfo\nzs = [ZoneInfo('Asia/Tokyo') for _ in range(10 ** 9)]",
	)
}

// time.sleep waits no longer than the run may: a sleep of 10**9 seconds
// ends at the run's deadline with the deadline's error, and so does a
// huge strftime format.
func TestTimeBounded(t *testing.T) {
	start := time.Now()
	_, err := run("import time\ntime.sleep(10 ** 9)", interp.Options{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, interp.ErrLimit) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("sleep(10**9): %v, want the deadline's error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("sleep(10**9) took %s", d)
	}
	checkBounded(t, 1e6,
		"import time\ntime.strftime('%c' * 10 ** 6, time.gmtime(0))",
		"import time\nwhile True:\n    time.sleep(0)",
	)
}

// Cancelling the run's context stops a sleep at once.
func TestTimeSleepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	opts := interp.Options{Predeclared: globals(), Parse: python.Parse}
	_, err := interp.Exec(ctx, "import time\ntime.sleep(60)", opts)
	if !errors.Is(err, interp.ErrCancelled) {
		t.Errorf("sleep after cancel: %v, want cancelled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancelled sleep took %s", d)
	}
}

// The global time is a superset of go.starlark.net's time module, which
// plain Starlark programs used before: its members keep their meaning,
// and time.time() with keyword arguments is still its constructor.
func TestTimeKeepsStarlarkMembers(t *testing.T) {
	for code, want := range map[string]string{
		`time.time(year=2024, month=1, day=2, hour=3).year`:            "2024",
		`str(time.time(year=2024, month=1, day=2, location="UTC"))`:    "2024-01-02 00:00:00 +0000 UTC",
		`time.parse_duration("1h30m") == time.hour + 30 * time.minute`: "True",
		`str(time.parse_duration("90s"))`:                              "1m30s",
		`time.parse_time("2024-01-02T03:04:05Z").hour`:                 "3",
		`time.from_timestamp(86400).unix`:                              "86400",
		`type(time.now()).__name__`:                                    "time.time",
		`time.is_valid_timezone("Europe/Paris")`:                       "True",
		`str(time.second * 5)`:                                         "5s",
		`type(time.time()).__name__`:                                   "float",
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s = %q, want %q", code, res.Text, want)
		}
	}
}

// Values convert to results as a user expects: dates and times as ISO
// 8601 text, a timedelta as its seconds, a struct_time as its fields.
func TestDateTimeGoValues(t *testing.T) {
	for code, want := range map[string]string{
		`datetime.datetime(2024, 1, 2, 3, 4, 5)`:                                    "2024-01-02T03:04:05",
		`datetime.datetime(2024, 1, 2, 3, 4, 5, 600, tzinfo=datetime.timezone.utc)`: "2024-01-02T03:04:05.000600+00:00",
		`[datetime.date(2024, 1, 2), datetime.time(3, 4)]`:                          `["2024-01-02","03:04:00"]`,
		`{"took": datetime.timedelta(minutes=1, microseconds=500)}`:                 `{"took":60.0005}`,
		`{"zone": zoneinfo.ZoneInfo("Europe/Paris")}`:                               `{"zone":"Europe/Paris"}`,
		`[time.gmtime(0)]`:                          `[{"tm_year":1970,"tm_mon":1,"tm_mday":1,"tm_hour":0,"tm_min":0,"tm_sec":0,"tm_wday":3,"tm_yday":1,"tm_isdst":0}]`,
		`[datetime.date(2024, 1, 1).isocalendar()]`: `[[2024,1,1]]`,
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Errorf("%s: %v", code, err)
			continue
		}
		if res.Text != want {
			t.Errorf("%s = %s, want %s", code, res.Text, want)
		}
	}
}

// TestDifferentialTimedelta checks datetime.timedelta and
// datetime.timezone against CPython.
func TestDifferentialTimedelta(t *testing.T) {
	pydiff.Check(t, "testdata/timedelta_cases.txt", *update, eval)
}
