package stdlib

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // ZoneInfo works where the system has no zone files

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// ZoneInfo is the zoneinfo module: ZoneInfo(key) from Go's time-zone
// data (the system's, else the copy embedded by time/tzdata).
func ZoneInfo() *starlarkstruct.Module {
	z := &zoneModule{notFound: pyrt.NewModuleClass("zoneinfo._common.ZoneInfoNotFoundError", "KeyError"), zones: map[string]*zoneInfo{}}
	class := &dtClass{module: "zoneinfo", base: dtClassSet.tzinfo, name: "ZoneInfo", ctor: z.newZone, is: isA[*zoneInfo], proto: &zoneInfo{key: "UTC", loc: time.UTC}}
	z.class = class
	m := &starlarkstruct.Module{Name: "zoneinfo", Members: starlark.StringDict{
		"ZoneInfo":              class,
		"ZoneInfoNotFoundError": z.notFound,
		"available_timezones":   interp.NewBuiltin("available_timezones", availableTimezones),
		"TZPATH":                tzPathTuple(),
	}}
	m.Freeze()
	return m
}

// zoneModule keeps one ZoneInfo per key, as CPython does (so that
// ZoneInfo(k) is ZoneInfo(k)), shared by every run.
type zoneModule struct {
	notFound *pyrt.ExcClass
	class    *dtClass // zoneinfo.ZoneInfo, type(z) of its zones
	mu       sync.Mutex
	zones    map[string]*zoneInfo // only keys that exist: at most the database's few hundred
}

func (z *zoneModule) newZone(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vals, err := bindArgsC("ZoneInfo", args, kwargs, []string{"key"}, 1)
	if err != nil {
		return nil, err
	}
	key, ok := interp.AsText(vals[0])
	if !ok {
		return nil, pyrt.Errorf("TypeError", "expected str, bytes or os.PathLike object, not %s", pyrt.TypeName(vals[0]))
	}
	switch {
	case key == "" || strings.HasSuffix(key, "/") || strings.Contains(key, "//"):
		return nil, pyrt.Errorf("ValueError", "ZoneInfo keys must be normalized relative paths, got: %s", key)
	case strings.HasPrefix(key, "/"):
		return nil, pyrt.Errorf("ValueError", "ZoneInfo keys may not be absolute paths, got: %s", key)
	case key == ".." || strings.HasPrefix(key, "../") || strings.Contains(key, "/../") || strings.HasSuffix(key, "/.."):
		return nil, pyrt.Errorf("ValueError", "ZoneInfo keys must refer to subdirectories of TZPATH, got: %s", key)
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if zi, ok := z.zones[key]; ok {
		return zi, nil
	}
	// "Local" is Go's name for the system's zone, not a key of the database.
	loc, err := time.LoadLocation(key)
	if err != nil || key == "Local" {
		v, cerr := z.notFound.CallInternal(nil, starlark.Tuple{interp.MakeString("No time zone found with key " + key)}, nil)
		if cerr != nil {
			return nil, cerr
		}
		return nil, v.(*pyrt.ExcValue).Error()
	}
	zi := &zoneInfo{key: key, loc: loc, class: z.class}
	zi.lastTrans, zi.hasRule = tzifLastTransition(key)
	z.zones[key] = zi
	return zi, nil
}

// zoneInfo is a zoneinfo.ZoneInfo: a key and its Go location.
type zoneInfo struct {
	key   string
	loc   *time.Location
	class *dtClass // the module's ZoneInfo
	// lastTrans is the database file's last transition (a Unix second)
	// when hasRule: from it on, the file's rule (its TZ string) gives the
	// offsets, and CPython takes dst() from the rule, not from the table.
	lastTrans int64
	hasRule   bool
}

// tzifLastTransition reads the last transition of key's file in the
// system's database, and whether a rule (a TZ string with DST or not)
// follows it; false when the file cannot be read (onetool's own copy
// of the database is then used, and dst() reads its table throughout).
func tzifLastTransition(key string) (int64, bool) {
	for _, dir := range tzPath {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(key)))
		if err != nil {
			continue
		}
		return parseTZifLast(data)
	}
	return 0, false
}

// parseTZifLast finds, in a TZif file of version 2 or later (RFC 8536),
// the last transition of its 64-bit data and whether its footer holds a
// TZ string.
func parseTZifLast(data []byte) (int64, bool) {
	counts := func(b []byte) (isut, isstd, leap, time_, typ, char int, ok bool) {
		if len(b) < 44 || string(b[:4]) != "TZif" {
			return 0, 0, 0, 0, 0, 0, false
		}
		c := func(i int) int { return int(binary.BigEndian.Uint32(b[20+4*i:])) }
		return c(0), c(1), c(2), c(3), c(4), c(5), true
	}
	isut, isstd, leap, n, typ, char, ok := counts(data)
	if !ok || data[4] < '2' {
		return 0, false
	}
	v1 := 44 + n*5 + typ*6 + char + leap*8 + isstd + isut
	if v1 > len(data) {
		return 0, false
	}
	data = data[v1:]
	isut, isstd, leap, n, typ, char, ok = counts(data)
	if !ok {
		return 0, false
	}
	end := 44 + n*9 + typ*6 + char + leap*12 + isstd + isut
	if n == 0 || end+2 > len(data) || data[end] != '\n' {
		return 0, false
	}
	last := int64(binary.BigEndian.Uint64(data[44+(n-1)*8:]))
	return last, data[end+1] != '\n'
}

