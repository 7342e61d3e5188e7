package stdlib

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The datetime module: date, time, datetime, timedelta and timezone with
// CPython's constructors, attributes, methods, arithmetic, comparison,
// repr and str. A datetime is held as microseconds of wall time since
// 0001-01-01 00:00 plus its tzinfo and fold; the calendar is the
// proleptic Gregorian one Go's time package computes. Files:
// datetime_delta.go (timedelta), datetime_values.go (date, time,
// datetime), datetime_ctors.go (now, fromtimestamp, combine, …),
// datetime_tz.go (timezone and the tzinfo contract, which zoneinfo.go's
// ZoneInfo also meets), datetime_format.go (strftime, strptime,
// isoformat, fromisoformat).

const (
	usPerSec  = int64(1e6)
	usPerDay  = 86400 * usPerSec
	minYear   = 1
	maxYear   = 9999
	maxOrd    = 3652059 // date(9999, 12, 31).toordinal()
	epochOrd  = 719163  // date(1970, 1, 1).toordinal()
	valueSize = 64      // what one value of the module is charged
)

// DateTime is the datetime module, with every class's class attributes
// (datetime.now, timezone.utc, …).
func DateTime() *starlarkstruct.Module {
	c := dtClassSet
	m := &starlarkstruct.Module{Name: "datetime", Members: starlark.StringDict{
		"date":      c.date,
		"time":      c.time,
		"datetime":  c.datetime,
		"timedelta": c.timedelta,
		"timezone":  c.timezone,
		"tzinfo":    c.tzinfo,
		"MINYEAR":   starlark.MakeInt(minYear),
		"MAXYEAR":   starlark.MakeInt(maxYear),
		"UTC":       c.timezone.attrs["utc"],
	}}
	m.Freeze()
	return m
}

// dtClasses are the module's classes.
type dtClasses struct {
	date, time, datetime, timedelta, timezone, tzinfo *dtClass
}

// dtClassSet is made once and never changed: it is shared so that
// type(x) of a value is the very class the module names (type(d) is
// datetime.datetime), however many times the module is built.
var dtClassSet = newDTClasses()

func newDTClasses() *dtClasses {
	utc := &timezone{offset: 0, utc: true}
	tdMin := &timedelta{days: -999999999}
	tdMax := &timedelta{days: 999999999, us: usPerDay - 1}
	dateC := &dtClass{name: "date", ctor: newDate, is: func(v starlark.Value) bool { return isA[*date](v) || isA[*datetime](v) }, attrs: starlark.StringDict{
		"today":           interp.NewBuiltin("today", dateToday),
		"fromtimestamp":   interp.NewBuiltin("fromtimestamp", dateFromTimestamp),
		"fromordinal":     interp.NewBuiltin("fromordinal", dateFromOrdinal),
		"fromisoformat":   interp.NewBuiltin("fromisoformat", dateFromISO),
		"fromisocalendar": interp.NewBuiltin("fromisocalendar", dateFromISOCalendar),
		"min":             &date{ord: 1},
		"max":             &date{ord: maxOrd},
		"resolution":      &timedelta{days: 1},
	}, proto: &date{ord: 1}}
	timeC := &dtClass{name: "time", ctor: newTime, is: isA[*clock], attrs: starlark.StringDict{
		"fromisoformat": interp.NewBuiltin("fromisoformat", timeFromISO),
		"min":           &clock{},
		"max":           &clock{us: usPerDay - 1},
		"resolution":    &timedelta{us: 1},
	}, proto: &clock{}}
	dtC := &dtClass{name: "datetime", ctor: newDateTime, is: isA[*datetime], attrs: starlark.StringDict{
		"now":              interp.NewBuiltin("now", dtNow),
		"utcnow":           interp.NewBuiltin("utcnow", dtUTCNow),
		"today":            interp.NewBuiltin("today", dtToday),
		"fromtimestamp":    interp.NewBuiltin("fromtimestamp", dtFromTimestamp),
		"utcfromtimestamp": interp.NewBuiltin("utcfromtimestamp", dtUTCFromTimestamp),
		"fromordinal":      interp.NewBuiltin("fromordinal", dtFromOrdinal),
		"fromisocalendar":  interp.NewBuiltin("fromisocalendar", dtFromISOCalendar),
		"fromisoformat":    interp.NewBuiltin("fromisoformat", dtFromISO),
		"strptime":         interp.NewBuiltin("strptime", dtStrptime),
		"combine":          interp.NewBuiltin("combine", dtCombine),
		"min":              &datetime{local: 0},
		"max":              &datetime{local: maxOrd*usPerDay - 1},
		"resolution":       &timedelta{us: 1},
	}, proto: &datetime{}}
	tdC := &dtClass{name: "timedelta", ctor: newTimedelta, is: isA[*timedelta], attrs: starlark.StringDict{
		"min":        tdMin,
		"max":        tdMax,
		"resolution": &timedelta{us: 1},
	}, proto: &timedelta{}}
	tzC := &dtClass{name: "timezone", ctor: newTimezone, is: isA[*timezone], attrs: starlark.StringDict{
		"utc": utc,
		"min": &timezone{offset: -(usPerDay - 60*usPerSec)},
		"max": &timezone{offset: usPerDay - 60*usPerSec},
	}, proto: utc}
	tzinfoC := &dtClass{name: "tzinfo", is: func(v starlark.Value) bool { _, ok := v.(tzinfo); return ok }, proto: utc}
	dtC.base, tzC.base = dateC, tzinfoC
	return &dtClasses{date: dateC, time: timeC, datetime: dtC, timedelta: tdC, timezone: tzC, tzinfo: tzinfoC}
}

