package stdlib

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Calendar is the calendar module: the proleptic Gregorian calendar of
// CPython's, with its English names and text and HTML layouts. The first
// day of the week that setfirstweekday sets belongs to the run. A year
// may be any int, as in CPython (weekdays repeat every 400 years); a
// width or a count of lines is charged to the run's memory budget before
// the text is made.
func Calendar() *starlarkstruct.Module {
	members := starlark.StringDict{
		"isleap":              interp.NewBuiltin("isleap", calIsLeap),
		"leapdays":            interp.NewBuiltin("leapdays", calLeapDays),
		"weekday":             interp.NewBuiltin("weekday", calWeekday),
		"monthrange":          interp.NewBuiltin("monthrange", calMonthRange),
		"monthcalendar":       interp.NewBuiltin("monthcalendar", calModuleFn("monthcalendar")),
		"month":               interp.NewBuiltin("month", calModuleFn("month")),
		"prmonth":             interp.NewBuiltin("prmonth", calModuleFn("prmonth")),
		"calendar":            interp.NewBuiltin("calendar", calModuleFn("calendar")),
		"prcal":               interp.NewBuiltin("prcal", calModuleFn("prcal")),
		"week":                interp.NewBuiltin("week", calModuleFn("week")),
		"weekheader":          interp.NewBuiltin("weekheader", calModuleFn("weekheader")),
		"format":              interp.NewBuiltin("format", calFormat(true)),
		"formatstring":        interp.NewBuiltin("formatstring", calFormat(false)),
		"firstweekday":        interp.NewBuiltin("firstweekday", calFirstWeekday),
		"setfirstweekday":     interp.NewBuiltin("setfirstweekday", calSetFirstWeekday),
		"timegm":              interp.NewBuiltin("timegm", calTimegm),
		"month_name":          &calNames{kind: "_localized_month", names: calMonthNames},
		"month_abbr":          &calNames{kind: "_localized_month", names: calMonthAbbr},
		"day_name":            &calNames{kind: "_localized_day", names: calDayNames},
		"day_abbr":            &calNames{kind: "_localized_day", names: calDayAbbr},
		"Calendar":            calClasses["Calendar"],
		"TextCalendar":        calClasses["TextCalendar"],
		"HTMLCalendar":        calClasses["HTMLCalendar"],
		"IllegalMonthError":   illegalMonthError,
		"IllegalWeekdayError": illegalWeekdayError,
		"error":               pyrt.BuiltinClass("ValueError"),
		"EPOCH":               starlark.MakeInt(1970),
		"January":             starlark.MakeInt(1),
		"February":            starlark.MakeInt(2),
		"mdays":               frozenList(intValues(0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)...),
	}
	for i, name := range []string{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"} {
		members[name] = starlark.MakeInt(i)
	}
	return &starlarkstruct.Module{Name: "calendar", Members: members}
}

func intValues(ns ...int) []starlark.Value {
	out := make([]starlark.Value, len(ns))
	for i, n := range ns {
		out[i] = starlark.MakeInt(n)
	}
	return out
}

