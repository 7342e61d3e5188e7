package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// Two runners pointed at one Redis behave as replicas: a large result kept
// by one pages through the other, a cached result of one is a hit for the
// other. When Redis stops, ot.result and a large result fail with an error
// that says the store is unreachable, quickly, and the cache becomes a
// miss: the tool runs.
func TestSharedStoreAcrossRunners(t *testing.T) {
	srv := storetest.StartRedis(t)
	cfg := loadConfig(t, "store: "+srv.URL(2)+"\n")
	ctx := context.Background()
	fa, fb := newAPIFixture(t), newAPIFixture(t) // a registry each, so each runner has its own ot pack
	a := newRunner(t, WithRegistry(fa.reg), WithConfig(cfg), WithMaxInline(100))
	b := newRunner(t, WithRegistry(fb.reg), WithConfig(cfg), WithMaxInline(100))
	defer a.Close()
	defer b.Close()

	big := a.Exec(ctx, `"\n".join([str(i) for i in range(1, 1001)])`)
	if big.IsError() || big.Handle == "" {
		t.Fatalf("a large result was not stored: %.300s", big.Text)
	}
	page := b.Exec(ctx, fmt.Sprintf(`ot.result(handle=%q, offset=500, limit=2)`, big.Handle))
	if want := "500\n501\n… (lines 500–501 of 1000"; !strings.HasPrefix(page.Text, want) {
		t.Errorf("the other runner's page:\n%s\nwant it to start with %q", page.Text, want)
	}

	if _, err := a.Run(ctx, "t.det", map[string]any{"n": 1}); err != nil {
		t.Fatal(err)
	}
	hit, err := b.Run(ctx, "t.det", map[string]any{"n": 1})
	if err != nil || !hit.Cached || fb.calls["det"].Load() != 0 {
		t.Fatalf("the other runner: cached %v, its tool ran %d times, %v; want a hit", hit != nil && hit.Cached, fb.calls["det"].Load(), err)
	}
	if data, _ := ordered.Encode(hit.Value); string(data) != `{"n":1,"list":[1,2]}` {
		t.Errorf("the value of the hit = %s", data)
	}

	srv.Stop()
	start := time.Now()
	gone := b.Exec(ctx, fmt.Sprintf(`ot.result(handle=%q)`, big.Handle))
	if want := "the store is unreachable (" + srv.URL(2) + ")"; !gone.IsError() || !strings.Contains(gone.Text, want) {
		t.Errorf("ot.result with Redis stopped:\n%s\nwant an error with %q", gone.Text, want)
	}
	lost := a.Exec(ctx, `"x" * 1000`)
	if want := "could not be kept for ot.result: the store is unreachable"; !lost.IsError() || !strings.Contains(lost.Text, want) {
		t.Errorf("a large result with Redis stopped:\n%s\nwant an error with %q", lost.Text, want)
	}
	if small := a.Exec(ctx, `"fits"`); small.IsError() || small.Text != "fits" {
		t.Errorf("a small result needs no store: %s", small.Text)
	}
	miss, err := b.Run(ctx, "t.det", map[string]any{"n": 1})
	if err != nil || miss.Cached || fb.calls["det"].Load() != 1 {
		t.Errorf("with Redis stopped the cache must be a miss: cached %v, ran %d times, %v", miss != nil && miss.Cached, fb.calls["det"].Load(), err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("four calls with Redis stopped took %s", d)
	}
}

// A bad store setting given through the Go API (not the config file) is a
// configuration error, not a crash.
func TestStoreSettingRequiresValidURL(t *testing.T) {
	cfg := loadConfig(t, "{}\n")
	cfg.Store = "redis://"
	if _, err := New(WithConfig(cfg)); err == nil || !strings.Contains(err.Error(), "has no host") {
		t.Errorf("New with store redis:// = %v, want an error about the host", err)
	}
}