// PyClass is type(x): the module's class.
func (*date) PyClass() starlark.Value      { return dtClassSet.date }
func (*datetime) PyClass() starlark.Value  { return dtClassSet.datetime }
func (*clock) PyClass() starlark.Value     { return dtClassSet.time }
func (*timedelta) PyClass() starlark.Value { return dtClassSet.timedelta }
func (*timezone) PyClass() starlark.Value  { return dtClassSet.timezone }
func (*isoCalendarDate) PyClass() starlark.Value {
	return isoCalendarClass
}

// isoCalendarClass is type(d.isocalendar()), which programs do not call.
var isoCalendarClass = &dtClass{name: "IsoCalendarDate", is: isA[*isoCalendarDate], proto: &isoCalendarDate{}}

// dtClass is one of the module's classes: called, it makes an instance;
// its attributes are the class methods and constants, and the instance
// methods unbound (datetime.date.isoformat(d)).
type dtClass struct {
	module string   // "" for datetime
	base   *dtClass // date for datetime, tzinfo for timezone and ZoneInfo
	name   string
	ctor   interp.BuiltinFunc
	is     func(v starlark.Value) bool
	attrs  starlark.StringDict
	proto  starlark.HasAttrs // an instance, to tell the instance methods
}

var (
	_ starlark.Callable = (*dtClass)(nil)
	_ starlark.HasAttrs = (*dtClass)(nil)
)

func (c *dtClass) Name() string   { return c.name }
func (c *dtClass) String() string { return "<class '" + c.qualName() + "'>" }

func (c *dtClass) qualName() string {
	if c.module == "" {
		return "datetime." + c.name
	}
	return c.module + "." + c.name
}
func (c *dtClass) Type() string          { return "type" }
func (c *dtClass) Freeze()               {}
func (c *dtClass) Truth() starlark.Bool  { return true }
func (c *dtClass) Hash() (uint32, error) { return starlark.String(c.name).Hash() }

// IsSubclassOf is issubclass(c, base).
func (c *dtClass) IsSubclassOf(base starlark.Value) bool {
	for k := c; k != nil; k = k.base {
		if starlark.Value(k) == base {
			return true
		}
	}
	return false
}

