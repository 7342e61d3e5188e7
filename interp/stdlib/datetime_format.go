package stdlib

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// strftime, strptime, isoformat and fromisoformat, in the C locale that
// CPython's strftime on Linux uses.

var (
	dayNames   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// strftimeMethod is x.strftime(format) for a datetime (a date or time
// made into one).
func strftimeMethod(thread *starlark.Thread, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("strftime", args, kwargs, []string{"format"}, 1)
	if err != nil {
		return nil, err
	}
	f, err := textArg("strftime", "1", vals[0])
	if err != nil {
		return nil, err
	}
	return strftimeCharged(thread, d, f)
}

// formatMethod is format(x, spec): strftime(spec), or str(x) for an
// empty spec.
func formatMethod(thread *starlark.Thread, self starlark.Value, d *datetime, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, pyrt.Errorf("TypeError", "__format__() takes exactly one argument (%d given)", len(args))
	}
	f, err := textArg("__format__", "1", args[0])
	if err != nil {
		return nil, err
	}
	if f == "" {
		return starlark.String(self.(interp.HasStr).Str()), nil
	}
	return strftimeCharged(thread, d, f)
}

// strftimeCharged formats under the run's budget: the work and the text
// are charged before the text is made (a directive writes at most a few
// dozen bytes).
func strftimeCharged(thread *starlark.Thread, d *datetime, f string) (starlark.Value, error) {
	s, err := strftimeBudget(interp.BudgetOf(thread), d, f)
	if err != nil {
		return nil, err
	}
	return interp.MakeString(s), nil
}

func strftimeBudget(b *interp.Budget, d *datetime, f string) (string, error) {
	if err := b.Charge(uint64(len(f))); err != nil {
		return "", err
	}
	if err := b.Alloc(strftimeSize(d, f)); err != nil {
		return "", err
	}
	return strftimeText(d, f), nil
}

// strftimeSize bounds the length of strftime's text: a directive writes
// at most 32 bytes (%c writes 24), or the zone's name for %Z, which a
// timezone(offset, name) makes as long as a program likes.
func strftimeSize(d *datetime, f string) int64 {
	per := int64(32)
	if d.tz != nil && strings.Contains(f, "Z") {
		if name, ok := interp.AsText(d.tz.tzname(d)); ok && int64(len(name)) > per {
			per = int64(len(name))
		}
	}
	return int64(len(f)) + int64(strings.Count(f, "%"))*per
}

// PyFormat is format(x, spec) and f"{x:spec}": strftime(spec), or str(x)
// for an empty spec.
func (d *date) PyFormat(b *interp.Budget, spec string) (string, error) {
	if spec == "" {
		return d.Str(), nil
	}
	return strftimeBudget(b, d.asDateTime(), spec)
}

func (d *datetime) PyFormat(b *interp.Budget, spec string) (string, error) {
	if spec == "" {
		return d.Str(), nil
	}
	return strftimeBudget(b, d, spec)
}

func (c *clock) PyFormat(b *interp.Budget, spec string) (string, error) {
	if spec == "" {
		return c.Str(), nil
	}
	return strftimeBudget(b, c.asDateTime(), spec)
}

// strftimeText formats d by f as C's strftime in the C locale, with
// Python's %f, %z and %Z. An unknown directive is written as it is.
func strftimeText(d *datetime, f string) string { return strftimeTm(tmOf(d), f) }

// tm is what strftime reads, as C's struct tm holds it: a datetime's
// fields, or time.strftime's tuple as it is given (February 31, a
// weekday that is not the date's, a 61st second).
type tm struct {
	y, m, day      int   // m 1 … 12
	h, mi, s, us   int64 //
	wd, yday       int64 // Monday 0; January 1 is 1
	z, zone, epoch func() string
}

// tmOf is d's tm: its %z, %Z and %s come from its time zone.
func tmOf(d *datetime) tm {
	ord, tod := d.ord(), d.tod()
	y, m, day := fromOrdinal(ord)
	return tm{
		y: y, m: m, day: day,
		h: tod / (3600 * usPerSec), mi: tod / (60 * usPerSec) % 60, s: tod / usPerSec % 60, us: tod % usPerSec,
		wd: weekday(ord), yday: ord - toOrdinal(y, 1, 1) + 1,
		z: func() string {
			if off, ok := d.offset(); ok {
				return formatOffset(off, "")
			}
			return ""
		},
		zone: func() string {
			if d.tz != nil {
				if s, ok := interp.AsText(d.tz.tzname(d)); ok {
					return s
				}
			}
			return ""
		},
		epoch: func() string { return itoa(floorDiv(d.utc()-epochUS, usPerSec)) },
	}
}

// isoWeek is the ISO year and week of t, from its year, day of the year
// and weekday alone, as glibc finds them for %G, %g and %V.
func (t tm) isoWeek() (int64, int64) {
	// days is the day of the year (from 0) counted from the Monday of
	// week 1; negative in the last week of the year before.
	days := func(yday0 int64) int64 {
		sun := (t.wd + 1) % 7 // the C library's weekday: Sunday 0
		return yday0 - (yday0-sun+4+378)%7 + 3
	}
	y := int64(t.y)
	d := days(t.yday - 1)
	if d < 0 {
		y--
		d = days(t.yday - 1 + 365 + int64(boolInt(isLeap(int(y)))))
	} else if n := days(t.yday - 1 - 365 - int64(boolInt(isLeap(int(y))))); n >= 0 {
		y++
		d = n
	}
	return y, d/7 + 1
}