var (
	illegalMonthError   = pyrt.NewModuleClass("calendar.IllegalMonthError", "ValueError")
	illegalWeekdayError = pyrt.NewModuleClass("calendar.IllegalWeekdayError", "ValueError")

	calMonthNames = []string{"", "January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
	calMonthAbbr = []string{"", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	calDayNames  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	calDayAbbr   = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	calCSS       = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
)

// calNames is month_name, month_abbr, day_name or day_abbr: a sequence
// of the names, indexed from 0 (month_name[0] is ”).
type calNames struct {
	kind  string
	names []string
}

var (
	_ starlark.Indexable = (*calNames)(nil)
	_ starlark.Sliceable = (*calNames)(nil)
)

func (n *calNames) String() string                     { return "<calendar." + n.kind + " object>" }
func (n *calNames) Type() string                       { return n.kind }
func (n *calNames) Freeze()                            {}
func (n *calNames) Truth() starlark.Bool               { return true }
func (n *calNames) Hash() (uint32, error)              { return starlark.String(n.kind).Hash() }
func (n *calNames) Len() int                           { return len(n.names) }
func (n *calNames) Has(x starlark.Value) (bool, error) { return n.tuple().Has(x) }
func (n *calNames) Index(i int) starlark.Value {
	return starlark.String(n.names[i])
}
func (n *calNames) Iterate() starlark.Iterator { return n.tuple().Iterate() }

// Slice is a list, as CPython's.
func (n *calNames) Slice(start, end, step int) starlark.Value {
	t := n.tuple().Slice(start, end, step).(starlark.Tuple)
	return starlark.NewList(append([]starlark.Value(nil), t...))
}

func (n *calNames) tuple() starlark.Tuple {
	t := make(starlark.Tuple, len(n.names))
	for i, s := range n.names {
		t[i] = starlark.String(s)
	}
	return t
}

// ---- Years, months and days ----

// calYear is a year of any size: the int itself, for the text, and a
// year of datetime's range with the same weekdays and leap years (the
// calendar repeats every 400 years), for the arithmetic.
type calYear struct {
	v   starlark.Int
	eff int
}

func yearOf(v starlark.Value) (calYear, error) {
	var n starlark.Int
	switch x := v.(type) {
	case starlark.Int:
		n = x
	case starlark.Bool:
		n = starlark.MakeInt(boolInt(bool(x)))
	default:
		return calYear{}, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
	}
	if y, ok := n.Int64(); ok && y >= minYear && y <= maxYear {
		return calYear{v: n, eff: int(y)}, nil
	}
	m := new(big.Int).Mod(n.BigInt(), big.NewInt(400)) // Euclidean: 0..399
	return calYear{v: n, eff: 2000 + int(m.Int64())}, nil
}

func (y calYear) leap() bool { return isLeap(y.eff) }

// smallInt reads an int argument that must fit an int (a month, a day,
// a width); ok false for an int beyond that.
func smallInt(v starlark.Value) (n int, ok bool, err error) {
	switch x := v.(type) {
	case starlark.Int:
		i, fits := x.Int64()
		if !fits || i > math.MaxInt32 || i < math.MinInt32 {
			return 0, false, nil
		}
		return int(i), true, nil
	case starlark.Bool:
		return boolInt(bool(x)), true, nil
	}
	return 0, false, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
}

// monthArg reads a month: 1 to 12, else IllegalMonthError.
func monthArg(v starlark.Value) (int, error) {
	m, ok, err := smallInt(v)
	if err != nil {
		return 0, err
	}
	if !ok || m < 1 || m > 12 {
		s, _ := interp.Str(nil, v)
		return 0, illegalMonthError.Raise("bad month number "+s+"; must be 1-12", nil)
	}
	return m, nil
}

// monthDays is the days of month m of year y.
func monthDays(y calYear, m int) int { return daysInMonth(y.eff, m) }

// weekdayOf is the weekday (0 is Monday) of y-m-d, a valid date.
func weekdayOf(y calYear, m, d int) int { return int(weekday(toOrdinal(y.eff, m, d))) }

func calIsLeap(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var year starlark.Value
	if err := unpack("isleap", args, kwargs, "year", &year); err != nil {
		return nil, err
	}
	y, err := yearOf(year)
	if err != nil {
		return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for %%: '%s' and 'int'", pyrt.TypeName(year))
	}
	return starlark.Bool(y.leap()), nil
}

func calLeapDays(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var y1, y2 starlark.Value
	if err := unpack("leapdays", args, kwargs, "y1", &y1, "y2", &y2); err != nil {
		return nil, err
	}
	a, err := yearOf(y1)
	if err != nil {
		return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for -=: '%s' and 'int'", pyrt.TypeName(y1))
	}
	b, err := yearOf(y2)
	if err != nil {
		return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for -=: '%s' and 'int'", pyrt.TypeName(y2))
	}
	// Leap years in [y1, y2): floor divisions of y-1, as CPython counts.
	count := func(y starlark.Int) *big.Int {
		x := new(big.Int).Sub(y.BigInt(), big.NewInt(1))
		div := func(d int64) *big.Int {
			q := new(big.Int)
			q.Div(x, big.NewInt(d)) // Euclidean, which is floor for d > 0
			return q
		}
		r := div(4)
		r.Sub(r, div(100))
		return r.Add(r, div(400))
	}
	r := count(b.v)
	return starlark.MakeBigInt(r.Sub(r, count(a.v))), nil
}

// dateArgs reads (year, month, day) as datetime.date does for weekday().
func dateArgs(year, month, day starlark.Value) (calYear, int, int, error) {
	y, err := yearOf(year)
	if err != nil {
		return calYear{}, 0, 0, err
	}
	m, ok, err := smallInt(month)
	if err != nil {
		return calYear{}, 0, 0, err
	}
	if !ok || m < 1 || m > 12 {
		return calYear{}, 0, 0, pyrt.Errorf("ValueError", "month must be in 1..12")
	}
	d, ok, err := smallInt(day)
	if err != nil {
		return calYear{}, 0, 0, err
	}
	if !ok || d < 1 || d > monthDays(y, m) {
		return calYear{}, 0, 0, pyrt.Errorf("ValueError", "day is out of range for month")
	}
	return y, m, d, nil
}

func calWeekday(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var year, month, day starlark.Value
	if err := unpack("weekday", args, kwargs, "year", &year, "month", &month, "day", &day); err != nil {
		return nil, err
	}
	y, m, d, err := dateArgs(year, month, day)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(weekdayOf(y, m, d)), nil
}

func calMonthRange(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var year, month starlark.Value
	if err := unpack("monthrange", args, kwargs, "year", &year, "month", &month); err != nil {
		return nil, err
	}
	m, err := monthArg(month)
	if err != nil {
		return nil, err
	}
	y, err := yearOf(year)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.MakeInt(weekdayOf(y, m, 1)), starlark.MakeInt(monthDays(y, m))}, nil
}

func calTimegm(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var tuple starlark.Value
	if err := unpack("timegm", args, kwargs, "tuple", &tuple); err != nil {
		return nil, err
	}
	// tuple[:6], as CPython takes it: a sequence, never an iterator read
	// to its end.
	seq, ok := tuple.(starlark.Indexable)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(tuple))
	}
	items := make([]starlark.Value, 0, 6)
	for i := 0; i < seq.Len() && i < 6; i++ {
		items = append(items, seq.Index(i))
	}
	if len(items) < 6 {
		return nil, pyrt.Errorf("ValueError", "not enough values to unpack (expected 6, got %d)", len(items))
	}
	year, ok, err := smallInt(items[0])
	if err != nil {
		return nil, err
	}
	if !ok || year < minYear || year > maxYear {
		s, _ := interp.Str(nil, items[0])
		return nil, pyrt.Errorf("ValueError", "year %s is out of range", s)
	}
	month, ok, err := smallInt(items[1])
	if err != nil {
		return nil, err
	}
	if !ok || month < 1 || month > 12 {
		return nil, pyrt.Errorf("ValueError", "month must be in 1..12")
	}
	days := starlark.MakeInt64(toOrdinal(year, month, 1) - toOrdinal(1970, 1, 1) - 1)
	// days*86400 + day*86400 + hour*3600 + minute*60 + second, in the
	// arithmetic of the values given (a float second makes a float).
	total, err := arith(thread, syntax.PLUS, days, items[2])
	if err != nil {
		return nil, err
	}
	steps := []struct {
		mul int
		add starlark.Value
	}{{24, items[3]}, {60, items[4]}, {60, items[5]}}
	for _, s := range steps {
		if total, err = pyrt.Mul(thread, total, starlark.MakeInt(s.mul)); err != nil {
			return nil, err
		}
		if total, err = arith(thread, syntax.PLUS, total, s.add); err != nil {
			return nil, err
		}
	}
	return total, nil
}