// HasInstance is isinstance(v, c).
func (c *dtClass) HasInstance(v starlark.Value) bool { return c.is(v) }

func (c *dtClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.ctor == nil {
		return nil, pyrt.Errorf("TypeError", "cannot create '%s' instances", c.qualName())
	}
	if err := interp.BudgetOf(thread).Alloc(valueSize); err != nil {
		return nil, err
	}
	return c.ctor(thread, nil, args, kwargs)
}

func (c *dtClass) Attr(name string) (starlark.Value, error) {
	switch name {
	case "__name__", "__qualname__":
		return starlark.String(c.name), nil
	case "__module__":
		if c.module != "" {
			return starlark.String(c.module), nil
		}
		return starlark.String("datetime"), nil
	}
	if v, ok := c.attrs[name]; ok {
		return v, nil
	}
	if m, _ := c.proto.Attr(name); m != nil {
		if _, ok := m.(*starlark.Builtin); ok {
			return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				if len(args) == 0 || !c.is(args[0]) {
					return nil, pyrt.Errorf("TypeError", "descriptor '%s' for '%s' objects needs an argument of that type", name, c.qualName())
				}
				fn, err := args[0].(starlark.HasAttrs).Attr(name)
				if err != nil {
					return nil, err
				}
				return starlark.Call(thread, fn, args[1:], kwargs)
			}), nil
		}
	}
	return nil, pyrt.Errorf("AttributeError", "type object '%s' has no attribute '%s'", c.qualName(), name)
}

func (c *dtClass) AttrNames() []string {
	names := []string{"__module__", "__name__", "__qualname__"}
	for k := range c.attrs {
		names = append(names, k)
	}
	return names
}

// jsonless is a value that converts to a result (GoValue) but that
// Python's json.dumps cannot write: it asks default= for it, or fails.
type jsonless interface{ jsonless() }

func (*date) jsonless()         {}
func (*datetime) jsonless()     {}
func (*clock) jsonless()        {}
func (*timedelta) jsonless()    {}
func (*timezone) jsonless()     {}
func (*zoneInfo) jsonless()     {}
func (*uuidValue) jsonless()    {}
func (*chainMap) jsonless()     {}
func (*stringIO) jsonless()     {}
func (*decimalValue) jsonless() {}
func (*fraction) jsonless()     {}

func isA[T starlark.Value](v starlark.Value) bool {
	_, ok := v.(T)
	return ok
}

// method is an instance method of one of the module's values.
type method[T starlark.Value] func(thread *starlark.Thread, recv T, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// bindMethod returns recv's method name from methods, bound; nil when it
// has none.
func bindMethod[T starlark.Value](methods map[string]method[T], recv T, name string) starlark.Value {
	m, ok := methods[name]
	if !ok {
		return nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := interp.BudgetOf(thread).Charge(1); err != nil {
			return nil, err
		}
		return m(thread, recv, args, kwargs)
	})
}

func methodNames[T starlark.Value](methods map[string]method[T], attrs ...string) []string {
	names := append([]string(nil), attrs...)
	for k := range methods {
		names = append(names, k)
	}
	return names
}

// bindArgs matches args and kwargs to the parameters names as CPython's C
// functions do; the first required ones must be given. Missing optional
// ones are nil.
func bindArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, names []string, required int) ([]starlark.Value, error) {
	return bindArgsAs(false, fn, args, kwargs, names, required)
}

// bindArgsC is bindArgs with the words of CPython's C functions
// (PyArg_ParseTupleAndKeywords), as datetime's are: "'foo' is an invalid
// keyword argument for replace()", and "takes at most 1 argument (2
// given)" counting the keywords too.
func bindArgsC(fn string, args starlark.Tuple, kwargs []starlark.Tuple, names []string, required int) ([]starlark.Value, error) {
	return bindArgsAs(true, fn, args, kwargs, names, required)
}

