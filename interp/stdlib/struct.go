package stdlib

import (
	"fmt"
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Struct is the struct module: values packed to bytes and unpacked from
// them by a format ("<I2h", "@qd", "!4sH"), as CPython 3.11 does on
// 64-bit Linux: its sizes, native alignment, byte orders, rounding of
// half floats, and the texts of struct.error. Formats are text a program
// may have from anywhere: a repeat count may ask for any size, so every
// result is charged to the run's memory budget before it is made.
func Struct() *starlarkstruct.Module {
	m := &structModule{errClass: pyrt.NewModuleClass("struct.error", "Exception")}
	m.class = &pyClass{module: "_struct", name: "Struct", is: isOf[*packer], ctor: m.newStruct}
	fn := func(name string, f interp.BuiltinFunc) *starlark.Builtin { return interp.NewBuiltin(name, f) }
	mod := &starlarkstruct.Module{Name: "struct", Members: starlark.StringDict{
		"Struct":      m.class,
		"error":       m.errClass,
		"calcsize":    fn("calcsize", m.calcsize),
		"pack":        fn("pack", m.pack),
		"pack_into":   fn("pack_into", m.packInto),
		"unpack":      fn("unpack", m.unpack),
		"unpack_from": fn("unpack_from", m.unpackFrom),
		"iter_unpack": fn("iter_unpack", m.iterUnpack),
	}}
	mod.Freeze()
	return mod
}

// StructGlobal is the struct module as the global programs see: also
// callable as Starlark's struct(a=1, …), the global of that name before
// Python's module took it, so plain Starlark keeps running.
func StructGlobal() starlark.Value {
	return &callableModule{Module: Struct(), call: interp.NewBuiltin("struct", starlarkstruct.Make)}
}

// callableModule is a module that is also a function.
type callableModule struct {
	*starlarkstruct.Module
	call *starlark.Builtin
}

var _ starlark.Callable = (*callableModule)(nil)

func (c *callableModule) Name() string { return c.Module.Name }
func (c *callableModule) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.Call(thread, c.call, args, kwargs)
}

// moduleOf is the module a value of Modules() is: itself, or the one
// inside a callable global.
func moduleOf(v starlark.Value) (*starlarkstruct.Module, bool) {
	switch x := v.(type) {
	case *starlarkstruct.Module:
		return x, true
	case *callableModule:
		return x.Module, true
	case *osModule:
		return x.Module, true
	}
	return nil, false
}

type structModule struct {
	errClass *pyrt.ExcClass // struct.error
	class    *pyClass       // struct.Struct
}

// fail is a struct.error raised to the program.
func (m *structModule) fail(format string, args ...any) error {
	return m.errClass.Raise(fmt.Sprintf(format, args...), nil)
}

// maxSsize is CPython's PY_SSIZE_T_MAX: no size or count may pass it.
const maxSsize = math.MaxInt64

// field is one code of a format with its repeat count: count values of
// size bytes from off, or for s and p one bytes value of count bytes.
type field struct {
	code  byte
	count int64
	size  int64
	off   int64
}

// layout is a parsed format.
type layout struct {
	format string // the format's text, as Struct.format gives it
	order  byte   // '@' (native), '<' or '>': '=' and '!' are read as '<' and '>'
	fields []field
	size   int64 // bytes packed
	items  int64 // values packed or unpacked
}

// codeSize is the size of a code's item and its alignment in native
// mode; ok is false for a code the table of that mode does not have.
func codeSize(c byte, native bool) (size int64, ok bool) {
	switch c {
	case 'x', 'c', 'b', 'B', '?', 's', 'p':
		return 1, true
	case 'h', 'H', 'e':
		return 2, true
	case 'i', 'I', 'f':
		return 4, true
	case 'q', 'Q', 'd':
		return 8, true
	case 'l', 'L':
		if native {
			return 8, true
		}
		return 4, true
	case 'n', 'N', 'P':
		return 8, native
	}
	return 0, false
}