func strftimeTm(t tm, f string) string {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 >= len(f) {
			sb.WriteByte(c)
			continue
		}
		// glibc's flags: - (no padding), _ (pad with spaces), 0, ^
		// (upper case), # (swap case; upper case here).
		start := i
		flag := byte(0)
		if j := i + 1; j+1 < len(f) && strings.IndexByte("-_0^#", f[j]) >= 0 {
			flag, i = f[j], j
		}
		// A field width, and the E and O modifiers, which the C locale
		// ignores.
		width := 0
		for i+1 < len(f) && f[i+1] >= '0' && f[i+1] <= '9' && width < 1000 {
			width = width*10 + int(f[i+1]-'0')
			i++
		}
		if i+2 < len(f) && (f[i+1] == 'E' && strings.IndexByte("cCxXyY", f[i+2]) >= 0 ||
			f[i+1] == 'O' && strings.IndexByte("deHImMSuUVwWy", f[i+2]) >= 0) {
			i++
		}
		i++
		if i >= len(f) {
			sb.WriteString(f[start:])
			break
		}
		var piece strings.Builder
		// Python replaces a bare %f, %z and %Z itself; with a flag or a
		// width they reach the C library, which does not know them.
		pythonOnly := (flag != 0 || i-start > 1) && strings.IndexByte("fzZ", f[i]) >= 0
		if pythonOnly || !writeDirective(&piece, t, f[i]) {
			sb.WriteString(f[start : i+1])
			continue
		}
		text := applyFlag(piece.String(), flag)
		if n := width - len(text); n > 0 {
			fill := " "
			if flag != '_' && flag != '-' && text != "" && strings.Trim(text, "0123456789") == "" {
				fill = "0"
			}
			text = strings.Repeat(fill, n) + text
		}
		sb.WriteString(text)
	}
	return sb.String()
}

// applyFlag applies a glibc flag to a directive's text: - drops the
// padding of a number, _ pads it with spaces, 0 with zeros, ^ and #
// write upper case.
func applyFlag(text string, flag byte) string {
	n := len(text) - len(strings.TrimLeft(text, "0 ")) // the padding
	if n == len(text) && n > 0 {
		n-- // a zero keeps its last digit
	}
	switch flag {
	case '-':
		return text[n:]
	case '_':
		return strings.Repeat(" ", n) + text[n:]
	case '0':
		return strings.Repeat("0", n) + text[n:]
	case '^', '#':
		return strings.ToUpper(text)
	}
	return text
}

// writeDirective writes one directive's text; false for a directive
// strftime does not know, which is written as it is.
func writeDirective(sb *strings.Builder, t tm, c byte) bool {
	y, m, day, h, mi, s, wd, yday := t.y, t.m, t.day, t.h, t.mi, t.s, t.wd, t.yday
	switch c {
	case 'a':
		sb.WriteString(dayNames[wd][:3])
	case 'A':
		sb.WriteString(dayNames[wd])
	case 'w':
		sb.WriteString(itoa((wd + 1) % 7))
	case 'u':
		sb.WriteString(itoa(wd + 1))
	case 'd':
		sb.WriteString(pad(int64(day), 2))
	case 'e':
		sb.WriteString(spacePad(int64(day)))
	case 'b', 'h':
		sb.WriteString(monthNames[m-1][:3])
	case 'B':
		sb.WriteString(monthNames[m-1])
	case 'm':
		sb.WriteString(pad(int64(m), 2))
	case 'y':
		sb.WriteString(pad(int64((y%100+100)%100), 2))
	case 'Y':
		sb.WriteString(itoa(int64(y)))
	case 'C':
		sb.WriteString(strconv.Itoa(y / 100)) // glibc does not pad it
	case 'G', 'g', 'V':
		iy, iw := t.isoWeek()
		switch c {
		case 'G':
			sb.WriteString(itoa(iy))
		case 'g':
			sb.WriteString(pad((iy%100+100)%100, 2))
		default:
			sb.WriteString(pad(iw, 2))
		}
	case 'H':
		sb.WriteString(pad(h, 2))
	case 'k':
		sb.WriteString(spacePad(h))
	case 'I':
		sb.WriteString(pad(hour12(h), 2))
	case 'l':
		sb.WriteString(spacePad(hour12(h)))
	case 'p':
		if h < 12 {
			sb.WriteString("AM")
		} else {
			sb.WriteString("PM")
		}
	case 'P':
		if h < 12 {
			sb.WriteString("am")
		} else {
			sb.WriteString("pm")
		}
	case 'M':
		sb.WriteString(pad(mi, 2))
	case 'S':
		sb.WriteString(pad(s, 2))
	case 'f':
		sb.WriteString(pad(t.us, 6))
	case 'j':
		sb.WriteString(pad(yday, 3))
	case 'U':
		sb.WriteString(pad((yday+6-(wd+1)%7)/7, 2))
	case 'W':
		sb.WriteString(pad((yday+6-wd)/7, 2))
	case 'z':
		sb.WriteString(t.z())
	case 'Z':
		sb.WriteString(t.zone())
	case 's':
		sb.WriteString(t.epoch())
	case 'c':
		sb.WriteString(strftimeTm(t, "%a %b %e %H:%M:%S %Y"))
	case 'x', 'D':
		sb.WriteString(strftimeTm(t, "%m/%d/%y"))
	case 'X', 'T':
		sb.WriteString(strftimeTm(t, "%H:%M:%S"))
	case 'F':
		sb.WriteString(strftimeTm(t, "%Y-%m-%d"))
	case 'R':
		sb.WriteString(strftimeTm(t, "%H:%M"))
	case 'r':
		sb.WriteString(strftimeTm(t, "%I:%M:%S %p"))
	case 'n':
		sb.WriteByte('\n')
	case 't':
		sb.WriteByte('\t')
	case '%':
		sb.WriteByte('%')
	default:
		return false
	}
	return true
}

