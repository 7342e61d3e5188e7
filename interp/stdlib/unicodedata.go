package stdlib

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	unorm "golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
	"golang.org/x/text/width"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// UnicodeData is the unicodedata module on golang.org/x/text's tables
// (names, normalization, widths) and Go's unicode categories: CPython's
// functions, with the Unicode version of those tables.
func UnicodeData() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "unicodedata", Members: starlark.StringDict{
		"name":             interp.NewBuiltin("name", udName),
		"lookup":           interp.NewBuiltin("lookup", udLookup),
		"category":         interp.NewBuiltin("category", udCategory),
		"normalize":        interp.NewBuiltin("normalize", udNormalize),
		"is_normalized":    interp.NewBuiltin("is_normalized", udNormalize),
		"decimal":          interp.NewBuiltin("decimal", udDigit),
		"digit":            interp.NewBuiltin("digit", udDigit),
		"numeric":          interp.NewBuiltin("numeric", udDigit),
		"combining":        interp.NewBuiltin("combining", udCombining),
		"east_asian_width": interp.NewBuiltin("east_asian_width", udWidth),
		"unidata_version":  starlark.String(runenames.UnicodeVersion),
	}}
}

// udChar reads the one-character argument of fn.
func udChar(fn string, v starlark.Value) (rune, error) {
	t, ok := interp.AsText(v)
	if !ok {
		return 0, pyrt.Errorf("TypeError", "%s() argument 1 must be a unicode character, not %s", fn, pyrt.TypeName(v))
	}
	if utf8.RuneCountInString(t) != 1 {
		return 0, pyrt.Errorf("TypeError", "%s() argument 1 must be a unicode character, not str", fn)
	}
	r, _ := utf8.DecodeRuneInString(t)
	return r, nil
}

// The parts of a Hangul syllable's name, by its algorithm (Unicode §3.12).
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// charName is r's name as CPython has it; "" when it has none (controls,
// private use, unassigned).
func charName(r rune) string {
	n := runenames.Name(r)
	switch {
	case strings.HasPrefix(n, "<CJK Ideograph"):
		return fmt.Sprintf("CJK UNIFIED IDEOGRAPH-%04X", r)
	case n == "<Hangul Syllable>":
		s := int(r - 0xAC00)
		return "HANGUL SYLLABLE " + jamoL[s/588] + jamoV[s%588/28] + jamoT[s%28]
	case strings.HasPrefix(n, "<"):
		return ""
	}
	return n
}

func udName(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var c, dflt starlark.Value
	if err := starlark.UnpackPositionalArgs("name", args, kwargs, 1, &c, &dflt); err != nil {
		return nil, err
	}
	r, err := udChar("name", c)
	if err != nil {
		return nil, err
	}
	if n := charName(r); n != "" {
		return starlark.String(n), nil
	}
	if dflt != nil {
		return dflt, nil
	}
	return nil, pyrt.Errorf("ValueError", "no such name")
}

// udLookup is lookup(name): the character of that name, case blind. The
// algorithmic names are parsed; the others are searched for among the
// named characters (tens of thousands: charged to the run).
func udLookup(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("lookup", args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	name, ok := interp.AsText(v)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "lookup() argument must be str, not %s", pyrt.TypeName(v))
	}
	want := strings.ToUpper(name)
	notFound := pyrt.Errorf("KeyError", "%s", interp.QuoteString("undefined character name '"+name+"'"))
	if len(want) > 100 {
		return nil, notFound
	}
	if hex, ok := strings.CutPrefix(want, "CJK UNIFIED IDEOGRAPH-"); ok {
		if n, err := strconv.ParseUint(hex, 16, 32); err == nil && len(hex) >= 4 && charName(rune(n)) == want {
			return interp.MakeString(string(rune(n))), nil
		}
		return nil, notFound
	}
	if strings.HasPrefix(want, "HANGUL SYLLABLE ") {
		for r := rune(0xAC00); r <= 0xD7A3; r++ {
			if charName(r) == want {
				return interp.MakeString(string(r)), nil
			}
		}
		return nil, notFound
	}
	b := interp.BudgetOf(thread)
	if err := b.Charge(100000); err != nil {
		return nil, err
	}
	// Ranges whose names are algorithmic, or that have none, are skipped;
	// the planes after U+E01EF are private use.
	skip := map[rune]rune{0x3400: 0x4DC0, 0x4E00: 0xA000, 0xAC00: 0xD7A4, 0xD800: 0xF900, 0x20000: 0x2F800, 0x2FA20: 0xE0000}
	for r := rune(0); r <= 0xE01EF; r++ {
		if to, ok := skip[r]; ok {
			r = to
		}
		if r&0xfff == 0 {
			if err := b.Charge(4096); err != nil {
				return nil, err
			}
		}
		if charName(r) == want {
			return interp.MakeString(string(r)), nil
		}
	}
	return nil, notFound
}

