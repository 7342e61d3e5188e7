package pyrt

import (
	"math"
	"strings"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// printf is Python's printf-style formatting, `format % args`:
//
//	%[(key)][flags][width][.precision][length]type
//
// flags "#0- +", width and precision numbers or '*', types d i u o x X e
// E f F g G c r s a and %; args a tuple (positional), a mapping (keys), or
// one value. Texts, errors and corner cases are CPython's.
func printf(b *interp.Budget, format string, args starlark.Value) (string, error) {
	var positional []starlark.Value
	var mapping starlark.Mapping
	single := false
	if t, sub, ok := tupleOf(args); ok && sub {
		args = t // a namedtuple's fields, as CPython's % takes a tuple's subclass
	}
	switch a := args.(type) {
	case starlark.Tuple:
		positional = a
	default:
		positional = []starlark.Value{args}
		single = true
		if m, ok := args.(starlark.Mapping); ok {
			if _, isStr := interp.AsText(args); !isStr {
				mapping = m
			}
		}
	}
	next := 0
	nextArg := func() (starlark.Value, error) {
		if next >= len(positional) {
			return nil, typeError("not enough arguments for format string")
		}
		v := positional[next]
		next++
		return v, nil
	}
	usedMapping := false
	w := interp.TextWriter{Budget: b}
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			if err := w.WriteString(format[i:]); err != nil {
				return "", err
			}
			break
		}
		if err := w.WriteString(format[i : i+j]); err != nil {
			return "", err
		}
		i += j + 1
		if i >= len(format) {
			return "", valueError("incomplete format")
		}
		var arg starlark.Value
		if format[i] == '(' {
			if mapping == nil {
				return "", typeError("format requires a mapping")
			}
			depth, k := 1, i+1
			for ; k < len(format) && depth > 0; k++ {
				switch format[k] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth > 0 {
				return "", valueError("incomplete format key")
			}
			key := format[i+1 : k-1]
			v, found, err := mapping.Get(interp.MakeString(key))
			if err != nil {
				return "", err
			}
			if !found {
				return "", keyError("'%s'", key)
			}
			arg, usedMapping, i = v, true, k
		}
		sp := spec{fill: ' ', width: -1, precision: -1}
		flagsDone := false
		for i < len(format) && !flagsDone {
			switch format[i] {
			case '-':
				sp.align = '<'
			case '+':
				sp.sign = '+'
			case ' ':
				if sp.sign == 0 {
					sp.sign = ' '
				}
			case '#':
				sp.alt = true
			case '0':
				if sp.align == 0 {
					sp.fill = '0'
				}
			default:
				flagsDone = true
				continue
			}
			i++
		}
		if sp.align == '<' {
			sp.fill = ' ' // '-' wins over '0'
		}
		var err error
		if i < len(format) && format[i] == '*' {
			v, err := nextArg()
			if err != nil {
				return "", err
			}
			n, ok := v.(starlark.Int)
			w, ok2 := n.Int64()
			if !ok || !ok2 || w != int64(int32(w)) {
				return "", typeError("* wants int")
			}
			if w < 0 {
				sp.align, sp.fill, w = '<', ' ', -w
			}
			sp.width = int(w)
			i++
		} else if sp.width, i, err = specNumber(format, i); err != nil {
			return "", err
		}
		if i < len(format) && format[i] == '.' {
			i++
			if i < len(format) && format[i] == '*' {
				v, err := nextArg()
				if err != nil {
					return "", err
				}
				n, ok := v.(starlark.Int)
				p, ok2 := n.Int64()
				if !ok || !ok2 || p != int64(int32(p)) {
					return "", typeError("* wants int")
				}
				sp.precision = max(int(p), 0)
				i++
			} else {
				if sp.precision, i, err = specNumber(format, i); err != nil {
					return "", err
				}
				if sp.precision < 0 {
					sp.precision = 0
				}
			}
		}
		for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
			i++
		}
		if i >= len(format) {
			return "", valueError("incomplete format")
		}
		conv := format[i]
		i++
		if conv == '%' {
			if err := w.WriteString("%"); err != nil {
				return "", err
			}
			continue
		}
		if arg == nil {
			if arg, err = nextArg(); err != nil {
				return "", err
			}
		}
		text, err := printfOne(b, conv, arg, sp)
		if err != nil {
			if e, ok := err.(*Exception); ok && e.Msg == "" {
				return "", valueError("unsupported format character '%c' (0x%x) at index %d", conv, conv, i-1)
			}
			return "", err
		}
		if err := w.WriteString(text); err != nil {
			return "", err
		}
	}
	if !usedMapping && next < len(positional) && !(single && (mapping != nil || subscriptable(args))) {
		return "", typeError("not all arguments converted during string formatting")
	}
	return w.String(), nil
}