func hour12(h int64) int64 {
	if h%12 == 0 {
		return 12
	}
	return h % 12
}

func spacePad(n int64) string {
	if n < 10 {
		return " " + itoa(n)
	}
	return itoa(n)
}

// strptime: the format becomes a regular expression as CPython's
// _strptime builds it (each directive a group, a run of white space any
// run of it, case ignored), matched at the start of the text.

var strptimeDirectives = map[byte]string{
	'd': `3[01]|[12]\d|0[1-9]|[1-9]| [1-9]`,
	'f': `[0-9]{1,6}`,
	'H': `2[0-3]|[0-1]\d|\d`,
	'I': `1[0-2]|0[1-9]|[1-9]`,
	'G': `\d\d\d\d`,
	'j': `36[0-6]|3[0-5]\d|[12]\d\d|0[1-9]\d|00[1-9]|[1-9]\d|0[1-9]|[1-9]`,
	'm': `1[0-2]|0[1-9]|[1-9]`,
	'M': `[0-5]\d|\d`,
	'S': `6[0-1]|[0-5]\d|\d`,
	'U': `5[0-3]|[0-4]\d|\d`,
	'W': `5[0-3]|[0-4]\d|\d`,
	'w': `[0-6]`,
	'u': `[1-7]`,
	'V': `5[0-3]|0[1-9]|[1-4]\d|\d`,
	'y': `\d\d`,
	'Y': `\d\d\d\d`,
	'z': `[+-]\d\d:?[0-5]\d(?::?[0-5]\d(?:\.\d{1,6})?)?|(?-i:Z)`,
	'p': `am|pm`,
	'a': namesPattern(dayNames, 3),
	'A': namesPattern(dayNames, 0),
	'b': namesPattern(monthNames, 3),
	'B': namesPattern(monthNames, 0),
}

// strptimeAliases are the C locale's formats for %c, %x and %X.
var strptimeAliases = map[byte]string{'c': "%a %b %d %H:%M:%S %Y", 'x': "%m/%d/%y", 'X': "%H:%M:%S"}

func namesPattern(names []string, n int) string {
	out := make([]string, len(names))
	for i, s := range names {
		if n > 0 {
			s = s[:n]
		}
		out[i] = strings.ToLower(s)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return strings.Join(out, "|")
}

// zoneNamesPattern is %Z's: UTC, GMT and the system zone's names.
func zoneNamesPattern() string {
	names := map[string]bool{"utc": true, "gmt": true}
	now := time.Now()
	for _, t := range []time.Time{time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.Local), time.Date(now.Year(), 7, 1, 0, 0, 0, 0, time.Local)} {
		n, _ := t.Zone()
		names[strings.ToLower(n)] = true
	}
	var out []string
	for n := range names {
		out = append(out, regexp.QuoteMeta(n))
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) || len(out[i]) == len(out[j]) && out[i] < out[j] })
	return strings.Join(out, "|")
}

