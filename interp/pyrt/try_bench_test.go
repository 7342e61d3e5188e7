package pyrt

import (
	"testing"

	"github.com/onetool-dev/onetool/interp/python"
)

// BenchmarkTry times one try statement per iteration of a loop of 1,000
// in a function, against the same loop without the try (body=bare):
//
//	go test ./interp/python -run '^$' -bench 'Try$' -benchmem -cpu 1 -count 6
//
// body=noraise is `try: f(o, i)` / `except ValueError: pass` where f
// returns; raise is a validator that raises ValueError, caught by its
// caller (`except ValueError as e`); finally adds a finally to a body that
// does not raise; return leaves the function from inside the try.
func BenchmarkTry(b *testing.B) {
	const prelude = "def f(o, i):\n    return i\n\ndef check(i):\n    if i >= 0:\n        raise ValueError('bad ' + str(i))\n    return i\n\n"
	for _, bm := range []struct{ name, loop, want string }{
		{"bare", "        n += f(o, i)\n", "499500"},
		{"noraise", "        try:\n            n += f(o, i)\n        except ValueError:\n            pass\n", "499500"},
		{"noraise-as", "        try:\n            n += f(o, i)\n        except (KeyError, ValueError) as e:\n            n -= 1\n        else:\n            n += 0\n", "499500"},
		{"finally", "        try:\n            n += f(o, i)\n        finally:\n            n += 0\n", "499500"},
		{"return", "        n += g(i)\n", "499500"},
		{"raise", "        try:\n            check(i)\n        except ValueError as e:\n            n += i\n", "499500"},
		{"raise-base", "        try:\n            check(i)\n        except Exception:\n            n += i\n", "499500"},
	} {
		src := prelude + "def g(i):\n    try:\n        return f(None, i)\n    except ValueError:\n        return 0\n\n" +
			"def run():\n    o = None\n    n = 0\n    for i in range(1000):\n" + bm.loop + "    return n\n\nprint(run())\n"
		b.Run("body="+bm.name, func(b *testing.B) {
			_, py := benchGlobals(nil)
			prog, opts, out := compileRun(b, src, python.Parse, py)
			if out != bm.want {
				b.Fatalf("printed %q, want %q", out, bm.want)
			}
			benchRun(b, prog, opts)
		})
	}
}
