package stdlib

import (
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// mimetypes (issue 31): CPython 3.11's guess_type and kin over its
// built-in tables only (mimetypes_table.go). CPython also reads
// /etc/mime.types and the like, so its answers vary with the machine;
// here they are what CPython gives where no such file exists, the same
// everywhere. add_type changes the run's own table (a thread-local), as
// the module's tables are shared by every run and frozen.

// mimeDB is a MimeTypes: types and inv by strictness (0: common types,
// 1: strict), as CPython's types_map and types_map_inv.
type mimeDB struct {
	types    [2]map[string]string
	inv      [2]map[string][]string
	encoding map[string]string
	suffix   map[string]string
}

func (db *mimeDB) add(typ, ext string, strict int) {
	db.types[strict][ext] = typ
	exts := db.inv[strict][typ]
	for _, e := range exts {
		if e == ext {
			return
		}
	}
	db.inv[strict][typ] = append(exts, ext)
}

func newMimeDB() *mimeDB {
	db := &mimeDB{encoding: map[string]string{}, suffix: map[string]string{}}
	for i := range db.types {
		db.types[i] = map[string]string{}
		db.inv[i] = map[string][]string{}
	}
	for _, p := range mimeTypesDefault {
		db.add(p.v, p.k, 1)
	}
	for _, p := range mimeCommonDefault {
		db.add(p.v, p.k, 0)
	}
	for _, p := range mimeEncodingsDefault {
		db.encoding[p.k] = p.v
	}
	for _, p := range mimeSuffixDefault {
		db.suffix[p.k] = p.v
	}
	return db
}

func (db *mimeDB) clone() *mimeDB {
	c := &mimeDB{encoding: db.encoding, suffix: db.suffix}
	for i := range db.types {
		c.types[i] = make(map[string]string, len(db.types[i]))
		for k, v := range db.types[i] {
			c.types[i][k] = v
		}
		c.inv[i] = make(map[string][]string, len(db.inv[i]))
		for k, v := range db.inv[i] {
			c.inv[i][k] = append([]string(nil), v...)
		}
	}
	return c
}

// defaultMimeDB is the built-in tables, made once and never changed.
var defaultMimeDB = sync.OnceValue(newMimeDB)

// guess is MimeTypes.guess_type: (type, encoding), "" for None.
func (db *mimeDB) guess(url string, strict bool) (typ, enc string, hasType, hasEnc bool) {
	// urllib.parse._splittype: "scheme:rest" where scheme has no "/" or ":".
	if i := strings.IndexByte(url, ':'); i > 0 && !strings.ContainsAny(url[:i], "/") {
		scheme := strings.ToLower(url[:i])
		url = url[i+1:]
		if scheme == "data" {
			comma := strings.IndexByte(url, ',')
			if comma < 0 {
				return "", "", false, false
			}
			t := url[:comma]
			if semi := strings.IndexByte(t, ';'); semi >= 0 {
				t = t[:semi]
			}
			if strings.Contains(t, "=") || !strings.Contains(t, "/") {
				t = "text/plain"
			}
			return t, "", true, false
		}
	}
	base, ext := splitExt(url)
	for n := 0; n < 64; n++ { // the suffix map cannot loop, but bound it
		s, ok := db.suffix[strings.ToLower(ext)]
		if !ok {
			break
		}
		base, ext = splitExt(base + s)
	}
	if e, ok := db.encoding[ext]; ok {
		enc, hasEnc = e, true
		base, ext = splitExt(base)
	}
	ext = strings.ToLower(ext)
	if t, ok := db.types[1][ext]; ok {
		return t, enc, true, hasEnc
	}
	if strict {
		return "", enc, false, hasEnc
	}
	if t, ok := db.types[0][ext]; ok {
		return t, enc, true, hasEnc
	}
	return "", enc, false, hasEnc
}

func (db *mimeDB) allExtensions(typ string, strict bool) []string {
	typ = strings.ToLower(typ)
	out := append([]string(nil), db.inv[1][typ]...)
	if !strict {
		for _, e := range db.inv[0][typ] {
			found := false
			for _, x := range out {
				found = found || x == e
			}
			if !found {
				out = append(out, e)
			}
		}
	}
	return out
}

// mimeLocal is the thread-local of a run's table once add_type changed it.
const mimeLocal = "onetool.stdlib.mimetypes"

func runMimeDB(thread *starlark.Thread) *mimeDB {
	if db, ok := interp.RunLocal(thread, mimeLocal).(*mimeDB); ok {
		return db
	}
	return defaultMimeDB()
}

// MimeTypes is the mimetypes module.
func MimeTypes() *starlarkstruct.Module {
	db := defaultMimeDB()
	dict := func(m map[string]string, order []mimePair) *starlark.Dict {
		d := starlark.NewDict(len(order))
		for _, p := range order {
			d.SetKey(starlark.String(p.k), starlark.String(m[p.k]))
		}
		return d
	}
	module := func(fn func(*starlark.Thread) *mimeDB) starlark.StringDict {
		return starlark.StringDict{
			"guess_type":           interp.NewBuiltin("guess_type", mimeGuessType(fn)),
			"guess_extension":      interp.NewBuiltin("guess_extension", mimeGuessExt(fn, false)),
			"guess_all_extensions": interp.NewBuiltin("guess_all_extensions", mimeGuessExt(fn, true)),
		}
	}
	m := module(runMimeDB)
	m["add_type"] = interp.NewBuiltin("add_type", mimeAddType(func(thread *starlark.Thread) *mimeDB {
		db, ok := interp.RunLocal(thread, mimeLocal).(*mimeDB)
		if !ok {
			db = defaultMimeDB().clone()
			interp.SetRunLocal(thread, mimeLocal, db)
		}
		return db
	}))
	m["init"] = interp.NewBuiltin("init", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var files starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "files?", &files); err != nil {
			return nil, err
		}
		if files != starlark.None {
			if n := starlark.Len(files); n != 0 {
				return nil, pyrt.Errorf("NotImplementedError", "mimetypes.init(files=...) is not available here: add types with mimetypes.add_type(type, ext)")
			}
		}
		interp.SetRunLocal(thread, mimeLocal, nil) // CPython's init starts a new table
		return starlark.None, nil
	})
	m["read_mime_types"] = interp.NewBuiltin("read_mime_types", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, pyrt.Errorf("NotImplementedError", "mimetypes.read_mime_types is not available here: add types with mimetypes.add_type(type, ext)")
	})
	m["MimeTypes"] = mimeTypesClass
	m["types_map"] = dict(db.types[1], mimeTypesDefault)
	m["common_types"] = dict(db.types[0], mimeCommonDefault)
	m["encodings_map"] = dict(db.encoding, mimeEncodingsDefault)
	m["suffix_map"] = dict(db.suffix, mimeSuffixDefault)
	m["knownfiles"] = starlark.NewList(nil)
	m["inited"] = starlark.True
	return &starlarkstruct.Module{Name: "mimetypes", Members: m}
}

