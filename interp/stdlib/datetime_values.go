package stdlib

import (
	"cmp"
	"math/big"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// date is datetime.date: a day by its ordinal (1 is 0001-01-01).
type date struct{ ord int64 }

// clock is datetime.time: a time of day in microseconds, its tzinfo (nil
// when naive) and fold.
type clock struct {
	us   int64
	tz   tzinfo
	fold int
}

// datetime is datetime.datetime: the wall time in microseconds since
// 0001-01-01 00:00, its tzinfo (nil when naive) and fold.
type datetime struct {
	local int64
	tz    tzinfo
	fold  int
}

var (
	_ starlark.HasBinary  = (*date)(nil)
	_ starlark.Comparable = (*date)(nil)
	_ starlark.HasAttrs   = (*date)(nil)
	_ interp.HasStr       = (*date)(nil)
	_ interp.GoValuer     = (*date)(nil)
	_ starlark.HasBinary  = (*datetime)(nil)
	_ starlark.Comparable = (*datetime)(nil)
	_ starlark.HasAttrs   = (*datetime)(nil)
	_ interp.HasStr       = (*datetime)(nil)
	_ interp.GoValuer     = (*datetime)(nil)
	_ starlark.Comparable = (*clock)(nil)
	_ starlark.HasAttrs   = (*clock)(nil)
	_ interp.HasStr       = (*clock)(nil)
	_ interp.GoValuer     = (*clock)(nil)
)

// tzArgValue reads a tzinfo argument: nil for None or absent.
func tzArgValue(v starlark.Value) (tzinfo, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return nil, nil
	case tzinfo:
		return x, nil
	}
	return nil, pyrt.Errorf("TypeError", "tzinfo argument must be None or of a tzinfo subclass, not type '%s'", pyrt.TypeName(v))
}

