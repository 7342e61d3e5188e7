package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Process shutdown timings. Close gives a stdio server stdin EOF (the
// MCP way to ask it to exit), SIGTERM after terminateAfter, SIGKILL after
// another terminateAfter; then whatever is left of its process group gets
// SIGTERM and, after groupGrace, SIGKILL. A server that ignores everything
// is gone after about 2 s. waitDelay bounds the wait for a child's stderr
// to close when a grandchild inherited it (see exec.Cmd.WaitDelay).
const (
	terminateAfter = 900 * time.Millisecond
	groupGrace     = 150 * time.Millisecond
	waitDelay      = 250 * time.Millisecond
	// killDeadline is the backstop: however the orderly close is going
	// (the go-sdk may wait up to 5 s to write a cancellation to a server
	// that stopped reading), the process group is killed then.
	killDeadline = 1900 * time.Millisecond
	// httpCloseWait bounds how long Close waits for an HTTP session's
	// goodbye (the go-sdk's DELETE may take up to 5 s on a hung server).
	httpCloseWait = 2 * time.Second
)

// conn is one live session with a server: for stdio, one process.
type conn struct {
	cs     *mcp.ClientSession
	stdio  *captureConn // stdio only
	cmd    *exec.Cmd    // stdio only
	stderr *tailBuffer  // stdio only

	done   chan struct{} // closed when the session has ended
	endErr error         // the session's end, from ClientSession.Wait; set before done

	reasonOnce sync.Once
	reason     string
}

// pid is the server process's id, or 0.
func (c *conn) pid() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// ended reports whether the session has ended.
func (c *conn) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close ends the session: for stdio, the process (see the timings above).
// It returns once the process is gone, or for HTTP after httpCloseWait at
// the latest.
func (c *conn) close() error {
	if c.cmd == nil {
		errc := make(chan error, 1)
		go func() { errc <- c.cs.Close() }()
		select {
		case err := <-errc:
			return err
		case <-time.After(httpCloseWait):
			return errors.New("the HTTP session did not close in time")
		}
	}
	errc := make(chan error, 1)
	go func() {
		err := c.cs.Close()
		if cerr := c.stdio.Close(); err == nil {
			err = cerr
		}
		errc <- err
	}()
	var err error
	select {
	case err = <-errc:
	case <-time.After(killDeadline):
		killProcessGroup(c.pid())
		err = <-errc
	}
	// A process that exits when asked, with whatever status, is fine; so is
	// one whose helper held its stderr open (the group is ended anyway).
	var exit *exec.ExitError
	if errors.As(err, &exit) || errors.Is(err, exec.ErrWaitDelay) {
		err = nil
	}
	return err
}

// endReason says why the session ended, for errors and Status: the exit
// status and stderr tail of a process, the transport's error for HTTP.
// It waits for the end.
func (c *conn) endReason() string {
	c.reasonOnce.Do(func() {
		<-c.done
		if c.cmd == nil {
			c.reason = "the connection was lost"
			if c.endErr != nil {
				c.reason += ": " + c.endErr.Error()
			}
			return
		}
		_ = c.stdio.Close() // already closed by the go-sdk; this orders our reads after its Wait
		if ps := c.processState(); ps != nil {
			c.reason = "the server process exited (" + ps.String() + ")"
		} else {
			c.reason = "the server process closed its output"
		}
		c.reason = withStderr(c.reason, c.stderr)
	})
	return c.reason
}

// withStderr appends the stderr tail to msg.
func withStderr(msg string, tail *tailBuffer) string {
	if tail == nil {
		return msg
	}
	if s := tail.String(); s != "" {
		return msg + "; stderr: " + s
	}
	return msg
}

// stdioTransport is mcp.CommandTransport with its connection wrapped in a
// captureConn, which it hands back through conn.
type stdioTransport struct {
	cmd  *exec.Cmd
	conn **captureConn
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inner, err := (&mcp.CommandTransport{Command: t.cmd, TerminateDuration: terminateAfter}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	pid := t.cmd.Process.Pid
	cc := newCaptureConn(inner, func() { endProcessGroup(pid, groupGrace) })
	*t.conn = cc
	return cc, nil
}

// dial starts one connection attempt: the process or HTTP session, the
// MCP handshake, and the tool list, all within ctx.
func (s *Server) dial(ctx context.Context) (*conn, []Tool, error) {
	c := &conn{done: make(chan struct{})}
	var t mcp.Transport
	switch {
	case s.spec.URL != "":
		t = &mcp.StreamableClientTransport{Endpoint: s.spec.URL, HTTPClient: s.httpClient}
	case s.spec.Command != "":
		if s.spec.Cwd != "" {
			// exec reports a bad directory as the command missing: say it.
			if fi, err := os.Stat(s.spec.Cwd); err != nil || !fi.IsDir() {
				if err == nil {
					err = errors.New("not a directory")
				}
				return nil, nil, fmt.Errorf("cannot start the server: working directory: %w", err)
			}
		}
		cmd := exec.Command(s.spec.Command, s.spec.Args...)
		cmd.Dir = s.spec.Cwd
		cmd.Env = minimalEnv(s.spec.Env)
		c.stderr = &tailBuffer{}
		cmd.Stderr = c.stderr
		cmd.WaitDelay = waitDelay
		ownProcessGroup(cmd)
		c.cmd = cmd
		t = &stdioTransport{cmd: cmd, conn: &c.stdio}
	default:
		return nil, nil, errors.New("the entry has neither a command nor a url")
	}

	cs, err := s.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, nil, c.failed(ctx, "connecting", err)
	}
	c.cs = cs
	go func() {
		c.endErr = cs.Wait()
		close(c.done)
	}()

	tools, err := s.listTools(ctx, c)
	if err != nil {
		_ = c.close()
		return nil, nil, c.failed(ctx, "listing tools", err)
	}
	return c, tools, nil
}

// failed cleans up after a failed attempt (the go-sdk does not always
// close what it started) and explains the failure: for a process that
// died, its exit status and the end of its stderr, which usually say why
// ("missing API key").
func (c *conn) failed(ctx context.Context, step string, err error) error {
	if c.cmd != nil && c.cmd.Process == nil {
		return fmt.Errorf("cannot start the server: %w", err) // no such file, not executable, bad cwd
	}
	if c.stdio != nil {
		_ = c.stdio.Close()
	}
	var msg string
	switch ps := c.processState(); {
	case ctx.Err() != nil:
		msg = fmt.Sprintf("no answer while %s: %v", step, ctx.Err())
	case ps != nil && !ps.Success():
		msg = fmt.Sprintf("the server process exited during start-up (%s)", ps)
	default:
		msg = fmt.Sprintf("%s: %v", step, err)
	}
	return errors.New(withStderr(msg, c.stderr))
}

// processState is the ended process's state, or nil (HTTP, or still
// running). Reading it is safe once stdio.Close has returned, which
// waited for the process.
func (c *conn) processState() *os.ProcessState {
	if c.stdio == nil || !c.stdio.isClosed() {
		return nil
	}
	return c.cmd.ProcessState
}

// listTools fetches every page of the server's tool list.
func (s *Server) listTools(ctx context.Context, c *conn) ([]Tool, error) {
	cp := &capture{}
	ctx = withCapture(ctx, cp)
	if c.stdio != nil {
		defer c.stdio.forget(cp)
	}
	var list []*mcp.Tool
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		list = append(list, t)
	}
	raw := rawSchemas(cp.all())
	tools := make([]Tool, 0, len(list))
	for _, t := range list {
		tools = append(tools, newTool(t, raw[t.Name]))
	}
	return tools, nil
}