func bindArgsAs(c bool, fn string, args starlark.Tuple, kwargs []starlark.Tuple, names []string, required int) ([]starlark.Value, error) {
	if c {
		if n := len(args) + len(kwargs); n > len(names) {
			who, kw, s := "function", "", "s"
			if fn != "" {
				who = fn + "()"
			}
			if len(args) == 0 {
				kw = "keyword "
			}
			if len(names) == 1 {
				s = ""
			}
			return nil, pyrt.Errorf("TypeError", "%s takes at most %d %sargument%s (%d given)", who, len(names), kw, s, n)
		}
	}
	if len(args) > len(names) {
		if fn == "" {
			return nil, pyrt.Errorf("TypeError", "function takes at most %d arguments (%d given)", len(names), len(args))
		}
		return nil, pyrt.Errorf("TypeError", "%s() takes at most %d arguments (%d given)", fn, len(names), len(args))
	}
	out := make([]starlark.Value, len(names))
	copy(out, args)
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		i := indexOf(names, k)
		if i < 0 {
			if fn == "" {
				return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for this function", k)
			}
			if c {
				return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for %s()", k, fn)
			}
			return nil, pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", fn, k)
		}
		if out[i] != nil {
			if fn == "" {
				fn = "function"
			}
			return nil, pyrt.Errorf("TypeError", "argument for %s() given by name ('%s') and position (%d)", fn, k, i+1)
		}
		out[i] = kv[1]
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			if fn == "" {
				return nil, pyrt.Errorf("TypeError", "function missing required argument '%s' (pos %d)", names[i], i+1)
			}
			return nil, pyrt.Errorf("TypeError", "%s() missing required argument '%s' (pos %d)", fn, names[i], i+1)
		}
	}
	return out, nil
}

func indexOf(names []string, k string) int {
	for i, n := range names {
		if n == k {
			return i
		}
	}
	return -1
}

// noArgs refuses any argument to a method that takes none.
func noArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return pyrt.Errorf("TypeError", "%s() takes no keyword arguments", fn)
	}
	if len(args) > 0 {
		return pyrt.Errorf("TypeError", "%s() takes no arguments (%d given)", fn, len(args))
	}
	return nil
}

// nullary is a method that takes no arguments and cannot fail: f gives
// its value for the receiver. Its errors name it as CPython does,
// "datetime.date() takes no arguments (1 given)".
func nullary[T starlark.Value](name string, f func(recv T) starlark.Value) method[T] {
	return func(_ *starlark.Thread, recv T, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 || len(kwargs) > 0 {
			typ := recv.Type()
			return nil, noArgs(typ[strings.LastIndexByte(typ, '.')+1:]+"."+name, args, kwargs)
		}
		return f(recv), nil
	}
}

// intArg reads an integer argument; def when v is nil.
func dtInt(v starlark.Value, def int64) (int64, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case starlark.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n > math.MaxInt32 || n < math.MinInt32 {
			return 0, pyrt.Errorf("OverflowError", "signed integer is greater than maximum")
		}
		return n, nil
	}
	return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
}

// textArg reads a str argument of fn.
func textArg(fn, what string, v starlark.Value) (string, error) {
	s, ok := interp.AsText(v)
	if !ok {
		return "", pyrt.Errorf("TypeError", "%s() argument %s must be str, not %s", fn, what, pyrt.TypeName(v))
	}
	return s, nil
}

// Calendar arithmetic, by Go's proleptic Gregorian calendar.

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// toOrdinal is date(y, m, d).toordinal(): 1 for 0001-01-01.
func toOrdinal(y, m, d int) int64 {
	return floorDiv(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix(), 86400) + epochOrd
}

