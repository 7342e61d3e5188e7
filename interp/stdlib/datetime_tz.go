package stdlib

import (
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// tzinfo is what an aware value's tzinfo answers: datetime.timezone's
// fixed offset, or a ZoneInfo's offsets from Go's time-zone data.
type tzinfo interface {
	starlark.Value
	// utcoffset is the offset of dt's wall time in microseconds; false
	// for None. dt is nil for a time object (and for tz.utcoffset(None)).
	utcoffset(dt *datetime) (int64, bool)
	tzname(dt *datetime) starlark.Value
	dst(dt *datetime) (int64, bool)
	// fromutc is the wall time and fold of a UTC instant.
	fromutc(utc int64) (local int64, fold int)
}

// epochUS is 1970-01-01 00:00 in the module's microseconds.
const epochUS = (epochOrd - 1) * usPerDay

// timezone is datetime.timezone: a fixed offset and perhaps a name.
type timezone struct {
	offset int64 // microseconds
	name   string
	named  bool
	utc    bool // timezone.utc itself
}

var (
	_ tzinfo              = (*timezone)(nil)
	_ starlark.HasAttrs   = (*timezone)(nil)
	_ starlark.Comparable = (*timezone)(nil)
)

func newTimezone(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("timezone", args, kwargs, []string{"offset", "name"}, 1)
	if err != nil {
		return nil, err
	}
	td, ok := vals[0].(*timedelta)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "timezone() argument 1 must be datetime.timedelta, not %s", pyrt.TypeName(vals[0]))
	}
	return makeTimezone(td, vals[1])
}

func makeTimezone(td *timedelta, name starlark.Value) (*timezone, error) {
	us, ok := td.total64()
	if !ok || us <= -usPerDay || us >= usPerDay {
		return nil, pyrt.Errorf("ValueError", "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not %s.", td.String())
	}
	tz := &timezone{offset: us}
	if name != nil {
		s, ok := interp.AsText(name)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "timezone() argument 2 must be str, not %s", pyrt.TypeName(name))
		}
		tz.name, tz.named = s, true
	} else if us == 0 {
		tz.utc = true
	}
	return tz, nil
}

func (tz *timezone) Type() string         { return "datetime.timezone" }
func (tz *timezone) Freeze()              {}
func (tz *timezone) Truth() starlark.Bool { return true }
func (tz *timezone) Hash() (uint32, error) {
	return uint32(tz.offset) ^ uint32(tz.offset>>32), nil
}

// CompareSameType: timezones are equal when their offsets are (names
// aside), as in CPython; they do not order.
func (tz *timezone) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	eq := tz.offset == y.(*timezone).offset
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'datetime.timezone' and 'datetime.timezone'", op)
}

func (tz *timezone) String() string {
	if tz.utc {
		return "datetime.timezone.utc"
	}
	s := "datetime.timezone(" + deltaOf(tz.offset).String()
	if tz.named {
		s += ", " + pyRepr(tz.name)
	}
	return s + ")"
}

// Str is str(tz), its name.
func (tz *timezone) Str() string {
	if tz.named {
		return tz.name
	}
	return offsetName(tz.offset)
}

// offsetName is the name of an unnamed fixed offset: UTC, UTC+02:00.
func offsetName(us int64) string {
	if us == 0 {
		return "UTC"
	}
	return "UTC" + formatOffset(us, ":")
}

// formatOffset writes an offset as +HH:MM[:SS[.ffffff]] (sep between
// the parts), as isoformat and %z do.
func formatOffset(us int64, sep string) string {
	sign := "+"
	if us < 0 {
		sign, us = "-", -us
	}
	s := us / usPerSec
	out := sign + pad(s/3600, 2) + sep + pad(s/60%60, 2)
	if s%60 != 0 || us%usPerSec != 0 {
		out += sep + pad(s%60, 2)
	}
	if us%usPerSec != 0 {
		out += "." + pad(us%usPerSec, 6)
	}
	return out
}

