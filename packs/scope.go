package packs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// Scope is what one run's operations keep between their calls and give
// back when the run ends (issue 31): a SQLite connection a program's
// sqlite3.Connection holds, the set of paths the run created or had
// confirmed, its scratch directory for tempfile. Tool calls are
// stateless; variants of Python's own APIs are not quite, and the Scope
// is where their state lives, so that nothing outlives the run.
//
// The runner makes one per run (each input of a session gets its own),
// puts it in the context of every tool call the run makes (ScopeFrom),
// in-process or, under isolation: process, in the server, and closes it
// when the run ends, whatever the way. It is safe for concurrent use.
type Scope struct {
	mu      sync.Mutex
	values  map[any]io.Closer
	order   []any // keys in creation order: closed last first
	scratch string
	closed  bool
}

// ErrScopeClosed is the error of a Scope used after its run ended (a
// value kept in a session's globals and used by the next input).
var ErrScopeClosed = errors.New("the run that made it has ended")

// ScratchPrefix starts the name of every run's scratch directory, in the
// system's temporary directory: a sweep at start-up may remove old ones
// that a crash left.
const ScratchPrefix = "onetool-run-"

// NewScope returns an empty, open Scope. It allocates nothing more until
// used: every run gets one, most never use it.
func NewScope() *Scope { return &Scope{} }

type scopeKey struct{}

// WithScope returns ctx carrying s, for the tool calls of one run.
func WithScope(ctx context.Context, s *Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom returns the Scope of the run ctx belongs to; nil outside a
// run (a tool called from Go, a test), where a variant that needs one
// refuses to work rather than keep state nobody closes.
func ScopeFrom(ctx context.Context) *Scope {
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	return s
}

// Value returns the value kept under key, making it with mk the first
// time. Keys follow context.Context's rule: an unexported type of the
// package that uses it, so packs never collide. mk runs with the Scope
// locked (two calls never make two values) and must not use s; an error
// from it is returned and nothing is kept. After Close, Value fails with
// ErrScopeClosed.
func (s *Scope) Value(key any, mk func() (io.Closer, error)) (io.Closer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrScopeClosed
	}
	if v, ok := s.values[key]; ok {
		return v, nil
	}
	v, err := mk()
	if err != nil {
		return nil, err
	}
	if s.values == nil {
		s.values = map[any]io.Closer{}
	}
	s.values[key] = v
	s.order = append(s.order, key)
	return v, nil
}

// Lookup returns the value kept under key, if any, without making one.
func (s *Scope) Lookup(key any) (io.Closer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[key]
	return v, ok
}

// Drop closes the value kept under key and forgets it (a program closed
// its connection); nothing happens when there is none.
func (s *Scope) Drop(key any) error {
	s.mu.Lock()
	v, ok := s.values[key]
	if ok {
		delete(s.values, key)
		if i := slices.Index(s.order, key); i >= 0 {
			s.order = slices.Delete(s.order, i, i+1)
		}
	}
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return v.Close()
}

// Scratch returns the run's scratch directory, made on first use with
// mode 0700 in the system's temporary directory (outside every root, so
// tempfile never writes in the user's tree), and removed with all it
// holds by Close.
func (s *Scope) Scratch() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", ErrScopeClosed
	}
	if s.scratch == "" {
		dir, err := os.MkdirTemp("", ScratchPrefix+"*")
		if err != nil {
			return "", fmt.Errorf("the run's scratch directory: %w", err)
		}
		s.scratch = dir
	}
	return s.scratch, nil
}

// Close ends the Scope: every value is closed, the last made first, then
// the scratch directory is removed. Errors are joined; every value is
// closed whatever another returned. Later calls do nothing.
func (s *Scope) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	values, order, scratch := s.values, s.order, s.scratch
	s.values, s.order = nil, nil
	s.mu.Unlock()
	var errs []error
	for _, k := range slices.Backward(order) {
		if err := values[k].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if scratch != "" {
		if err := os.RemoveAll(scratch); err != nil {
			errs = append(errs, fmt.Errorf("removing the run's scratch directory: %w", err))
		}
	}
	return errors.Join(errs...)
}
