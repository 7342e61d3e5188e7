package runner

import (
	"fmt"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/results"
	"github.com/onetool-dev/onetool/runner/shapes"
	"github.com/onetool-dev/onetool/runner/store"
)

// What replicas share (SPEC §7.4): large results, the deterministic cache
// and rate counters live in a store.Store. Embedded (store: memory, the
// default) each is a bounded map of its own; with store: redis://… all
// three live in that Redis under their own key prefixes, so a handle given
// out by one replica pages through another, and a cache hit crosses them.

// Key prefixes in a shared store (below store's own "onetool:").
const (
	resultPrefix  = "result:"
	cachePrefix   = "cache:"
	counterPrefix = "rate:"
	shapePrefix   = "shape:"
)

// WithStore makes the runner keep large results, cached deterministic
// results and rate counters in s instead of in this process (or the
// store the configuration names). The caller owns s and closes it after
// the runner.
func WithStore(s store.Store) Option {
	return func(r *Runner) { r.shared = s }
}

// openStore wires the shared store: the one WithStore gave, else the one
// the configuration's store setting names; none leaves the embedded
// stores New made.
func (r *Runner) openStore() error {
	if r.shared == nil && !store.IsMemory(r.cfg.Store) {
		s, err := store.NewRedis(r.cfg.Store)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
		r.shared, r.ownsShared = s, true
	}
	shapeOpts := shapes.Options{Redact: r.cfg.Secrets.Redact}
	if r.shared == nil {
		r.counters = store.NewMemory(store.MemoryOptions{})
		r.shapes = shapes.New(nil, shapeOpts) // in this process only
		return nil
	}
	r.results = results.New(store.WithPrefix(r.shared, resultPrefix), results.Options{})
	r.cache.st = store.WithPrefix(r.shared, cachePrefix)
	r.counters = store.WithPrefix(r.shared, counterPrefix)
	r.shapes = shapes.New(store.WithPrefix(r.shared, shapePrefix), shapeOpts)
	return nil
}

// Shapes is what the runner learned of the results of tools that declare
// none, for their stub lines: Shapes().ResultType is the hook of
// packs/catalog (nil-safe).
func (r *Runner) Shapes() *shapes.Learner { return r.shapes }

// LearnedResult is the result type of t as its calls have shown it, for
// a stub line (packs/catalog's result hook): "" unless t declares none
// and a shape was learned, so that a declared type keeps the catalog's
// own, fuller rendering.
func (r *Runner) LearnedResult(t *packs.Tool) (typ string, seen bool) {
	typ, seen = r.Shapes().ResultType(t)
	if !seen {
		return "", false
	}
	return typ, true
}

// Counters is where rate counters live: the shared store, or one in this
// process. Use Incr with the window as TTL.
func (r *Runner) Counters() store.Store { return r.counters }