// isFormatSpace is C's isspace, which CPython skips between codes.
func isFormatSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parse reads a format, as CPython's Struct() does: its sizes are checked
// against overflow with CPython's messages, and its cost is one charge
// per code (the format's length bounds everything parse keeps).
func (m *structModule) parse(b *interp.Budget, format string) (*layout, error) {
	if err := b.Charge(uint64(len(format))/4 + 1); err != nil {
		return nil, err
	}
	for i := 0; i < len(format); i++ {
		if format[i] == 0 {
			return nil, m.fail("embedded null character")
		}
	}
	l := &layout{format: format, order: '@'}
	s := format
	if len(s) > 0 {
		switch s[0] {
		case '@', '<', '>':
			l.order, s = s[0], s[1:]
		case '=':
			l.order, s = '<', s[1:] // native order, standard sizes: little-endian here
		case '!':
			l.order, s = '>', s[1:]
		}
	}
	native := l.order == '@'
	tooLong := func() error { return m.fail("total struct size too long") }
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if isFormatSpace(c) {
			continue
		}
		num := int64(1)
		if '0' <= c && c <= '9' {
			num = int64(c - '0')
			for i < len(s) && '0' <= s[i] && s[i] <= '9' {
				d := int64(s[i] - '0')
				if num > (maxSsize-d)/10 {
					return nil, tooLong()
				}
				num = num*10 + d
				i++
			}
			if i == len(s) {
				return nil, m.fail("repeat count given without format specifier")
			}
			c = s[i]
			i++
		}
		size, ok := codeSize(c, native)
		if !ok {
			return nil, m.fail("bad char in struct format")
		}
		switch c {
		case 's', 'p':
			l.items++
		case 'x':
		default:
			l.items += num // at most the size, which is checked below
		}
		if native && size > 1 && l.size > 0 {
			// Aligned to its size, even with a count of 0 ("c0i").
			extra := (size - 1) - (l.size-1)%size
			if extra > maxSsize-l.size {
				return nil, tooLong()
			}
			l.size += extra
		}
		if num > (maxSsize-l.size)/size {
			return nil, tooLong()
		}
		if c != 'x' {
			l.fields = append(l.fields, field{code: c, count: num, size: size, off: l.size})
		}
		l.size += num * size
	}
	return l, nil
}

// formatText is the text of a format argument: a str of ASCII characters
// or bytes. cached is true for the module's functions, which look the
// format up in a cache first in CPython (an unhashable format is that
// lookup's TypeError).
func formatText(v starlark.Value, cached bool) (string, error) {
	if cached {
		if _, err := v.Hash(); err != nil {
			return "", pyrt.Errorf("TypeError", "unhashable type: '%s'", pyrt.TypeName(v))
		}
	}
	if s, ok := interp.AsText(v); ok {
		if err := asciiOnly(s); err != nil {
			return "", err
		}
		return s, nil
	}
	switch x := v.(type) {
	case interp.Bytes:
		return string(x), nil
	case starlark.Bytes:
		return string(x), nil
	}
	return "", pyrt.Errorf("TypeError", "Struct() argument 1 must be a str or bytes object, not %s", pyrt.TypeName(v))
}

// asciiOnly is str.encode('ascii')'s error for the first run of other
// characters in s, nil when there is none.
func asciiOnly(s string) error {
	pos, start := 0, -1
	var first rune
	n := 0
	for _, r := range s {
		if r >= 0x80 {
			if start < 0 {
				start, first = pos, r
			}
			n++
		} else if start >= 0 {
			break
		}
		pos++
	}
	switch {
	case start < 0:
		return nil
	case n == 1:
		return pyrt.Errorf("UnicodeEncodeError", "'ascii' codec can't encode character '%s' in position %d: ordinal not in range(128)", escapeChar(first), start)
	}
	return pyrt.Errorf("UnicodeEncodeError", "'ascii' codec can't encode characters in position %d-%d: ordinal not in range(128)", start, start+n-1)
}