// printfOne converts one argument; an *Exception with no message means
// an unknown conversion character.
func printfOne(b *interp.Budget, conv byte, arg starlark.Value, sp spec) (string, error) {
	switch conv {
	case 's', 'r', 'a':
		var s string
		var err error
		switch conv {
		case 's':
			s, err = interp.Str(b, arg)
		case 'r':
			s, err = interp.Repr(b, arg)
		default:
			s, err = interp.Repr(b, arg)
			s = asciiEscape(s)
		}
		if err != nil {
			return "", err
		}
		if sp.precision >= 0 {
			if r := []rune(s); len(r) > sp.precision {
				s = string(r[:sp.precision])
			}
		}
		sp.fill = ' '
		return pad(b, "", s, sp, '>')
	case 'd', 'i', 'u':
		n, err := printfInt(arg, conv, true)
		if err != nil {
			return "", err
		}
		return printfNumber(b, n, 'd', sp)
	case 'o', 'x', 'X':
		n, err := printfInt(arg, conv, false)
		if err != nil {
			return "", err
		}
		return printfNumber(b, n, conv, sp)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		var f float64
		switch x := arg.(type) {
		case starlark.Float:
			f = float64(x)
		case starlark.Int:
			var err error
			if f, err = intToFloat(x); err != nil {
				return "", err
			}
		case starlark.Bool:
			if x {
				f = 1
			}
		case Number:
			v, err := x.PyFloat()
			if err != nil {
				return "", err
			}
			f = float64(v.(starlark.Float))
		default:
			return "", typeError("must be real number, not %s", pyTypeName(arg))
		}
		if sp.fill == '0' {
			sp.align = '='
		}
		if sp.precision < 0 {
			sp.precision = 6
		}
		sp.typ = conv
		if conv == 'g' || conv == 'G' {
			if sp.precision == 0 {
				sp.precision = 1
			}
		}
		return formatFloat(b, f, sp)
	case 'c':
		switch x := arg.(type) {
		case starlark.String, *interp.Unicode:
			text, _ := interp.AsText(x)
			if len([]rune(text)) != 1 {
				return "", typeError("%%c requires int or char")
			}
			sp.fill = ' '
			return pad(b, "", text, sp, '>')
		case starlark.Int:
			n, ok := x.Int64()
			if !ok || n < 0 || n > 0x10FFFF {
				return "", exception("OverflowError", "%%c arg not in range(0x110000)")
			}
			sp.fill = ' '
			return pad(b, "", string(rune(n)), sp, '>')
		}
		return "", typeError("%%c requires int or char")
	}
	return "", &Exception{Class: "ValueError"}
}

// printfInt reads the argument of an integer conversion: an int, a bool,
// or (for d, i, u) a float, truncated.
func printfInt(arg starlark.Value, conv byte, floats bool) (starlark.Int, error) {
	switch x := arg.(type) {
	case starlark.Int:
		return x, nil
	case starlark.Bool:
		if x {
			return starlark.MakeInt(1), nil
		}
		return starlark.MakeInt(0), nil
	case starlark.Float:
		if floats {
			f := float64(x)
			if math.IsInf(f, 0) {
				return starlark.Int{}, exception("OverflowError", "cannot convert float infinity to integer")
			}
			if math.IsNaN(f) {
				return starlark.Int{}, valueError("cannot convert float NaN to integer")
			}
			return starlark.NumberToInt(x)
		}
		return starlark.Int{}, typeError("%%%c format: an integer is required, not float", conv)
	case Number:
		if floats {
			v, err := x.PyInt(nil)
			if err != nil {
				return starlark.Int{}, err
			}
			return v.(starlark.Int), nil
		}
	}
	if floats {
		return starlark.Int{}, typeError("%%%c format: a real number is required, not %s", conv, pyTypeName(arg))
	}
	return starlark.Int{}, typeError("%%%c format: an integer is required, not %s", conv, pyTypeName(arg))
}

// printfNumber formats an integer for %d, %o, %x, %X: a precision is a
// minimum number of digits; '#' adds 0o, 0x or 0X.
func printfNumber(b *interp.Budget, n starlark.Int, conv byte, sp spec) (string, error) {
	bi := n.BigInt()
	digits, prefix, _, err := intDigits(b, bi, conv)
	if err != nil {
		return "", err
	}
	if !sp.alt {
		prefix = ""
	}
	negative := bi.Sign() < 0
	if sp.precision > len(digits) {
		if err := b.Alloc(int64(sp.precision)); err != nil {
			return "", err
		}
		digits = strings.Repeat("0", sp.precision-len(digits)) + digits
	}
	if sp.fill == '0' {
		sp.align = '='
	}
	return pad(b, signOf(negative, sp.sign)+prefix, digits, sp, '>')
}

// asciiEscape is what ascii() does to a repr: every character outside
// ASCII becomes \xhh, \uhhhh or \Uhhhhhhhh.
func asciiEscape(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			sb.WriteRune(r)
		case r <= 0xff:
			sb.WriteString(`\x`)
			sb.WriteString(hex(uint32(r), 2))
		case r <= 0xffff:
			sb.WriteString(`\u`)
			sb.WriteString(hex(uint32(r), 4))
		default:
			sb.WriteString(`\U`)
			sb.WriteString(hex(uint32(r), 8))
		}
	}
	return sb.String()
}

func hex(v uint32, width int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		out[i] = digits[v&0xf]
		v >>= 4
	}
	return string(out)
}

// subscriptable reports a value other than a str that CPython's %
// takes for a mapping (it has items by index or key): "text" % [1] is
// "text", where "text" % 1 is an error.
func subscriptable(v starlark.Value) bool {
	if _, ok := interp.AsText(v); ok {
		return false
	}
	switch v.(type) {
	case starlark.Indexable, starlark.Mapping:
		return true
	}
	return false
}
