package pyrt

import (
	"strings"
	"testing"

	"github.com/onetool-dev/onetool/interp/lowered"
)

// Every name the lowering routes to a helper has one, and every helper is
// reached by the lowering.
func TestLoweredMethodsHaveHelpers(t *testing.T) {
	ms := methods()
	for name := range ms {
		if _, ok := lowered.Method(name); !ok {
			t.Errorf("method %s has implementations but calls of it are not lowered", name)
		}
	}
	b := Builtins()
	for _, name := range allMethodNamesForTest() {
		helper, ok := lowered.Method(name)
		if !ok {
			continue
		}
		if _, ok := b[helper]; !ok {
			t.Errorf("calls of %s are lowered to %s, which Builtins lacks", name, helper)
		}
	}
}

// allMethodNamesForTest lists every method name of Python's str, list,
// dict, set and bytes, so that the switch of loweredMethod can be checked.
func allMethodNamesForTest() []string {
	return strings.Fields(`capitalize casefold center count encode endswith expandtabs find format
		format_map index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric
		isprintable isspace istitle isupper join ljust lower lstrip maketrans partition removeprefix
		removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines startswith
		strip swapcase title translate upper zfill elems codepoints elem_ords codepoint_ords
		append clear copy extend insert pop remove reverse sort
		fromkeys get items keys popitem setdefault update values
		add difference difference_update discard intersection intersection_update isdisjoint
		issubset issuperset symmetric_difference symmetric_difference_update union decode hex`)
}