// ints reads integer arguments, each with its default.
func dtInts(vals []starlark.Value, defs ...int64) ([]int64, error) {
	out := make([]int64, len(defs))
	for i, d := range defs {
		n, err := dtInt(vals[i], d)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func newDate(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("", args, kwargs, []string{"year", "month", "day"}, 3)
	if err != nil {
		return nil, err
	}
	n, err := dtInts(vals, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	return makeDate(n[0], n[1], n[2])
}

func makeDate(y, m, d int64) (*date, error) {
	if err := checkDate(y, m, d); err != nil {
		return nil, err
	}
	return &date{ord: toOrdinal(int(y), int(m), int(d))}, nil
}

var timeParams = []string{"hour", "minute", "second", "microsecond", "tzinfo", "fold"}

func newTime(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 5 {
		return nil, pyrt.Errorf("TypeError", "function takes at most 5 positional arguments (%d given)", len(args))
	}
	vals, err := bindArgsC("", args, kwargs, timeParams, 0)
	if err != nil {
		return nil, err
	}
	return makeClock(vals, 0, 0, 0, 0, 0, nil)
}

// makeClock builds a time from hour, minute, second, microsecond, tzinfo
// and fold arguments, each absent one from the defaults.
func makeClock(vals []starlark.Value, h, mi, s, us, fold int64, tz tzinfo) (*clock, error) {
	n, err := dtInts([]starlark.Value{vals[0], vals[1], vals[2], vals[3], vals[5]}, h, mi, s, us, fold)
	if err != nil {
		return nil, err
	}
	if err := checkTime(n[0], n[1], n[2], n[3], n[4]); err != nil {
		return nil, err
	}
	if vals[4] != nil {
		if tz, err = tzArgValue(vals[4]); err != nil {
			return nil, err
		}
	}
	return &clock{us: ((n[0]*60+n[1])*60+n[2])*usPerSec + n[3], tz: tz, fold: int(n[4])}, nil
}

var dtParams = []string{"year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"}

func newDateTime(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 8 {
		return nil, pyrt.Errorf("TypeError", "function takes at most 8 positional arguments (%d given)", len(args))
	}
	vals, err := bindArgsC("", args, kwargs, dtParams, 3)
	if err != nil {
		return nil, err
	}
	return makeDateTime(vals, nil)
}

// makeDateTime builds a datetime from its nine arguments; absent ones
// come from base (a datetime being replaced) or the defaults.
func makeDateTime(vals []starlark.Value, base *datetime) (*datetime, error) {
	var y, m, d, h, mi, s, us, fold int64
	var tz tzinfo
	if base != nil {
		yy, mm, dd := fromOrdinal(base.ord())
		y, m, d = int64(yy), int64(mm), int64(dd)
		tod := base.tod()
		h, mi, s, us = tod/(3600*usPerSec), tod/(60*usPerSec)%60, tod/usPerSec%60, tod%usPerSec
		fold, tz = int64(base.fold), base.tz
	}
	n, err := dtInts(vals[:3], y, m, d)
	if err != nil {
		return nil, err
	}
	if err := checkDate(n[0], n[1], n[2]); err != nil {
		return nil, err
	}
	c, err := makeClock(vals[3:], h, mi, s, us, fold, tz)
	if err != nil {
		return nil, err
	}
	ord := toOrdinal(int(n[0]), int(n[1]), int(n[2]))
	return &datetime{local: (ord-1)*usPerDay + c.us, tz: c.tz, fold: c.fold}, nil
}

func (d *datetime) ord() int64 { return d.local/usPerDay + 1 }
func (d *datetime) tod() int64 { return d.local % usPerDay }

// offset is d's UTC offset; false when d is naive.
func (d *datetime) offset() (int64, bool) {
	if d.tz == nil {
		return 0, false
	}
	return d.tz.utcoffset(d)
}

// utc is d's instant in the module's microseconds: the wall time less the
// offset, or for a naive d the wall time in the system's zone.
func (d *datetime) utc() int64 {
	if off, ok := d.offset(); ok {
		return d.local - off
	}
	off, _ := resolveLocal(time.Local, d.local, d.fold)
	return d.local - off
}

func checkLocal(local int64) error {
	if local < 0 || local >= maxOrd*usPerDay {
		return errDateRange()
	}
	return nil
}

// Value methods.

// asDateTime is d at midnight, for strftime.
func (d *date) asDateTime() *datetime { return &datetime{local: (d.ord - 1) * usPerDay} }

// asDateTime is c on 1900-01-01, the day CPython formats a time on.
func (c *clock) asDateTime() *datetime {
	return &datetime{local: (toOrdinal(1900, 1, 1)-1)*usPerDay + c.us, tz: c.tz}
}

func (d *date) Type() string          { return "datetime.date" }
func (d *date) Freeze()               {}
func (d *date) Truth() starlark.Bool  { return true }
func (d *date) Hash() (uint32, error) { return uint32(d.ord * 2654435761), nil }
func (d *date) String() string {
	y, m, dd := fromOrdinal(d.ord)
	return "datetime.date(" + itoa(int64(y)) + ", " + itoa(int64(m)) + ", " + itoa(int64(dd)) + ")"
}
func (d *date) Str() string           { return isoDate(d.ord) }
func (d *date) GoValue() (any, error) { return isoDate(d.ord), nil }

func isoDate(ord int64) string {
	y, m, d := fromOrdinal(ord)
	return pad(int64(y), 4) + "-" + pad(int64(m), 2) + "-" + pad(int64(d), 2)
}

func (d *date) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	e := y.(*date)
	return interp.CompareOp(op, cmp.Compare(d.ord, e.ord), d, y)
}

func (d *date) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	x := starlark.Value(d)
	if side == starlark.Right {
		x, y = y, x
	}
	a, aIs := x.(*date)
	switch b := y.(type) {
	case *timedelta:
		if aIs && (op == syntax.PLUS || op == syntax.MINUS) {
			days := b.days
			if op == syntax.MINUS {
				days = -days
			}
			ord := a.ord + days
			if ord < 1 || ord > maxOrd {
				return nil, errDateRange()
			}
			return &date{ord: ord}, nil
		}
	case *date:
		if aIs && op == syntax.MINUS {
			return &timedelta{days: a.ord - b.ord}, nil
		}
	}
	if td, ok := x.(*timedelta); ok && op == syntax.PLUS && !aIs {
		return d.Binary(op, td, starlark.Left)
	}
	return nil, dtUnsupported(op.String(), x, y)
}

var dateMethods = map[string]method[*date]{
	"isoformat": nullary("isoformat", func(d *date) starlark.Value {
		return starlark.String(isoDate(d.ord))
	}),
	"strftime": func(thread *starlark.Thread, d *date, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return strftimeMethod(thread, d.asDateTime(), args, kwargs)
	},
	"__format__": func(thread *starlark.Thread, d *date, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return formatMethod(thread, d, d.asDateTime(), args, kwargs)
	},
	"replace": func(_ *starlark.Thread, d *date, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgsC("replace", args, kwargs, []string{"year", "month", "day"}, 0)
		if err != nil {
			return nil, err
		}
		y, m, dd := fromOrdinal(d.ord)
		n, err := dtInts(vals, int64(y), int64(m), int64(dd))
		if err != nil {
			return nil, err
		}
		return makeDate(n[0], n[1], n[2])
	},
}

func (d *date) Attr(name string) (starlark.Value, error) {
	v, err := d.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("datetime.date", name)
	}
	return v, err
}

