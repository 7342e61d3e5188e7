package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// kind is one implementation under test.
type kind struct {
	name string
	open func(t testing.TB, o MemoryOptions) Store
	// sleep lets TTLs pass: the memory store's clock is moved, Redis's
	// real one waited for.
	sleep func(d time.Duration)
}

func kinds(t testing.TB) []kind {
	var now time.Time
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	return []kind{
		{
			name: "memory",
			open: func(t testing.TB, o MemoryOptions) Store {
				mu.Lock()
				now = time.Unix(1e9, 0)
				mu.Unlock()
				o.Now = clock
				return NewMemory(o)
			},
			sleep: func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() },
		},
		{
			name: "redis",
			open: func(t testing.TB, _ MemoryOptions) Store {
				srv := storetest.StartRedis(t)
				s, err := NewRedis("redis://" + srv.Addr + "/3")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			},
			sleep: time.Sleep,
		},
	}
}

func TestGetSetDelete(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := k.open(t, MemoryOptions{})
			if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("get of a missing key: %v, want ErrNotFound", err)
			}
			big := bytes.Repeat([]byte("0123456789\n"), 10000)
			for key, v := range map[string][]byte{"a": []byte("one"), "b": big, "empty": {}} {
				if err := s.Set(ctx, key, v, time.Minute); err != nil {
					t.Fatal(err)
				}
				got, err := s.Get(ctx, key)
				if err != nil || !bytes.Equal(got, v) {
					t.Errorf("%s: got %d bytes, %v; want %d bytes", key, len(got), err, len(v))
				}
			}
			if err := s.Set(ctx, "a", []byte("two"), time.Minute); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Get(ctx, "a"); string(got) != "two" {
				t.Errorf("overwritten a = %q", got)
			}
			if err := s.Delete(ctx, "a"); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, "never"); err != nil {
				t.Errorf("delete of a missing key: %v", err)
			}
			if _, err := s.Get(ctx, "a"); !errors.Is(err, ErrNotFound) {
				t.Errorf("get after delete: %v", err)
			}
		})
	}
}

// Values and counters are gone once their TTL has passed, and not before.
func TestTTLExpiry(t *testing.T) {
	ctx := context.Background()
	const ttl = 1100 * time.Millisecond // Redis keeps whole milliseconds; its PX checks are ms-precise
	for _, k := range kinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := k.open(t, MemoryOptions{})
			if err := s.Set(ctx, "v", []byte("x"), ttl); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if _, err := s.Incr(ctx, "n", ttl); err != nil {
					t.Fatal(err)
				}
			}
			k.sleep(ttl / 2)
			if _, err := s.Get(ctx, "v"); err != nil {
				t.Errorf("value gone before its TTL: %v", err)
			}
			// A later increment does not extend the window.
			if n, err := s.Incr(ctx, "n", ttl); err != nil || n != 3 {
				t.Errorf("third increment = %d, %v; want 3", n, err)
			}
			k.sleep(ttl/2 + 200*time.Millisecond)
			if _, err := s.Get(ctx, "v"); !errors.Is(err, ErrNotFound) {
				t.Errorf("value after its TTL: %v, want ErrNotFound", err)
			}
			if n, err := s.Incr(ctx, "n", ttl); err != nil || n != 1 {
				t.Errorf("increment after the window = %d, %v; want a new count of 1", n, err)
			}
		})
	}
}

// Many goroutines incrementing one counter lose no increment, and
// concurrent sets and gets never see a torn value.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := k.open(t, MemoryOptions{MaxEntries: 50})
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Go(func() {
					for i := range 50 {
						if _, err := s.Incr(ctx, "runs", time.Minute); err != nil {
							t.Error(err)
							return
						}
						key := fmt.Sprint("k", i%10)
						v := bytes.Repeat([]byte{byte('a' + g)}, 1000)
						if err := s.Set(ctx, key, v, time.Minute); err != nil {
							t.Error(err)
							return
						}
						got, err := s.Get(ctx, key)
						if err != nil && !errors.Is(err, ErrNotFound) {
							t.Error(err)
							return
						}
						if len(got) > 0 && !bytes.Equal(got, bytes.Repeat(got[:1], 1000)) {
							t.Errorf("torn value under %s", key)
						}
					}
				})
			}
			wg.Wait()
			if n, err := s.Incr(ctx, "runs", time.Minute); err != nil || n != 8*50+1 {
				t.Errorf("counter = %d, %v; want %d", n, err, 8*50+1)
			}
		})
	}
}