// strptimeRegexp is the expression of a format and the directive of each
// group.
func strptimeRegexp(format string) (*regexp.Regexp, []byte, error) {
	var sb strings.Builder
	var groups []byte
	// CPython's pattern as it would be, to report a directive given twice
	// as its re module does: the group numbers, and where in its pattern
	// the second group's name stands.
	cpyPos, cpyGroups := 0, 0
	first := map[byte]int{}
	var build func(f string) error
	build = func(f string) error {
		for i := 0; i < len(f); i++ {
			c := f[i]
			switch {
			case c == '%':
				if i+1 >= len(f) {
					return pyrt.Errorf("ValueError", "stray %% in format '%s'", format)
				}
				i++
				d := f[i]
				if alias, ok := strptimeAliases[d]; ok {
					if err := build(alias); err != nil {
						return err
					}
					continue
				}
				if d == '%' {
					sb.WriteString("%")
					cpyPos++
					continue
				}
				pat, ok := strptimeDirectives[d]
				if d == 'Z' {
					pat, ok = zoneNamesPattern(), true
				}
				if !ok {
					r, _ := utf8DecodeAt(f, i)
					return pyrt.Errorf("ValueError", "'%s' is a bad directive in format '%s'", r, format)
				}
				cpyGroups++
				if was, dup := first[d]; dup {
					msg := fmt.Sprintf("redefinition of group name '%c' as group %d; was group %d", d, cpyGroups, was)
					return reErrorClass.Raise(fmt.Sprintf("%s at position %d", msg, cpyPos+4), starlark.StringDict{
						"msg": interp.MakeString(msg), "pattern": starlark.None, "pos": starlark.MakeInt(cpyPos + 4),
						"lineno": starlark.MakeInt(1), "colno": starlark.MakeInt(cpyPos + 5)})
				}
				first[d] = cpyGroups
				body := len(pat)
				switch d { // where CPython's expression is written otherwise
				case 'd':
					body = 34
				case 'j':
					body = 64
				case 'z':
					body, cpyGroups = 49, cpyGroups+2 // two groups of its own
				}
				cpyPos += len("(?P<x>)") + body
				sb.WriteString("(" + pat + ")")
				groups = append(groups, d)
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				j := i
				for j+1 < len(f) && strings.IndexByte(" \t\n\r\f\v", f[j+1]) >= 0 {
					j++
				}
				sb.WriteString(`\s+`)
				cpyPos += 3
				i = j
			default:
				r, n := utf8DecodeAt(f, i)
				sb.WriteString(regexp.QuoteMeta(r))
				cpyPos++
				if strings.Contains(`\.^$*+?(){}[]|`, r) {
					cpyPos++ // escaped
				}
				i += n - 1
			}
		}
		return nil
	}
	if err := build(format); err != nil {
		return nil, nil, err
	}
	re, err := regexp.Compile("(?i)^(?:" + sb.String() + ")")
	if err != nil {
		return nil, nil, pyrt.Errorf("ValueError", "bad format '%s'", format)
	}
	return re, groups, nil
}

func utf8DecodeAt(s string, i int) (string, int) {
	for n := 1; n <= 4 && i+n <= len(s); n++ {
		if r := s[i : i+n]; strings.ToValidUTF8(r, "") == r {
			return r, n
		}
	}
	return s[i : i+1], 1
}

// strptimeCache keeps a run's compiled formats: a program parses many
// lines with one format. It belongs to the run's thread, and holds a few.
type strptimeCache map[string]strptimeEntry

type strptimeEntry struct {
	re     *regexp.Regexp
	groups []byte
}

const strptimeCacheLocal, strptimeCacheSize = "onetool.strptime", 16

func strptimeCompiled(thread *starlark.Thread, b *interp.Budget, format string) (*regexp.Regexp, []byte, error) {
	var cache strptimeCache
	if thread != nil {
		cache, _ = interp.RunLocal(thread, strptimeCacheLocal).(strptimeCache)
		if e, ok := cache[format]; ok {
			return e.re, e.groups, nil
		}
	}
	// The expression made from the format takes a few hundred bytes per
	// character of it; charged before it is compiled.
	if err := b.Alloc(int64(len(format)) * 512); err != nil {
		return nil, nil, err
	}
	re, groups, err := strptimeRegexp(format)
	if err != nil || thread == nil {
		return re, groups, err
	}
	if cache == nil || len(cache) >= strptimeCacheSize {
		cache = strptimeCache{}
		interp.SetRunLocal(thread, strptimeCacheLocal, cache)
	}
	if len(format) <= 256 {
		cache[format] = strptimeEntry{re, groups}
	}
	return re, groups, nil
}

// parsed is what strptime read: the fields of a datetime.
type parsed struct {
	year, month, day, hour, minute, second, us int64
	gmtoff                                     int64 // %z's offset in microseconds, when hasOff
	hasOff                                     bool
	weekday, yday                              int64          // Monday 0; January 1 is 1
	isdst                                      int64          // %Z's: 0 or 1 for a name the system knows, else -1
	zone                                       starlark.Value // %Z's text, or None
}

func pyRepr(s string) string {
	r, err := interp.Repr(nil, interp.MakeString(s))
	if err != nil {
		return "'" + s + "'"
	}
	return r
}