func mimeGuessType(fn func(*starlark.Thread) *mimeDB) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var url starlark.Value
		strict := true
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "url", &url, "strict?", &strict); err != nil {
			return nil, err
		}
		u, err := fsPath(thread, "", url)
		if err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Charge(uint64(len(u))/16 + 1); err != nil {
			return nil, err
		}
		typ, enc, hasType, hasEnc := fn(thread).guess(u, strict)
		out := starlark.Tuple{starlark.None, starlark.None}
		if hasType {
			out[0] = starlark.String(typ)
		}
		if hasEnc {
			out[1] = starlark.String(enc)
		}
		return out, nil
	}
}

func mimeGuessExt(fn func(*starlark.Thread) *mimeDB, all bool) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var typ string
		strict := true
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "type", &typ, "strict?", &strict); err != nil {
			return nil, err
		}
		exts := fn(thread).allExtensions(typ, strict)
		if !all {
			if len(exts) == 0 {
				return starlark.None, nil
			}
			return starlark.String(exts[0]), nil
		}
		out := make([]starlark.Value, len(exts))
		for i, e := range exts {
			out[i] = starlark.String(e)
		}
		return starlark.NewList(out), nil
	}
}

func mimeAddType(fn func(*starlark.Thread) *mimeDB) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var typ, ext string
		strict := true
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "type", &typ, "ext", &ext, "strict?", &strict); err != nil {
			return nil, err
		}
		if err := interp.BudgetOf(thread).Alloc(int64(len(typ)+len(ext)) + 64); err != nil {
			return nil, err
		}
		s := 0
		if strict {
			s = 1
		}
		fn(thread).add(typ, ext, s)
		return starlark.None, nil
	}
}

// mimeObj is a MimeTypes instance: a table of its own.
type mimeObj struct{ db *mimeDB }

var mimeTypesClass = &pyClass{module: "mimetypes", name: "MimeTypes", is: isOf[*mimeObj],
	ctor: func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var files starlark.Value = starlark.Tuple{}
		strict := true
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "filenames?", &files, "strict?", &strict); err != nil {
			return nil, err
		}
		if starlark.Len(files) > 0 {
			return nil, pyrt.Errorf("NotImplementedError", "MimeTypes(filenames) is not available here: add types with add_type(type, ext)")
		}
		return &mimeObj{db: defaultMimeDB().clone()}, nil
	}}

func (o *mimeObj) String() string          { return "<mimetypes.MimeTypes object>" }
func (o *mimeObj) Type() string            { return "MimeTypes" }
func (o *mimeObj) Freeze()                 {}
func (o *mimeObj) Truth() starlark.Bool    { return true }
func (o *mimeObj) Hash() (uint32, error)   { return 0, nil }
func (o *mimeObj) PyClass() starlark.Value { return mimeTypesClass }
func (o *mimeObj) AttrNames() []string {
	return []string{"add_type", "guess_all_extensions", "guess_extension", "guess_type"}
}

func (o *mimeObj) Attr(name string) (starlark.Value, error) {
	fn := func(*starlark.Thread) *mimeDB { return o.db }
	switch name {
	case "guess_type":
		return interp.NewBuiltin(name, mimeGuessType(fn)), nil
	case "guess_extension":
		return interp.NewBuiltin(name, mimeGuessExt(fn, false)), nil
	case "guess_all_extensions":
		return interp.NewBuiltin(name, mimeGuessExt(fn, true)), nil
	case "add_type":
		return interp.NewBuiltin(name, mimeAddType(fn)), nil
	}
	return nil, noAttrNamed("MimeTypes", name)
}
