package shapes

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/store"
)

// DefaultTTL is how long the store keeps a tool's learned shape after the
// last replica that used the tool wrote it: a tool not called for a week
// is learned afresh.
const DefaultTTL = 7 * 24 * time.Hour

const (
	// syncEvery: a replica that calls a tool reads, merges and writes its
	// shape at most this often (and at once when it learned something),
	// so that it picks up what others learned, repairs an update a
	// concurrent writer lost, and keeps the entry alive.
	syncEvery = time.Minute
	// refreshEvery: ResultType reads the store again at most this often
	// per tool.
	refreshEvery = 30 * time.Second
	// syncTimeout bounds one read-merge-write; readTimeout the read of
	// ResultType, which a help text waits for.
	syncTimeout = 2 * time.Second
	readTimeout = 250 * time.Millisecond
	// downFor: after the store failed, ResultType does not read it for
	// this long, so that a Redis that is down costs one help text one
	// readTimeout, not one per tool.
	downFor = 5 * time.Second
	// maxTools bounds the tools one Learner remembers.
	maxTools = 4096
	// maxStored bounds a stored shape; a larger value is not read.
	maxStored = 64 << 10
	// Sampling: every call of a tool is looked at while its shape is
	// young (the first learnCalls calls) or changing (within learnWindow
	// calls of the last change); after that one call in stride.
	learnCalls  = 8
	learnWindow = 32
	stride      = 16
)

// Options configure a Learner.
type Options struct {
	// Redact is the configuration's secret redaction (config.Secrets.Redact):
	// a key that it changes holds a secret and is left out. nil: none.
	Redact func(string) string
	// MaxChars bounds a rendered type; <= 0: DefaultMaxChars.
	MaxChars int
	// TTL is how long the store keeps a shape; <= 0: DefaultTTL.
	TTL time.Duration
	// Now is the clock (tests); nil: time.Now.
	Now func() time.Time
}

// Learner learns the shapes of tools' results and renders them for stub
// lines. It is safe for concurrent use; a nil *Learner learns nothing.
type Learner struct {
	st   store.Store // nil: this process only
	opts Options

	mu       sync.Mutex
	tools    map[toolKey]*entry
	pending  map[*entry]bool // to sync with the store
	draining bool            // a goroutine is syncing pending
	closed   bool
	drained  sync.WaitGroup

	downUntil atomic.Int64 // unix nanoseconds: the store failed, do not wait on it before
}

// toolKey names a tool's shape: a new version may return something else.
type toolKey struct{ id, version string }

// entry is what a Learner knows of one tool.
type entry struct {
	key        string       // in the store
	calls      atomic.Int64 // results offered to Observe
	lastChange atomic.Int64 // calls at the last change of the shape

	mu       sync.Mutex
	shape    *shape
	changes  int       // counts changes, to tell whether a sync saw them all
	synced   int       // changes when the store last had them all
	rendered string    // of shape; "" when not yet rendered
	wrote    time.Time // last read-merge-write
	read     time.Time // last read of the store
	queued   bool
}