// strptime reads text by format as CPython's datetime.strptime does.
func strptime(thread *starlark.Thread, text, format string) (*parsed, error) {
	b := interp.BudgetOf(thread)
	if err := b.Charge(uint64(len(text) + len(format))); err != nil {
		return nil, err
	}
	re, groups, err := strptimeCompiled(thread, b, format)
	if err != nil {
		return nil, err
	}
	loc := re.FindStringSubmatchIndex(text)
	if loc == nil {
		return nil, pyrt.Errorf("ValueError", "time data %s does not match format %s", pyRepr(text), pyRepr(format))
	}
	if loc[1] != len(text) {
		return nil, pyrt.Errorf("ValueError", "unconverted data remains: %s", text[loc[1]:])
	}
	p := &parsed{year: 1900, month: 1, day: 1}
	found := map[byte]string{}
	var order []byte
	for i, d := range groups {
		s := text[loc[2*i+2]:loc[2*i+3]]
		found[d] = s
		order = append(order, d)
	}
	num := func(d byte) int64 { n, _ := strconv.ParseInt(strings.TrimSpace(found[d]), 10, 64); return n }
	var julian int64
	haveJulian := false
	weekdayV, weekOf := int64(-1), int64(-1)
	weekStartsMon := false
	isoYear, isoWeek := int64(-1), int64(-1)
	for _, d := range order {
		switch d {
		case 'y':
			p.year = num('y')
			if p.year <= 68 {
				p.year += 2000
			} else {
				p.year += 1900
			}
		case 'Y':
			p.year = num('Y')
		case 'G':
			isoYear = num('G')
		case 'm':
			p.month = num('m')
		case 'B', 'b':
			p.month = int64(nameIndex(monthNames, found[d], d == 'b') + 1)
		case 'd':
			p.day = num('d')
		case 'H':
			p.hour = num('H')
		case 'I':
			p.hour = num('I')
			switch strings.ToLower(found['p']) {
			case "", "am":
				if p.hour == 12 {
					p.hour = 0
				}
			case "pm":
				if p.hour != 12 {
					p.hour += 12
				}
			}
		case 'M':
			p.minute = num('M')
		case 'S':
			p.second = num('S')
		case 'f':
			s := found['f']
			p.us, _ = strconv.ParseInt(s+strings.Repeat("0", 6-len(s)), 10, 64)
		case 'A', 'a':
			weekdayV = int64(nameIndex(dayNames, found[d], d == 'a'))
		case 'w':
			weekdayV = (num('w') + 6) % 7
		case 'u':
			weekdayV = num('u') - 1
		case 'j':
			julian, haveJulian = num('j'), true
		case 'U', 'W':
			weekOf = num(d)
			weekStartsMon = d == 'W'
		case 'V':
			isoWeek = num('V')
		case 'z':
			off, err := parseStrptimeOffset(found['z'])
			if err != nil {
				return nil, err
			}
			p.gmtoff, p.hasOff = off, true
		}
	}
	// What CPython's _strptime does next, step for step.
	_, haveYear := found['Y']
	if _, ok := found['y']; ok {
		haveYear = true
	}
	switch {
	case !haveYear && isoYear >= 0:
		if isoWeek < 0 || weekdayV < 0 {
			return nil, pyrt.Errorf("ValueError", "ISO year directive '%%G' must be used with the ISO week directive '%%V' and a weekday directive ('%%A', '%%a', '%%w', or '%%u').")
		}
		if haveJulian {
			return nil, pyrt.Errorf("ValueError", "Day of the year directive '%%j' is not compatible with ISO year directive '%%G'. Use '%%Y' instead.")
		}
	case weekOf < 0 && isoWeek >= 0:
		if weekdayV < 0 {
			return nil, pyrt.Errorf("ValueError", "ISO week directive '%%V' must be used with the ISO year directive '%%G' and a weekday directive ('%%A', '%%a', '%%w', or '%%u').")
		}
		return nil, pyrt.Errorf("ValueError", "ISO week directive '%%V' is incompatible with the year directive '%%Y'. Use the ISO year '%%G' instead.")
	}
	// February 29 without a year is reckoned in 1904, a leap year, and
	// given back as 1900.
	leapFix := !haveYear && p.month == 2 && p.day == 29
	if leapFix {
		p.year = 1904
	}
	yearOrd := func(y int64) (int64, error) {
		if y < minYear || y > maxYear {
			return 0, pyrt.Errorf("ValueError", "year %d is out of range", y)
		}
		return toOrdinal(int(y), 1, 1), nil
	}
	if !haveJulian && weekdayV >= 0 {
		switch {
		case weekOf >= 0:
			jan1, err := yearOrd(p.year)
			if err != nil {
				return nil, err
			}
			first := weekday(jan1)
			dow := weekdayV
			if !weekStartsMon {
				first, dow = (first+1)%7, (dow+1)%7
			}
			week0 := (7 - first) % 7
			if weekOf == 0 {
				julian = 1 + dow - first
			} else {
				julian = 1 + week0 + 7*(weekOf-1) + dow
			}
			haveJulian = true
		case isoYear >= 0 && isoWeek >= 0:
			jan4, err := yearOrd(isoYear)
			if err != nil {
				return nil, err
			}
			jan4 += 3
			ordinal := isoWeek*7 + weekdayV + 1 - (weekday(jan4) + 1 + 3)
			if ordinal < 1 {
				ordinal += jan4 - 3
				isoYear--
				prev, err := yearOrd(isoYear)
				if err != nil {
					return nil, err
				}
				ordinal -= prev
			}
			p.year, julian, haveJulian = isoYear, ordinal, true
		}
		if haveJulian && julian <= 0 {
			p.year--
			julian += 365
			if isLeap(int(p.year)) {
				julian++
			}
		}
	}
	if haveJulian {
		jan1, err := yearOrd(p.year)
		if err != nil {
			return nil, err
		}
		ord := jan1 + julian - 1
		switch {
		case ord < 1:
			return nil, pyrt.Errorf("ValueError", "ordinal must be >= 1")
		case ord > maxOrd:
			return nil, pyrt.Errorf("ValueError", "year %d is out of range", maxYear+1)
		}
		y, m, d := fromOrdinal(ord)
		p.year, p.month, p.day = int64(y), int64(m), int64(d)
		p.yday = julian
	} else {
		if err := checkDate(p.year, p.month, p.day); err != nil {
			return nil, err
		}
		p.yday = toOrdinal(int(p.year), int(p.month), int(p.day)) - toOrdinal(int(p.year), 1, 1) + 1
	}
	p.weekday = weekdayV
	if p.weekday < 0 {
		p.weekday = weekday(toOrdinal(int(p.year), int(p.month), int(p.day)))
	}
	if leapFix {
		p.year = 1900
	}
	p.isdst, p.zone = -1, starlark.None
	if z, ok := found['Z']; ok {
		p.zone = interp.MakeString(z)
		p.isdst = zoneIsDST(strings.ToLower(z))
	}
	return p, nil
}

