package pyrt

import "testing"

// The lowering calls helpers by name from several tables merged into one
// Builtins(): a helper named like the method helper of another table
// (__ot_index, the str/list index method's) would silently replace it.
func TestHelperNamesDistinct(t *testing.T) {
	rt := newRuntime()
	ms := methods()
	helpers := ms.helpers()
	types := newTypeTable(ms, helpers)
	seen := map[string]string{}
	for part, d := range map[string]map[string]bool{
		"methods":    keys(helpers),
		"types":      keys(types.part()),
		"try":        keys(rt.tryBuiltins()),
		"helpers":    keys(rt.helperBuiltins()),
		"imports":    keys(rt.importBuiltins()),
		"exceptions": keys(rt.exceptions()),
		"with":       keys(rt.withBuiltins()),
		"absent":     keys(absentBuiltins()),
		"generators": keys(generatorBuiltins()),
	} {
		for name := range d {
			if other, dup := seen[name]; dup {
				t.Errorf("%s is both a %s and a %s builtin", name, other, part)
			}
			seen[name] = part
		}
	}
}

func keys[M ~map[string]V, V any](m M) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}
