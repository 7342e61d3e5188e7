package mcpserver

import (
	"context"
	"log/slog"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs/roots"
	"github.com/onetool-dev/onetool/runner"
)

// The MCP client's roots (SPEC §8.2). A client that offers the roots
// capability says which directories the user works in; onetool makes
// them the roots of the session's runs, in place of --root or the working
// directory (runner.ClientRoots: projects and packs.file.allowed_dirs
// stay, onetool's own files stay refused).
//
//   - Stateful sessions (stdio, streamable HTTP with sessions), protocol
//     2025-11-25: the first run of the session asks roots/list before it
//     starts, and so does the first run after each
//     notifications/roots/list_changed; the answer serves the runs that
//     follow. The question goes within the run's call (on its response
//     stream over HTTP), so it needs no standalone stream, and no run
//     ever uses roots the client has said are no longer its own.
//   - Stateless HTTP on protocol 2026-07-28, where a server asks only
//     within a call and keeps nothing between calls: a run of a client
//     that offers roots first returns the question as inputRequests, and
//     runs when the client calls again with its roots (one more round trip
//     per run, for such clients only).
//   - Stateless HTTP on earlier protocols cannot ask: the server's roots.
//
// Over HTTP the client is another machine, or at least another program,
// and its roots can only narrow the server's (roots.Clip); over stdio the
// client is the user who started onetool, and its roots are taken as they
// are, / and the home directory included.

const (
	// rootsTimeout bounds a roots/list request; without an answer the
	// roots the client gave before (the server's, at first) apply.
	rootsTimeout = 10 * time.Second
	// maxClientRoots bounds the roots taken from one list: each is
	// resolved on the file system, and compared with every server root
	// over HTTP.
	maxClientRoots = 64
	// rootsInputKey names the question for roots in inputRequests.
	rootsInputKey = "onetool_roots"
)

// clientRoots keeps the roots each stateful session's client offers.
type clientRoots struct {
	r   *runner.Runner
	log *slog.Logger

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*sessionRoots
}

// sessionRoots are the roots of one session.
type sessionRoots struct {
	roots  *roots.Roots  // the latest list the client gave; nil: the runner's
	stale  bool          // the client's list is to be asked (again)
	asking chan struct{} // while a run asks: closed when it is done
	gen    int           // changes the client announced
}

func newClientRoots(r *runner.Runner, log *slog.Logger) *clientRoots {
	return &clientRoots{r: r, log: log, sessions: map[*mcp.ServerSession]*sessionRoots{}}
}

// initialized is the server's InitializedHandler: the first run of a
// client that offers roots will ask for them.
func (c *clientRoots) initialized(_ context.Context, req *mcp.InitializedRequest) {
	c.stale(req.Session, req.Extra)
}

// listChanged is the server's RootsListChangedHandler: the next run asks
// again. It runs in order with the session's other messages, so a run
// the client sends after the notification sees the new roots.
func (c *clientRoots) listChanged(_ context.Context, req *mcp.RootsListChangedRequest) {
	c.stale(req.Session, req.Extra)
}

// stale marks the roots of ss to be asked before its next run.
func (c *clientRoots) stale(ss *mcp.ServerSession, extra *mcp.RequestExtra) {
	overHTTP := extra != nil && extra.Header != nil
	if ss == nil || !offersRoots(ss) || overHTTP && ss.ID() == "" {
		return // no roots, or a stateless session that ends with this request
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, known := c.sessions[ss]
	if !known {
		s = &sessionRoots{}
		c.sessions[ss] = s
		go func() { // forget the session with it
			ss.Wait()
			c.mu.Lock()
			delete(c.sessions, ss)
			c.mu.Unlock()
		}()
	}
	s.stale = true
	s.gen++
}

// sessionRootsFor returns the roots of the stateful session of req,
// asking the client first when they are stale. One run asks at a time;
// the others wait for its answer.
func (c *clientRoots) sessionRootsFor(ctx context.Context, req *mcp.CallToolRequest) *roots.Roots {
	ss := req.Session
	for {
		c.mu.Lock()
		s := c.sessions[ss]
		switch {
		case s == nil:
			c.mu.Unlock()
			return nil
		case !s.stale:
			rr := s.roots
			c.mu.Unlock()
			return rr
		case s.asking != nil:
			wait := s.asking
			c.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil // the run ends at once anyway
			}
		}
		done, gen := make(chan struct{}), s.gen
		s.asking = done
		c.mu.Unlock()

		actx, cancel := context.WithTimeout(ctx, rootsTimeout)
		res, err := ss.ListRoots(actx, nil)
		cancel()
		var rr *roots.Roots
		if err == nil {
			overHTTP := req.Extra != nil && req.Extra.Header != nil
			rr, err = c.rootsOf(res, overHTTP)
		}
		c.mu.Lock()
		s.asking = nil
		switch {
		case err == nil:
			s.roots = rr
			s.stale = s.gen != gen // changed again meanwhile: ask again
		case ctx.Err() != nil:
			// This run was cancelled: the next one asks.
		default:
			c.log.Warn("the MCP client offers roots, but they could not be had; the roots it gave before (or the server's) apply until it announces a change", "error", err)
			s.stale = s.gen != gen
		}
		c.mu.Unlock()
		close(done)
	}
}