func (d *date) attr(name string) (starlark.Value, error) {
	y, m, dd := fromOrdinal(d.ord)
	switch name {
	case "year":
		return starlark.MakeInt(y), nil
	case "month":
		return starlark.MakeInt(m), nil
	case "day":
		return starlark.MakeInt(dd), nil
	}
	if v := dayMethod(name, d.ord, d.asDateTime(), "date"); v != nil {
		return v, nil
	}
	return bindMethod(dateMethods, d, name), nil
}

func (d *date) AttrNames() []string {
	return methodNames(dateMethods, append([]string{"year", "month", "day"}, dayMethodNames...)...)
}

var dayMethodNames = []string{"weekday", "isoweekday", "isocalendar", "toordinal", "ctime", "timetuple"}

// dayMethod is a method that date and datetime share; dt is the value
// (midnight for a date).
func dayMethod(name string, ord int64, dt *datetime, cls string) starlark.Value {
	var fn func() (starlark.Value, error)
	switch name {
	case "weekday":
		fn = func() (starlark.Value, error) { return starlark.MakeInt64(weekday(ord)), nil }
	case "isoweekday":
		fn = func() (starlark.Value, error) { return starlark.MakeInt64(weekday(ord) + 1), nil }
	case "toordinal":
		fn = func() (starlark.Value, error) { return starlark.MakeInt64(ord), nil }
	case "isocalendar":
		fn = func() (starlark.Value, error) {
			y, w, wd := isoCalendar(ord)
			return &isoCalendarDate{year: y, week: w, weekday: wd}, nil
		}
	case "ctime":
		fn = func() (starlark.Value, error) { return starlark.String(strftimeText(dt, "%a %b %e %H:%M:%S %Y")), nil }
	case "timetuple":
		fn = func() (starlark.Value, error) {
			isdst := int64(-1)
			if dt.tz != nil {
				if d, ok := dt.tz.dst(dt); ok {
					isdst = 0
					if d != 0 {
						isdst = 1
					}
				}
			}
			return structTimeOf(dt.local, isdst, nil, nil), nil
		}
	default:
		return nil
	}
	return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		// Its errors name the class that defines it, as CPython's do: date
		// for the methods datetime inherits, "date.weekday() takes no
		// arguments (1 given)".
		owner := cls
		if name != "ctime" && name != "timetuple" {
			owner = "date"
		}
		if err := noArgs(owner+"."+name, args, kwargs); err != nil {
			return nil, err
		}
		return fn()
	})
}