// ---- The run's first weekday ----

const calFirstLocal = "onetool.stdlib.calendar.firstweekday"

func runFirstWeekday(thread *starlark.Thread) int {
	if n, ok := interp.RunLocal(thread, calFirstLocal).(int); ok {
		return n
	}
	return 0
}

func weekdayArg(v starlark.Value) (int, error) {
	n, ok, err := smallInt(v)
	if err != nil {
		return 0, err
	}
	if !ok || n < 0 || n > 6 {
		s, _ := interp.Str(nil, v)
		return 0, illegalWeekdayError.Raise("bad weekday number "+s+"; must be 0 (Monday) to 6 (Sunday)", nil)
	}
	return n, nil
}

func calFirstWeekday(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := unpack("getfirstweekday", args, kwargs); err != nil {
		return nil, err
	}
	return starlark.MakeInt(runFirstWeekday(thread)), nil
}

func calSetFirstWeekday(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var first starlark.Value
	if err := unpack("setfirstweekday", args, kwargs, "firstweekday", &first); err != nil {
		return nil, err
	}
	n, err := weekdayArg(first)
	if err != nil {
		return nil, err
	}
	interp.SetRunLocal(thread, calFirstLocal, n)
	return starlark.None, nil
}

// ---- Layouts ----

// calDay is a day of a month's weeks: 0 for a day of another month.
type calDay struct{ day, wd int }

// monthWeeks is the month's days in weeks starting at first.
func monthWeeks(y calYear, m, first int) [][]calDay {
	day1, n := weekdayOf(y, m, 1), monthDays(y, m)
	before := ((day1-first)%7 + 7) % 7
	var days []calDay
	for i := 0; i < before; i++ {
		days = append(days, calDay{})
	}
	for d := 1; d <= n; d++ {
		days = append(days, calDay{day: d})
	}
	for len(days)%7 != 0 {
		days = append(days, calDay{})
	}
	var weeks [][]calDay
	for i := 0; i < len(days); i += 7 {
		week := days[i : i+7]
		for j := range week {
			week[j].wd = (first + j) % 7
		}
		weeks = append(weeks, week)
	}
	return weeks
}

// center is Python's str.center with spaces.
func center(s string, width int) string {
	n := len([]rune(s))
	if width <= n {
		return s
	}
	marg := width - n
	left := marg/2 + (marg & width & 1)
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", marg-left)
}

// textCal lays out months as TextCalendar does, for weeks starting at
// first.
type textCal struct{ first int }

func (c textCal) formatDay(day, width int) string {
	if day == 0 {
		return center("", width)
	}
	return center(fmt.Sprintf("%2d", day), width)
}

func (c textCal) formatWeek(week []calDay, width int) string {
	parts := make([]string, len(week))
	for i, d := range week {
		parts[i] = c.formatDay(d.day, width)
	}
	return strings.Join(parts, " ")
}

func (c textCal) formatWeekday(day, width int) string {
	names := calDayAbbr
	if width >= 9 {
		names = calDayNames
	}
	name := names[day]
	if r := []rune(name); len(r) > width {
		name = string(r[:max(width, 0)])
	}
	return center(name, width)
}

func (c textCal) formatWeekHeader(width int) string {
	parts := make([]string, 7)
	for i := range parts {
		parts[i] = c.formatWeekday((c.first+i)%7, width)
	}
	return strings.Join(parts, " ")
}

func (c textCal) formatMonthName(y calYear, m, width int, withYear bool) string {
	s := calMonthNames[m]
	if withYear {
		s += " " + y.v.String()
	}
	return center(s, width)
}

func (c textCal) formatMonth(y calYear, m, w, l int) string {
	w, l = max(2, w), max(1, l)
	var sb strings.Builder
	sb.WriteString(strings.TrimRight(c.formatMonthName(y, m, 7*(w+1)-1, true), " "))
	sb.WriteString(strings.Repeat("\n", l))
	sb.WriteString(strings.TrimRight(c.formatWeekHeader(w), " "))
	sb.WriteString(strings.Repeat("\n", l))
	for _, week := range monthWeeks(y, m, c.first) {
		sb.WriteString(strings.TrimRight(c.formatWeek(week, w), " "))
		sb.WriteString(strings.Repeat("\n", l))
	}
	return sb.String()
}