// The memory store holds at most its bounds, dropping the oldest (or the
// least recently used) first, and refuses a value larger than all of it.
func TestMemoryBounds(t *testing.T) {
	ctx := context.Background()
	for _, lru := range []bool{false, true} {
		s := NewMemory(MemoryOptions{MaxEntries: 3, MaxBytes: 100, LRU: lru})
		for _, k := range []string{"a", "b", "c"} {
			if err := s.Set(ctx, k, []byte(k), 0); err != nil {
				t.Fatal(err)
			}
		}
		s.Get(ctx, "a")                 // a use: keeps a under LRU only
		s.Set(ctx, "d", []byte("d"), 0) // one over the entry bound
		_, errA := s.Get(ctx, "a")
		_, errB := s.Get(ctx, "b")
		if lru && (errA != nil || errB == nil) || !lru && (errA == nil || errB != nil) {
			t.Errorf("lru=%v: after a fourth entry, a: %v, b: %v", lru, errA, errB)
		}
		if n, _ := s.Len(); n != 3 {
			t.Errorf("lru=%v: %d entries, bound 3", lru, n)
		}
		s.Set(ctx, "big", bytes.Repeat([]byte("x"), 97), 0) // 100 bytes: the others must go
		if n, b := s.Len(); n != 1 || b != 100 {
			t.Errorf("lru=%v: %d entries, %d bytes after a large value; want 1, 100", lru, n, b)
		}
		if err := s.Set(ctx, "huge", bytes.Repeat([]byte("x"), 97), 0); !errors.Is(err, ErrTooLarge) {
			t.Errorf("a value larger than the store: %v, want ErrTooLarge", err)
		}
		if _, err := s.Get(ctx, "big"); err != nil {
			t.Errorf("a refused value evicted another: %v", err)
		}
	}
}

// A Redis that stops mid-use fails calls with ErrUnavailable, quickly, and
// the store works again once Redis is back.
func TestRedisStopsMidUse(t *testing.T) {
	ctx := context.Background()
	srv := storetest.StartRedis(t)
	s, err := NewRedis("redis://" + srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Set(ctx, "k", []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	for name, call := range map[string]func() error{
		"get":    func() error { _, err := s.Get(ctx, "k"); return err },
		"set":    func() error { return s.Set(ctx, "k", []byte("v"), time.Minute) },
		"delete": func() error { return s.Delete(ctx, "k") },
		"incr":   func() error { _, err := s.Incr(ctx, "n", time.Minute); return err },
	} {
		start := time.Now()
		err := call()
		if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotFound) {
			t.Errorf("%s with Redis stopped: %v, want ErrUnavailable", name, err)
		} else if !strings.Contains(err.Error(), "the store is unreachable (redis://"+srv.Addr+")") {
			t.Errorf("%s: the error does not name the store: %v", name, err)
		}
		if d := time.Since(start); d > redisCallTimeout {
			t.Errorf("%s took %s with Redis stopped", name, d)
		}
	}
	storetest.RunRedis(t, srv.Addr) // back, empty: the same client reconnects
	if err := s.Set(ctx, "k", []byte("again"), time.Minute); err != nil {
		t.Fatalf("set once Redis is back: %v", err)
	}
	if v, err := s.Get(ctx, "k"); err != nil || string(v) != "again" {
		t.Errorf("get once Redis is back: %q, %v", v, err)
	}
}

// A Redis that accepts connections but never answers fails a call within
// its timeout instead of hanging the run.
func TestRedisSilentTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the Redis I/O timeout")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // read nothing, answer nothing
		}
	}()
	s, err := NewRedis("redis://" + l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Get(ctx, "k")
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("get from a silent server: %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the call ignored its context for %s", d)
	}
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct{ setting, err string }{
		{"", ""},
		{"memory", ""},
		{"redis://localhost:6379/0", ""},
		{"redis://localhost", ""},
		{"rediss://user:pw@redis.internal:6380/2", ""},
		{"memcached://x", `store "memcached://x" is neither memory nor a redis:// URL`},
		{"Memory", `is neither memory nor a redis:// URL`},
		{"redis://", "has no host"},
		{"redis://h:99999", `bad port "99999"`},
		{"redis://h/16", "a Redis database is a number from 0 to 15"},
		{"redis://h/x?y=1", "query"},
		{"redis://:secret@h/abc", `store "redis://:xxxxx@h/abc" names database "abc"`},
	} {
		err := Validate(tt.setting)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Validate(%q) = %v, want %q", tt.setting, err, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

// The memory store keeps Go values as they are (the embedded cache), with
// their size counted against the byte bound; bytes and values do not mix.
func TestMemoryValues(t *testing.T) {
	ctx := context.Background()
	s := NewMemory(MemoryOptions{MaxBytes: 100})
	v := map[string]any{"n": 1}
	if err := s.SetValue(ctx, "v", v, 60, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetValue(ctx, "v"); err != nil || got.(map[string]any)["n"] != 1 {
		t.Errorf("GetValue = %v, %v", got, err)
	}
	if _, err := s.Get(ctx, "v"); err == nil {
		t.Error("Get of a Go value gave bytes")
	}
	if err := s.SetValue(ctx, "w", v, 60, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetValue(ctx, "v"); !errors.Is(err, ErrNotFound) {
		t.Errorf("two values of 60 bytes in a store of 100: the first is still there (%v)", err)
	}
	if err := s.SetValue(ctx, "x", v, 101, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a value larger than the store: %v", err)
	}
}
