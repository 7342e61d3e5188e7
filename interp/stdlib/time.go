package stdlib

import (
	"math"
	"strings"
	"time"

	sltime "go.starlark.net/lib/time"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Time is Python's time module, a superset of go.starlark.net/lib/time
// that the global time was before (SPEC §2.2): every member of that
// module keeps its meaning (time.now(), time.parse_duration,
// time.second, …), and time.time() with keyword arguments is still its
// constructor; with no arguments it is Python's, the seconds since the
// epoch as a float.
func Time() *starlarkstruct.Module {
	start := time.Now() // the reference of monotonic() and perf_counter()
	members := starlark.StringDict{}
	for k, v := range sltime.Module.Members {
		members[k] = v
	}
	starTime := sltime.Module.Members["time"]
	since := func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs("monotonic", args, kwargs); err != nil {
			return nil, err
		}
		return starlark.Float(time.Since(start).Seconds()), nil
	}
	sinceNS := func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := noArgs("monotonic_ns", args, kwargs); err != nil {
			return nil, err
		}
		return starlark.MakeInt64(int64(time.Since(start))), nil
	}
	// As CPython reads them: the zones of January 1 and July 1, the one
	// further west standard time (the southern hemisphere has its summer
	// in January).
	_, janOff := time.Date(time.Now().Year(), 1, 1, 0, 0, 0, 0, time.Local).Zone()
	_, julOff := time.Date(time.Now().Year(), 7, 1, 0, 0, 0, 0, time.Local).Zone()
	stdOff, dstOff := -janOff, -julOff
	if -janOff < -julOff {
		stdOff, dstOff = -julOff, -janOff
	}
	stdName, dstName := localZoneNames()
	for k, v := range map[string]starlark.Value{
		"time": interp.NewBuiltin("time", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 && len(kwargs) == 0 {
				return starlark.Float(float64(time.Now().UnixNano()) / 1e9), nil
			}
			return starlark.Call(thread, starTime, args, kwargs)
		}),
		"time_ns": interp.NewBuiltin("time_ns", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := noArgs("time_ns", args, kwargs); err != nil {
				return nil, err
			}
			return starlark.MakeInt64(time.Now().UnixNano()), nil
		}),
		"monotonic":       interp.NewBuiltin("monotonic", since),
		"perf_counter":    interp.NewBuiltin("perf_counter", since),
		"monotonic_ns":    interp.NewBuiltin("monotonic_ns", sinceNS),
		"perf_counter_ns": interp.NewBuiltin("perf_counter_ns", sinceNS),
		// A run's CPU time is not the process's, which serves other runs
		// too: process_time and thread_time count as perf_counter does,
		// which is what programs that time their work take from them.
		"process_time":    interp.NewBuiltin("process_time", since),
		"process_time_ns": interp.NewBuiltin("process_time_ns", sinceNS),
		"thread_time":     interp.NewBuiltin("thread_time", since),
		"thread_time_ns":  interp.NewBuiltin("thread_time_ns", sinceNS),
		"struct_time":     structClass,
		"sleep":           interp.NewBuiltin("sleep", timeSleep),
		"gmtime":          interp.NewBuiltin("gmtime", structTimeFunc("gmtime", false)),
		"localtime":       interp.NewBuiltin("localtime", structTimeFunc("localtime", true)),
		"mktime":          interp.NewBuiltin("mktime", timeMktime),
		"strftime":        interp.NewBuiltin("strftime", timeStrftime),
		"strptime":        interp.NewBuiltin("strptime", timeStrptime),
		"ctime":           interp.NewBuiltin("ctime", timeCtime),
		"asctime":         interp.NewBuiltin("asctime", timeAsctime),
		"timezone":        starlark.MakeInt(stdOff),
		"altzone":         starlark.MakeInt(dstOff),
		"tzname":          starlark.Tuple{interp.MakeString(stdName), interp.MakeString(dstName)},
		"daylight":        starlark.MakeInt(boolInt(janOff != julOff)),
	} {
		members[k] = v
	}
	m := &starlarkstruct.Module{Name: "time", Members: members}
	m.Freeze()
	return m
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// secondsArg reads a number of seconds (int or float) as a float.
func secondsArg(v starlark.Value) (float64, error) {
	switch x := v.(type) {
	case starlark.Int:
		return float64(x.Float()), nil
	case starlark.Float:
		return float64(x), nil
	case starlark.Bool:
		return float64(boolInt(bool(x))), nil
	}
	return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
}

