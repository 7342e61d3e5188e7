// Package store holds what several onetool replicas must share (SPEC
// §7.4): large results read by ot.result, the cache of deterministic tool
// results, and rate-limit counters. Values are opaque bytes the runner
// encodes once; the store only keeps them for a while.
//
// Two implementations: Memory, the embedded default (one process, no
// network), and Redis, for replicas behind a load balancer, which must all
// point at the same Redis.
package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Store keeps byte values under string keys for a while. Implementations
// are safe for concurrent use. Every call honours ctx and returns within a
// bounded time even when the backing service does not answer.
type Store interface {
	// Get returns the value under key, or an error matching ErrNotFound
	// when there is none (never stored, expired or evicted). The caller
	// must not modify the returned slice.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set stores value under key for ttl; ttl <= 0 means the store's
	// own default (Memory: until evicted; Redis: DefaultRedisTTL). The
	// caller must not modify value afterwards: Memory keeps the slice
	// itself rather than a copy of a result that may be 256 MiB.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Delete removes key; a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// Incr adds 1 to the counter under key and returns the new value. The
	// first increment starts the counter's life of ttl; later ones do not
	// extend it, so a counter counts within a fixed window.
	Incr(ctx context.Context, key string, ttl time.Duration) (int64, error)
	// Close releases connections; the store is unusable afterwards.
	Close() error
}

// ValueStore is implemented by stores in this process (Memory): they can
// keep a Go value as it is, so that a cache hit costs a copy rather than a
// decode. size is what the value counts against the store's byte bound.
// The store keeps v itself: the caller must not change it afterwards, and
// readers get v itself, which they must not change either.
type ValueStore interface {
	GetValue(ctx context.Context, key string) (any, error)
	SetValue(ctx context.Context, key string, v any, size int64, ttl time.Duration) error
}

// Sizer is implemented by stores that know what they hold (Memory).
type Sizer interface {
	Len() (entries int, bytes int64)
}

// ErrNotFound is the cause of a Get for a key the store does not hold.
var ErrNotFound = errors.New("not in the store")

// ErrUnavailable is the cause of every failure to reach the backing
// service (refused, timed out, dropped): the data may exist, but cannot
// be read now.
var ErrUnavailable = errors.New("the store is unreachable")

// Memory is the value of the store setting for the embedded store.
const Memory = "memory"

// Validate checks a store setting: "memory" (or empty) or a redis:// URL
// redis://[user:password@]host[:port][/db]. The error says what is wrong
// and what is accepted.
func Validate(setting string) error {
	if setting == "" || setting == Memory {
		return nil
	}
	_, err := parseRedisURL(setting)
	return err
}

// redisTarget is a parsed redis:// URL.
type redisTarget struct {
	addr     string
	user     string
	password string
	db       int
	tls      bool
}

func parseRedisURL(s string) (redisTarget, error) {
	const want = `use "memory" or a Redis URL such as redis://host:6379/0`
	u, err := url.Parse(s)
	if err != nil {
		return redisTarget{}, fmt.Errorf("store %q is not a valid URL (%w): %s", Redact(s), err, want)
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return redisTarget{}, fmt.Errorf("store %q is neither memory nor a redis:// URL: %s", Redact(s), want)
	}
	if u.Hostname() == "" || u.Opaque != "" {
		return redisTarget{}, fmt.Errorf("store %q has no host: %s", Redact(s), want)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return redisTarget{}, fmt.Errorf("store %q has a query or fragment, which are not supported: %s", Redact(s), want)
	}
	t := redisTarget{addr: u.Host, tls: u.Scheme == "rediss"}
	if u.Port() == "" {
		t.addr = u.Hostname() + ":6379"
	} else if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 {
		return redisTarget{}, fmt.Errorf("store %q has a bad port %q: %s", Redact(s), u.Port(), want)
	}
	if u.User != nil {
		t.user = u.User.Username()
		t.password, _ = u.User.Password()
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 || n > 15 {
			return redisTarget{}, fmt.Errorf("store %q names database %q; a Redis database is a number from 0 to 15: %s", Redact(s), db, want)
		}
		t.db = n
	}
	return t, nil
}

// Redact returns a store setting with any password replaced by "xxxxx",
// for logs, errors and the effective configuration.
func Redact(setting string) string {
	u, err := url.Parse(setting)
	if err != nil || u.User == nil {
		if i, j := strings.Index(setting, "://"), strings.LastIndex(setting, "@"); i >= 0 && j > i {
			return setting[:i+3] + "xxxxx" + setting[j:] // unparsable, but may hold a password
		}
		return setting
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// IsMemory reports whether a (valid) setting names the embedded store.
func IsMemory(setting string) bool { return setting == "" || setting == Memory }

// prefixed is a Store whose keys all start with a prefix, so that several
// users share one Redis without meeting each other's keys.
type prefixed struct {
	Store
	prefix string
}

// WithPrefix returns s with prefix put before every key. Closing the
// result closes s.
func WithPrefix(s Store, prefix string) Store { return prefixed{s, prefix} }

func (p prefixed) Get(ctx context.Context, key string) ([]byte, error) {
	return p.Store.Get(ctx, p.prefix+key)
}

func (p prefixed) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return p.Store.Set(ctx, p.prefix+key, value, ttl)
}

func (p prefixed) Delete(ctx context.Context, key string) error {
	return p.Store.Delete(ctx, p.prefix+key)
}

func (p prefixed) Incr(ctx context.Context, key string, ttl time.Duration) (int64, error) {
	return p.Store.Incr(ctx, p.prefix+key, ttl)
}
