package mcpclient

import (
	"context"
	"strconv"
	"sync"
)

// ProgressFunc receives an upstream server's progress for one call:
// progress so far, the total when the server knows it (else 0), and an
// optional message. It runs while the connection handles the
// notification, so it must return quickly; it is never called after the
// call has returned.
type ProgressFunc func(progress, total float64, message string)

type progressKey struct{}

// WithProgress returns a context that asks [Server.Call] to forward the
// server's progress notifications for that call to f. Only calls made
// with such a context ask the server for progress at all (MCP's
// progressToken), so servers do no progress work nobody reads.
func WithProgress(ctx context.Context, f func(progress, total float64, message string)) context.Context {
	return context.WithValue(ctx, progressKey{}, ProgressFunc(f))
}

func progressFrom(ctx context.Context) ProgressFunc {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return f
}

// progressRoutes maps the progress tokens of calls in flight to their
// callbacks. Tokens are strings ("ot-1", "ot-2", …), unique per server,
// because they come back from the server through JSON, where a number
// would not keep its Go type.
type progressRoutes struct {
	mu     sync.Mutex
	next   uint64
	routes map[string]*progressRoute
}

// progressRoute guards one callback, so that unregistering waits for a
// delivery in progress and no delivery starts afterwards.
type progressRoute struct {
	mu   sync.Mutex
	f    ProgressFunc
	done bool
}

// register gives f a new token. The returned function unregisters it;
// once it has returned, f is not called again.
func (p *progressRoutes) register(f ProgressFunc) (token string, unregister func()) {
	p.mu.Lock()
	p.next++
	token = "ot-" + strconv.FormatUint(p.next, 10)
	if p.routes == nil {
		p.routes = make(map[string]*progressRoute)
	}
	r := &progressRoute{f: f}
	p.routes[token] = r
	p.mu.Unlock()
	return token, func() {
		p.mu.Lock()
		delete(p.routes, token)
		p.mu.Unlock()
		r.mu.Lock()
		r.done = true
		r.mu.Unlock()
	}
}

// deliver hands a notification to the callback of its token. Unknown
// tokens — a late notification for a call that already returned, or one
// the server made up — are dropped.
func (p *progressRoutes) deliver(token any, progress, total float64, message string) {
	s, ok := token.(string)
	if !ok {
		return
	}
	p.mu.Lock()
	r := p.routes[s]
	p.mu.Unlock()
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.done {
		r.f(progress, total, message)
	}
}