// zoneIsDST is the DST flag time.strptime gives a %Z name: 0 for UTC,
// GMT and the system's standard name, 1 for its daylight-saving name,
// -1 for a name it cannot tell (both names alike in a zone with DST).
func zoneIsDST(z string) int64 {
	std, dst := localZoneNames()
	std, dst = strings.ToLower(std), strings.ToLower(dst)
	_, janOff := time.Date(time.Now().Year(), 1, 1, 0, 0, 0, 0, time.Local).Zone()
	_, julOff := time.Date(time.Now().Year(), 7, 1, 0, 0, 0, 0, time.Local).Zone()
	ambiguous := std == dst && janOff != julOff && z != "utc" && z != "gmt"
	switch {
	case z == "utc" || z == "gmt" || z == std:
		if ambiguous {
			return -1
		}
		return 0
	case z == dst:
		if ambiguous {
			return -1
		}
		return 1
	}
	return -1
}

func nameIndex(names []string, s string, abbrev bool) int {
	for i, n := range names {
		if abbrev {
			n = n[:3]
		}
		if strings.EqualFold(n, s) {
			return i
		}
	}
	return 0
}

// parseStrptimeOffset reads %z's text: Z, ±HHMM[SS[.ffffff]] or with
// colons, as an offset in microseconds.
func parseStrptimeOffset(s string) (int64, error) {
	if s == "Z" || s == "z" {
		return 0, nil
	}
	sign := int64(1)
	if s[0] == '-' {
		sign = -1
	}
	body := s[1:]
	if strings.Contains(body, ":") {
		if len(body) < 5 || body[2] != ':' || len(body) > 5 && body[5] != ':' {
			return 0, pyrt.Errorf("ValueError", "Inconsistent use of : in %s", s)
		}
		body = strings.ReplaceAll(body, ":", "")
	}
	h, _ := strconv.ParseInt(body[0:2], 10, 64)
	m, _ := strconv.ParseInt(body[2:4], 10, 64)
	var sec, frac int64
	if len(body) >= 6 {
		sec, _ = strconv.ParseInt(body[4:6], 10, 64)
	}
	if len(body) > 7 {
		f := body[7:]
		frac, _ = strconv.ParseInt(f+strings.Repeat("0", 6-len(f)), 10, 64)
	}
	return sign * (((h*60+m)*60+sec)*usPerSec + frac), nil
}

// isoToOrdinal is the day of an ISO year, week and weekday (1..7).
func isoToOrdinal(y, w, d int64) (int64, error) {
	if y < minYear || y > maxYear {
		return 0, pyrt.Errorf("ValueError", "Year is out of range: %d", y)
	}
	if w <= 0 || w >= 53 {
		outOfRange := true
		if w == 53 {
			// A year has 53 ISO weeks when it starts on a Thursday, or is a
			// leap year starting on a Wednesday.
			first := weekday(toOrdinal(int(y), 1, 1))
			if first == 3 || first == 2 && isLeap(int(y)) {
				outOfRange = false
			}
		}
		if outOfRange {
			return 0, pyrt.Errorf("ValueError", "Invalid week: %d", w)
		}
	}
	if d <= 0 || d > 7 {
		return 0, pyrt.Errorf("ValueError", "Invalid day: %d (range is [1, 7])", d)
	}
	// The Monday of week 1 is the Monday of the week holding January 4.
	jan4 := toOrdinal(int(y), 1, 4)
	week1 := jan4 - weekday(jan4)
	return week1 + (w-1)*7 + d - 1, nil
}

// fromisoformat, as CPython 3.11's C module reads it: over the UTF-8
// bytes of the text, as a C string (a NUL past its end), with the same
// leniencies (one stray character before an offset, "14:07:+05:00",
// an offset's minutes of 60) and the same order of errors: the text's
// shape first (Invalid isoformat string), then the offset's range, then
// the date's and the time's.

func errISO(s string) error {
	return pyrt.Errorf("ValueError", "Invalid isoformat string: %s", pyRepr(s))
}

// cstr is a text as C reads it: a NUL at and past its end.
type cstr string

