package shapes

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/store"
	"github.com/onetool-dev/onetool/runner/store/storetest"
)

// TestReplicasShare: two Learners on one store (two replicas) see what
// each other learned, merged: one's keys, the other's, optional where
// one lacked them.
func TestReplicasShare(t *testing.T) {
	for _, kind := range []string{"memory", "redis"} {
		t.Run(kind, func(t *testing.T) {
			st := testStore(t, kind)
			c := storetest.NewClock(time.Unix(1e9, 0))
			a := New(st, Options{Now: c.Now})
			b := New(st, Options{Now: c.Now})
			tl := tool("srv.fn")
			ctx := context.Background()
			a.Observe(ctx, tl, dec(t, `{"id": 1}`))
			if err := a.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if typ, seen := b.ResultType(tl); typ != "{id: int}" || !seen {
				t.Errorf("b sees %q, %v; want what a learned", typ, seen)
			}
			b.Observe(ctx, tl, dec(t, `{"id": 2, "name": "x"}`))
			if err := b.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			// a reads the store again once its copy is refreshEvery old.
			if typ, _ := a.ResultType(tl); typ != "{id: int}" {
				t.Errorf("a re-read the store before refreshEvery: %q", typ)
			}
			c.Add(refreshEvery)
			if typ, _ := a.ResultType(tl); typ != "{id: int, name?: str}" {
				t.Errorf("a sees %q; want both replicas' keys merged", typ)
			}
			a.Close()
			b.Close()
		})
	}
}

// TestReplicasConcurrent: replicas learning at once, each from many
// goroutines, while stub lines are read, end with the union of what they
// learned in the store once each has synced (a write lost to a
// concurrent one is made again at the loser's next sync).
func TestReplicasConcurrent(t *testing.T) {
	st := store.NewMemory(store.MemoryOptions{})
	replicas := []*Learner{New(st, Options{}), New(st, Options{})}
	tl := tool("srv.fn")
	keys := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := replicas[g%2]
			for i := range 300 {
				m := ordered.NewMap(2)
				m.Set("id", int64(i))
				m.Set(keys[g], "x")
				l.Observe(context.Background(), tl, m)
				if i%50 == 0 {
					l.ResultType(tl)
				}
			}
		}()
	}
	wg.Wait()
	for _, l := range replicas {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	typ, _ := New(st, Options{}).ResultType(tl)
	for _, k := range keys {
		if !strings.Contains(typ, k+"?: str") {
			t.Errorf("%s missing from %s", k, typ)
		}
	}
	if !strings.HasPrefix(typ, "{id: int, ") {
		t.Errorf("got %s", typ)
	}
}