// escapeChar is how CPython's messages write a character that is not
// ASCII: \xe9, \u20ac, \U0001f600.
func escapeChar(r rune) string {
	switch {
	case r < 0x100:
		return fmt.Sprintf(`\x%02x`, r)
	case r < 0x10000:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// layoutOf parses the format argument of a module function.
func (m *structModule) layoutOf(thread *starlark.Thread, v starlark.Value) (*layout, error) {
	s, err := formatText(v, true)
	if err != nil {
		return nil, err
	}
	return m.parse(interp.BudgetOf(thread), s)
}

// newBuffer makes the zeroed buffer of a packed value of n bytes, charged
// to the run's memory budget first. With no memory budget a buffer over
// 1 GiB is a MemoryError rather than an attempt.
func newBuffer(thread *starlark.Thread, n int64) ([]byte, error) {
	const bytesHeader = 33 // of a CPython bytes object, which caps its length
	if n > maxSsize-bytesHeader {
		return nil, pyrt.Errorf("OverflowError", "byte string is too large")
	}
	if err := interp.BudgetOf(thread).Alloc(n); err != nil {
		return nil, err
	}
	if n > 1<<30 {
		return nil, pyrt.Errorf("MemoryError", "")
	}
	return make([]byte, n), nil
}

// packValues writes values into buf (of l.size bytes at least) as l
// says; len(values) is l.items.
func (m *structModule) packValues(thread *starlark.Thread, l *layout, buf []byte, values starlark.Tuple) error {
	b := interp.BudgetOf(thread)
	k := 0
	for _, f := range l.fields {
		if err := b.Charge(1); err != nil {
			return err
		}
		switch f.code {
		case 's', 'p':
			if err := m.packBytes(buf[f.off:], f, values[k]); err != nil {
				return err
			}
			k++
			continue
		}
		if err := b.Charge(uint64(f.count) / 8); err != nil {
			return err
		}
		for j := int64(0); j < f.count; j++ {
			if err := m.packOne(buf[f.off+j*f.size:f.off+(j+1)*f.size], f.code, l.order, values[k]); err != nil {
				return err
			}
			k++
		}
	}
	return nil
}

// packBytes writes a bytes value for s (padded with zeros or cut to its
// count) or p (a length byte, then as s with one byte less).
func (m *structModule) packBytes(buf []byte, f field, v starlark.Value) error {
	data, ok := v.(interp.Bytes)
	var s string
	if ok {
		s = string(data)
	} else if ba, isBA := v.(*interp.ByteArray); isBA {
		s = ba.Bytes()
	} else if sb, isSB := v.(starlark.Bytes); isSB {
		s = string(sb)
	} else {
		return m.fail("argument for '%c' must be a bytes object", f.code)
	}
	if f.code == 's' {
		copy(buf[:f.count], s)
		return nil
	}
	if f.count == 0 {
		// CPython writes the length byte (255, from -1) even for "0p",
		// where the next value then overwrites it.
		if len(buf) > 0 {
			buf[0] = 0xff
		}
		return nil
	}
	n := min(int64(len(s)), f.count-1)
	copy(buf[1:f.count], s[:n])
	buf[0] = byte(min(n, 255))
	return nil
}

// structInt is the int a code packs; ok is false for anything else (a
// float is not taken, as in CPython 3.11).
func structInt(v starlark.Value) (starlark.Int, bool) {
	n, err := toInt(v)
	return n, err == nil
}

// floatArg is the float a code packs: a float, or an int that converts
// to one (rounded to nearest); ok is false for anything else.
func floatArg(v starlark.Value) (float64, bool) {
	switch x := v.(type) {
	case starlark.Float:
		return float64(x), true
	case starlark.Bool:
		if x {
			return 1, true
		}
		return 0, true
	case starlark.Int:
		if i, ok := x.Int64(); ok && i > -1<<53 && i < 1<<53 {
			return float64(i), true
		}
		f, _ := new(big.Float).SetInt(x.BigInt()).Float64()
		if math.IsInf(f, 0) {
			return 0, false // CPython's OverflowError, reported as not a float
		}
		return f, true
	}
	return 0, false
}

// packOne writes one value of an integer, bool, char or float code into
// buf, which is exactly the code's size.
func (m *structModule) packOne(buf []byte, c, order byte, v starlark.Value) error {
	switch c {
	case '?':
		if v.Truth() {
			buf[0] = 1
		}
		return nil
	case 'c':
		s, ok := v.(interp.Bytes)
		if sb, isSB := v.(starlark.Bytes); isSB {
			s, ok = interp.Bytes(sb), true
		}
		if !ok || len(s) != 1 {
			return m.fail("char format requires a bytes object of length 1")
		}
		buf[0] = s[0]
		return nil
	case 'e', 'f', 'd':
		x, ok := floatArg(v)
		if !ok {
			return m.fail("required argument is not a float")
		}
		tooLarge := func() error {
			if _, isInt := structInt(v); isInt {
				// CPython turns an OverflowError in packing an int into
				// this struct.error.
				return m.fail("int too large to convert")
			}
			return pyrt.Errorf("OverflowError", "float too large to pack with %c format", c)
		}
		var bits uint64
		switch c {
		case 'e':
			h, ok := float16Bits(x)
			if !ok {
				return tooLarge()
			}
			bits = uint64(h)
		case 'f':
			y := float32(x)
			if order != '@' && math.IsInf(float64(y), 0) && !math.IsInf(x, 0) {
				return tooLarge()
			}
			bits = uint64(math.Float32bits(y))
		default:
			bits = math.Float64bits(x)
			if bits&^(1<<63) == goNaN {
				// Go's NaN, which float('nan') and math.nan are here:
				// CPython's has no payload.
				bits = bits&(1<<63) | 0x7ff8000000000000
			}
		}
		putUint(buf, bits, order == '>')
		return nil
	}
	n, ok := structInt(v)
	if !ok {
		return m.fail("required argument is not an integer")
	}
	bits, err := m.intBits(n, c, order, int64(len(buf)))
	if err != nil {
		return err
	}
	putUint(buf, bits, order == '>')
	return nil
}

// intBits is n as the two's complement bits of code c, or the struct.error
// CPython gives for it. CPython converts n to a C long or unsigned long
// first, then checks the code's range, each with its own message, which
// differ by code and byte order.
func (m *structModule) intBits(n starlark.Int, c, order byte, size int64) (uint64, error) {
	big := order == '>'
	outOfRange := func() (uint64, error) { return 0, m.fail("argument out of range") }
	if c == 'P' {
		if i, ok := n.Int64(); ok {
			return uint64(i), nil
		}
		if u, ok := n.Uint64(); ok {
			return u, nil
		}
		return 0, m.fail("int too large to convert")
	}
	if big && size == 8 {
		if c == 'q' {
			if i, ok := n.Int64(); ok {
				return uint64(i), nil
			}
		} else if u, ok := n.Uint64(); ok {
			return u, nil
		}
		return 0, m.fail("int too large to convert")
	}
	if c == 'I' || c == 'L' || c == 'Q' || c == 'N' || c == 'H' && big {
		u, ok := n.Uint64()
		if !ok {
			return outOfRange()
		}
		if size == 8 {
			return u, nil
		}
		if limit := uint64(1)<<(8*size) - 1; u > limit {
			return 0, m.fail("'%c' format requires 0 <= number <= %d", c, limit)
		}
		return u, nil
	}
	i, ok := n.Int64()
	if !ok {
		return outOfRange()
	}
	if size == 8 {
		return uint64(i), nil
	}
	var lo, hi int64
	if c == 'B' || c == 'H' {
		lo, hi = 0, 1<<(8*size)-1
	} else {
		hi = 1<<(8*size-1) - 1
		lo = -hi - 1
	}
	if i < lo || i > hi {
		switch {
		case c == 'b':
			return 0, m.fail("byte format requires -128 <= number <= 127")
		case c == 'B':
			return 0, m.fail("ubyte format requires 0 <= number <= 255")
		case c == 'h' && !big:
			return 0, m.fail("short format requires -32768 <= number <= 32767")
		case c == 'H':
			return 0, m.fail("ushort format requires 0 <= number <= 65535")
		}
		return 0, m.fail("'%c' format requires %d <= number <= %d", c, lo, hi)
	}
	return uint64(i), nil
}

// goNaN is the bits of Go's math.NaN() (without the sign).
const goNaN = 0x7ff8000000000001

// putUint writes the low len(buf) bytes of x in the byte order asked.
func putUint(buf []byte, x uint64, bigEndian bool) {
	n := len(buf)
	for i := 0; i < n; i++ {
		if bigEndian {
			buf[n-1-i] = byte(x >> (8 * i))
		} else {
			buf[i] = byte(x >> (8 * i))
		}
	}
}

// getUint reads buf as an unsigned number in the byte order asked.
func getUint(buf string, bigEndian bool) uint64 {
	var x uint64
	n := len(buf)
	for i := 0; i < n; i++ {
		if bigEndian {
			x |= uint64(buf[n-1-i]) << (8 * i)
		} else {
			x |= uint64(buf[i]) << (8 * i)
		}
	}
	return x
}

// float16Bits is x as an IEEE 754 half float, rounded to nearest with
// ties to even; ok is false when x is finite and too large for one.
func float16Bits(x float64) (uint16, bool) {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
	}
	switch {
	case math.IsNaN(x):
		return sign | 0x7e00, true // the quiet NaN of x's sign, as CPython
	case math.IsInf(x, 0):
		return sign | 0x7c00, true
	case x == 0:
		return sign, true
	}
	a := math.Abs(x)
	_, exp := math.Frexp(a)
	e := max(exp-1, -14) // a < 2**(e+1); below 2**-14 the unit is 2**-24
	// The significand with 10 bits after the point: scaling by a power of
	// two is exact, so only this rounding rounds.
	mant := math.RoundToEven(math.Ldexp(a, 10-e))
	if mant == 2048 {
		mant, e = 1024, e+1
	}
	if e > 15 {
		return 0, false
	}
	if mant < 1024 {
		return sign | uint16(mant), true // subnormal
	}
	return sign | uint16(e+15)<<10 | uint16(mant-1024), true
}

// float16Value is the float of IEEE 754 half float bits.
func float16Value(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, mant := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0x1f:
		if mant == 0 {
			return math.Inf(int(sign))
		}
		return math.Copysign(math.NaN(), sign)
	case 0:
		return sign * math.Ldexp(mant, -24)
	}
	return sign * math.Ldexp(1024+mant, exp-25)
}

