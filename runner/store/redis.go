package store

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bounds on a Redis store's calls: a Redis that is down or does not answer
// fails the run that needs it within these, never hangs it.
const (
	redisDialTimeout = 2 * time.Second
	redisIOTimeout   = 5 * time.Second  // per read or write on the socket
	redisCallTimeout = 10 * time.Second // a whole call, retry included
)

// DefaultRedisTTL is how long a Redis store keeps a value set with no TTL.
// Redis has no entry or byte bound of onetool's own (its maxmemory does
// that), so nothing may live there forever.
const DefaultRedisTTL = 24 * time.Hour

// keyPrefix starts every key onetool writes, so a Redis shared with other
// software can tell (and flush) onetool's keys.
const keyPrefix = "onetool:"

// RedisStore is a Store in a Redis server, shared by every replica that
// points at it.
type RedisStore struct {
	client  *redis.Client
	display string // the URL without its password, for errors
}

// NewRedis returns a store for a redis:// (or rediss://) URL. It does not
// connect: the first call does, so a Redis that is down at start fails
// the runs that need it rather than the server.
func NewRedis(setting string) (*RedisStore, error) {
	t, err := parseRedisURL(setting)
	if err != nil {
		return nil, err
	}
	o := &redis.Options{
		Addr:                  t.addr,
		Username:              t.user,
		Password:              t.password,
		DB:                    t.db,
		DialTimeout:           redisDialTimeout,
		ReadTimeout:           redisIOTimeout,
		WriteTimeout:          redisIOTimeout,
		ContextTimeoutEnabled: true,
		MaxRetries:            1, // one retry survives a connection the server closed
		DialerRetries:         1, // a refused dial is an answer: fail now, not after five
		DisableIdentity:       true,
	}
	if t.tls {
		o.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return &RedisStore{client: redis.NewClient(o), display: Redact(setting)}, nil
}

// wrap turns a client error into one that says which store failed and
// matches ErrNotFound or ErrUnavailable.
func (r *RedisStore) wrap(op, key string, err error) error {
	switch {
	case errors.Is(err, redis.Nil):
		return fmt.Errorf("%q: %w", key, ErrNotFound)
	case errors.Is(err, context.Canceled):
		return err
	}
	var reply redis.Error
	if errors.As(err, &reply) && !errors.Is(err, context.DeadlineExceeded) {
		// Redis answered, with an error (out of memory, wrong type, auth).
		return fmt.Errorf("store %s: %s %q: %w", r.display, op, key, err)
	}
	return fmt.Errorf("%w (%s): %s %q: %w", ErrUnavailable, r.display, op, key, err)
}

func callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, redisCallTimeout)
}

// Get implements Store.
func (r *RedisStore) Get(ctx context.Context, key string) ([]byte, error) {
	ctx, cancel := callContext(ctx)
	defer cancel()
	v, err := r.client.Get(ctx, keyPrefix+key).Bytes()
	if err != nil {
		return nil, r.wrap("get", key, err)
	}
	return v, nil
}

// Set implements Store.
func (r *RedisStore) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl <= 0 {
		ttl = DefaultRedisTTL
	}
	ctx, cancel := callContext(ctx)
	defer cancel()
	if err := r.client.Set(ctx, keyPrefix+key, value, ttl).Err(); err != nil {
		return r.wrap("set", key, err)
	}
	return nil
}

// Delete implements Store.
func (r *RedisStore) Delete(ctx context.Context, key string) error {
	ctx, cancel := callContext(ctx)
	defer cancel()
	if err := r.client.Del(ctx, keyPrefix+key).Err(); err != nil {
		return r.wrap("delete", key, err)
	}
	return nil
}

// Incr implements Store: INCR and EXPIRE NX in one transaction, so a
// counter always gets its expiry however the caller fails.
func (r *RedisStore) Incr(ctx context.Context, key string, ttl time.Duration) (int64, error) {
	if ttl <= 0 {
		ttl = DefaultRedisTTL
	}
	ctx, cancel := callContext(ctx)
	defer cancel()
	var incr *redis.IntCmd
	_, err := r.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incr = p.Incr(ctx, keyPrefix+key)
		p.ExpireNX(ctx, keyPrefix+key, ttl)
		return nil
	})
	if err != nil {
		return 0, r.wrap("incr", key, err)
	}
	return incr.Val(), nil
}

// Close implements Store.
func (r *RedisStore) Close() error { return r.client.Close() }

// String is the store's URL without its password.
func (r *RedisStore) String() string { return r.display }