// New returns a Learner that keeps what it learns in st, whose keys it
// uses as they are (give it a prefixed store: store.WithPrefix), or in
// this process only when st is nil.
func New(st store.Store, o Options) *Learner {
	if o.MaxChars <= 0 {
		o.MaxChars = DefaultMaxChars
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Learner{st: st, opts: o, tools: map[toolKey]*entry{}, pending: map[*entry]bool{}}
}

// learns reports whether t's results are learned: only a tool that says
// nothing of its result (no Returns, no output schema) needs it.
func learns(t *packs.Tool) bool { return t.Returns == "" && t.OutputSchema == "" }

// Observe learns from result, what a call of t returned (and what the
// program receives: secrets already hidden). It is cheap: a young shape
// looks at every result, a settled one at one in stride; a result is
// looked at in at most maxVisits values; the store is written by a
// goroutine of its own, never on the caller's time.
func (l *Learner) Observe(ctx context.Context, t *packs.Tool, result any) {
	if l == nil || t == nil || !learns(t) || ctx.Err() != nil {
		return
	}
	e := l.entry(t)
	n := e.calls.Add(1)
	if n > learnCalls && n-e.lastChange.Load() > learnWindow && n%stride != 0 {
		return
	}
	e.mu.Lock()
	limit := maxDepth
	if e.shape != nil && e.shape.Limit > 0 {
		limit = e.shape.Limit
	}
	e.mu.Unlock()
	w := walker{limit: limit, secret: l.secret}
	s := w.infer(result, 0)
	if s == nil {
		return
	}
	now := l.opts.Now()
	e.mu.Lock()
	merged, changed := join(e.shape, s)
	if changed {
		merged.bound()
		e.shape, e.rendered = merged, ""
		e.changes++
		e.lastChange.Store(n)
	}
	due := l.st != nil && !e.queued && (e.changes != e.synced || now.Sub(e.wrote) >= syncEvery)
	if due {
		e.queued = true
	}
	e.mu.Unlock()
	if due {
		l.schedule(e)
	}
}

// ResultType returns t's result type for its stub line: from Returns or
// the output schema (seen false), else the shape learned from its results
// here or by any replica sharing the store (seen true); "" when nothing
// is known.
func (l *Learner) ResultType(t *packs.Tool) (typ string, seen bool) {
	if t == nil {
		return "", false
	}
	if !learns(t) {
		return t.ReturnType(), false
	}
	if l == nil {
		return "", false
	}
	e := l.entry(t)
	l.load(e)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.shape == nil {
		return "", false
	}
	if e.rendered == "" {
		e.rendered = render(e.shape, l.opts.MaxChars, l.secret)
	}
	return e.rendered, true
}

// Flush merges what this Learner knows into the store now (read, merge,
// write, for every tool it has a shape of): what it learned, and what a
// concurrent writer may have lost of it.
func (l *Learner) Flush(ctx context.Context) error {
	if l == nil || l.st == nil {
		return nil
	}
	l.mu.Lock()
	var todo []*entry
	for _, e := range l.tools {
		todo = append(todo, e)
	}
	l.mu.Unlock()
	var errs []error
	for _, e := range todo {
		e.mu.Lock()
		known := e.shape != nil
		e.mu.Unlock()
		if known {
			errs = append(errs, l.sync(ctx, e))
		}
	}
	return errors.Join(errs...)
}

// Close waits for the writes under way and writes what is left, within
// syncTimeout. Observe learns nothing more for the store afterwards.
func (l *Learner) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.drained.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), syncTimeout)
	defer cancel()
	return l.Flush(ctx)
}

// secret reports whether a key holds a secret: redaction changes it, or
// it is a marker that redaction already put there.
func (l *Learner) secret(k string) bool {
	if strings.Contains(k, "[secret:") {
		return true
	}
	return l.opts.Redact != nil && l.opts.Redact(k) != k
}

// entry returns t's entry, making it if need be.
func (l *Learner) entry(t *packs.Tool) *entry {
	k := toolKey{t.ID(), t.EffectiveVersion()}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.tools[k]; ok {
		return e
	}
	if len(l.tools) >= maxTools {
		for old := range l.tools { // forget one: a tool not called for long comes back from the store
			delete(l.tools, old)
			break
		}
	}
	e := &entry{key: k.id + "@" + k.version}
	l.tools[k] = e
	return e
}

// schedule has e synced by the draining goroutine, starting it if none
// runs; it exits when nothing is left, so an idle Learner has none.
func (l *Learner) schedule(e *entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		e.mu.Lock()
		e.queued = false
		e.mu.Unlock()
		return // Close flushes
	}
	l.pending[e] = true
	if !l.draining {
		l.draining = true
		l.drained.Add(1)
		go l.drain()
	}
}

func (l *Learner) drain() {
	defer l.drained.Done()
	for {
		l.mu.Lock()
		var e *entry
		for e = range l.pending {
			delete(l.pending, e)
			break
		}
		if e == nil {
			l.draining = false
			l.mu.Unlock()
			return
		}
		closed := l.closed
		l.mu.Unlock()
		if !closed { // after Close, Close flushes what is left, within its own bound
			ctx, cancel := context.WithTimeout(context.Background(), syncTimeout)
			_ = l.sync(ctx, e) // a failure is retried at the next due call
			cancel()
		}
		e.mu.Lock()
		e.queued = false
		e.mu.Unlock()
	}
}