// timeSleep is time.sleep(secs): it waits, but never past the run's
// deadline or cancellation, which end the run as they would anywhere.
func timeSleep(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "time.sleep() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "time.sleep() takes exactly one argument (%d given)", len(args))
	}
	secs, err := secondsArg(args[0])
	if err != nil {
		return nil, err
	}
	if math.IsNaN(secs) {
		return nil, pyrt.Errorf("ValueError", "Invalid value NaN (not a number)")
	}
	if secs < 0 {
		return nil, pyrt.Errorf("ValueError", "sleep length must be non-negative")
	}
	b := interp.BudgetOf(thread)
	d := time.Duration(math.MaxInt64)
	if secs < float64(math.MaxInt64)/1e9 {
		d = time.Duration(secs * 1e9)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	ctx := b.Context()
	select {
	case <-timer.C:
		return starlark.None, b.Charge(1)
	case <-ctx.Done():
		// A charge of a check's worth makes the budget look at the
		// context and answer with the run's own error (timed out,
		// cancelled).
		if err := b.Charge(1 << 13); err != nil {
			return nil, err
		}
		return nil, ctx.Err()
	}
}

// structTime is time.struct_time: the nine fields of a tuple, and the
// zone's name and offset as attributes.
type structTime struct {
	fields [9]int64
	zone   starlark.Value // tm_zone: str or None
	gmtoff starlark.Value // tm_gmtoff: int or None
}

var structFieldNames = []string{"tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday", "tm_isdst"}

var (
	_ starlark.Sliceable  = (*structTime)(nil)
	_ starlark.HasAttrs   = (*structTime)(nil)
	_ starlark.Comparable = (*structTime)(nil)
	_ interp.GoValuer     = (*structTime)(nil)
)

// structTimeOf is the struct_time of a wall time in the module's
// microseconds.
func structTimeOf(local, isdst int64, zone, gmtoff starlark.Value) *structTime {
	ord, tod := local/usPerDay+1, local%usPerDay
	y, m, d := fromOrdinal(ord)
	if zone == nil {
		zone, gmtoff = starlark.None, starlark.None
	}
	return &structTime{fields: [9]int64{int64(y), int64(m), int64(d), tod / (3600 * usPerSec), tod / (60 * usPerSec) % 60, tod / usPerSec % 60,
		weekday(ord), ord - toOrdinal(y, 1, 1) + 1, isdst}, zone: zone, gmtoff: gmtoff}
}

func (s *structTime) tuple() starlark.Tuple {
	t := make(starlark.Tuple, 9)
	for i, f := range s.fields {
		t[i] = starlark.MakeInt64(f)
	}
	return t
}

func (s *structTime) String() string {
	parts := make([]string, 9)
	for i, f := range s.fields {
		parts[i] = structFieldNames[i] + "=" + itoa(f)
	}
	return "time.struct_time(" + strings.Join(parts, ", ") + ")"
}
func (s *structTime) Type() string                       { return "time.struct_time" }
func (s *structTime) Freeze()                            {}
func (s *structTime) Truth() starlark.Bool               { return true }
func (s *structTime) Hash() (uint32, error)              { return s.tuple().Hash() }
func (s *structTime) Len() int                           { return 9 }
func (s *structTime) BuiltinBase() string                { return "tuple" }
func (s *structTime) Has(x starlark.Value) (bool, error) { return s.tuple().Has(x) }
func (s *structTime) Index(i int) starlark.Value         { return starlark.MakeInt64(s.fields[i]) }
func (s *structTime) Iterate() starlark.Iterator         { return s.tuple().Iterate() }
func (s *structTime) Slice(start, end, step int) starlark.Value {
	return s.tuple().Slice(start, end, step)
}
func (s *structTime) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, s.tuple(), y.(*structTime).tuple(), depth)
}

// GoValue is an object of the named fields, as a namedtuple converts.
func (s *structTime) GoValue() (any, error) {
	d := starlark.NewDict(9)
	for i, f := range s.fields {
		if err := d.SetKey(starlark.String(structFieldNames[i]), starlark.MakeInt64(f)); err != nil {
			return nil, err
		}
	}
	return interp.ToGo(d)
}