// categoryNames are Go's two-letter general categories, in a fixed
// order.
func categoryNames() []string {
	var names []string
	for k := range unicode.Categories {
		if len(k) == 2 && k != "LC" && k != "Cn" { // LC is Lu, Ll and Lt together; Cn is the rest
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}

func udCategory(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value
	if err := starlark.UnpackPositionalArgs("category", args, kwargs, 1, &c); err != nil {
		return nil, err
	}
	r, err := udChar("category", c)
	if err != nil {
		return nil, err
	}
	if k := udAssigned(r); k != "" {
		return starlark.String(k), nil
	}
	return starlark.String("Cn"), nil
}

// udAssigned is r's general category; "" for an unassigned code point.
func udAssigned(r rune) string {
	for _, k := range categoryNames() {
		if unicode.Is(unicode.Categories[k], r) {
			return k
		}
	}
	return ""
}

// udNormalize is normalize(form, s) and is_normalized(form, s).
func udNormalize(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f, s starlark.Value
	if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 2, &f, &s); err != nil {
		return nil, err
	}
	form, ok := interp.AsText(f)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "%s() argument 1 must be str, not %s", fn.Name(), pyrt.TypeName(f))
	}
	text, ok := interp.AsText(s)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "%s() argument 2 must be str, not %s", fn.Name(), pyrt.TypeName(s))
	}
	forms := map[string]unorm.Form{"NFC": unorm.NFC, "NFD": unorm.NFD, "NFKC": unorm.NFKC, "NFKD": unorm.NFKD}
	nf, ok := forms[form]
	if !ok {
		return nil, pyrt.Errorf("ValueError", "invalid normalization form")
	}
	// A piece of the text at a time, cut where normalization may cut it,
	// each charged: a long text is one call of x/text otherwise, seconds
	// that no deadline could stop, with an output (a decomposition) many
	// times longer than the text checked only when it is made.
	b := interp.BudgetOf(thread)
	out := textBuf{b: b}
	defer out.done()
	for len(text) > 0 {
		piece := text
		if len(piece) > normPiece {
			piece = text[:normPiece]
			if k := nf.LastBoundary(unsafe.Slice(unsafe.StringData(piece), len(piece))); k > 0 {
				piece = piece[:k]
			}
		}
		text = text[len(piece):]
		if err := b.Charge(uint64(len(piece)) / 4); err != nil {
			return nil, err
		}
		if fn.Name() == "is_normalized" {
			if !nf.IsNormalString(piece) {
				return starlark.False, nil
			}
			continue
		}
		if err := out.WriteString(nf.String(piece)); err != nil {
			return nil, err
		}
	}
	if fn.Name() == "is_normalized" {
		return starlark.True, nil
	}
	return out.value()
}

// normPiece is how many bytes of text normalize works on between charges.
const normPiece = 1 << 14

// udDigit is decimal(c[, default]), digit(c[, default]) and numeric(c[,
// default]). decimal reads the decimal digits (category Nd); digit and
// numeric also read what compatibility-decomposes to them (² is 2, and
// for numeric ½ is 0.5).
func udDigit(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := fn.Name()
	var c, dflt starlark.Value
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &c, &dflt); err != nil {
		return nil, err
	}
	r, err := udChar(name, c)
	if err != nil {
		return nil, err
	}
	fail := func() (starlark.Value, error) {
		if dflt != nil {
			return dflt, nil
		}
		what := map[string]string{"decimal": "not a decimal", "digit": "not a digit", "numeric": "not a numeric character"}[name]
		return nil, pyrt.Errorf("ValueError", "%s", what)
	}
	if d, ok := decimalDigit(r); ok {
		if name == "numeric" {
			return starlark.Float(d), nil
		}
		return starlark.MakeInt(d), nil
	}
	if name == "decimal" {
		return fail()
	}
	k := []rune(unorm.NFKC.String(string(r)))
	if len(k) == 1 && k[0] != r {
		if d, ok := decimalDigit(k[0]); ok {
			if name == "numeric" {
				return starlark.Float(d), nil
			}
			return starlark.MakeInt(d), nil
		}
	}
	if name == "numeric" {
		// A vulgar fraction: digits, the fraction slash, digits.
		if num, den, ok := strings.Cut(string(k), "\u2044"); ok {
			p, ok1 := new(big.Rat).SetString(num)
			q, ok2 := new(big.Rat).SetString(den)
			if ok1 && ok2 && q.Sign() != 0 {
				f, _ := new(big.Rat).Quo(p, q).Float64()
				return starlark.Float(f), nil
			}
		}
	}
	return fail()
}

// decimalDigit is the value of a decimal digit of any script: runs of
// category Nd are whole sets of ten, from zero.
func decimalDigit(r rune) (int, bool) {
	if !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10, true
}

func udCombining(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value
	if err := starlark.UnpackPositionalArgs("combining", args, kwargs, 1, &c); err != nil {
		return nil, err
	}
	r, err := udChar("combining", c)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(int(unorm.NFD.PropertiesString(string(r)).CCC())), nil
}

func udWidth(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value
	if err := starlark.UnpackPositionalArgs("east_asian_width", args, kwargs, 1, &c); err != nil {
		return nil, err
	}
	r, err := udChar("east_asian_width", c)
	if err != nil {
		return nil, err
	}
	if udAssigned(r) == "" {
		return starlark.String("F"), nil // CPython's answer for an unassigned code point
	}
	kinds := map[width.Kind]string{width.Neutral: "N", width.EastAsianAmbiguous: "A", width.EastAsianWide: "W",
		width.EastAsianNarrow: "Na", width.EastAsianFullwidth: "F", width.EastAsianHalfwidth: "H"}
	return starlark.String(kinds[width.LookupRune(r).Kind()]), nil
}
