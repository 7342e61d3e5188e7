package stdlib

import (
	"time"

	"github.com/onetool-dev/onetool/interp/pyrt"
	"go.starlark.net/starlark"
)

// The class methods that make values: now, today, fromtimestamp, …

// nowUTC is the present instant in the module's microseconds.
func nowUTC() int64 { return time.Now().UnixMicro() + epochUS }

// localOf is the system's wall time of a UTC instant.
func localOf(utc int64) int64 {
	local, _ := fromUTCIn(time.Local, utc)
	return local
}

func dateToday(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("date.today", args, kwargs); err != nil {
		return nil, err
	}
	return &date{ord: localOf(nowUTC())/usPerDay + 1}, nil
}

func dtToday(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("datetime.today", args, kwargs); err != nil {
		return nil, err
	}
	return &datetime{local: localOf(nowUTC())}, nil
}

func dtNow(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("now", args, kwargs, []string{"tz"}, 0)
	if err != nil {
		return nil, err
	}
	return atInstant(nowUTC(), vals[0])
}

func dtUTCNow(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := noArgs("datetime.utcnow", args, kwargs); err != nil {
		return nil, err
	}
	return &datetime{local: nowUTC()}, nil
}

// atInstant is the datetime of a UTC instant: naive in the system's zone
// when tz is None, else aware in tz.
func atInstant(utc int64, tzv starlark.Value) (starlark.Value, error) {
	if tzv != nil && tzv != starlark.None {
		if _, ok := tzv.(tzinfo); !ok {
			return nil, pyrt.Errorf("TypeError", "tzinfo argument must be None or of a tzinfo subclass, not type '%s'", pyrt.TypeName(tzv))
		}
	}
	tz, _ := tzArgValue(tzv)
	var local int64
	fold := 0
	if tz == nil {
		local, fold = fromUTCIn(time.Local, utc)
	} else {
		local, fold = tz.fromutc(utc)
	}
	if local < 0 || local >= maxOrd*usPerDay {
		y := time.UnixMicro(utc - epochUS).UTC().Year()
		return nil, pyrt.Errorf("ValueError", "year %d is out of range", y)
	}
	return &datetime{local: local, tz: tz, fold: fold}, nil
}

func dtFromTimestamp(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("fromtimestamp", args, kwargs, []string{"timestamp", "tz"}, 1)
	if err != nil {
		return nil, err
	}
	us, err := floatSecondsToUS(vals[0])
	if err != nil {
		return nil, err
	}
	return atInstant(us+epochUS, vals[1])
}

func dtUTCFromTimestamp(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("utcfromtimestamp", args, kwargs, []string{"timestamp"}, 1)
	if err != nil {
		return nil, err
	}
	us, err := floatSecondsToUS(vals[0])
	if err != nil {
		return nil, err
	}
	v, err := atInstant(us+epochUS, &timezone{utc: true})
	if err != nil {
		return nil, err
	}
	v.(*datetime).tz = nil
	return v, nil
}

func dateFromTimestamp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("fromtimestamp", args, kwargs, []string{"timestamp"}, 1)
	if err != nil {
		return nil, err
	}
	v, err := dtFromTimestamp(thread, b, starlark.Tuple{vals[0]}, nil)
	if err != nil {
		return nil, err
	}
	return &date{ord: v.(*datetime).ord()}, nil
}

func ordinalArg(fn string, args starlark.Tuple, kwargs []starlark.Tuple) (int64, error) {
	vals, err := bindArgsC(fn, args, kwargs, []string{"ordinal"}, 1)
	if err != nil {
		return 0, err
	}
	n, err := dtInt(vals[0], 0)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, pyrt.Errorf("ValueError", "ordinal must be >= 1")
	}
	if n > maxOrd {
		return 0, pyrt.Errorf("ValueError", "year %d is out of range", maxYear+1)
	}
	return n, nil
}

func dateFromOrdinal(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, err := ordinalArg("fromordinal", args, kwargs)
	if err != nil {
		return nil, err
	}
	return &date{ord: n}, nil
}

func dtFromOrdinal(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, err := ordinalArg("fromordinal", args, kwargs)
	if err != nil {
		return nil, err
	}
	return &datetime{local: (n - 1) * usPerDay}, nil
}

func dateFromISOCalendar(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("fromisocalendar", args, kwargs, []string{"year", "week", "day"}, 3)
	if err != nil {
		return nil, err
	}
	n, err := dtInts(vals, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	ord, err := isoToOrdinal(n[0], n[1], n[2])
	if err != nil {
		return nil, err
	}
	return &date{ord: ord}, nil
}

// dtFromISOCalendar is datetime.fromisocalendar(year, week, day): that
// day at midnight.
func dtFromISOCalendar(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	d, err := dateFromISOCalendar(thread, b, args, kwargs)
	if err != nil {
		return nil, err
	}
	return &datetime{local: (d.(*date).ord - 1) * usPerDay}, nil
}

func dtCombine(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("combine", args, kwargs, []string{"date", "time", "tzinfo"}, 2)
	if err != nil {
		return nil, err
	}
	var ord int64
	switch d := vals[0].(type) {
	case *date:
		ord = d.ord
	case *datetime:
		ord = d.ord()
	default:
		return nil, pyrt.Errorf("TypeError", "combine() argument 1 must be datetime.date, not %s", pyrt.TypeName(vals[0]))
	}
	c, ok := vals[1].(*clock)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "combine() argument 2 must be datetime.time, not %s", pyrt.TypeName(vals[1]))
	}
	tz := c.tz
	if vals[2] != nil {
		if tz, err = tzArgValue(vals[2]); err != nil {
			return nil, err
		}
	}
	return &datetime{local: (ord-1)*usPerDay + c.us, tz: tz, fold: c.fold}, nil
}