func (s *structTime) Attr(name string) (starlark.Value, error) {
	v, err := s.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("time.struct_time", name)
	}
	return v, err
}

func (s *structTime) attr(name string) (starlark.Value, error) {
	switch name {
	case "tm_zone":
		return s.zone, nil
	case "tm_gmtoff":
		return s.gmtoff, nil
	}
	if i := indexOf(structFieldNames, name); i >= 0 {
		return starlark.MakeInt64(s.fields[i]), nil
	}
	return tupleMethod(name, s.tuple()), nil
}

func (s *structTime) AttrNames() []string {
	return append(append([]string(nil), structFieldNames...), "tm_zone", "tm_gmtoff", "count", "index")
}

// newStructTime is time.struct_time(sequence): nine values (eleven with
// tm_zone and tm_gmtoff), each an int.
func newStructTime(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("struct_time", args, kwargs, []string{"sequence"}, 1)
	if err != nil {
		return nil, err
	}
	var items []starlark.Value
	if err := pyrt.ForEach(thread, vals[0], func(x starlark.Value) (bool, error) {
		items = append(items, x)
		return len(items) > 11, interp.BudgetOf(thread).Charge(1)
	}); err != nil {
		return nil, err
	}
	switch {
	case len(items) < 9:
		return nil, pyrt.Errorf("TypeError", "time.struct_time() takes an at least 9-sequence (%d-sequence given)", len(items))
	case len(items) > 11:
		return nil, pyrt.Errorf("TypeError", "time.struct_time() takes an at most 11-sequence (%d-sequence given)", len(items))
	}
	st := &structTime{zone: starlark.None, gmtoff: starlark.None}
	for i := 0; i < 9; i++ {
		n, err := dtInt(items[i], 0)
		if err != nil {
			return nil, err
		}
		st.fields[i] = n
	}
	if len(items) > 9 {
		st.zone = items[9]
	}
	if len(items) > 10 {
		st.gmtoff = items[10]
	}
	return st, nil
}

// structTimeFunc makes gmtime and localtime: the struct_time of a
// timestamp (the present by default), in UTC or the system's zone.
func structTimeFunc(fn string, local bool) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgs(fn, args, kwargs, []string{"secs"}, 0)
		if err != nil {
			return nil, err
		}
		var sec int64
		if vals[0] == nil || vals[0] == starlark.None {
			sec = time.Now().Unix()
		} else {
			f, err := secondsArg(vals[0])
			if err != nil {
				return nil, err
			}
			if math.IsNaN(f) {
				return nil, pyrt.Errorf("ValueError", "Invalid value NaN (not a number)")
			}
			if math.IsInf(f, 0) || math.Abs(f) > 1<<40 {
				return nil, pyrt.Errorf("OverflowError", "timestamp out of range for platform time_t")
			}
			sec = int64(math.Floor(f))
		}
		return structTimeAt(sec, local)
	}
}

func structTimeAt(sec int64, local bool) (starlark.Value, error) {
	loc := time.UTC
	if local {
		loc = time.Local
	}
	t := time.Unix(sec, 0).In(loc)
	name, off := t.Zone()
	if !local {
		name = "GMT" // as glibc's gmtime names it
	}
	if t.Year() < minYear || t.Year() > maxYear {
		return nil, pyrt.Errorf("OverflowError", "timestamp out of range for platform time_t")
	}
	wall := sec*usPerSec + int64(off)*usPerSec + epochUS
	return structTimeOf(wall, int64(boolInt(t.IsDST())), interp.MakeString(name), starlark.MakeInt(off)), nil
}

// timeTuple reads a struct_time or a tuple of nine ints as C's struct tm
// is filled from it: the fields as given (year, month 1-12, day, hour,
// minute, second, weekday Monday 0, day of the year from 1, DST flag),
// and a struct_time's tm_zone and tm_gmtoff (nil for a tuple).
func timeTuple(fn string, v starlark.Value) (f [9]int64, zone, gmtoff starlark.Value, err error) {
	switch x := v.(type) {
	case *structTime:
		f = x.fields
		if x.zone != starlark.None {
			zone = x.zone
		}
		if x.gmtoff != starlark.None {
			gmtoff = x.gmtoff
		}
	case starlark.Tuple:
		if len(x) != 9 {
			return f, nil, nil, pyrt.Errorf("TypeError", "%s(): illegal time tuple argument", fn)
		}
		for i, e := range x {
			n, err := dtInt(e, 0)
			if err != nil {
				return f, nil, nil, err
			}
			f[i] = n
		}
	default:
		return f, nil, nil, pyrt.Errorf("TypeError", "Tuple or struct_time argument required")
	}
	return f, zone, gmtoff, nil
}