// weekday is Monday 0 … Sunday 6 (0001-01-01 was a Monday).
func weekday(ord int64) int64 { return (ord + 6) % 7 }

// isoCalendar is the ISO year, week and weekday of a day.
func isoCalendar(ord int64) (int64, int64, int64) {
	t := time.Unix((ord-epochOrd)*86400, 0).UTC()
	iy, iw := t.ISOWeek()
	return int64(iy), int64(iw), weekday(ord) + 1
}

// isoCalendarDate is what isocalendar() returns: a tuple with names.
type isoCalendarDate struct{ year, week, weekday int64 }

var (
	_ starlark.Sliceable  = (*isoCalendarDate)(nil)
	_ starlark.Comparable = (*isoCalendarDate)(nil)
	_ interp.GoValuer     = (*isoCalendarDate)(nil)
)

func (c *isoCalendarDate) tuple() starlark.Tuple {
	return starlark.Tuple{starlark.MakeInt64(c.year), starlark.MakeInt64(c.week), starlark.MakeInt64(c.weekday)}
}
func (c *isoCalendarDate) String() string {
	return "datetime.IsoCalendarDate(year=" + itoa(c.year) + ", week=" + itoa(c.week) + ", weekday=" + itoa(c.weekday) + ")"
}
func (c *isoCalendarDate) Type() string                       { return "datetime.IsoCalendarDate" }
func (c *isoCalendarDate) Freeze()                            {}
func (c *isoCalendarDate) Truth() starlark.Bool               { return true }
func (c *isoCalendarDate) Hash() (uint32, error)              { return c.tuple().Hash() }
func (c *isoCalendarDate) Len() int                           { return 3 }
func (c *isoCalendarDate) BuiltinBase() string                { return "tuple" }
func (c *isoCalendarDate) Has(x starlark.Value) (bool, error) { return c.tuple().Has(x) }
func (c *isoCalendarDate) Index(i int) starlark.Value         { return c.tuple()[i] }
func (c *isoCalendarDate) Iterate() starlark.Iterator         { return c.tuple().Iterate() }
func (c *isoCalendarDate) Slice(start, end, step int) starlark.Value {
	return c.tuple().Slice(start, end, step)
}
func (c *isoCalendarDate) GoValue() (any, error) { return []any{c.year, c.week, c.weekday}, nil }
func (c *isoCalendarDate) AttrNames() []string {
	return []string{"count", "index", "week", "weekday", "year"}
}
func (c *isoCalendarDate) Attr(n string) (starlark.Value, error) {
	switch n {
	case "year":
		return starlark.MakeInt64(c.year), nil
	case "week":
		return starlark.MakeInt64(c.week), nil
	case "weekday":
		return starlark.MakeInt64(c.weekday), nil
	}
	return tupleMethod(n, c.tuple()), nil
}
func (c *isoCalendarDate) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, c.tuple(), y.(*isoCalendarDate).tuple(), depth)
}

// datetime's value methods.

func (d *datetime) Type() string         { return "datetime.datetime" }
func (d *datetime) Freeze()              {}
func (d *datetime) Truth() starlark.Bool { return true }
func (d *datetime) Hash() (uint32, error) {
	k := d.local
	// The offset of fold 0, as CPython hashes: both folds of a repeated
	// wall time hash alike (they are == in their own zone).
	f := *d
	f.fold = 0
	if off, ok := f.offset(); ok {
		k -= off
	}
	return uint32(k) ^ uint32(k>>32), nil
}