// TestRestartRedis: a shape learned before a restart is there after it,
// from Redis, with a bounded TTL, and holds neither a value nor a secret.
func TestRestartRedis(t *testing.T) {
	srv := storetest.StartRedis(t)
	secrets := testSecrets(t)
	results := []any{
		dec(t, `[{"id": 1, "email": "ann@example.com", "token": "`+secretValue+`"}, {"id": 2, "email": "bob@example.com", "tags": ["x"]}]`),
		dec(t, `[{"id": 3, "email": "carol@example.com", "`+secretValue+`": true}]`),
	}
	want := "list[{id: int, email: str, token?: str, tags?: list[str], ...}]"

	first, err := store.NewRedis(srv.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	l := New(store.WithPrefix(first, "shape:"), Options{Redact: secrets.Redact})
	tl := tool("srv.people")
	for _, r := range results {
		l.Observe(context.Background(), tl, r)
	}
	if typ, _ := l.ResultType(tl); typ != want {
		t.Fatalf("before the restart: %q, want %q", typ, want)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// What Redis holds: under onetool's prefix, with a TTL, no value.
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer raw.Close()
	key := "onetool:shape:srv.people@1"
	data, err := raw.Get(context.Background(), key).Bytes()
	if err != nil {
		t.Fatalf("nothing under %s: %v", key, err)
	}
	if ttl := raw.TTL(context.Background(), key).Val(); ttl <= 0 || ttl > DefaultTTL {
		t.Errorf("TTL %v, want within (0, %v]", ttl, DefaultTTL)
	}
	for _, leak := range []string{"ann", "example.com", secretValue, "secret"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("the store holds %q: %s", leak, data)
		}
	}

	second, err := store.NewRedis(srv.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	after := New(store.WithPrefix(second, "shape:"), Options{Redact: secrets.Redact})
	defer after.Close()
	if typ, seen := after.ResultType(tl); typ != want || !seen {
		t.Errorf("after the restart: %q, %v; want %q, true", typ, seen, want)
	}
}

// TestNoValueNoSecret is a property: for random results (records, data
// keyed by emails, UUIDs and dates, secret values as keys and as values,
// nested at random) what is rendered and what is stored hold key names
// from the results' names and types, nothing else.
func TestNoValueNoSecret(t *testing.T) {
	secrets := testSecrets(t)
	rng := rand.New(rand.NewPCG(29, 2))
	names := []string{"id", "name", "title", "created_at", "owner", "items", "count", "status", "url", "meta", "tags", "x_request_id"}
	allowed := map[string]bool{}
	for _, n := range names {
		allowed[n] = true
	}
	value := func() any {
		switch rng.IntN(6) {
		case 0:
			return nil
		case 1:
			return rng.Int64N(1 << 40)
		case 2:
			return rng.Float64()
		case 3:
			return rng.IntN(2) == 0
		case 4:
			return secretValue
		}
		return fmt.Sprintf("val%x", rng.Uint64())
	}
	dataKey := func() string {
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("user%d@example.com", rng.IntN(1e6))
		case 1:
			return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", rng.Uint32(), rng.IntN(1<<16), rng.IntN(1<<12), rng.IntN(1<<12), rng.Int64N(1<<48))
		case 2:
			return fmt.Sprintf("2024-%02d-%02d", 1+rng.IntN(12), 1+rng.IntN(28))
		case 3:
			return secretValue
		}
		return fmt.Sprint(rng.IntN(1e6))
	}
	var gen func(depth int) any
	gen = func(depth int) any {
		if depth > 4 {
			return value()
		}
		switch rng.IntN(5) {
		case 0:
			return value()
		case 1: // a record, maybe with a secret key
			m := ordered.NewMap(4)
			for _, i := range rng.Perm(len(names))[:1+rng.IntN(5)] {
				m.Set(names[i], gen(depth+1))
			}
			if rng.IntN(4) == 0 {
				m.Set(secretValue, gen(depth+1))
			}
			return m
		case 2: // a dict keyed by data
			m := ordered.NewMap(4)
			for range 1 + rng.IntN(6) {
				m.Set(dataKey(), gen(depth+1))
			}
			return m
		case 3: // a record with a data key among names
			m := ordered.NewMap(4)
			for _, i := range rng.Perm(len(names))[:3] {
				m.Set(names[i], gen(depth+1))
			}
			m.Set(dataKey(), value())
			return m
		}
		out := make([]any, rng.IntN(5))
		for i := range out {
			out[i] = gen(depth + 1)
		}
		return out
	}
	word := regexp.MustCompile(`[A-Za-z_@$][A-Za-z0-9_@$.-]*`)
	types := map[string]bool{"int": true, "float": true, "str": true, "bool": true, "None": true, "list": true, "dict": true, "any": true}
	st := store.NewMemory(store.MemoryOptions{})
	for round := range 200 {
		l := New(st, Options{Redact: secrets.Redact})
		tl := tool(fmt.Sprintf("srv.t%d", round))
		for range 1 + rng.IntN(4) {
			l.Observe(context.Background(), tl, gen(0))
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		typ, _ := New(st, Options{Redact: secrets.Redact}).ResultType(tl)
		for _, w := range word.FindAllString(typ, -1) {
			if !allowed[w] && !types[w] {
				t.Fatalf("round %d: %q in %s", round, w, typ)
			}
		}
		data, err := st.Get(context.Background(), tl.ID()+"@1")
		if err != nil {
			continue // nothing learned (every result unknown)
		}
		var stored any
		if err := json.Unmarshal(data, &stored); err != nil {
			t.Fatal(err)
		}
		for _, s := range stringsIn(stored) {
			if !allowed[s] {
				t.Fatalf("round %d: the store holds %q: %s", round, s, data)
			}
		}
	}
}

// stringsIn returns every string value in a decoded JSON value (not the
// keys, which are the format's own).
func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	}
	return nil
}

