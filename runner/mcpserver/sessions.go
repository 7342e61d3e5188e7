package mcpserver

import (
	"net/http"
	"sync"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner/auth"
)

// sessionIDHeader carries the session of a stateful streamable HTTP
// request, and the new session's id in the answer to initialize.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap keeps at most max stateful HTTP sessions of each principal
// alive (SPEC §8.4, serve.max_sessions): it watches each request's session
// id to know when each session was last used, and when a new session makes
// one too many for its principal it closes that principal's session idle
// longest. go-sdk then forgets that session and answers 404 "session not
// found" to its client, which can initialize again. One principal never
// ends, touches or forgets another's sessions: only requests of a
// session's own principal count for it (go-sdk answers the others 403).
// (go-sdk's own SessionTimeout ends sessions that stay idle; it has no
// cap.)
type sessionCap struct {
	server *mcp.Server
	next   http.Handler
	max    int
	now    func() time.Time

	mu      sync.Mutex
	live    map[string]*sessionUse // by session id; may still hold ids go-sdk has closed
	sweepAt int                    // sessions known beyond which the closed ones are dropped
}

type sessionUse struct {
	owner string    // the identity of the principal that opened it ("" without serve.auth)
	last  time.Time // start or end of the latest request
	busy  int       // POSTs in flight, which go-sdk does not time out either
}

func newSessionCap(s *mcp.Server, next http.Handler, max int) *sessionCap {
	return &sessionCap{server: s, next: next, max: max, now: time.Now, live: map[string]*sessionUse{}, sweepAt: max}
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	owner := auth.PrincipalOf(sdkauth.TokenInfoFromContext(r.Context())).Key()
	id := r.Header.Get(sessionIDHeader)
	if id == "" {
		c.next.ServeHTTP(w, r)
		// An initialize that opened a session names it in the answer.
		if id := w.Header().Get(sessionIDHeader); id != "" {
			c.opened(id, owner)
		}
		return
	}
	post := r.Method == http.MethodPost
	c.touch(id, owner, post, 1)
	defer c.touch(id, owner, post, -1)
	c.next.ServeHTTP(w, r)
	if r.Method == http.MethodDelete {
		c.forget(id, owner)
	}
}

// touch records a request of session id by owner starting (delta 1) or
// ending (-1). Ids not seen opening a session, and requests of another
// principal, are ignored: anyone can send any id.
func (c *sessionCap) touch(id, owner string, post bool, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.live[id]
	if !ok || u.owner != owner {
		return
	}
	u.last = c.now()
	if post {
		u.busy = max(u.busy+delta, 0)
	}
}

// forget drops session id, which its owner has ended (DELETE).
func (c *sessionCap) forget(id, owner string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u, ok := c.live[id]; ok && u.owner == owner {
		delete(c.live, id)
	}
}

// owned counts the sessions of owner. c.mu is held.
func (c *sessionCap) owned(owner string) int {
	n := 0
	for _, u := range c.live {
		if u.owner == owner {
			n++
		}
	}
	return n
}

// opened records a new session of owner and, beyond the cap, ends the
// sessions of owner idle longest.
func (c *sessionCap) opened(id, owner string) {
	c.mu.Lock()
	if _, ok := c.live[id]; ok {
		c.mu.Unlock()
		return
	}
	c.live[id] = &sessionUse{owner: owner, last: c.now()}
	over := c.owned(owner) > c.max
	if !over && len(c.live) <= c.sweepAt {
		c.mu.Unlock()
		return
	}
	// Sessions go-sdk ended itself (idle, deleted, failed to initialize)
	// must not push out live ones, nor pile up: they are dropped when a
	// principal is over its cap, and whenever the sessions known have
	// doubled since the last sweep.
	alive := map[string]*mcp.ServerSession{}
	for ss := range c.server.Sessions() {
		alive[ss.ID()] = ss
	}
	for sid := range c.live {
		if alive[sid] == nil && sid != id {
			delete(c.live, sid)
		}
	}
	c.sweepAt = max(2*len(c.live), c.max)
	var victims []*mcp.ServerSession
	for c.owned(owner) > c.max {
		victim := c.longestIdle(owner, id)
		delete(c.live, victim)
		if ss := alive[victim]; ss != nil {
			victims = append(victims, ss)
		}
	}
	c.mu.Unlock()
	for _, ss := range victims {
		// Close waits for the session's requests in flight to end; the
		// new session's client must not wait for that.
		go ss.Close()
	}
}

// longestIdle picks the session of owner to end: the one idle longest,
// preferring sessions with no request in flight. c.mu is held.
func (c *sessionCap) longestIdle(owner, except string) string {
	var best string
	var bu *sessionUse
	for sid, u := range c.live {
		if sid == except || u.owner != owner {
			continue
		}
		better := bu == nil
		if !better {
			idle, bestIdle := u.busy == 0, bu.busy == 0
			better = idle && !bestIdle || idle == bestIdle && u.last.Before(bu.last)
		}
		if better {
			best, bu = sid, u
		}
	}
	return best
}

// tracked counts the sessions the cap knows of, for tests.
func (c *sessionCap) tracked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.live)
}