func (d *datetime) String() string {
	y, m, dd := fromOrdinal(d.ord())
	tod := d.tod()
	parts := []int64{int64(y), int64(m), int64(dd), tod / (3600 * usPerSec), tod / (60 * usPerSec) % 60}
	if s, us := tod/usPerSec%60, tod%usPerSec; us != 0 {
		parts = append(parts, s, us)
	} else if s != 0 {
		parts = append(parts, s)
	}
	return "datetime.datetime(" + joinInts(parts) + tzRepr(d.tz, d.fold) + ")"
}

func joinInts(ns []int64) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = itoa(n)
	}
	return strings.Join(s, ", ")
}

func tzRepr(tz tzinfo, fold int) string {
	s := ""
	if fold == 1 {
		s += ", fold=1"
	}
	if tz != nil {
		s += ", tzinfo=" + tz.String()
	}
	return s
}

func (d *datetime) Str() string           { return d.isoformat(" ", "auto") }
func (d *datetime) GoValue() (any, error) { return d.isoformat("T", "auto"), nil }

// isoformat is d.isoformat(sep, timespec); timespec is checked.
func (d *datetime) isoformat(sep, timespec string) string {
	s := isoDate(d.ord()) + sep + isoTime(d.tod(), timespec)
	if off, ok := d.offset(); ok {
		s += formatOffset(off, ":")
	}
	return s
}

var timespecs = map[string]bool{"auto": true, "hours": true, "minutes": true, "seconds": true, "milliseconds": true, "microseconds": true}

// isoTime writes a time of day to the precision timespec names.
func isoTime(tod int64, timespec string) string {
	h, m, s, us := tod/(3600*usPerSec), tod/(60*usPerSec)%60, tod/usPerSec%60, tod%usPerSec
	if timespec == "auto" {
		timespec = "seconds"
		if us != 0 {
			timespec = "microseconds"
		}
	}
	out := pad(h, 2)
	switch timespec {
	case "minutes":
		out += ":" + pad(m, 2)
	case "seconds":
		out += ":" + pad(m, 2) + ":" + pad(s, 2)
	case "milliseconds":
		out += ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(us/1000, 3)
	case "microseconds":
		out += ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(us, 6)
	}
	return out
}

func (d *datetime) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	e := y.(*datetime)
	a, b, err := comparable(d, e, "compare")
	if err != nil {
		if op == syntax.EQL || op == syntax.NEQ {
			return op == syntax.NEQ, nil
		}
		return false, err
	}
	if a == b && (op == syntax.EQL || op == syntax.NEQ) && d.tz != nil && !sameZone(d.tz, e.tz) &&
		(d.foldMatters() || e.foldMatters()) {
		// PEP 495: a wall time that comes twice (or not at all) is
		// equal to no time of another zone, whichever its fold.
		return op == syntax.NEQ, nil
	}
	return interp.CompareOp(op, cmp.Compare(a, b), d, y)
}

// foldMatters reports whether d's offset would change with its fold
// flipped: a wall time repeated, or skipped, in its zone.
func (d *datetime) foldMatters() bool {
	if d.tz == nil {
		return false
	}
	o1, _ := d.tz.utcoffset(d)
	f := *d
	f.fold = 1 - d.fold
	o2, _ := d.tz.utcoffset(&f)
	return o1 != o2
}

// comparable gives the two microsecond counts that order or subtract d
// and e: their wall times when both are naive or share a tzinfo, else
// their UTC instants.
func comparable(d, e *datetime, verb string) (int64, int64, error) {
	do, dAware := d.offset()
	eo, eAware := e.offset()
	switch {
	case dAware != eAware:
		return 0, 0, pyrt.Errorf("TypeError", "can't %s offset-naive and offset-aware datetimes", verb)
	case !dAware || sameZone(d.tz, e.tz):
		return d.local, e.local, nil
	}
	return d.local - do, e.local - eo, nil
}