// fromOrdinal is the year, month and day of an ordinal.
func fromOrdinal(ord int64) (y, m, d int) {
	t := time.Unix((ord-epochOrd)*86400, 0).UTC()
	return t.Year(), int(t.Month()), t.Day()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// checkDate validates a date's fields with CPython's messages.
func checkDate(y, m, d int64) error {
	if y < minYear || y > maxYear {
		return pyrt.Errorf("ValueError", "year %d is out of range", y)
	}
	if m < 1 || m > 12 {
		return pyrt.Errorf("ValueError", "month must be in 1..12")
	}
	if d < 1 || d > int64(daysInMonth(int(y), int(m))) {
		return pyrt.Errorf("ValueError", "day is out of range for month")
	}
	return nil
}

// checkTime validates a time of day's fields.
func checkTime(h, mi, s, us, fold int64) error {
	switch {
	case h < 0 || h > 23:
		return pyrt.Errorf("ValueError", "hour must be in 0..23")
	case mi < 0 || mi > 59:
		return pyrt.Errorf("ValueError", "minute must be in 0..59")
	case s < 0 || s > 59:
		return pyrt.Errorf("ValueError", "second must be in 0..59")
	case us < 0 || us > 999999:
		return pyrt.Errorf("ValueError", "microsecond must be in 0..999999")
	case fold != 0 && fold != 1:
		return pyrt.Errorf("ValueError", "fold must be either 0 or 1")
	}
	return nil
}

func errDateRange() error { return pyrt.Errorf("OverflowError", "date value out of range") }

// usToFloatSeconds is us / 10**6 correctly rounded, as CPython's
// timedelta division gives it.
func usToFloatSeconds(us int64) float64 {
	if us > -(1<<53) && us < 1<<53 {
		return float64(us) / 1e6
	}
	f, _ := new(big.Rat).SetFrac(big.NewInt(us), big.NewInt(1e6)).Float64()
	return f
}

// roundHalfEven rounds r to the nearest integer, ties to even.
func roundHalfEven(r *big.Rat) *big.Int {
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).DivMod(num, den, new(big.Int)) // floor for den > 0
	twice := new(big.Int).Lsh(m, 1)
	switch c := twice.Cmp(den); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return q
}

// floatSecondsToUS is a timestamp in seconds as microseconds, rounded
// half to even as CPython's fromtimestamp does.
func floatSecondsToUS(v starlark.Value) (int64, error) {
	switch x := v.(type) {
	case starlark.Int:
		n, ok := x.Int64()
		if !ok || n > 1<<40 || n < -(1<<40) {
			return 0, pyrt.Errorf("OverflowError", "timestamp out of range for platform time_t")
		}
		return n * usPerSec, nil
	case starlark.Float:
		f := float64(x)
		if math.IsNaN(f) {
			return 0, pyrt.Errorf("ValueError", "Invalid value NaN (not a number)")
		}
		if math.IsInf(f, 0) || math.Abs(f) > 1<<40 {
			return 0, pyrt.Errorf("OverflowError", "timestamp out of range for platform time_t")
		}
		r := new(big.Rat).SetFloat64(f)
		r.Mul(r, big.NewRat(1e6, 1))
		return roundHalfEven(r).Int64(), nil
	case starlark.Bool:
		if x {
			return usPerSec, nil
		}
		return 0, nil
	}
	return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
}

// pad writes n zero-padded to width digits.
func pad(n int64, width int) string {
	if n < 0 {
		return "-" + pad(-n, width)
	}
	return fmt.Sprintf("%0*d", width, n)
}

// qualName is the name of v's type as CPython's operator errors give it
// (the module's types name themselves so: datetime.date).
func qualName(v starlark.Value) string { return pyrt.TypeName(v) }

func dtUnsupported(op string, x, y starlark.Value) error {
	if op == "+" {
		// "Date: " + d, as CPython words a str, list or tuple's +.
		switch k := pyrt.TypeName(x); k {
		case "str", "list", "tuple":
			return pyrt.Errorf("TypeError", "can only concatenate %s (not \"%s\") to %s", k, qualName(y), k)
		}
	}
	return pyrt.Errorf("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, qualName(x), qualName(y))
}
