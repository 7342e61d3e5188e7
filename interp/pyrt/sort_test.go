package pyrt

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
)

// TestSortLongLists: sorts long enough to be merged (more than a dozen
// elements), by keys of each kind a comparison takes a fast path for and
// of the kinds it does not, stable forwards and in reverse. The expected
// text is CPython 3.11's.
func TestSortLongLists(t *testing.T) {
	tests := []struct{ code, want string }{
		{"print(sorted([(i * 7 % 10, -i) for i in range(100)], reverse=True)[:6])",
			"[(9, -7), (9, -17), (9, -27), (9, -37), (9, -47), (9, -57)]"},
		// Equal keys keep their order in reverse too.
		{"xs = [(i % 4, i) for i in range(60)]\nxs.sort(key=lambda p: p[0], reverse=True)\nprint([p[1] for p in xs][:20])",
			"[3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 2, 6, 10, 14, 18]"},
		{"print(sorted([(i % 3, 'abc'[i % 2], i * 0.5) for i in range(40)])[:5])",
			"[(0, 'a', 0.0), (0, 'a', 3.0), (0, 'a', 6.0), (0, 'a', 9.0), (0, 'a', 12.0)]"},
		// bool, int and float order together; equal ones keep their order.
		{"print(sorted([True, 2, 0.5, False, 1, -3, 1.0, 7, 2.5, 0, True, 3, 4, 5]))",
			"[-3, False, 0, 0.5, True, 1, 1.0, True, 2, 2.5, 3, 4, 5, 7]"},
		{"print(sorted([[i % 3, -i] for i in range(30)])[:4])",
			"[[0, -27], [0, -24], [0, -21], [0, -18]]"},
		// str of both kinds (ASCII and not) by code point.
		{"print(sorted(['bé', 'b', 'a', 'é', 'ab', 'z'] * 3, reverse=True))",
			"['é', 'é', 'é', 'z', 'z', 'z', 'bé', 'bé', 'bé', 'b', 'b', 'b', 'ab', 'ab', 'ab', 'a', 'a', 'a']"},
		{"print(sorted([(2**70 - i % 3, str(i)) for i in range(20)])[:3])",
			"[(1180591620717411303422, '11'), (1180591620717411303422, '14'), (1180591620717411303422, '17')]"},
		// A builtin as the key.
		{"print(sorted(['ccc', 'a', 'bb', 'dddd', 'ee', 'f'] * 3, key=len))",
			"['a', 'f', 'a', 'f', 'a', 'f', 'bb', 'ee', 'bb', 'ee', 'bb', 'ee', 'ccc', 'ccc', 'ccc', 'dddd', 'dddd', 'dddd']"},
		{"print(sorted([1] * 20 + ['a']))",
			"error: line 1: TypeError: '<' not supported between instances of 'str' and 'int'"},
		// Functions called once per element with one argument: keys,
		// filters, generator expressions.
		// A key function that keeps its argument tuple (*a) gets one of
		// its own per call.
		{"print(sorted([3, 1, 2] * 5, key=lambda *a: a))",
			"[1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]"},
		{"print(min(range(30), key=lambda i: (i - 17) ** 2), max(['a', 'bbb', 'cc'], key=lambda s: len(s)))",
			"17 bbb"},
		{"print(list(filter(lambda x: x % 3 == 0, range(20))), sum(x * x for x in range(10) if x % 2))",
			"[0, 3, 6, 9, 12, 15, 18] 165"},
	}
	for _, tt := range tests {
		if got := strings.TrimRight(runText(t, tt.code), "\n"); got != tt.want {
			t.Errorf("%q\n got: %s\nwant: %s", tt.code, got, tt.want)
		}
	}
}

// TestSortAgreesWithPairwiseLess: on random keys of the kinds the
// three-way comparison takes shortcuts for (str of both kinds, int, bool,
// float, tuples and lists of them, nested), pySort gives the order a
// stable sort asking pyLess both ways gives, ties included.
func TestSortAgreesWithPairwiseLess(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var scalar func() starlark.Value
	scalar = func() starlark.Value {
		switch rng.IntN(6) {
		case 0:
			return starlark.MakeInt(rng.IntN(5) - 2)
		case 1:
			return starlark.Float(float64(rng.IntN(5)-2) / 2)
		case 2:
			return starlark.Bool(rng.IntN(2) == 0)
		case 3:
			return interp.MakeString([]string{"a", "b", "ab", "é", "aé", ""}[rng.IntN(6)])
		case 4:
			return starlark.MakeBigInt(new(big.Int).Lsh(big.NewInt(int64(rng.IntN(3))), 70))
		}
		return starlark.Float(math.Copysign(0, -1))
	}
	isText := func(v starlark.Value) bool {
		_, ok := interp.AsText(v)
		return ok
	}
	key := func(kind int) starlark.Value {
		switch kind {
		case 0: // numbers only
			for {
				if v := scalar(); !isText(v) {
					return v
				}
			}
		case 1: // str only
			return interp.MakeString([]string{"a", "b", "ab", "é", "aé", "", "z"}[rng.IntN(7)])
		}
		// tuples (or lists) of a number, a str and sometimes a tuple
		elems := []starlark.Value{starlark.MakeInt(rng.IntN(3)), interp.MakeString([]string{"a", "é", "b"}[rng.IntN(3)])}
		if rng.IntN(2) == 0 {
			elems = append(elems, starlark.Tuple{starlark.MakeInt(rng.IntN(2)), starlark.Float(rng.IntN(2))})
		}
		elems = elems[:1+rng.IntN(len(elems))]
		if kind == 3 {
			return starlark.NewList(elems)
		}
		return starlark.Tuple(elems)
	}
	for round := range 300 {
		kind := round % 4
		n := rng.IntN(80)
		keys := make([]starlark.Value, n)
		for i := range keys {
			keys[i] = key(kind)
		}
		reverse := rng.IntN(2) == 0
		idx := make([]starlark.Value, n)
		for i := range idx {
			idx[i] = starlark.MakeInt(i)
		}
		if err := pySort(nil, keys, idx, reverse); err != nil {
			t.Fatalf("%v: %v", keys, err)
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		slices.SortStableFunc(want, func(i, j int) int {
			x, y := keys[i], keys[j]
			if reverse {
				x, y = y, x
			}
			if lt, _ := pyLess(nil, x, y, 0); lt {
				return -1
			}
			if gt, _ := pyLess(nil, y, x, 0); gt {
				return 1
			}
			return 0
		})
		for k, v := range idx {
			if got, _ := starlark.AsInt32(v); got != want[k] {
				t.Fatalf("keys %v reverse=%v: sorted %v, want the order %v", keys, reverse, idx, want)
			}
		}
	}
}