// formatString is calendar.formatstring: the columns centred and joined.
func formatString(cols []string, colwidth, spacing int) string {
	parts := make([]string, len(cols))
	for i, s := range cols {
		parts[i] = center(s, colwidth)
	}
	return strings.Join(parts, strings.Repeat(" ", max(spacing, 0)))
}

func (c textCal) formatYear(y calYear, w, l, sp, m int) string {
	w, l, sp = max(2, w), max(1, l), max(2, sp)
	colwidth := (w+1)*7 - 1
	nl := strings.Repeat("\n", l)
	var sb strings.Builder
	sb.WriteString(strings.TrimRight(center(y.v.String(), colwidth*m+sp*(m-1)), " "))
	sb.WriteString(nl)
	header := c.formatWeekHeader(w)
	for first := 1; first <= 12; first += m {
		last := min(first+m-1, 12)
		sb.WriteString(nl)
		var names, headers []string
		var cals [][][]calDay
		height := 0
		for k := first; k <= last; k++ {
			names = append(names, c.formatMonthName(y, k, colwidth, false))
			headers = append(headers, header)
			weeks := monthWeeks(y, k, c.first)
			cals = append(cals, weeks)
			height = max(height, len(weeks))
		}
		sb.WriteString(strings.TrimRight(formatString(names, colwidth, sp), " "))
		sb.WriteString(nl)
		sb.WriteString(strings.TrimRight(formatString(headers, colwidth, sp), " "))
		sb.WriteString(nl)
		for j := 0; j < height; j++ {
			weeks := make([]string, len(cals))
			for i, cal := range cals {
				if j < len(cal) {
					weeks[i] = c.formatWeek(cal[j], w)
				}
			}
			sb.WriteString(strings.TrimRight(formatString(weeks, colwidth, sp), " "))
			sb.WriteString(nl)
		}
	}
	return sb.String()
}

func htmlMonth(c textCal, y calYear, m int, withYear bool) string {
	var sb strings.Builder
	sb.WriteString(`<table border="0" cellpadding="0" cellspacing="0" class="month">` + "\n")
	name := calMonthNames[m]
	if withYear {
		name += " " + y.v.String()
	}
	sb.WriteString(`<tr><th colspan="7" class="month">` + name + "</th></tr>\n")
	sb.WriteString("<tr>")
	for i := 0; i < 7; i++ {
		d := (c.first + i) % 7
		sb.WriteString(`<th class="` + calCSS[d] + `">` + calDayAbbr[d] + "</th>")
	}
	sb.WriteString("</tr>\n")
	for _, week := range monthWeeks(y, m, c.first) {
		sb.WriteString("<tr>")
		for _, d := range week {
			if d.day == 0 {
				sb.WriteString(`<td class="noday">&nbsp;</td>`)
			} else {
				fmt.Fprintf(&sb, `<td class="%s">%d</td>`, calCSS[d.wd], d.day)
			}
		}
		sb.WriteString("</tr>\n")
	}
	sb.WriteString("</table>\n")
	return sb.String()
}

func htmlYear(c textCal, y calYear, width int) string {
	width = max(width, 1)
	var sb strings.Builder
	sb.WriteString(`<table border="0" cellpadding="0" cellspacing="0" class="year">` + "\n")
	fmt.Fprintf(&sb, `<tr><th colspan="%d" class="year">%s</th></tr>`, width, y.v.String())
	for first := 1; first <= 12; first += width {
		sb.WriteString("<tr>")
		for m := first; m <= min(first+width-1, 12); m++ {
			sb.WriteString("<td>")
			sb.WriteString(htmlMonth(c, y, m, false))
			sb.WriteString("</td>")
		}
		sb.WriteString("</tr>")
	}
	sb.WriteString("</table>")
	return sb.String()
}

// calSize bounds the bytes of a layout of rows lines of cols columns,
// each line ending in nl newlines, charged to the run's memory budget
// before it is made.
func calSize(thread *starlark.Thread, rows, cols, nl, extra int64) error {
	sat := func(a, b int64) int64 {
		if a != 0 && b > math.MaxInt64/a {
			return math.MaxInt64
		}
		return a * b
	}
	line := cols + nl
	if line < 0 {
		line = math.MaxInt64
	}
	size := sat(rows, line)
	if size > math.MaxInt64-extra {
		size = math.MaxInt64
	} else {
		size += extra
	}
	if err := interp.BudgetOf(thread).Alloc(size); err != nil {
		return err
	}
	if size > 1<<30 {
		return pyrt.Errorf("MemoryError", "")
	}
	return nil
}

// widthArg reads w, l, c or m: an int, taken as the bound of the range
// that fits (a huge width fails on the memory budget).
func widthArg(v starlark.Value) (int64, error) {
	switch x := v.(type) {
	case starlark.Int:
		if n, ok := x.Int64(); ok {
			return n, nil
		}
		if x.Sign() < 0 {
			return math.MinInt32, nil
		}
		return math.MaxInt64, nil
	case starlark.Bool:
		return int64(boolInt(bool(x))), nil
	}
	return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
}

