package stdlib

import (
	"strings"

	"github.com/onetool-dev/onetool/interp/pyrt"
	"go.starlark.net/starlark"
)

// webParams describes the parameters of a function of the hashlib,
// base64, html, urllib.parse and uuid modules, so that a bad call gets
// CPython's TypeError for it.
type webParams struct {
	fn       string   // the function's name in messages
	names    []string // parameters, in order
	required int      // how many of names have no default
	maxPos   int      // how many may be given by position (the rest are keyword-only)
	builtin  bool     // a function of C: its messages are worded as CPython's C functions'
	self     bool     // a method written in Python: self counts among the positional arguments
}

// unpack sets out[i] to the argument of names[i], or leaves it as it is
// (its default) when the call does not give it.
func (p webParams) unpack(args starlark.Tuple, kwargs []starlark.Tuple, out ...*starlark.Value) error {
	if len(args) > p.maxPos {
		if p.builtin {
			if p.maxPos == 1 && p.required == 1 && len(p.names) == 1 {
				return pyrt.Errorf("TypeError", "%s() takes exactly one argument (%d given)", p.fn, len(args))
			}
			if n := len(args) + len(kwargs); n > len(p.names) {
				return pyrt.Errorf("TypeError", "%s() takes at most %d argument%s (%d given)", p.fn, len(p.names), webPlural(len(p.names)), n)
			}
			return pyrt.Errorf("TypeError", "%s() takes at most %d positional argument%s (%d given)", p.fn, p.maxPos, webPlural(p.maxPos), len(args))
		}
		self := 0
		if p.self {
			self = 1
		}
		req, most, given := min(p.required, p.maxPos)+self, p.maxPos+self, len(args)+self
		were := "were"
		if given == 1 {
			were = "was"
		}
		if req == most {
			return pyrt.Errorf("TypeError", "%s() takes %d positional argument%s but %d %s given", p.fn, most, webPlural(most), given, were)
		}
		return pyrt.Errorf("TypeError", "%s() takes from %d to %d positional arguments but %d %s given", p.fn, req, most, given, were)
	}
	set := make([]bool, len(p.names))
	for i, a := range args {
		*out[i] = a
		set[i] = true
	}
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		i := -1
		for j, n := range p.names {
			if n == k {
				i = j
				break
			}
		}
		if i < 0 {
			if p.builtin {
				return pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for %s()", k, p.fn)
			}
			return pyrt.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", p.fn, k)
		}
		if set[i] {
			if p.builtin {
				return pyrt.Errorf("TypeError", "argument for %s() given by name ('%s') and position (%d)", p.fn, k, i+1)
			}
			return pyrt.Errorf("TypeError", "%s() got multiple values for argument '%s'", p.fn, k)
		}
		*out[i] = kv[1]
		set[i] = true
	}
	var missing []string
	for i := 0; i < p.required; i++ {
		if !set[i] {
			if p.builtin {
				if len(args) == 0 && len(kwargs) == 0 && p.maxPos == 1 {
					return pyrt.Errorf("TypeError", "%s() takes exactly one argument (0 given)", p.fn)
				}
				return pyrt.Errorf("TypeError", "%s() missing required argument '%s' (pos %d)", p.fn, p.names[i], i+1)
			}
			missing = append(missing, "'"+p.names[i]+"'")
		}
	}
	if len(missing) > 0 {
		list := missing[len(missing)-1]
		switch len(missing) {
		case 1:
		case 2:
			list = missing[0] + " and " + list
		default:
			list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + list
		}
		return pyrt.Errorf("TypeError", "%s() missing %d required positional argument%s: %s", p.fn, len(missing), webPlural(len(missing)), list)
	}
	return nil
}

func webPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// flagArg is a flag argument's value, as Python's if reads it; nil (not
// given) is dflt.
func flagArg(v starlark.Value, dflt bool) bool {
	if v == nil {
		return dflt
	}
	return bool(v.Truth())
}