// unpackValues reads the values of l from buf (of l.size bytes at least).
// The bytes values it makes share buf's memory.
func unpackValues(thread *starlark.Thread, l *layout, buf string) (starlark.Tuple, error) {
	b := interp.BudgetOf(thread)
	// items is at most the size plus the format's length: the buffer and
	// the format bound it.
	if err := b.Alloc((l.items + 1) * 16); err != nil {
		return nil, err
	}
	out := make(starlark.Tuple, 0, l.items)
	bigEndian := l.order == '>'
	for _, f := range l.fields {
		if err := b.Charge(1 + uint64(f.count)/8); err != nil {
			return nil, err
		}
		switch f.code {
		case 's':
			out = append(out, interp.Bytes(buf[f.off:f.off+f.count]))
			continue
		case 'p':
			if f.count == 0 {
				// CPython fails here (a SystemError); nothing was asked for.
				out = append(out, interp.Bytes(""))
				continue
			}
			n := min(int64(buf[f.off]), f.count-1)
			out = append(out, interp.Bytes(buf[f.off+1:f.off+1+n]))
			continue
		}
		for j := int64(0); j < f.count; j++ {
			item := buf[f.off+j*f.size : f.off+(j+1)*f.size]
			out = append(out, unpackOne(item, f.code, bigEndian))
		}
	}
	return out, nil
}