// rootsOf turns a roots/list answer into the roots of the session.
func (c *clientRoots) rootsOf(res *mcp.ListRootsResult, narrow bool) (*roots.Roots, error) {
	var dirs []string
	for i, r := range res.Roots {
		if i == 16*maxClientRoots {
			break // a list that long is no list of workspaces
		}
		if r == nil {
			continue
		}
		d, ok := rootDir(r.URI)
		if !ok {
			c.log.Debug("MCP client root ignored: not a file:// URI of an absolute path", "uri", r.URI)
			continue
		}
		if len(dirs) == maxClientRoots {
			c.log.Warn("the MCP client offers more roots than onetool takes; the rest are ignored", "max", maxClientRoots)
			break
		}
		dirs = append(dirs, d)
	}
	return c.r.ClientRoots(dirs, narrow)
}

// rootDir is the directory of a file:// root URI, or false when the URI
// names none (another scheme, another host, a relative path).
func rootDir(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || u.Opaque != "" {
		return "", false
	}
	if h := u.Hostname(); h != "" && !strings.EqualFold(h, "localhost") {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x
	}
	p = filepath.FromSlash(p)
	if p == "" || strings.ContainsRune(p, 0) || !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// offersRoots reports whether the client of ss said it has roots.
func offersRoots(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// rootsAnswer is the client's answer to the roots question that a
// call of the stateless mode carries with it, if any.
func rootsAnswer(req *mcp.CallToolRequest) (*mcp.ListRootsResult, bool) {
	if req.Params == nil {
		return nil, false
	}
	res, ok := req.Params.InputResponses[rootsInputKey].(*mcp.ListRootsResult)
	return res, ok
}

// asksForRoots reports whether req will be answered with the roots
// question only (see attach): it runs nothing, so admission does not
// count it as a run; the call that comes back with the answer is the run.
func asksForRoots(req mcp.Request) bool {
	call, ok := req.(*mcp.CallToolRequest)
	if !ok || call.Session == nil || !offersRoots(call.Session) || !mustRoundTrip(call.Session) {
		return false
	}
	_, answered := rootsAnswer(call)
	return !answered
}

// attach returns ctx carrying the roots of the client that sent req, for
// the runner (roots.NewContext), or a result that asks the client for
// them first (stateless HTTP, protocol 2026-07-28).
func (c *clientRoots) attach(ctx context.Context, req *mcp.CallToolRequest) (context.Context, *mcp.CallToolResult) {
	ss := req.Session
	if ss == nil || !offersRoots(ss) {
		return ctx, nil
	}
	if !mustRoundTrip(ss) {
		return roots.NewContext(ctx, c.sessionRootsFor(ctx, req)), nil
	}
	res, ok := rootsAnswer(req)
	if !ok {
		return ctx, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInputKey: &mcp.ListRootsParams{}}}
	}
	overHTTP := req.Extra != nil && req.Extra.Header != nil
	rr, err := c.rootsOf(res, overHTTP)
	if err != nil {
		c.log.Warn("the MCP client's roots cannot be used; the server's apply", "error", err)
		return ctx, nil
	}
	return roots.NewContext(ctx, rr), nil
}
