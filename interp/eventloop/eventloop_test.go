package eventloop_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/python"
	"github.com/onetool-dev/onetool/interp/stdlib"
)

// The asyncio programs of the differential corpus (testdata/corpus,
// CPython 3.11's outputs beside them) run by the interpreter alone,
// without the runner: the event loop, its futures, tasks and primitives
// print what CPython prints, in its order.

func globals() starlark.StringDict {
	g := stdlib.Globals(0)
	g.Freeze()
	return g
}

func run(src string, opts interp.Options) (*interp.Result, error) {
	opts.Predeclared = globals()
	opts.Parse = python.Parse
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	return interp.Exec(context.Background(), src, opts)
}

func TestCorpusAsyncPrograms(t *testing.T) {
	files, err := filepath.Glob("../../testdata/corpus/1*_async_*.py")
	if err != nil || len(files) < 40 {
		t.Fatalf("%d async programs in the corpus: %v", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		if strings.Contains(name, "_error_") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".py") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			res, err := run(string(src), interp.Options{})
			if err != nil {
				t.Fatalf("%v", err)
			}
			if got := res.Printed; got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("got:\n%s\nwant (CPython's):\n%s", got, want)
			}
		})
	}
}

// FuzzSuspendables runs mutated programs of generators and coroutines:
// none may panic, hang or outrun its budget.
func FuzzSuspendables(f *testing.F) {
	for _, seed := range []string{
		"def g(n):\n    for i in range(n):\n        x = yield i\n        if x:\n            return x\nit = g(3)\nprint(next(it), it.send(None), list(it))",
		"def walk(t):\n    if isinstance(t, list):\n        for x in t:\n            yield from walk(x)\n    else:\n        yield t\nprint(list(walk([1, [2, [3]]])))",
		"def g():\n    try:\n        yield 1\n    finally:\n        print('f')\nx = g()\nnext(x)\nx.close()\nx.throw(ValueError)",
		"print(sum(a * b for a in range(4) for b in range(a) if b), next((x for x in []), 0))",
		"import contextlib\n@contextlib.contextmanager\ndef cm():\n    try:\n        yield 1\n    except KeyError:\n        pass\nwith cm() as v:\n    raise KeyError(v)",
		"import asyncio\nasync def f(i):\n    await asyncio.sleep(0)\n    return i\nasync def main():\n    return await asyncio.gather(*(f(i) for i in range(3)))\nprint(asyncio.run(main()))",
		"import asyncio\nasync def main():\n    q = asyncio.Queue(1)\n    async def p():\n        for i in range(3):\n            await q.put(i)\n    t = asyncio.create_task(p())\n    print([await q.get() for _ in range(3)])\n    await t\nasyncio.run(main())",
		"import asyncio\nasync def ag():\n    for i in range(3):\n        yield i\n        await asyncio.sleep(0)\nasync def main():\n    print([x async for x in ag()])\n    async with asyncio.timeout(1):\n        pass\nasyncio.run(main())",
		"import asyncio\nasync def bad():\n    raise ValueError(1)\nasync def main():\n    try:\n        async with asyncio.TaskGroup() as tg:\n            tg.create_task(bad())\n    except* ValueError as e:\n        print(repr(e))\nasyncio.run(main())",
		"import asyncio\nr = await asyncio.wait_for(asyncio.sleep(0, 5), 1)\nprint(r)",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		_, err := run(src, interp.Options{Timeout: 2 * time.Second, MaxSteps: 200_000, MaxMemory: 32 << 20, MaxOutput: 1 << 16, Watchdog: interp.NewWatchdog()})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%q: %v", src, err)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Fatalf("%q took %s", src, d)
		}
	})
}