// PyClass is type(z): zoneinfo.ZoneInfo.
func (z *zoneInfo) PyClass() starlark.Value {
	if z.class == nil {
		return starlark.None
	}
	return z.class
}

var (
	_ tzinfo              = (*zoneInfo)(nil)
	_ starlark.HasAttrs   = (*zoneInfo)(nil)
	_ starlark.Comparable = (*zoneInfo)(nil)
	_ interp.HasStr       = (*zoneInfo)(nil)
	_ interp.GoValuer     = (*zoneInfo)(nil)
)

func (z *zoneInfo) String() string        { return "zoneinfo.ZoneInfo(key=" + pyRepr(z.key) + ")" }
func (z *zoneInfo) Str() string           { return z.key }
func (z *zoneInfo) GoValue() (any, error) { return z.key, nil }
func (z *zoneInfo) Type() string          { return "zoneinfo.ZoneInfo" }
func (z *zoneInfo) Freeze()               {}
func (z *zoneInfo) Truth() starlark.Bool  { return true }
func (z *zoneInfo) Hash() (uint32, error) { return starlark.String(z.key).Hash() }

func (z *zoneInfo) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	eq := z.key == y.(*zoneInfo).key
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, pyrt.Errorf("TypeError", "'%s' not supported between instances of 'zoneinfo.ZoneInfo' and 'zoneinfo.ZoneInfo'", op)
}

func (z *zoneInfo) utcoffset(dt *datetime) (int64, bool) {
	if dt == nil {
		return 0, false
	}
	off, _ := resolveLocal(z.loc, dt.local, dt.fold)
	return off, true
}

func (z *zoneInfo) tzname(dt *datetime) starlark.Value {
	if dt == nil {
		return starlark.None
	}
	_, name := resolveLocal(z.loc, dt.local, dt.fold)
	return interp.MakeString(name)
}

func (z *zoneInfo) dst(dt *datetime) (int64, bool) {
	if dt == nil {
		return 0, false
	}
	return dstIn(z.loc, dt.local, dt.fold, z.lastTrans, z.hasRule), true
}

func (z *zoneInfo) fromutc(utc int64) (int64, int) { return fromUTCIn(z.loc, utc) }

var zoneMethods = map[string]method[*zoneInfo]{
	"utcoffset": func(_ *starlark.Thread, z *zoneInfo, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		dt, err := tzArg("ZoneInfo.utcoffset", args, kwargs)
		if err != nil {
			return nil, err
		}
		if off, ok := z.utcoffset(dt); ok {
			return deltaOf(off), nil
		}
		return starlark.None, nil
	},
	"tzname": func(_ *starlark.Thread, z *zoneInfo, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		dt, err := tzArg("ZoneInfo.tzname", args, kwargs)
		if err != nil {
			return nil, err
		}
		return z.tzname(dt), nil
	},
	"dst": func(_ *starlark.Thread, z *zoneInfo, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		dt, err := tzArg("ZoneInfo.dst", args, kwargs)
		if err != nil {
			return nil, err
		}
		if off, ok := z.dst(dt); ok {
			return deltaOf(off), nil
		}
		return starlark.None, nil
	},
}

func (z *zoneInfo) Attr(name string) (starlark.Value, error) {
	v, err := z.attr(name)
	if v == nil && err == nil {
		err = noAttrNamed("zoneinfo.ZoneInfo", name)
	}
	return v, err
}

func (z *zoneInfo) attr(name string) (starlark.Value, error) {
	if name == "key" {
		return interp.MakeString(z.key), nil
	}
	return bindMethod(zoneMethods, z, name), nil
}

func (z *zoneInfo) AttrNames() []string { return methodNames(zoneMethods, "key") }

// tzPath is where CPython looks for the time-zone database on Linux.
var tzPath = []string{"/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo", "/etc/zoneinfo"}

// zoneKeys are the keys of the system's time-zone database, read once:
// every file under the directories of tzPath that is a TZif file, but
// those under posix/ and right/ and posixrules, as CPython's
// available_timezones() finds them. Empty where the system has no
// database (ZoneInfo then uses the copy built into onetool, which cannot
// be listed).
var zoneKeys = sync.OnceValue(func() []string {
	seen := map[string]bool{}
	for _, root := range tzPath {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, rerr := filepath.Rel(root, path)
			if rerr != nil || rel == "." {
				return nil
			}
			if d.IsDir() {
				if rel == "posix" || rel == "right" {
					return filepath.SkipDir
				}
				return nil
			}
			if rel == "posixrules" || seen[rel] || len(seen) > 10000 {
				return nil
			}
			f, oerr := os.Open(path)
			if oerr != nil {
				return nil
			}
			defer f.Close()
			magic := make([]byte, 4)
			if n, _ := f.Read(magic); n == 4 && string(magic) == "TZif" {
				seen[filepath.ToSlash(rel)] = true
			}
			return nil
		})
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
})

// tzPathTuple is zoneinfo.TZPATH: the directories searched.
func tzPathTuple() starlark.Tuple {
	t := make(starlark.Tuple, len(tzPath))
	for i, p := range tzPath {
		t[i] = starlark.String(p)
	}
	return t
}

// availableTimezones is zoneinfo.available_timezones(): a set of the keys
// of the time-zone database.
func availableTimezones(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	keys := zoneKeys()
	if err := interp.BudgetOf(thread).Alloc(int64(len(keys)) * 64); err != nil {
		return nil, err
	}
	set := starlark.NewSet(len(keys))
	for _, k := range keys {
		_ = set.Insert(interp.MakeString(k))
	}
	return set, nil
}