func (tz *timezone) utcoffset(*datetime) (int64, bool) { return tz.offset, true }
func (tz *timezone) dst(*datetime) (int64, bool)       { return 0, false }
func (tz *timezone) tzname(*datetime) starlark.Value   { return starlark.String(tz.Str()) }
func (tz *timezone) fromutc(utc int64) (int64, int)    { return utc + tz.offset, 0 }

var tzMethods = map[string]method[*timezone]{
	"utcoffset": func(_ *starlark.Thread, tz *timezone, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if _, err := tzArg("timezone.utcoffset", args, kwargs); err != nil {
			return nil, err
		}
		return deltaOf(tz.offset), nil
	},
	"tzname": func(_ *starlark.Thread, tz *timezone, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if _, err := tzArg("timezone.tzname", args, kwargs); err != nil {
			return nil, err
		}
		return tz.tzname(nil), nil
	},
	"dst": func(_ *starlark.Thread, tz *timezone, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if _, err := tzArg("timezone.dst", args, kwargs); err != nil {
			return nil, err
		}
		return starlark.None, nil
	},
}

// tzArg reads the one argument of a tzinfo's methods: a datetime or None.
func tzArg(fn string, args starlark.Tuple, kwargs []starlark.Tuple) (*datetime, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "%s() takes no keyword arguments", fn)
	}
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "%s() takes exactly one argument (%d given)", fn, len(args))
	}
	switch x := args[0].(type) {
	case *datetime:
		return x, nil
	case starlark.NoneType:
		return nil, nil
	}
	return nil, pyrt.Errorf("TypeError", "%s(dt) argument must be a datetime instance or None, not %s", fn[strings.LastIndexByte(fn, '.')+1:], pyrt.TypeName(args[0]))
}

func (tz *timezone) Attr(name string) (starlark.Value, error) {
	v, err := tz.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("datetime.timezone", name)
	}
	return v, err
}

func (tz *timezone) attr(name string) (starlark.Value, error) {
	return bindMethod(tzMethods, tz, name), nil
}

func (tz *timezone) AttrNames() []string { return methodNames(tzMethods) }

// Wall time in a *time.Location (a ZoneInfo's, or the system's for naive
// values), resolved as PEP 495 says: an ambiguous wall time (the hour
// repeated when clocks go back) has the earlier offset for fold=0 and the
// later for fold=1; a wall time that does not exist (skipped when clocks
// go forward) has the offset before the transition for fold=0 and the
// one after it for fold=1.

// zoneAt is the offset in seconds and the zone's name at a Unix second.
func zoneAt(loc *time.Location, sec int64) (int64, string) {
	name, off := time.Unix(sec, 0).In(loc).Zone()
	return int64(off), name
}

// resolveLocal is the offset in microseconds of the wall time local
// (the module's microseconds) in loc, and the zone's name then.
func resolveLocal(loc *time.Location, local int64, fold int) (int64, string) {
	off, name, _ := resolveLocalAt(loc, local, fold)
	return off, name
}

// resolveLocalAt is resolveLocal, and a Unix second at which loc has that
// offset: in a skipped wall time the offset chosen is one the wall time
// never had, so its name (and whether it is DST) are those of the
// instant on that side of the transition, as CPython's zoneinfo takes
// offset, name and DST from one entry of the database.
func resolveLocalAt(loc *time.Location, local int64, fold int) (int64, string, int64) {
	s0 := floorDiv(local-epochUS, usPerSec)
	before, _ := zoneAt(loc, s0-86400)
	after, _ := zoneAt(loc, s0+86400)
	off, other := before, after
	if before != after {
		fits := func(o int64) bool { got, _ := zoneAt(loc, s0-o); return got == o }
		bOK, aOK := fits(before), fits(after)
		switch {
		case bOK && aOK, !bOK && !aOK: // repeated, or skipped
			if fold == 1 {
				off, other = after, before
			}
		case aOK:
			off, other = after, before
		}
	}
	at := s0 - off
	got, name := zoneAt(loc, at)
	if got != off {
		if o, n := zoneAt(loc, s0-other); o == off {
			at, name = s0-other, n
		}
	}
	return off * usPerSec, name, at
}

