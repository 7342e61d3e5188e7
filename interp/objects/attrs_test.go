package objects_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp"
)

// Instances keep a few attributes in a small table instead of a dict
// (attrs.go); the memory meter must still count what they take. 400,000
// instances of two attributes take ~100 MiB (~250 bytes each with the
// list's slot): a budget of 64 MiB must stop the program, which a meter
// counting only the attributes' values (~80 bytes an instance, 32 MiB)
// let finish.
func TestSmallAttributeTablesAreMetered(t *testing.T) {
	code := `
class C:
    pass
xs = []
for i in range(400_000):
    c = C()
    c.a = i
    c.b = "x"
    xs.append(c)
print(len(xs))
`
	_, err := run(code, interp.Options{Timeout: 30 * time.Second, MaxMemory: 64 << 20, Watchdog: interp.NewWatchdog()})
	if err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Fatalf("err %v, want the memory limit's", err)
	}
}
