package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/lowered"
)

// Builtins returns the predeclared names that Parse's trees and Python
// programs need: the builtins that replace Starlark's universe where
// Starlark's would run unbounded, and the helpers the lowering calls. The
// result is frozen; build it once and share it among runs (as predeclared
// names, they shadow the universe's).
func Builtins() starlark.StringDict {
	rt := newRuntime()
	d := starlark.StringDict{
		"str":           interp.NewBuiltin("str", strBuiltin),
		"repr":          interp.NewBuiltin("repr", reprBuiltin),
		"print":         interp.NewBuiltin("print", printBuiltin),
		"fail":          interp.NewBuiltin("fail", failBuiltin),
		"list":          interp.NewBuiltin("list", listBuiltin),
		"tuple":         interp.NewBuiltin("tuple", tupleBuiltin),
		"sorted":        interp.NewBuiltin("sorted", sortedBuiltin),
		"reversed":      interp.NewBuiltin("reversed", reversedBuiltin),
		"enumerate":     interp.NewBuiltin("enumerate", enumerateBuiltin),
		"range":         interp.NewBuiltin("range", rangeBuiltin),
		"format":        interp.NewBuiltin("format", formatBuiltin),
		"getattr":       interp.NewBuiltin("getattr", getattrBuiltin),
		"hasattr":       interp.NewBuiltin("hasattr", hasattrBuiltin),
		"__ot_required": required{},
		"__ot_boolint": interp.NewBuiltin("__ot_boolint", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 1 {
				return nil, typeError("__ot_boolint takes 1 argument")
			}
			return boolAsInt(args[0]), nil
		}),
		"__ot_kwonly": interp.NewBuiltin("__ot_kwonly", kwOnlyMissing),
		"__ot_match":  interp.NewBuiltin("__ot_match", matchHelper),

		lowered.Mul:     interp.NewBuiltin(lowered.Mul, mulHelper),
		lowered.Mod:     interp.NewBuiltin(lowered.Mod, modHelper),
		lowered.Add:     interp.NewBuiltin(lowered.Add, addHelper),
		"__ot_iplus":    interp.NewBuiltin("__ot_iplus", iaddHelper),
		lowered.LShift:  interp.NewBuiltin(lowered.LShift, lshiftHelper),
		"__ot_div":      interp.NewBuiltin("__ot_div", divHelper(syntax.SLASH)),
		"__ot_floordiv": interp.NewBuiltin("__ot_floordiv", divHelper(syntax.SLASHSLASH)),
		"__ot_badd":     boolArith("+"), "__ot_bsub": boolArith("-"), "__ot_bmul": boolArith("*"),
		"__ot_bdiv": boolArith("/"), "__ot_bfloordiv": boolArith("//"), "__ot_bmod": boolArith("%"),
		"__ot_band": boolArith("&"), "__ot_bor": boolArith("|"), "__ot_bxor": boolArith("^"),
		"__ot_blshift": boolArith("<<"), "__ot_brshift": boolArith(">>"),
	}
	ms := methods()
	helpers := ms.helpers()
	helpers[lowered.GetMethod] = ms.getMethod()
	types := newTypeTable(ms, helpers)
	for _, part := range []starlark.StringDict{rt.exceptions(), helpers, types.part(), rt.tryBuiltins(), rt.withBuiltins(),
		rt.helperBuiltins(), rt.importBuiltins(), absentBuiltins(), generatorBuiltins()} {
		for k, v := range part {
			d[k] = v
		}
	}
	d.Freeze()
	return d
}

// methods are the implementations of the method calls the lowering
// routes to helpers (see loweredMethod), by name and kind of receiver.
func methods() methodSet {
	ms := methodSet{}
	ms.add(kindText, "format", textMethod(formatMethod))
	ms.add(kindText, "replace", textMethod(replaceMethod))
	ms.add(kindText, "join", textMethod(joinMethod))
	addTextMethods(ms)
	addBytesMethods(ms)
	// A list element is a slot; a set or dict entry about three.
	ms.add(kindList, "extend", growthMethod("extend", slot))
	for _, name := range []string{"union", "update", "intersection", "difference", "symmetric_difference"} {
		ms.add(kindSet, name, growthMethod(name, 3*slot))
		ms.add(kindDict, name, growthMethod(name, 3*slot))
	}
	addContainerMethods(ms) // list, tuple, dict and set methods (listdict.go)
	addNumberMethods(ms)    // int and float methods (numattrs.go)
	addByteArrayMethods(ms) // after every bytes method, which it wraps
	return ms
}

// runtime holds what the builtins of one Builtins() share: the exception
// classes, which a raised error is matched against by name.
type runtime struct {
	classes map[string]*ExcClass
	typing  *starlarkstruct.Module
	future  *starlarkstruct.Module
}

func newRuntime() *runtime {
	return &runtime{classes: baseExceptionClasses(), typing: typingModule(), future: futureModule()}
}

// exceptions are the builtin exception classes by name.
func (rt *runtime) exceptions() starlark.StringDict {
	d := starlark.StringDict{}
	for name, c := range rt.classes {
		if name != "JSONDecodeError" { // json.JSONDecodeError, not a builtin
			d[name] = c
		}
	}
	return d
}