// fromUTCIn is the wall time and fold in loc of a UTC instant.
func fromUTCIn(loc *time.Location, utc int64) (int64, int) {
	off, _ := zoneAt(loc, floorDiv(utc-epochUS, usPerSec))
	local := utc + off*usPerSec
	if o, _ := resolveLocal(loc, local, 0); o != off*usPerSec {
		return local, 1 // the second time this wall time comes round
	}
	return local, 0
}

// dstIn is the daylight-saving part of the offset at a wall time, as
// CPython's zoneinfo infers it: the zone's database gives each period an
// offset and a DST flag, not its standard offset, so each kind of DST
// period (EDT, BST, NZST of the war years) takes the difference from the
// standard period it first follows (or precedes), once for all its
// occurrences (dstOffsets). From the database's last transition on
// (last, when rule), the zone's rule gives it: the DST offset less the
// standard one.
func dstIn(loc *time.Location, local int64, fold int, last int64, rule bool) int64 {
	off, _, sec := resolveLocalAt(loc, local, fold)
	t := time.Unix(sec, 0).In(loc)
	if !t.IsDST() {
		return 0
	}
	name, o := t.Zone()
	if !rule || sec < last {
		if d, ok := dstOffsets(loc, last, rule)[zonePeriod{name, o, true}]; ok {
			return d * usPerSec
		}
	}
	// The difference from the nearest standard time.
	for k := int64(1); k <= 12; k++ {
		for _, s := range []int64{sec - k*30*86400, sec + k*30*86400} {
			if u := time.Unix(s, 0).In(loc); !u.IsDST() {
				_, std := u.Zone()
				return off - int64(std)*usPerSec
			}
		}
	}
	return 0
}

// zonePeriod is a kind of period of a time zone: its name, offset in
// seconds and DST flag, as the database's local time types are.
type zonePeriod struct {
	name   string
	offset int
	dst    bool
}

var (
	dstMu    sync.Mutex
	dstCache = map[*time.Location]map[zonePeriod]int64{}
)

// dstOffsets is the DST offset in seconds of each kind of DST period of
// loc, found as CPython's zoneinfo finds them (_utcoff_to_dstoff): over
// the transitions in order, a DST period that follows a standard one is
// its offset less that one's, else less that of the standard period
// after it; a kind never settled so is an hour.
func dstOffsets(loc *time.Location, last int64, rule bool) map[zonePeriod]int64 {
	dstMu.Lock()
	defer dstMu.Unlock()
	if m, ok := dstCache[loc]; ok {
		return m
	}
	// The periods after each transition of the database's file, or, not
	// knowing where it ends, up to a few years past the present.
	var seq []zonePeriod
	limit := time.Now().AddDate(5, 0, 0)
	if rule {
		limit = time.Unix(last, 0)
	}
	t := time.Unix(-1<<40, 0).In(loc)
	for len(seq) < 5000 {
		_, end := t.ZoneBounds()
		if end.IsZero() || end.After(limit) {
			break
		}
		t = end
		name, off := t.Zone()
		seq = append(seq, zonePeriod{name, off, t.IsDST()})
	}
	m := map[zonePeriod]int64{}
	for i := 1; i < len(seq); i++ {
		p := seq[i]
		if !p.dst || m[p] != 0 {
			continue
		}
		var d int64
		if prev := seq[i-1]; !prev.dst {
			d = int64(p.offset - prev.offset)
		}
		if d == 0 && i+1 < len(seq) {
			next := seq[i+1]
			if next.dst {
				continue // settled by a later occurrence, if any
			}
			d = int64(p.offset - next.offset)
		}
		if d != 0 {
			m[p] = d
		}
	}
	for _, p := range seq {
		if p.dst && m[p] == 0 {
			m[p] = 3600
		}
	}
	dstCache[loc] = m
	return m
}

// systemZone is the fixed timezone of the system's zone at a UTC
// instant: what astimezone() with no argument gives.
func systemZone(utc int64) *timezone {
	off, name := zoneAt(time.Local, floorDiv(utc-epochUS, usPerSec))
	return &timezone{offset: off * usPerSec, name: name, named: true}
}