// checkTm is CPython's checktm, for strftime and asctime: a month, day
// or day of the year of 0 stands for the first, the rest out of range is
// a ValueError; the weekday is taken modulo 7 as C's % takes it.
func checkTm(f *[9]int64) error {
	if f[1] == 0 {
		f[1] = 1
	}
	if f[2] == 0 {
		f[2] = 1
	}
	if f[7] == 0 {
		f[7] = 1
	}
	sun := (f[6] + 1) % 7 // C's weekday, Sunday 0; negative stays negative
	switch {
	case f[1] < 1 || f[1] > 12:
		return pyrt.Errorf("ValueError", "month out of range")
	case f[2] < 0 || f[2] > 31:
		return pyrt.Errorf("ValueError", "day of month out of range")
	case f[3] < 0 || f[3] > 23:
		return pyrt.Errorf("ValueError", "hour out of range")
	case f[4] < 0 || f[4] > 59:
		return pyrt.Errorf("ValueError", "minute out of range")
	case f[5] < 0 || f[5] > 61:
		return pyrt.Errorf("ValueError", "seconds out of range")
	case sun < 0:
		return pyrt.Errorf("ValueError", "day of week out of range")
	case f[7] < 1 || f[7] > 366:
		return pyrt.Errorf("ValueError", "day of year out of range")
	}
	f[6] = (sun + 6) % 7
	f[8] = max(-1, min(f[8], 1))
	return nil
}

// tupleTm is the struct tm of a checked tuple: its fields as they are,
// %Z its tm_zone or else the system's name for its DST flag, %z its
// tm_gmtoff (none when the flag is negative), %s mktime's answer.
func tupleTm(f [9]int64, zone, gmtoff starlark.Value) tm {
	return tm{
		y: int(f[0]), m: int(f[1]), day: int(f[2]), h: f[3], mi: f[4], s: f[5], wd: f[6], yday: f[7],
		z: func() string {
			if f[8] < 0 {
				return ""
			}
			off := 0
			if gmtoff != nil {
				off, _ = starlark.AsInt32(gmtoff)
			}
			return formatOffset(int64(off)*usPerSec, "")
		},
		zone: func() string {
			if name, ok := interp.AsText(zone); ok && name != "" {
				return name
			}
			if f[8] < 0 {
				return ""
			}
			std, dst := localZoneNames()
			if f[8] > 0 {
				return dst
			}
			return std
		},
		epoch: func() string { return itoa(mktime(f)) },
	}
}

// localZoneNames is time.tzname: the system zone's names for standard
// and daylight-saving time, read as CPython reads them from January 1
// and July 1 (the one further west is standard time).
func localZoneNames() (std, dst string) {
	janName, janOff := time.Date(time.Now().Year(), 1, 1, 0, 0, 0, 0, time.Local).Zone()
	julName, julOff := time.Date(time.Now().Year(), 7, 1, 0, 0, 0, 0, time.Local).Zone()
	if -janOff < -julOff {
		return julName, janName
	}
	return janName, julName
}

// mktime is C's mktime of the fields in the system's zone: a month,
// day, hour, minute or second out of range carries into the next (month
// 13 is January of the next year), the weekday and day of the year are
// not read. A wall time that comes twice, or not at all, takes the
// offset its DST flag asks for, standard time for -1, as glibc gives it;
// a flag the time cannot have (0 in summer) reads the wall time at the
// offset of the nearest time that has it, or an hour off where the zone
// never has it.
func mktime(f [9]int64) int64 {
	wall := time.Date(int(f[0]), time.Month(f[1]), int(f[2]), int(f[3]), int(f[4]), int(f[5]), 0, time.UTC).Unix()
	local := wall*usPerSec + epochUS
	want := f[8] > 0
	var first int64
	for fold := 0; fold <= 1; fold++ {
		off, _, at := resolveLocalAt(time.Local, local, fold)
		sec := wall - off/usPerSec
		if fold == 0 {
			first = sec
		}
		if time.Unix(at, 0).In(time.Local).IsDST() == want {
			return sec
		}
	}
	if f[8] < 0 {
		return first
	}
	for k := int64(1); k <= 17*12; k++ {
		for _, at := range []int64{first - k*30*86400, first + k*30*86400} {
			if u := time.Unix(at, 0).In(time.Local); u.IsDST() == want {
				_, o := u.Zone()
				return wall - int64(o)
			}
		}
	}
	if want {
		return first - 3600
	}
	return first + 3600
}

