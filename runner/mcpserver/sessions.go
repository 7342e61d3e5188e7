package mcpserver

import (
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionIDHeader carries the session of a stateful streamable HTTP
// request, and the new session's id in the answer to initialize.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap keeps at most max stateful HTTP sessions alive (SPEC §8.4):
// it watches each request's session id to know when each session was last
// used, and when a new session makes one too many it closes the one idle
// longest. go-sdk then forgets that session and answers 404 "session not
// found" to its client, which can initialize again. (go-sdk's own
// SessionTimeout ends sessions that stay idle; it has no cap.)
type sessionCap struct {
	server *mcp.Server
	next   http.Handler
	max    int
	now    func() time.Time

	mu   sync.Mutex
	live map[string]*sessionUse // by session id; may still hold ids go-sdk has closed
}

type sessionUse struct {
	last time.Time // start or end of the latest request
	busy int       // POSTs in flight, which go-sdk does not time out either
}

func newSessionCap(s *mcp.Server, next http.Handler, max int) *sessionCap {
	return &sessionCap{server: s, next: next, max: max, now: time.Now, live: map[string]*sessionUse{}}
}

func (c *sessionCap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionIDHeader)
	if id == "" {
		c.next.ServeHTTP(w, r)
		// An initialize that opened a session names it in the answer.
		if id := w.Header().Get(sessionIDHeader); id != "" {
			c.opened(id)
		}
		return
	}
	post := r.Method == http.MethodPost
	c.touch(id, post, 1)
	defer c.touch(id, post, -1)
	c.next.ServeHTTP(w, r)
	if r.Method == http.MethodDelete {
		c.forget(id)
	}
}

// touch records a request of session id starting (delta 1) or ending
// (-1). Ids not seen opening a session are ignored: anyone can send any id.
func (c *sessionCap) touch(id string, post bool, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.live[id]
	if !ok {
		return
	}
	u.last = c.now()
	if post {
		u.busy = max(u.busy+delta, 0)
	}
}

func (c *sessionCap) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.live, id)
}

// opened records a new session and, beyond the cap, ends the sessions
// idle longest.
func (c *sessionCap) opened(id string) {
	c.mu.Lock()
	if _, ok := c.live[id]; ok {
		c.mu.Unlock()
		return
	}
	c.live[id] = &sessionUse{last: c.now()}
	if len(c.live) <= c.max {
		c.mu.Unlock()
		return
	}
	// Sessions go-sdk ended itself (idle, deleted, failed to initialize)
	// must not push out live ones.
	alive := map[string]*mcp.ServerSession{}
	for ss := range c.server.Sessions() {
		alive[ss.ID()] = ss
	}
	for sid := range c.live {
		if alive[sid] == nil && sid != id {
			delete(c.live, sid)
		}
	}
	var victims []*mcp.ServerSession
	for len(c.live) > c.max {
		victim := c.longestIdle(id)
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

// longestIdle picks the session to end: the one idle longest, preferring
// sessions with no request in flight. c.mu is held.
func (c *sessionCap) longestIdle(except string) string {
	var best string
	var bu *sessionUse
	for sid, u := range c.live {
		if sid == except {
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