// schemaPair is a tool's schemas as the server wrote them.
type schemaPair struct {
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// rawSchemas indexes the schemas of captured tools/list results by tool
// name.
func rawSchemas(results []json.RawMessage) map[string]schemaPair {
	out := make(map[string]schemaPair)
	for _, r := range results {
		var page struct {
			Tools []struct {
				Name string `json:"name"`
				schemaPair
			} `json:"tools"`
		}
		if json.Unmarshal(r, &page) != nil {
			continue
		}
		for _, t := range page.Tools {
			out[t.Name] = t.schemaPair
		}
	}
	return out
}

// newTool converts a listed tool; raw holds its schemas with their key
// order, when captured.
func newTool(t *mcp.Tool, raw schemaPair) Tool {
	out := Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  schemaJSON(raw.InputSchema, t.InputSchema),
		OutputSchema: schemaJSON(raw.OutputSchema, t.OutputSchema),
		Destructive:  true, // the MCP defaults for a tool without annotations
		OpenWorld:    true,
	}
	if out.InputSchema == nil {
		out.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	if a := t.Annotations; a != nil {
		if out.Title == "" {
			out.Title = a.Title
		}
		out.ReadOnly = a.ReadOnlyHint
		out.Idempotent = a.IdempotentHint
		out.Destructive = !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
		out.OpenWorld = a.OpenWorldHint == nil || *a.OpenWorldHint
	}
	return out
}

// schemaJSON is raw, compacted, when present; else the decoded schema
// re-encoded (keys sorted); nil when there is no schema.
func schemaJSON(raw json.RawMessage, decoded any) json.RawMessage {
	if len(raw) > 0 && string(raw) != "null" {
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			return b.Bytes()
		}
	}
	if decoded == nil {
		return nil
	}
	data, err := json.Marshal(decoded)
	if err != nil || string(data) == "null" {
		return nil
	}
	return data
}

// transportName is "http" or "stdio", for Status.
func transportName(spec Spec) string {
	if spec.URL != "" {
		return "http"
	}
	return "stdio"
}

// describeSpec is a short description of how a server is reached, for
// logs.
func describeSpec(spec Spec) string {
	if spec.ShownURL != "" {
		return spec.ShownURL
	}
	if spec.URL != "" {
		return spec.URL
	}
	return strings.TrimSpace(spec.Command + " " + strings.Join(spec.Args, " "))
}