// unpackOne reads one value of an integer, bool, char or float code.
func unpackOne(item string, c byte, bigEndian bool) starlark.Value {
	switch c {
	case '?':
		return starlark.Bool(item[0] != 0)
	case 'c':
		return interp.Bytes(item)
	case 'e':
		return starlark.Float(float16Value(uint16(getUint(item, bigEndian))))
	case 'f':
		return starlark.Float(math.Float32frombits(uint32(getUint(item, bigEndian))))
	case 'd':
		return starlark.Float(math.Float64frombits(getUint(item, bigEndian)))
	}
	u := getUint(item, bigEndian)
	switch c {
	case 'b', 'h', 'i', 'l', 'q', 'n':
		shift := 64 - 8*len(item)
		return starlark.MakeInt64(int64(u<<shift) >> shift) // sign-extended
	}
	return starlark.MakeUint64(u)
}

// readBuffer is the content of a bytes-like argument.
func readBuffer(v starlark.Value) (string, error) {
	if s, ok := interp.AsBytes(v); ok {
		return s, nil
	}
	return "", pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
}

// calcsize(format).
func (m *structModule) calcsize(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := cMethodO("_struct.calcsize", args, kwargs); err != nil {
		return nil, err
	}
	l, err := m.layoutOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt64(l.size), nil
}

