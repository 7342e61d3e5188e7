package stdlib

import (
	"errors"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
)

// TestDifferentialStruct checks the struct module against CPython
// (testdata/struct_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialStruct -update).
func TestDifferentialStruct(t *testing.T) {
	pydiff.Check(t, "testdata/struct_cases.txt", *update, eval)
}

// A format asks for any size with a repeat count: packing or unpacking
// past the budgets ends with the budget's error, never a huge allocation.
func TestStructBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import struct\nstruct.pack('1000000000x')",
		"import struct\nstruct.pack('4611686018427387903s', b'a')",
		"import struct\nstruct.Struct('100000000q').size\nstruct.pack('100000000q', *range(100000000))",
		"import struct\nb = struct.pack('1000000s', b'')\nwhile True:\n    struct.unpack('1000000B', b)",
		"import struct\nb = struct.pack('10000s', b'')\nx = []\nfor _ in range(10 ** 6):\n    x.append(struct.unpack('10000B', b))",
		"import struct\nb = bytearray(10 ** 6)\nwhile True:\n    struct.pack_into('100000q', b, 0, *([1] * 100000))",
		"import struct\nlist(struct.iter_unpack('b', b'\\x00' * 10 ** 7))",
		"import struct\nf = 'i' * 10 ** 6\nwhile True:\n    struct.calcsize(f)",
	)
	// With no memory budget, a size over 1 GiB is a MemoryError, not an
	// attempt.
	_, err := run("struct.pack('4611686018427387903x')", interp.Options{Timeout: 10 * time.Second})
	if err == nil || isBudget(err) {
		t.Errorf("a huge pack with no memory budget: %v, want a MemoryError", err)
	}
}

// FuzzStructFormat: any format, packed from zeros and unpacked from a
// buffer of its size, never panics nor allocates past the budget: it
// gives values or raises struct.error (or another Python exception).
func FuzzStructFormat(f *testing.F) {
	for _, s := range []string{"<I2h", "@c0i", "!4sH", "=qd?e", "3p0p", "99999999999999999999x", "9223372036854775807s",
		" @x P ", "i\x00", "é", "2305843009213693951i", "c1152921504606846975q", "10000000000x", "1000000000s"} {
		f.Add(s)
	}
	m := Struct()
	calcsize, unpack, pack := m.Members["calcsize"], m.Members["unpack_from"], m.Members["pack"]
	f.Fuzz(func(t *testing.T, format string) {
		thread := &starlark.Thread{}
		start := time.Now()
		size, err := starlark.Call(thread, calcsize, starlark.Tuple{interp.MakeString(format)}, nil)
		if errors.Is(err, interp.ErrPanic) {
			t.Fatalf("%q: %v", format, err)
		}
		if n, ok := size.(starlark.Int); err == nil && ok {
			if k, _ := n.Int64(); k <= 1<<16 {
				buf := interp.Bytes(make([]byte, k+3))
				vals, err := starlark.Call(thread, unpack, starlark.Tuple{interp.MakeString(format), buf, starlark.MakeInt(3)}, nil)
				if errors.Is(err, interp.ErrPanic) {
					t.Fatalf("%q: unpack: %v", format, err)
				}
				if tup, ok := vals.(starlark.Tuple); ok {
					_, err := starlark.Call(thread, pack, append(starlark.Tuple{interp.MakeString(format)}, tup...), nil)
					if err != nil {
						t.Fatalf("%q: packing what was unpacked: %v", format, err)
					}
				}
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%q took %s", format, d)
		}
	})
}

// The global struct is Python's module and still Starlark's struct(a=1):
// programs of either kind keep working, with or without an import.
func TestStructGlobalIsBoth(t *testing.T) {
	code := "r = struct(a=1, b='x')\nout = [r.a, r.b, struct.pack('<h', 1)]\nimport struct\nfrom struct import unpack\nout += [struct.calcsize('q'), unpack('<h', b'\\x02\\x00')]\nout"
	res, err := run(code, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[1,"x","\u0001\u0000",8,[2]]`
	if res.Text != want {
		t.Errorf("got %s, want %s", res.Text, want)
	}
}