// sync reads e's shape from the store, merges what e knows into it and
// writes it back (read-merge-write). Two replicas syncing at once may
// lose one's update; since merging is a join, the loser's knowledge
// comes back at its next sync (syncEvery), nothing is ever wrong, only
// late.
func (l *Learner) sync(ctx context.Context, e *entry) error {
	if l.down() {
		return errDown // the next due call tries again
	}
	remote, err := l.get(ctx, e)
	if err != nil {
		return err
	}
	e.mu.Lock()
	local, changes := e.shape.clone(), e.changes
	e.mu.Unlock()
	merged, _ := join(remote, local) // the store's key order first: replicas converge on it
	if merged == nil {
		return nil
	}
	merged.bound()
	data, err := encode(merged)
	if err != nil {
		return err
	}
	// Written even when the store had it all: the write renews the TTL.
	if err := l.st.Set(ctx, e.key, data, l.opts.TTL); err != nil {
		l.failed(err)
		return err
	}
	now := l.opts.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shape, _ = join(merged, e.shape) // with what was learned meanwhile
	e.rendered = ""
	if e.changes == changes {
		e.synced = changes
	}
	e.wrote, e.read = now, now
	return nil
}

// load reads e's shape from the store when it was not read for
// refreshEvery, merging it into what e knows; at most readTimeout, and
// not at all for downFor after the store failed.
func (l *Learner) load(e *entry) {
	if l.st == nil {
		return
	}
	now := l.opts.Now()
	e.mu.Lock()
	fresh := !e.read.IsZero() && now.Sub(e.read) < refreshEvery
	e.mu.Unlock()
	if fresh || l.down() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	remote, err := l.get(ctx, e)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.read = now
	if err != nil || remote == nil {
		return
	}
	if s, changed := join(e.shape, remote); changed {
		e.shape, e.rendered = s, ""
		e.shape.bound()
	}
}

// get reads and decodes e's stored shape: nil when there is none, or it
// is unreadable (it is overwritten at the next sync). err only when the
// store failed.
func (l *Learner) get(ctx context.Context, e *entry) (*shape, error) {
	data, err := l.st.Get(ctx, e.key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		l.failed(err)
		return nil, err
	}
	return decode(data, l.secret), nil
}

// errDown is the error of a sync skipped because the store failed lately.
var errDown = errors.New("the store failed lately")

// down reports whether the store failed within downFor: it is not waited on.
func (l *Learner) down() bool { return l.opts.Now().UnixNano() < l.downUntil.Load() }

// failed notes a failure of the store (unreachable, or answering with an
// error such as out of memory): it is left alone for downFor.
func (l *Learner) failed(error) {
	l.downUntil.Store(l.opts.Now().Add(downFor).UnixNano())
}

// join is merge for a b the caller gives away: when a is nil, b itself is
// the result, not a copy.
func join(a, b *shape) (*shape, bool) {
	if a == nil {
		return b, b != nil
	}
	return merge(a, b)
}

// stored is a shape as the store keeps it; V lets a later format be told
// apart (and ignored by this one).
type stored struct {
	V int    `json:"v"`
	S *shape `json:"s"`
}

const formatVersion = 1

func encode(s *shape) ([]byte, error) { return json.Marshal(stored{V: formatVersion, S: s}) }

// decode reads a stored shape, or nil when it is not one this version
// writes or breaks a bound. What it holds passes the same checks as what
// Observe learns: keys that look like values or hold a secret (as the
// configuration says now) are dropped.
func decode(data []byte, secret func(string) bool) *shape {
	if len(data) > maxStored {
		return nil
	}
	var st stored
	if json.Unmarshal(data, &st) != nil || st.V != formatVersion || st.S == nil {
		return nil
	}
	if st.S.depth() > maxDepth+1 || st.S.nodes() > maxNodes {
		return nil
	}
	clean(st.S, secret)
	return st.S
}

// clean drops the fields of s whose names are not allowed.
func clean(s *shape, secret func(string) bool) {
	if s == nil {
		return
	}
	clean(s.Elem, secret)
	clean(s.Values, secret)
	kept := s.Fields[:0]
	for _, f := range s.Fields {
		if dataKey(f.Name) || secret(f.Name) {
			s.Omitted = true
			continue
		}
		if slices.ContainsFunc(kept, func(g field) bool { return g.Name == f.Name }) {
			continue // written by no Learner
		}
		clean(f.Shape, secret)
		kept = append(kept, f)
	}
	s.Fields = kept
	if len(s.Fields) == 0 {
		s.Fields = nil
	}
}