// cMethodO checks the call of a C function of one argument (METH_O).
func cMethodO(name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return pyrt.Errorf("TypeError", "%s() takes no keyword arguments", name)
	}
	if len(args) != 1 {
		return pyrt.Errorf("TypeError", "%s() takes exactly one argument (%d given)", name, len(args))
	}
	return nil
}

// pack(format, v1, v2, ...).
func (m *structModule) pack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "_struct.pack() takes no keyword arguments")
	}
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "missing format argument")
	}
	l, err := m.layoutOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	return m.packLayout(thread, l, args[1:])
}

func (m *structModule) packLayout(thread *starlark.Thread, l *layout, values starlark.Tuple) (starlark.Value, error) {
	if int64(len(values)) != l.items {
		return nil, m.fail("pack expected %d items for packing (got %d)", l.items, len(values))
	}
	buf, err := newBuffer(thread, l.size)
	if err != nil {
		return nil, err
	}
	if err := m.packValues(thread, l, buf, values); err != nil {
		return nil, err
	}
	return interp.Bytes(buf), nil
}

// pack_into(format, buffer, offset, v1, v2, ...).
func (m *structModule) packInto(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "_struct.pack_into() takes no keyword arguments")
	}
	if len(args) == 0 {
		return nil, pyrt.Errorf("TypeError", "missing format argument")
	}
	l, err := m.layoutOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	return m.packIntoLayout(thread, l, args[1:])
}

func (m *structModule) packIntoLayout(thread *starlark.Thread, l *layout, args starlark.Tuple) (starlark.Value, error) {
	if int64(len(args)) != l.items+2 {
		switch len(args) {
		case 0:
			return nil, m.fail("pack_into expected buffer argument")
		case 1:
			return nil, m.fail("pack_into expected offset argument")
		}
		return nil, m.fail("pack_into expected %d items for packing (got %d)", l.items, len(args)-2)
	}
	ba, ok := args[0].(*interp.ByteArray)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "argument must be read-write bytes-like object, not %s", pyrt.TypeName(args[0]))
	}
	offset, err := ssizeArg(args[1], "IndexError", "cannot fit 'int' into an index-sized integer")
	if err != nil {
		return nil, err
	}
	n := int64(ba.Len())
	if offset < 0 {
		if offset+l.size > 0 {
			return nil, m.fail("no space to pack %d bytes at offset %d", l.size, offset)
		}
		if offset+n < 0 {
			return nil, m.fail("offset %d out of range for %d-byte buffer", offset, n)
		}
		offset += n
	}
	if n-offset < l.size {
		return nil, m.fail("pack_into requires a buffer of at least %d bytes for packing %d bytes at offset %d (actual buffer size is %d)",
			uint64(l.size)+uint64(offset), l.size, offset, n)
	}
	if err := ba.CheckMutable(); err != nil {
		return nil, err
	}
	// As CPython, the region is zeroed (pads too) and the values written
	// in order: a bad value leaves those before it written. They are
	// packed apart, then copied in; the bytearray bounds the size.
	buf, err := newBuffer(thread, l.size)
	if err != nil {
		return nil, err
	}
	packErr := m.packValues(thread, l, buf, args[2:])
	if err := ba.WriteAt(int(offset), buf); err != nil {
		return nil, err
	}
	if packErr != nil {
		return nil, packErr
	}
	return starlark.None, nil
}