// monthText is TextCalendar.formatmonth(theyear, themonth, w, l), its
// size charged first.
func monthText(thread *starlark.Thread, c textCal, year, month, wV, lV starlark.Value) (string, error) {
	y, err := yearOf(year)
	if err != nil {
		return "", err
	}
	w, err := widthArg(wV)
	if err != nil {
		return "", err
	}
	l, err := widthArg(lV)
	if err != nil {
		return "", err
	}
	w, l = max(2, w), max(1, l)
	if err := calSize(thread, 8, 7*(w+1), l, int64(len(y.v.String()))); err != nil {
		return "", err
	}
	m, ok, err := smallInt(month)
	if err != nil {
		return "", err
	}
	if !ok || m < 0 || m > 12 {
		return "", pyrt.Errorf("IndexError", "list index out of range")
	}
	if m == 0 {
		_, err := monthArg(month)
		return "", err
	}
	return c.formatMonth(y, m, int(w), int(l)), nil
}

// yearText is TextCalendar.formatyear(theyear, w, l, c, m).
func yearText(thread *starlark.Thread, c textCal, year, wV, lV, cV, mV starlark.Value) (string, error) {
	y, err := yearOf(year)
	if err != nil {
		return "", err
	}
	var vals [4]int64
	for i, v := range []starlark.Value{wV, lV, cV, mV} {
		if vals[i], err = widthArg(v); err != nil {
			return "", err
		}
	}
	w, l, sp, m := max(2, vals[0]), max(1, vals[1]), max(2, vals[2]), vals[3]
	if m < 1 {
		if m == 0 {
			return "", pyrt.Errorf("ValueError", "range() arg 3 must not be zero")
		}
		return "", nil
	}
	perRow := min(m, 12)
	rows := (12+perRow-1)/perRow*9 + 2
	colwidth := (w+1)*7 - 1
	if err := calSize(thread, rows, colwidth*perRow+sp*(perRow-1)+sp, l, int64(len(y.v.String()))+(w+1)*7*m); err != nil {
		return "", err
	}
	return c.formatYear(y, int(w), int(l), int(sp), int(m)), nil
}

// calModuleFn makes the module's functions that lay out by the run's
// first weekday.
func calModuleFn(name string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := interp.BudgetOf(thread).Charge(calCost(name)); err != nil {
			return nil, err
		}
		return calMethod(thread, textCal{first: runFirstWeekday(thread)}, name, args, kwargs)
	}
}

