package mcpserver

import (
	"errors"
	"fmt"
	"sync"

	"github.com/onetool-dev/onetool/interp"
)

// ErrSessionMemory is the cause of an input refused because the sessions'
// variables would outgrow serve.session_memory (those of its principal)
// or serve.session_memory_total (those of every session).
var ErrSessionMemory = errors.New("session memory limit")

// stateBudget bounds what the sessions of serve.session_state keep (SPEC
// §8.4): limits.max_memory bounds one session, this all those of one
// principal together and all of them. After each input a session reports
// what it keeps; an input that makes its principal's sessions, or all
// sessions, keep more than their bound fails, and its session forgets its
// variables. Only growth is refused: a session that keeps no more than
// before always may, so the sessions of others never lose what they keep
// to another principal's growth.
type stateBudget struct {
	perPrincipal, total uint64 // 0: no bound

	mu   sync.Mutex
	held map[string]uint64 // principal's identity → bytes its sessions keep
	sum  uint64
}

func newStateBudget(perPrincipal, total uint64) *stateBudget {
	return &stateBudget{perPrincipal: perPrincipal, total: total, held: map[string]uint64{}}
}

// share is what one session keeps, counted for its principal.
type share struct {
	b     *stateBudget
	key   string // the principal's identity
	who   string // its name, for messages; "" when nobody authenticated
	bytes uint64
}

func (b *stateBudget) share(key, who string) *share { return &share{b: b, key: key, who: who} }

// check is the session's runner.KeptCheck: n bytes are kept now.
func (s *share) check(n uint64) error {
	b := s.b
	b.mu.Lock()
	defer b.mu.Unlock()
	mine := b.held[s.key] - s.bytes + n
	all := b.sum - s.bytes + n
	if n > s.bytes {
		switch {
		case b.perPrincipal > 0 && mine > b.perPrincipal:
			whose := "principal '" + s.who + "'"
			if s.who == "" {
				whose = "this server's clients" // no serve.auth: all count as one
			}
			return s.refuse(fmt.Sprintf("memory limit of %s exceeded by the variables the sessions of %s keep together (this one %s, the others %s)",
				interp.FormatBytes(int64(b.perPrincipal)), whose, interp.ApproxBytes(int64(n)), interp.ApproxBytes(int64(mine-n))), "serve.session_memory")
		case b.total > 0 && all > b.total:
			return s.refuse(fmt.Sprintf("memory limit of %s exceeded by the variables all sessions of this server keep together",
				interp.FormatBytes(int64(b.total))), "serve.session_memory_total")
		}
	}
	b.sum = all
	if mine == 0 {
		delete(b.held, s.key) // a map that only grows would hold every principal ever seen
	} else {
		b.held[s.key] = mine
	}
	s.bytes = n
	return nil
}

// refuse is the error of an input whose session is cleared: what
// happened, and what to do.
func (s *share) refuse(what, setting string) error {
	msg := what + "; this session's variables have all been cleared. Keep less (del what you no longer need), end sessions you no longer use, or set " + setting + " to raise it"
	return interp.NewError(interp.KindLimit, 0, 0, msg, ErrSessionMemory)
}

// release gives back what the session kept: it has ended.
func (s *share) release() { _ = s.check(0) }

// usage reports what the sessions of the principal key keep, and all.
func (b *stateBudget) usage(key string) (mine, all uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held[key], b.sum
}