// ssizeArg is an offset: an int that fits a C ssize_t. class and msg are
// the error of one that does not.
func ssizeArg(v starlark.Value, class, msg string) (int64, error) {
	n, ok := structInt(v)
	if !ok {
		return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
	}
	i, ok := n.Int64()
	if !ok {
		return 0, pyrt.Errorf(class, "%s", msg)
	}
	return i, nil
}

// unpack(format, buffer).
func (m *structModule) unpack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "_struct.unpack() takes no keyword arguments")
	}
	if len(args) != 2 {
		return nil, pyrt.Errorf("TypeError", "unpack expected 2 arguments, got %d", len(args))
	}
	l, err := m.layoutOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	return m.unpackLayout(thread, l, args[1])
}

func (m *structModule) unpackLayout(thread *starlark.Thread, l *layout, v starlark.Value) (starlark.Value, error) {
	buf, err := readBuffer(v)
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) != l.size {
		return nil, m.fail("unpack requires a buffer of %d bytes", l.size)
	}
	return unpackValues(thread, l, buf)
}

// unpack_from(format, /, buffer, offset=0).
func (m *structModule) unpackFrom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		if len(args)+len(kwargs) > 3 {
			return nil, pyrt.Errorf("TypeError", "unpack_from() takes at most 3 arguments (%d given)", len(kwargs))
		}
		return nil, pyrt.Errorf("TypeError", "unpack_from() takes at least 1 positional argument (0 given)")
	}
	for _, kv := range kwargs {
		if k, _ := starlark.AsString(kv[0]); k == "format" {
			return nil, pyrt.Errorf("TypeError", "'format' is an invalid keyword argument for unpack_from()")
		}
	}
	var format, buffer starlark.Value
	offset := starlark.Value(starlark.MakeInt(0))
	if err := unpackC("unpack_from", args, kwargs, "format", &format, "buffer", &buffer, "offset?", &offset); err != nil {
		return nil, err
	}
	l, err := m.layoutOf(thread, format)
	if err != nil {
		return nil, err
	}
	return m.unpackFromLayout(thread, l, buffer, offset)
}

func (m *structModule) unpackFromLayout(thread *starlark.Thread, l *layout, v, offsetArg starlark.Value) (starlark.Value, error) {
	buf, err := readBuffer(v)
	if err != nil {
		return nil, err
	}
	offset, err := ssizeArg(offsetArg, "OverflowError", "Python int too large to convert to C ssize_t")
	if err != nil {
		return nil, err
	}
	n := int64(len(buf))
	if offset < 0 {
		if offset+n < 0 {
			return nil, m.fail("offset %d out of range for %d-byte buffer", offset, n)
		}
		offset += n
	}
	if n-offset < l.size {
		return nil, m.fail("unpack_from requires a buffer of at least %d bytes for unpacking %d bytes at offset %d (actual buffer size is %d)",
			uint64(l.size)+uint64(offset), l.size, offset, n)
	}
	return unpackValues(thread, l, buf[offset:offset+l.size])
}