// calMethod is a function of the module or a method of a calendar
// object, by CPython's name.
func calMethod(thread *starlark.Thread, c textCal, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	two := starlark.MakeInt(2)
	zero := starlark.MakeInt(0)
	switch name {
	case "month", "prmonth", "formatmonth":
		var year, month starlark.Value
		w, l := starlark.Value(zero), starlark.Value(zero)
		if err := unpack(name, args, kwargs, "theyear", &year, "themonth", &month, "w?", &w, "l?", &l); err != nil {
			return nil, err
		}
		s, err := monthText(thread, c, year, month, w, l)
		if err != nil {
			return nil, err
		}
		if name == "prmonth" {
			return starlark.None, interp.Print(thread, s)
		}
		return interp.MakeString(s), nil
	case "calendar", "prcal", "formatyear", "pryear":
		var year starlark.Value
		w, l, cc, m := starlark.Value(two), starlark.Value(starlark.MakeInt(1)), starlark.Value(starlark.MakeInt(6)), starlark.Value(starlark.MakeInt(3))
		if name == "prcal" || name == "pryear" {
			w, l = zero, zero
		}
		if err := unpack(name, args, kwargs, "theyear", &year, "w?", &w, "l?", &l, "c?", &cc, "m?", &m); err != nil {
			return nil, err
		}
		s, err := yearText(thread, c, year, w, l, cc, m)
		if err != nil {
			return nil, err
		}
		if name == "prcal" || name == "pryear" {
			return starlark.None, interp.Print(thread, s)
		}
		return interp.MakeString(s), nil
	case "weekheader", "formatweekheader":
		var width starlark.Value
		if err := unpack(name, args, kwargs, "width", &width); err != nil {
			return nil, err
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if err := calSize(thread, 1, 7*(max(n, 0)+1), 0, 0); err != nil {
			return nil, err
		}
		return interp.MakeString(c.formatWeekHeader(int(n))), nil
	case "week", "formatweek", "prweek":
		var theweek, width starlark.Value
		if err := unpack(name, args, kwargs, "theweek", &theweek, "width", &width); err != nil {
			return nil, err
		}
		week, err := weekArg(thread, theweek)
		if err != nil {
			return nil, err
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if err := calSize(thread, 1, int64(len(week))*(max(n, 2)+1), 0, 0); err != nil {
			return nil, err
		}
		s := c.formatWeek(week, int(n))
		if name == "prweek" {
			return starlark.None, interp.Print(thread, s+"\n")
		}
		return interp.MakeString(s), nil
	case "monthcalendar", "monthdayscalendar", "monthdays2calendar", "monthdatescalendar":
		var year, month starlark.Value
		if err := unpack(name, args, kwargs, "year", &year, "month", &month); err != nil {
			return nil, err
		}
		weeks, y, m, err := weeksOf(year, month, c.first)
		if err != nil {
			return nil, err
		}
		return weeksValue(weeks, y, m, name)
	}
	return nil, pyrt.Errorf("AttributeError", "module 'calendar' has no attribute '%s'", name)
}

func weeksOf(year, month starlark.Value, first int) ([][]calDay, calYear, int, error) {
	m, err := monthArg(month)
	if err != nil {
		return nil, calYear{}, 0, err
	}
	y, err := yearOf(year)
	if err != nil {
		return nil, calYear{}, 0, err
	}
	return monthWeeks(y, m, first), y, m, nil
}

// weeksValue is the weeks of a month as monthdayscalendar (days),
// monthdays2calendar ((day, weekday) pairs) or monthdatescalendar
// (dates, neighbouring months' included) gives them.
func weeksValue(weeks [][]calDay, y calYear, m int, name string) (starlark.Value, error) {
	out := make([]starlark.Value, len(weeks))
	for i, week := range weeks {
		row := make([]starlark.Value, len(week))
		for j, d := range week {
			switch name {
			case "monthdays2calendar":
				row[j] = starlark.Tuple{starlark.MakeInt(d.day), starlark.MakeInt(d.wd)}
			case "monthdatescalendar":
				v, err := dayDate(y, m, week, j)
				if err != nil {
					return nil, err
				}
				row[j] = v
			default:
				row[j] = starlark.MakeInt(d.day)
			}
		}
		out[i] = starlark.NewList(row)
	}
	return starlark.NewList(out), nil
}

// dayTriple is the (year, month, day) of position j of a week of month
// m, a day of the month before or after for the blanks.
func dayTriple(y calYear, m int, week []calDay, j int) (starlark.Value, int, int) {
	if d := week[j].day; d != 0 {
		return y.v, m, d
	}
	firstDay := 0
	for firstDay < len(week) && week[firstDay].day == 0 {
		firstDay++
	}
	if firstDay > j { // a blank before the 1st counts back
		if m == 1 {
			return yearPlus(y, -1), 12, 31 - (firstDay - j) + 1
		}
		return y.v, m - 1, daysInMonth(y.eff, m-1) - (firstDay - j) + 1
	}
	lastDay := len(week) - 1
	for lastDay >= 0 && week[lastDay].day == 0 {
		lastDay--
	}
	if m == 12 {
		return yearPlus(y, 1), 1, j - lastDay
	}
	return y.v, m + 1, j - lastDay
}

func yearPlus(y calYear, d int64) starlark.Value {
	return starlark.MakeBigInt(new(big.Int).Add(y.v.BigInt(), big.NewInt(d)))
}

func dayDate(y calYear, m int, week []calDay, j int) (starlark.Value, error) {
	yv, mm, dd := dayTriple(y, m, week, j)
	yy, ok := yv.(starlark.Int).Int64()
	if !ok || yy < minYear || yy > maxYear {
		s, _ := interp.Str(nil, yv)
		return nil, pyrt.Errorf("ValueError", "year %s is out of range", s)
	}
	return &date{ord: toOrdinal(int(yy), mm, dd)}, nil
}

// weekArg reads a week as monthdays2calendar gives it: (day, weekday)
// pairs.
func weekArg(thread *starlark.Thread, v starlark.Value) ([]calDay, error) {
	items, err := pyrt.Collect(thread, v)
	if err != nil {
		return nil, err
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(items))); err != nil {
		return nil, err
	}
	week := make([]calDay, len(items))
	for i, it := range items {
		pair, ok := it.(starlark.Indexable)
		if !ok || pair.Len() != 2 {
			return nil, pyrt.Errorf("TypeError", "cannot unpack non-iterable %s object", pyrt.TypeName(it))
		}
		d, ok, err := smallInt(pair.Index(0))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C int")
		}
		week[i] = calDay{day: d}
	}
	return week, nil
}

// calFormat is format(cols, colwidth=20, spacing=6), which prints, and
// formatstring, which returns.
func calFormat(prints bool) interp.BuiltinFunc {
	name := "formatstring"
	if prints {
		name = "format"
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var cols starlark.Value
		var colwidth, spacing starlark.Value = starlark.MakeInt(20), starlark.MakeInt(6)
		if err := unpack(name, args, kwargs, "cols", &cols, "colwidth?", &colwidth, "spacing?", &spacing); err != nil {
			return nil, err
		}
		items, err := pyrt.Collect(thread, cols)
		if err != nil {
			return nil, err
		}
		cw, err := widthArg(colwidth)
		if err != nil {
			return nil, err
		}
		sp, err := widthArg(spacing)
		if err != nil {
			return nil, err
		}
		texts := make([]string, len(items))
		total := int64(0)
		for i, it := range items {
			s, ok := interp.AsText(it)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "'%s' object has no attribute 'center'", pyrt.TypeName(it))
			}
			texts[i] = s
			total += int64(len(s))
		}
		if err := calSize(thread, int64(len(items)), max(cw, 0)+max(sp, 0), 0, total); err != nil {
			return nil, err
		}
		s := formatString(texts, int(cw), int(sp))
		if prints {
			return starlark.None, interp.Print(thread, s+"\n")
		}
		return interp.MakeString(s), nil
	}
}

// ---- Calendar objects ----

// calObject is a Calendar, TextCalendar or HTMLCalendar.
type calObject struct {
	kind  string
	first int
}

