package snippets

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Parameter types, as written in the config (JSON Schema names).
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
)

// canonicalType maps a declared type to one of the Type constants; the empty
// type means string.
func canonicalType(t string) (string, bool) {
	switch t {
	case "", TypeString:
		return TypeString, true
	case TypeInteger, TypeNumber, TypeBoolean:
		return t, true
	}
	return "", false
}

// isValidParamName reports whether s can name a parameter: a pongo2
// identifier ([A-Za-z_][A-Za-z0-9_]*), because templates refer to it by name.
func isValidParamName(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !(isLetter(s[i]) || isDigit(s[i]) || s[i] == '_') {
			return false
		}
	}
	return true
}

// reservedParam names variables that pongo2 puts in its private context,
// which is looked up before ours: a parameter with such a name would be
// silently shadowed in the template.
func reservedParam(name string) bool {
	return name == "pongo2" || name == "forloop"
}

// coerce turns the text of an argument into the declared type: int for
// integer, float64 for number, bool for boolean, the text itself for string.
// It returns a user-facing description of the expected form when raw does not
// fit.
func coerce(typ, raw string) (any, string) {
	switch typ {
	case TypeInteger:
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, strconv.IntSize)
		if err != nil {
			return nil, "an integer"
		}
		return int(n), ""
	case TypeNumber:
		f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		// NaN and infinities parse in Go but have no literal in Starlark or
		// JSON, so they would render as broken code.
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, "a number"
		}
		return f, ""
	case TypeBoolean:
		switch strings.ToLower(strings.TrimSpace(raw)) {
		case "true", "yes", "1":
			return true, ""
		case "false", "no", "0":
			return false, ""
		}
		return nil, "a boolean (true/false, yes/no or 1/0)"
	}
	return raw, ""
}

// normalizeDefault gives a configured default the declared type, so that a
// template sees the same Go type whether a value was passed or defaulted.
// YAML hands integers, floats, booleans and strings; strings go through
// coerce, so `default: "5"` works for an integer too. A nil default stays nil
// (None in Starlark): an optional parameter with no value.
func normalizeDefault(typ string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok {
		out, want := coerce(typ, s)
		if want != "" {
			return nil, fmt.Errorf("must be %s, got '%s'", want, excerpt(s))
		}
		return out, nil
	}
	rv := reflect.ValueOf(v)
	switch typ {
	case TypeString:
		switch rv.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			return fmt.Sprint(v), nil
		}
	case TypeInteger:
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if rv.Int() >= math.MinInt && rv.Int() <= math.MaxInt {
				return int(rv.Int()), nil
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if rv.Uint() <= math.MaxInt {
				return int(rv.Uint()), nil
			}
		case reflect.Float32, reflect.Float64:
			// YAML and JSON decoders may hand 5 as 5.0.
			if f := rv.Float(); f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
				return int(f), nil
			}
		}
		return nil, fmt.Errorf("must be an integer, got %v", v)
	case TypeNumber:
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return float64(rv.Int()), nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return float64(rv.Uint()), nil
		case reflect.Float32, reflect.Float64:
			if f := rv.Float(); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f, nil
			}
		}
		return nil, fmt.Errorf("must be a number, got %v", v)
	case TypeBoolean:
		if rv.Kind() == reflect.Bool {
			return rv.Bool(), nil
		}
		return nil, fmt.Errorf("must be a boolean, got %v", v)
	}
	return nil, fmt.Errorf("must be a %s, got a %T", typ, v)
}

// usageValue shows a default as it would be typed in an invocation.
func usageValue(v any) string {
	switch x := v.(type) {
	case string:
		return quoteValue(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}