// iter_unpack(format, buffer).
func (m *structModule) iterUnpack(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "_struct.iter_unpack() takes no keyword arguments")
	}
	if len(args) != 2 {
		return nil, pyrt.Errorf("TypeError", "iter_unpack expected 2 arguments, got %d", len(args))
	}
	l, err := m.layoutOf(thread, args[0])
	if err != nil {
		return nil, err
	}
	return m.iterUnpackLayout(thread, l, args[1])
}

func (m *structModule) iterUnpackLayout(thread *starlark.Thread, l *layout, v starlark.Value) (starlark.Value, error) {
	if l.size == 0 {
		return nil, m.fail("cannot iteratively unpack with a struct of length 0")
	}
	s, err := readBuffer(v)
	if err != nil {
		return nil, err
	}
	if int64(len(s))%l.size != 0 {
		return nil, m.fail("iterative unpacking requires a buffer of a multiple of %d bytes", l.size)
	}
	// A bytearray changed later does not change what is read, unlike
	// CPython's view of it: s is the content now.
	buf, off := s, int64(0)
	return pyrt.NewIterator(thread, "unpack_iterator", func(thread *starlark.Thread) (starlark.Value, bool, error) {
		if off+l.size > int64(len(buf)) {
			return nil, false, nil
		}
		t, err := unpackValues(thread, l, buf[off:off+l.size])
		if err != nil {
			return nil, false, err
		}
		off += l.size
		return t, true, nil
	}, v), nil
}

// newStruct is Struct(format).
func (m *structModule) newStruct(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var format starlark.Value
	if err := unpackC("Struct", args, kwargs, "format", &format); err != nil {
		return nil, err
	}
	s, err := formatText(format, false)
	if err != nil {
		return nil, err
	}
	l, err := m.parse(interp.BudgetOf(thread), s)
	if err != nil {
		return nil, err
	}
	return &packer{m: m, l: l}, nil
}

// packer is a struct.Struct: a format parsed once.
type packer struct {
	m *structModule
	l *layout
}

var _ starlark.HasAttrs = (*packer)(nil)

func (p *packer) String() string          { return "<_struct.Struct object>" }
func (p *packer) Type() string            { return "_struct.Struct" }
func (p *packer) Freeze()                 {}
func (p *packer) Truth() starlark.Bool    { return true }
func (p *packer) Hash() (uint32, error)   { return starlark.String(p.l.format).Hash() }
func (p *packer) PyClass() starlark.Value { return p.m.class }
func (p *packer) AttrNames() []string {
	return []string{"format", "iter_unpack", "pack", "pack_into", "size", "unpack", "unpack_from"}
}

func (p *packer) Attr(name string) (starlark.Value, error) {
	method := func(fn interp.BuiltinFunc) (starlark.Value, error) { return interp.NewBuiltin(name, fn), nil }
	switch name {
	case "format":
		return starlark.String(p.l.format), nil
	case "size":
		return starlark.MakeInt64(p.l.size), nil
	case "pack":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "Struct.pack() takes no keyword arguments")
			}
			return p.m.packLayout(thread, p.l, args)
		})
	case "pack_into":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "Struct.pack_into() takes no keyword arguments")
			}
			return p.m.packIntoLayout(thread, p.l, args)
		})
	case "unpack", "iter_unpack":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := cMethodO("Struct."+name, args, kwargs); err != nil {
				return nil, err
			}
			if name == "unpack" {
				return p.m.unpackLayout(thread, p.l, args[0])
			}
			return p.m.iterUnpackLayout(thread, p.l, args[0])
		})
	case "unpack_from":
		return method(func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var buffer starlark.Value
			offset := starlark.Value(starlark.MakeInt(0))
			if err := unpackC("unpack_from", args, kwargs, "buffer", &buffer, "offset?", &offset); err != nil {
				return nil, err
			}
			return p.m.unpackFromLayout(thread, p.l, buffer, offset)
		})
	}
	return nil, noAttr(p, name)
}