var (
	_ starlark.HasAttrs    = (*calObject)(nil)
	_ starlark.HasSetField = (*calObject)(nil)
)

func (c *calObject) String() string          { return "<calendar." + c.kind + " object>" }
func (c *calObject) Type() string            { return c.kind }
func (c *calObject) Freeze()                 {}
func (c *calObject) Truth() starlark.Bool    { return true }
func (c *calObject) Hash() (uint32, error)   { return starlark.String(c.kind).Hash() }
func (c *calObject) PyClass() starlark.Value { return calClasses[c.kind] }

func (c *calObject) SetField(name string, v starlark.Value) error {
	if name != "firstweekday" {
		return pyrt.Errorf("AttributeError", "'%s' object has no attribute '%s' that can be set here", c.kind, name)
	}
	n, err := weekdayArg(v)
	if err != nil {
		return err
	}
	c.first = n
	return nil
}

var calObjectMethods = map[string][]string{
	"Calendar": {"getfirstweekday", "setfirstweekday", "iterweekdays", "itermonthdates", "itermonthdays",
		"itermonthdays2", "itermonthdays3", "itermonthdays4", "monthdatescalendar", "monthdayscalendar",
		"monthdays2calendar", "yeardatescalendar", "yeardayscalendar", "yeardays2calendar"},
	"TextCalendar": {"formatday", "formatweek", "formatweekday", "formatweekheader", "formatmonthname",
		"formatmonth", "prmonth", "formatyear", "pryear", "prweek"},
	"HTMLCalendar": {"formatmonth", "formatyear"},
}

func (c *calObject) AttrNames() []string {
	names := append([]string{"firstweekday"}, calObjectMethods["Calendar"]...)
	if c.kind != "Calendar" {
		names = append(names, calObjectMethods[c.kind]...)
	}
	return names
}

func (c *calObject) has(name string) bool {
	return indexOf(calObjectMethods["Calendar"], name) >= 0 || c.kind != "Calendar" && indexOf(calObjectMethods[c.kind], name) >= 0
}

func (c *calObject) Attr(name string) (starlark.Value, error) {
	if name == "firstweekday" {
		return starlark.MakeInt(c.first), nil
	}
	if !c.has(name) {
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return c.call(thread, name, args, kwargs)
	}), nil
}