// sameZone reports whether two tzinfos are the same object, as CPython
// tests before comparing by UTC (a ZoneInfo is one object per key).
func sameZone(a, b tzinfo) bool {
	if za, ok := a.(*zoneInfo); ok {
		zb, ok := b.(*zoneInfo)
		return ok && za.key == zb.key
	}
	return a == b
}

func (d *datetime) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	x := starlark.Value(d)
	if side == starlark.Right {
		x, y = y, x
	}
	a, aIs := x.(*datetime)
	switch b := y.(type) {
	case *timedelta:
		if aIs && (op == syntax.PLUS || op == syntax.MINUS) {
			return a.shift(b, op == syntax.MINUS)
		}
	case *datetime:
		if aIs && op == syntax.MINUS {
			p, q, err := comparable(a, b, "subtract")
			if err != nil {
				return nil, err
			}
			return deltaOf(p - q), nil
		}
	}
	if td, ok := x.(*timedelta); ok && op == syntax.PLUS && !aIs {
		return d.shift(td, false)
	}
	return nil, dtUnsupported(op.String(), x, y)
}

// shift is d + td (d - td when minus).
func (d *datetime) shift(td *timedelta, minus bool) (starlark.Value, error) {
	t := td.total()
	if minus {
		t.Neg(t)
	}
	t.Add(t, big.NewInt(d.local))
	if !t.IsInt64() || checkLocal(t.Int64()) != nil {
		return nil, errDateRange()
	}
	return &datetime{local: t.Int64(), tz: d.tz}, nil
}

var dtMethods = map[string]method[*datetime]{
	"isoformat": func(_ *starlark.Thread, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		sep, timespec, err := isoArgs(args, kwargs, true)
		if err != nil {
			return nil, err
		}
		return interp.MakeString(d.isoformat(sep, timespec)), nil
	},
	"strftime": strftimeMethod,
	"__format__": func(thread *starlark.Thread, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return formatMethod(thread, d, d, args, kwargs)
	},
	"date": nullary("date", func(d *datetime) starlark.Value {
		return &date{ord: d.ord()}
	}),
	"time": nullary("time", func(d *datetime) starlark.Value {
		return &clock{us: d.tod(), fold: d.fold}
	}),
	"timetz": nullary("timetz", func(d *datetime) starlark.Value {
		return &clock{us: d.tod(), tz: d.tz, fold: d.fold}
	}),
	"replace": func(_ *starlark.Thread, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgsC("replace", args, kwargs, dtParams, 0)
		if err != nil {
			return nil, err
		}
		return makeDateTime(vals, d)
	},
	"utcoffset": nullary("utcoffset", func(d *datetime) starlark.Value {
		if off, ok := d.offset(); ok {
			return deltaOf(off)
		}
		return starlark.None
	}),
	"dst": nullary("dst", func(d *datetime) starlark.Value {
		if d.tz != nil {
			if off, ok := d.tz.dst(d); ok {
				return deltaOf(off)
			}
		}
		return starlark.None
	}),
	"tzname": nullary("tzname", func(d *datetime) starlark.Value {
		if d.tz == nil {
			return starlark.None
		}
		return d.tz.tzname(d)
	}),
	"timestamp": nullary("timestamp", func(d *datetime) starlark.Value {
		return starlark.Float(usToFloatSeconds(d.utc() - epochUS))
	}),
	"astimezone": func(_ *starlark.Thread, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgsC("astimezone", args, kwargs, []string{"tz"}, 0)
		if err != nil {
			return nil, err
		}
		utc := d.utc()
		var tz tzinfo
		switch x := vals[0].(type) {
		case nil, starlark.NoneType:
			tz = systemZone(utc)
		case tzinfo:
			tz = x
		default:
			return nil, pyrt.Errorf("TypeError", "tzinfo argument must be None or of a tzinfo subclass, not type '%s'", pyrt.TypeName(vals[0]))
		}
		local, fold := tz.fromutc(utc)
		if err := checkLocal(local); err != nil {
			return nil, err
		}
		return &datetime{local: local, tz: tz, fold: fold}, nil
	},
	"utctimetuple": nullary("utctimetuple", func(d *datetime) starlark.Value {
		local := d.local
		if off, ok := d.offset(); ok {
			local -= off
		}
		return structTimeOf(local, 0, nil, nil)
	}),
}