// TestStoredValueChecked: what the store holds is checked like a result:
// a value that is not a shape of this version, too deep, or too large is
// ignored, and keys that look like data or hold a secret are dropped.
func TestStoredValueChecked(t *testing.T) {
	secrets := testSecrets(t)
	deep := `{"k":64}`
	for range maxDepth + 3 {
		deep = `{"k":32,"e":` + deep + `}`
	}
	for _, tc := range []struct{ name, stored, want string }{
		{"not JSON", `nope`, ""},
		{"another version", `{"v":2,"s":{"k":16}}`, ""},
		{"too deep", `{"v":1,"s":` + deep + `}`, ""},
		{"too large", `{"v":1,"s":{"k":16},"pad":"` + strings.Repeat("x", maxStored) + `"}`, ""},
		{"duplicate keys", `{"v":1,"s":{"k":64,"i":true,"f":[{"n":"id","s":{"k":4}},{"n":"id","s":{"k":16}}]}}`, "{id: int}"},
		{"data and secret keys dropped", `{"v":1,"s":{"k":64,"i":true,"f":[{"n":"id","s":{"k":4}},{"n":"ann@example.com","s":{"k":4}},{"n":"` + secretValue + `","s":{"k":4}}]}}`, "{id: int, ...}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := store.NewMemory(store.MemoryOptions{})
			st.Set(context.Background(), "srv.fn@1", []byte(tc.stored), 0)
			typ, _ := New(st, Options{Redact: secrets.Redact}).ResultType(tool("srv.fn"))
			if typ != tc.want {
				t.Errorf("got %q, want %q", typ, tc.want)
			}
		})
	}
}

// TestStoreDown: a store that does not answer never slows a tool call,
// costs a help text at most readTimeout once (not once per tool), and
// Close gives up within syncTimeout.
func TestStoreDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // accepted, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	rs, err := store.NewRedis("redis://" + ln.Addr().String() + "/0")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	l := New(rs, Options{})
	start := time.Now()
	for i := range 20 {
		l.Observe(context.Background(), tool(fmt.Sprintf("srv.t%d", i)), dec(t, `{"id": 1}`))
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("20 calls took %v with the store down", d)
	}
	start = time.Now()
	for i := range 20 {
		l.ResultType(tool(fmt.Sprintf("srv.u%d", i)))
	}
	if d := time.Since(start); d > readTimeout+time.Second {
		t.Errorf("20 help lines took %v with the store down", d)
	}
	start = time.Now()
	l.Close()
	if d := time.Since(start); d > 2*syncTimeout+time.Second {
		t.Errorf("Close took %v with the store down", d)
	}
}

// secretValue is the value of the secret TOKEN in testSecrets.
const secretValue = "tok_9f8e7d6c5b4a3210"

func testSecrets(t testing.TB) *config.Secrets {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.yaml"), []byte("TOKEN: "+secretValue+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "onetool.yaml"), []byte("version: 1\n"), 0o644)
	cfg, err := config.Load(filepath.Join(dir, "onetool.yaml"), config.LoadOptions{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Secrets
}

// testStore returns an empty store of kind: "memory", or "redis" (a real
// redis-server; skipped without one).
func testStore(t *testing.T, kind string) store.Store {
	t.Helper()
	if kind == "memory" {
		return store.NewMemory(store.MemoryOptions{})
	}
	srv := storetest.StartRedis(t)
	rs, err := store.NewRedis(srv.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close() })
	return store.WithPrefix(rs, "shape:")
}
