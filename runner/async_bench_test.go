package runner

import "testing"

// BenchmarkAsyncGather20 is issue 32's figure: twenty 100 ms tool calls
// awaited with asyncio.gather run at once, so one run takes about 100 ms
// (limits.max_parallel raised to 20: at its default of 16 the last four
// wait for a slot, as parallel()'s would).
func BenchmarkAsyncGather20(b *testing.B) {
	l := DefaultLimits()
	l.MaxParallel = 20
	r, err := New(WithLimits(l))
	if err != nil {
		b.Fatal(err)
	}
	benchExec(b, r, `import asyncio
async def main():
    return await asyncio.gather(*(demo.sleep(ms=100) for _ in range(20)))
len(asyncio.run(main()))`)
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

// BenchmarkGeneratorYield is the cost of a yield: a generator of 10,000
// values summed (each value a handoff between two goroutines), beside
// the same sum over a list comprehension.
func BenchmarkGeneratorYield(b *testing.B) {
	b.Run("generator", func(b *testing.B) {
		benchExec(b, newBenchRunner(b), `def gen(n):
    for i in range(n):
        yield i
sum(gen(10000))`)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/yield")
	})
	b.Run("list", func(b *testing.B) {
		benchExec(b, newBenchRunner(b), `def lst(n):
    return [i for i in range(n)]
sum(lst(10000))`)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/item")
	})
	b.Run("yield-from-chain", func(b *testing.B) {
		benchExec(b, newBenchRunner(b), `def walk(t):
    if isinstance(t, list):
        for x in t:
            yield from walk(x)
    else:
        yield t
tree = [[i, [i + 1, i + 2]] for i in range(0, 3000, 3)]
sum(walk(tree))`)
	})
}