func timeStrftime(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "strftime() takes no keyword arguments")
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "strftime expected at least 1 argument, got %d", len(args))
	}
	format, err := textArg("strftime", "1", args[0])
	if err != nil {
		return nil, err
	}
	var t starlark.Value
	if len(args) == 2 {
		t = args[1]
	} else {
		if t, err = structTimeAt(time.Now().Unix(), true); err != nil {
			return nil, err
		}
	}
	f, zone, gmtoff, err := timeTuple("strftime", t)
	if err != nil {
		return nil, err
	}
	if err := checkTm(&f); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(format))); err != nil {
		return nil, err
	}
	per := int64(32)
	if name, ok := interp.AsText(zone); ok && int64(len(name)) > per {
		per = int64(len(name))
	}
	if err := b.Alloc(int64(len(format)) + int64(strings.Count(format, "%"))*per); err != nil {
		return nil, err
	}
	return interp.MakeString(strftimeTm(tupleTm(f, zone, gmtoff), format)), nil
}

func timeStrptime(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("strptime", args, kwargs, []string{"string", "format"}, 1)
	if err != nil {
		return nil, err
	}
	// _strptime's own check, which names the argument's class.
	text, ok := interp.AsText(vals[0])
	if !ok {
		return nil, pyrt.Errorf("TypeError", "strptime() argument 0 must be str, not <class '%s'>", pyrt.TypeName(vals[0]))
	}
	format := "%a %b %d %H:%M:%S %Y"
	if vals[1] != nil {
		if format, ok = interp.AsText(vals[1]); !ok {
			return nil, pyrt.Errorf("TypeError", "strptime() argument 1 must be str, not <class '%s'>", pyrt.TypeName(vals[1]))
		}
	}
	p, err := strptime(thread, text, format)
	if err != nil {
		return nil, err
	}
	// The fields as _strptime gives them: the weekday read (right or
	// not), February 29 of no year in 1900, %Z's name and %z's offset.
	st := &structTime{
		fields: [9]int64{p.year, p.month, p.day, p.hour, p.minute, p.second, p.weekday, p.yday, p.isdst},
		zone:   p.zone, gmtoff: starlark.None,
	}
	if p.hasOff {
		st.gmtoff = starlark.MakeInt64(p.gmtoff / usPerSec) // the seconds, toward zero
	}
	return st, nil
}

func timeMktime(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "time.mktime() takes exactly one argument (%d given)", len(args))
	}
	f, _, _, err := timeTuple("mktime", args[0])
	if err != nil {
		return nil, err
	}
	return starlark.Float(float64(mktime(f))), nil
}

func timeCtime(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("ctime", args, kwargs, []string{"secs"}, 0)
	if err != nil {
		return nil, err
	}
	sec := time.Now().Unix()
	if vals[0] != nil && vals[0] != starlark.None {
		f, err := secondsArg(vals[0])
		if err != nil {
			return nil, err
		}
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<40 {
			return nil, pyrt.Errorf("OverflowError", "timestamp out of range for platform time_t")
		}
		sec = int64(math.Floor(f))
	}
	st, err := structTimeAt(sec, true)
	if err != nil {
		return nil, err
	}
	return timeAsctime(nil, nil, starlark.Tuple{st}, nil)
}

func timeAsctime(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgs("asctime", args, kwargs, []string{"t"}, 0)
	if err != nil {
		return nil, err
	}
	t := vals[0]
	if t == nil {
		if t, err = structTimeAt(time.Now().Unix(), true); err != nil {
			return nil, err
		}
	}
	f, _, _, err := timeTuple("asctime", t)
	if err != nil {
		return nil, err
	}
	if err := checkTm(&f); err != nil {
		return nil, err
	}
	return starlark.String(strftimeTm(tupleTm(f, nil, nil), "%a %b %e %H:%M:%S %Y")), nil
}