func (s cstr) at(i int) byte {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits reads n digits at i into v (appended, as C's parse_digits);
// false at a byte that is not one.
func (s cstr) digits(i, n int, v *int) (int, bool) {
	for k := 0; k < n; k++ {
		c := s.at(i + k)
		if !isDigit(c) {
			return i + k, false
		}
		*v = *v*10 + int(c-'0')
	}
	return i + n, true
}

// isoSeparator is where the date ends and the one-character separator
// stands, judged from the date's shape (YYYY-MM-DD, YYYYMMDD, YYYY-Www,
// YYYYWww, YYYY-Www-D, YYYYWwwD).
func (s cstr) isoSeparator() int {
	n := len(s)
	if n == 7 {
		return 7
	}
	if s.at(4) == '-' {
		if s.at(5) != 'W' {
			return 10
		}
		if n < 8 {
			return -1
		}
		if n > 8 && s.at(8) == '-' {
			if n == 9 {
				return -1
			}
			if n > 10 && isDigit(s.at(10)) {
				return 8 // YYYY-Www-HH… rather than YYYY-Www-D#…
			}
			return 10
		}
		return 8
	}
	if s.at(4) != 'W' {
		return 8
	}
	i := 7
	for i < n && isDigit(s.at(i)) {
		i++
	}
	if i < 9 {
		return i
	}
	if i%2 == 0 {
		return 7
	}
	return 8
}

// isoDate reads the date at the start of s (n its length as far as the
// week form asks): year, month, day, or ok false for a malformed one.
// An ISO week date is turned into its day here, as CPython does, its
// week or weekday out of range being malformed.
func (s cstr) isoDate(n int) (y, m, d int, ok bool) {
	p, ok := s.digits(0, 4, &y)
	if !ok {
		return 0, 0, 0, false
	}
	sep := s.at(p) == '-'
	if sep {
		p++
	}
	if s.at(p) == 'W' {
		var w, wd int
		if p, ok = s.digits(p+1, 2, &w); !ok {
			return 0, 0, 0, false
		}
		if p < n {
			if sep {
				if s.at(p) != '-' {
					return 0, 0, 0, false
				}
				p++
			}
			if _, ok = s.digits(p, 1, &wd); !ok {
				return 0, 0, 0, false
			}
		} else {
			wd = 1
		}
		if w <= 0 || w >= 53 {
			first := weekday(toOrdinal(y, 1, 1))
			if w != 53 || !(first == 3 || first == 2 && isLeap(y)) {
				return 0, 0, 0, false
			}
		}
		if wd <= 0 || wd >= 8 {
			return 0, 0, 0, false
		}
		jan4 := toOrdinal(y, 1, 4)
		ord := jan4 - weekday(jan4) + int64((w-1)*7+wd-1)
		switch {
		case ord < 1:
			return 0, 1, 1, true // year 0 is out of range
		case ord > maxOrd:
			return maxYear + 1, 1, 1, true
		}
		yy, mm, dd := fromOrdinal(ord)
		return yy, mm, dd, true
	}
	if p, ok = s.digits(p, 2, &m); !ok {
		return 0, 0, 0, false
	}
	if sep {
		if s.at(p) != '-' {
			return 0, 0, 0, false
		}
		p++
	}
	if _, ok = s.digits(p, 2, &d); !ok {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// isoHMS reads HH[:MM[:SS[.ffffff]]] (or without the colons) from i up
// to end: f the hours, minutes, seconds and microseconds; rc 0 at the end
// of the text, 1 with more after it, negative when malformed.
func (s cstr) isoHMS(i, end int) (f [4]int, rc int) {
	p := i
	colon := true
	for k := 0; k < 3; k++ {
		var ok bool
		if p, ok = s.digits(p, 2, &f[k]); !ok {
			return f, -3
		}
		c := s.at(p)
		p++
		if k == 0 {
			colon = c == ':'
		}
		switch {
		case p >= end:
			if c != 0 {
				return f, 1
			}
			return f, 0
		case colon && c == ':':
			continue
		case c == '.' || c == ',':
		case !colon:
			p--
			continue
		default:
			return f, -4
		}
		break
	}
	n := min(end-p, 6)
	var ok bool
	if p, ok = s.digits(p, n, &f[3]); !ok {
		return f, -3
	}
	for k := n; k < 6; k++ {
		f[3] *= 10
	}
	for isDigit(s.at(p)) {
		p++ // digits past the microseconds
	}
	if s.at(p) != 0 {
		return f, 1
	}
	return f, 0
}

// isoTime reads a time of day and its offset from i to the end: rc 0
// without an offset, 1 with one (off its seconds, offUS microseconds),
// negative when malformed.
func (s cstr) isoTime(i int) (f [4]int, off, offUS, rc int) {
	end := len(s)
	tz := i
	for {
		if c := s.at(tz); c == 'Z' || c == '+' || c == '-' {
			break
		}
		if tz++; tz >= end {
			break
		}
	}
	f, rc = s.isoHMS(i, tz)
	switch {
	case rc < 0:
		return f, 0, 0, rc
	case tz >= end:
		if rc == 1 {
			return f, 0, 0, -5
		}
		return f, 0, 0, 0
	case s.at(tz) == 'Z':
		if s.at(tz+1) != 0 {
			return f, 0, 0, -5
		}
		return f, 0, 0, 1
	}
	sign := 1
	if s.at(tz) == '-' {
		sign = -1
	}
	o, orc := s.isoHMS(tz+1, end)
	if orc != 0 {
		return f, 0, 0, -5
	}
	return f, sign * (o[0]*3600 + o[1]*60 + o[2]), sign * o[3], 1
}

// isoZone is the tzinfo of an offset isoTime read (rc 1): UTC for a zero
// offset, else a timezone, with its range error.
func isoZone(rc, off, offUS int) (tzinfo, error) {
	if rc != 1 {
		return nil, nil
	}
	if off == 0 {
		return &timezone{utc: true}, nil
	}
	return makeTimezone(deltaOf(int64(off)*usPerSec+int64(offUS)), nil)
}

func isoText(fn string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	if len(kwargs) > 0 {
		return "", pyrt.Errorf("TypeError", "%s() takes no keyword arguments", fn)
	}
	if len(args) != 1 {
		return "", pyrt.Errorf("TypeError", "%s() takes exactly one argument (%d given)", fn, len(args))
	}
	s, ok := interp.AsText(args[0])
	if !ok {
		return "", pyrt.Errorf("TypeError", "fromisoformat: argument must be str")
	}
	return s, nil
}

func dateFromISO(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	text, err := isoText("date.fromisoformat", args, kwargs)
	if err != nil {
		return nil, err
	}
	s := cstr(text)
	var y, m, d int
	ok := false
	if n := len(s); n == 7 || n == 8 || n == 10 {
		y, m, d, ok = s.isoDate(n)
	}
	if !ok {
		return nil, errISO(text)
	}
	if err := checkDate(int64(y), int64(m), int64(d)); err != nil {
		return nil, err
	}
	return &date{ord: toOrdinal(y, m, d)}, nil
}

func dtFromISO(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	text, err := isoText("datetime.fromisoformat", args, kwargs)
	if err != nil {
		return nil, err
	}
	s := cstr(text)
	sep := s.isoSeparator()
	if sep < 0 {
		return nil, errISO(text)
	}
	y, m, d, ok := s.isoDate(sep)
	var f [4]int
	off, offUS, rc := 0, 0, -1
	if ok {
		rc = 0
		if len(s) > sep {
			_, size := utf8DecodeAt(text, sep) // the separator: any one character
			f, off, offUS, rc = s.isoTime(sep + size)
		}
	}
	if rc < 0 {
		return nil, errISO(text)
	}
	tz, err := isoZone(rc, off, offUS)
	if err != nil {
		return nil, err
	}
	if err := checkDate(int64(y), int64(m), int64(d)); err != nil {
		return nil, err
	}
	if err := checkTime(int64(f[0]), int64(f[1]), int64(f[2]), int64(f[3]), 0); err != nil {
		return nil, err
	}
	tod := ((int64(f[0])*60+int64(f[1]))*60+int64(f[2]))*usPerSec + int64(f[3])
	return &datetime{local: (toOrdinal(y, m, d)-1)*usPerDay + tod, tz: tz}, nil
}

func timeFromISO(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	text, err := isoText("time.fromisoformat", args, kwargs)
	if err != nil {
		return nil, err
	}
	s := cstr(text)
	start := 0
	if s.at(0) == 'T' {
		start = 1
	}
	f, off, offUS, rc := s.isoTime(start)
	if rc < 0 {
		return nil, errISO(text)
	}
	tz, err := isoZone(rc, off, offUS)
	if err != nil {
		return nil, err
	}
	if err := checkTime(int64(f[0]), int64(f[1]), int64(f[2]), int64(f[3]), 0); err != nil {
		return nil, err
	}
	return &clock{us: ((int64(f[0])*60+int64(f[1]))*60+int64(f[2]))*usPerSec + int64(f[3]), tz: tz}, nil
}

func dtStrptime(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "strptime() takes no keyword arguments")
	}
	if len(args) != 2 {
		return nil, pyrt.Errorf("TypeError", "strptime() takes exactly 2 arguments (%d given)", len(args))
	}
	text, err := textArg("strptime", "1", args[0])
	if err != nil {
		return nil, err
	}
	format, err := textArg("strptime", "2", args[1])
	if err != nil {
		return nil, err
	}
	p, err := strptime(thread, text, format)
	if err != nil {
		return nil, err
	}
	if err := checkDate(p.year, p.month, p.day); err != nil {
		return nil, err
	}
	if err := checkTime(p.hour, p.minute, p.second, p.us, 0); err != nil {
		return nil, err
	}
	// %z gives a timezone, named by %Z when that read a name, as
	// CPython's _strptime_datetime makes it.
	var tz tzinfo
	if p.hasOff {
		var name starlark.Value
		if z, ok := interp.AsText(p.zone); ok && z != "" {
			name = p.zone
		}
		if tz, err = makeTimezone(deltaOf(p.gmtoff), name); err != nil {
			return nil, err
		}
	}
	ord := toOrdinal(int(p.year), int(p.month), int(p.day))
	return &datetime{local: (ord-1)*usPerDay + ((p.hour*60+p.minute)*60+p.second)*usPerSec + p.us, tz: tz}, nil
}