func (c *calObject) call(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := interp.BudgetOf(thread).Charge(calCost(name)); err != nil {
		return nil, err
	}
	tc := textCal{first: c.first}
	switch name {
	case "getfirstweekday":
		if err := unpack(name, args, kwargs); err != nil {
			return nil, err
		}
		return starlark.MakeInt(c.first), nil
	case "setfirstweekday":
		var v starlark.Value
		if err := unpack(name, args, kwargs, "firstweekday", &v); err != nil {
			return nil, err
		}
		return starlark.None, c.SetField("firstweekday", v)
	case "iterweekdays":
		if err := unpack(name, args, kwargs); err != nil {
			return nil, err
		}
		vals := make([]starlark.Value, 7)
		for i := range vals {
			vals[i] = starlark.MakeInt((c.first + i) % 7)
		}
		return listIterator(thread, name, vals), nil
	case "itermonthdates", "itermonthdays", "itermonthdays2", "itermonthdays3", "itermonthdays4":
		var year, month starlark.Value
		if err := unpack(name, args, kwargs, "year", &year, "month", &month); err != nil {
			return nil, err
		}
		weeks, y, m, err := weeksOf(year, month, c.first)
		if err != nil {
			return nil, err
		}
		var vals []starlark.Value
		for _, week := range weeks {
			for j, d := range week {
				var v starlark.Value
				switch name {
				case "itermonthdays":
					v = starlark.MakeInt(d.day)
				case "itermonthdays2":
					v = starlark.Tuple{starlark.MakeInt(d.day), starlark.MakeInt(d.wd)}
				case "itermonthdates":
					if v, err = dayDate(y, m, week, j); err != nil {
						return nil, err
					}
				default:
					yy, mm, dd := dayTriple(y, m, week, j)
					t := starlark.Tuple{yy, starlark.MakeInt(mm), starlark.MakeInt(dd)}
					if name == "itermonthdays4" {
						t = append(t, starlark.MakeInt(d.wd))
					}
					v = t
				}
				vals = append(vals, v)
			}
		}
		return listIterator(thread, name, vals), nil
	case "monthdatescalendar", "monthdayscalendar", "monthdays2calendar":
		return calMethod(thread, tc, name, args, kwargs)
	case "yeardatescalendar", "yeardayscalendar", "yeardays2calendar":
		var year starlark.Value
		var width starlark.Value = starlark.MakeInt(3)
		if err := unpack(name, args, kwargs, "year", &year, "width?", &width); err != nil {
			return nil, err
		}
		y, err := yearOf(year)
		if err != nil {
			return nil, err
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, pyrt.Errorf("ValueError", "range() arg 3 must not be zero")
		}
		if n < 0 {
			return starlark.NewList(nil), nil
		}
		per := int(min(n, 12))
		monthName := map[string]string{"yeardatescalendar": "monthdatescalendar", "yeardayscalendar": "monthdayscalendar", "yeardays2calendar": "monthdays2calendar"}[name]
		var rows []starlark.Value
		for first := 1; first <= 12; first += per {
			var row []starlark.Value
			for m := first; m <= min(first+per-1, 12); m++ {
				v, err := weeksValue(monthWeeks(y, m, c.first), y, m, monthName)
				if err != nil {
					return nil, err
				}
				row = append(row, v)
			}
			rows = append(rows, starlark.NewList(row))
		}
		return starlark.NewList(rows), nil
	}
	if c.kind == "HTMLCalendar" {
		switch name {
		case "formatmonth":
			var year, month starlark.Value
			var withYear starlark.Value = starlark.True
			if err := unpack(name, args, kwargs, "theyear", &year, "themonth", &month, "withyear?", &withYear); err != nil {
				return nil, err
			}
			_, y, m, err := weeksOf(year, month, c.first)
			if err != nil {
				return nil, err
			}
			return interp.MakeString(htmlMonth(tc, y, m, bool(withYear.Truth()))), nil
		case "formatyear":
			var year starlark.Value
			var width starlark.Value = starlark.MakeInt(3)
			if err := unpack(name, args, kwargs, "theyear", &year, "width?", &width); err != nil {
				return nil, err
			}
			y, err := yearOf(year)
			if err != nil {
				return nil, err
			}
			n, err := widthArg(width)
			if err != nil {
				return nil, err
			}
			return interp.MakeString(htmlYear(tc, y, int(max(min(n, 12), 1)))), nil
		}
	}
	switch name {
	case "formatday":
		var day, wd, width starlark.Value
		if err := unpack(name, args, kwargs, "day", &day, "weekday", &wd, "width", &width); err != nil {
			return nil, err
		}
		d, _, err := smallInt(day)
		if err != nil {
			return nil, err
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if err := calSize(thread, 1, n, 0, 0); err != nil {
			return nil, err
		}
		return interp.MakeString(tc.formatDay(d, int(n))), nil
	case "formatweekday":
		var day, width starlark.Value
		if err := unpack(name, args, kwargs, "day", &day, "width", &width); err != nil {
			return nil, err
		}
		d, ok, err := smallInt(day)
		if err != nil {
			return nil, err
		}
		if !ok || d < -7 || d > 6 {
			return nil, pyrt.Errorf("IndexError", "list index out of range")
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if err := calSize(thread, 1, n, 0, 0); err != nil {
			return nil, err
		}
		return interp.MakeString(tc.formatWeekday((d+7)%7, int(n))), nil
	case "formatmonthname":
		var year, month, width starlark.Value
		var withYear starlark.Value = starlark.True
		if err := unpack(name, args, kwargs, "theyear", &year, "themonth", &month, "width", &width, "withyear?", &withYear); err != nil {
			return nil, err
		}
		y, err := yearOf(year)
		if err != nil {
			return nil, err
		}
		m, ok, err := smallInt(month)
		if err != nil {
			return nil, err
		}
		if !ok || m < 0 || m > 12 {
			return nil, pyrt.Errorf("IndexError", "list index out of range")
		}
		n, err := widthArg(width)
		if err != nil {
			return nil, err
		}
		if err := calSize(thread, 1, n, 0, int64(len(y.v.String()))+16); err != nil {
			return nil, err
		}
		return interp.MakeString(tc.formatMonthName(y, m, int(n), bool(withYear.Truth()))), nil
	}
	return calMethod(thread, tc, name, args, kwargs)
}

// listIterator is an iterator over vals, as CPython's generators give
// them.
func listIterator(thread *starlark.Thread, name string, vals []starlark.Value) starlark.Value {
	i := 0
	return pyrt.NewIterator(thread, name, func(*starlark.Thread) (starlark.Value, bool, error) {
		if i >= len(vals) {
			return nil, false, nil
		}
		i++
		return vals[i-1], true, nil
	})
}

func newCalObject(kind string) interp.BuiltinFunc {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var first starlark.Value = starlark.MakeInt(0)
		if err := unpack(kind+".__init__", args, kwargs, "firstweekday?", &first); err != nil {
			return nil, err
		}
		c := &calObject{kind: kind}
		return c, c.SetField("firstweekday", first)
	}
}

var calClasses = map[string]*pyClass{
	"Calendar":     {module: "calendar", name: "Calendar", is: isOf[*calObject], ctor: newCalObject("Calendar")},
	"TextCalendar": {module: "calendar", name: "TextCalendar", is: func(v starlark.Value) bool { c, ok := v.(*calObject); return ok && c.kind == "TextCalendar" }, ctor: newCalObject("TextCalendar")},
	"HTMLCalendar": {module: "calendar", name: "HTMLCalendar", is: func(v starlark.Value) bool { c, ok := v.(*calObject); return ok && c.kind == "HTMLCalendar" }, ctor: newCalObject("HTMLCalendar")},
}

// calCost is the work charged for a call of name before it is made: the
// values it makes (up to 42 days a month, 12 months a year), so that a
// loop of calls ends with the run's budget. Texts are charged on their
// size as well (calSize).
func calCost(name string) uint64 {
	switch {
	case strings.HasPrefix(name, "year"):
		return 12 * 42
	case strings.HasPrefix(name, "itermonth"), strings.HasPrefix(name, "month"), strings.HasPrefix(name, "format"), strings.HasPrefix(name, "pr"):
		return 42
	}
	return 1
}
