package promstats_test

import (
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/promstats"
)

// RecordRun and RecordCall are on the path of every run, from many
// goroutines at once: once a series exists, counting must stay cheap.
func BenchmarkRecordRun(b *testing.B) {
	c := promstats.New()
	st := runner.RunStat{Duration: 3 * time.Millisecond, OK: true, BytesIn: 40, BytesOut: 120, PrincipalLabel: "alice"}
	c.RecordRun(st)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.RecordRun(st)
		}
	})
}

func BenchmarkRecordCall(b *testing.B) {
	c := promstats.New()
	st := runner.CallStat{Tool: "demo.foo", Duration: 200 * time.Microsecond, OK: true, BytesIn: 30, BytesOut: 80, PrincipalLabel: "alice"}
	c.RecordCall(st)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.RecordCall(st)
		}
	})
}