func (d *datetime) Attr(name string) (starlark.Value, error) {
	v, err := d.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("datetime.datetime", name)
	}
	return v, err
}

func (d *datetime) attr(name string) (starlark.Value, error) {
	y, m, dd := fromOrdinal(d.ord())
	tod := d.tod()
	switch name {
	case "year":
		return starlark.MakeInt(y), nil
	case "month":
		return starlark.MakeInt(m), nil
	case "day":
		return starlark.MakeInt(dd), nil
	case "hour":
		return starlark.MakeInt64(tod / (3600 * usPerSec)), nil
	case "minute":
		return starlark.MakeInt64(tod / (60 * usPerSec) % 60), nil
	case "second":
		return starlark.MakeInt64(tod / usPerSec % 60), nil
	case "microsecond":
		return starlark.MakeInt64(tod % usPerSec), nil
	case "tzinfo":
		if d.tz == nil {
			return starlark.None, nil
		}
		return d.tz, nil
	case "fold":
		return starlark.MakeInt(d.fold), nil
	}
	if v := dayMethod(name, d.ord(), d, "datetime"); v != nil {
		return v, nil
	}
	return bindMethod(dtMethods, d, name), nil
}

func (d *datetime) AttrNames() []string {
	return methodNames(dtMethods, append([]string{"year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"}, dayMethodNames...)...)
}

// isoArgs reads isoformat's sep (datetime only) and timespec.
func isoArgs(args starlark.Tuple, kwargs []starlark.Tuple, withSep bool) (string, string, error) {
	names := []string{"timespec"}
	if withSep {
		names = []string{"sep", "timespec"}
	}
	vals, err := bindArgsC("isoformat", args, kwargs, names, 0)
	if err != nil {
		return "", "", err
	}
	sep, timespec := "T", "auto"
	if withSep && vals[0] != nil {
		s, ok := interp.AsText(vals[0])
		if !ok {
			return "", "", pyrt.Errorf("TypeError", "isoformat() argument 1 must be a unicode character, not %s", pyrt.TypeName(vals[0]))
		}
		if len([]rune(s)) != 1 {
			return "", "", pyrt.Errorf("TypeError", "isoformat() argument 1 must be a unicode character, not str")
		}
		sep = s
	}
	if v := vals[len(vals)-1]; v != nil {
		s, ok := interp.AsText(v)
		if !ok {
			return "", "", pyrt.Errorf("TypeError", "isoformat() argument %d must be str, not %s", len(vals), pyrt.TypeName(v))
		}
		if !timespecs[s] {
			return "", "", pyrt.Errorf("ValueError", "Unknown timespec value")
		}
		timespec = s
	}
	return sep, timespec, nil
}

// time's value methods.

func (c *clock) Type() string         { return "datetime.time" }
func (c *clock) Freeze()              {}
func (c *clock) Truth() starlark.Bool { return true }
func (c *clock) Hash() (uint32, error) {
	k := c.us
	if off, ok := c.offset(); ok {
		k -= off
	}
	return uint32(k) ^ uint32(k>>32), nil
}

func (c *clock) offset() (int64, bool) {
	if c.tz == nil {
		return 0, false
	}
	return c.tz.utcoffset(nil)
}

func (c *clock) String() string {
	parts := []int64{c.us / (3600 * usPerSec), c.us / (60 * usPerSec) % 60}
	if s, us := c.us/usPerSec%60, c.us%usPerSec; us != 0 {
		parts = append(parts, s, us)
	} else if s != 0 {
		parts = append(parts, s)
	}
	return "datetime.time(" + joinInts(parts) + tzRepr(c.tz, c.fold) + ")"
}

func (c *clock) isoformat(timespec string) string {
	s := isoTime(c.us, timespec)
	if off, ok := c.offset(); ok {
		s += formatOffset(off, ":")
	}
	return s
}

func (c *clock) Str() string           { return c.isoformat("auto") }
func (c *clock) GoValue() (any, error) { return c.isoformat("auto"), nil }

func (c *clock) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	e := y.(*clock)
	co, cAware := c.offset()
	eo, eAware := e.offset()
	if cAware != eAware {
		if op == syntax.EQL || op == syntax.NEQ {
			return op == syntax.NEQ, nil
		}
		return false, pyrt.Errorf("TypeError", "can't compare offset-naive and offset-aware times")
	}
	return interp.CompareOp(op, cmp.Compare(c.us-co, e.us-eo), c, y)
}

var clockMethods = map[string]method[*clock]{
	"isoformat": func(_ *starlark.Thread, c *clock, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		_, timespec, err := isoArgs(args, kwargs, false)
		if err != nil {
			return nil, err
		}
		return starlark.String(c.isoformat(timespec)), nil
	},
	"strftime": func(thread *starlark.Thread, c *clock, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		// CPython formats a time as on 1900-01-01.
		return strftimeMethod(thread, c.asDateTime(), args, kwargs)
	},
	"__format__": func(thread *starlark.Thread, c *clock, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return formatMethod(thread, c, c.asDateTime(), args, kwargs)
	},
	"replace": func(_ *starlark.Thread, c *clock, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		vals, err := bindArgsC("replace", args, kwargs, timeParams, 0)
		if err != nil {
			return nil, err
		}
		return makeClock(vals, c.us/(3600*usPerSec), c.us/(60*usPerSec)%60, c.us/usPerSec%60, c.us%usPerSec, int64(c.fold), c.tz)
	},
	"utcoffset": nullary("utcoffset", func(c *clock) starlark.Value {
		if off, ok := c.offset(); ok {
			return deltaOf(off)
		}
		return starlark.None
	}),
	"tzname": nullary("tzname", func(c *clock) starlark.Value {
		if c.tz == nil {
			return starlark.None
		}
		return c.tz.tzname(nil)
	}),
}

func (c *clock) Attr(name string) (starlark.Value, error) {
	v, err := c.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("datetime.time", name)
	}
	return v, err
}

func (c *clock) attr(name string) (starlark.Value, error) {
	switch name {
	case "hour":
		return starlark.MakeInt64(c.us / (3600 * usPerSec)), nil
	case "minute":
		return starlark.MakeInt64(c.us / (60 * usPerSec) % 60), nil
	case "second":
		return starlark.MakeInt64(c.us / usPerSec % 60), nil
	case "microsecond":
		return starlark.MakeInt64(c.us % usPerSec), nil
	case "tzinfo":
		if c.tz == nil {
			return starlark.None, nil
		}
		return c.tz, nil
	case "fold":
		return starlark.MakeInt(c.fold), nil
	}
	return bindMethod(clockMethods, c, name), nil
}

func (c *clock) AttrNames() []string {
	return methodNames(clockMethods, "hour", "minute", "second", "microsecond", "tzinfo", "fold")
}

// CompareMixed is CPython's error for ordering a date and a datetime,
// which are never equal either (CPython names them in this order both
// ways round).
func (d *date) CompareMixed(y starlark.Value) error {
	if _, ok := y.(*datetime); ok {
		return pyrt.Errorf("TypeError", "can't compare datetime.datetime to datetime.date")
	}
	return nil
}

func (d *datetime) CompareMixed(y starlark.Value) error {
	if _, ok := y.(*date); ok {
		return pyrt.Errorf("TypeError", "can't compare datetime.datetime to datetime.date")
	}
	return nil
}
