package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/runner"
)

// security.confirm_destructive over MCP: before a call of a tool marked
// destructive, the user is asked through elicitation.
//
// A run that asks is executed on its own goroutine and talks to the
// request handler over channels, because how a question reaches the user
// depends on the protocol version:
//
//   - up to 2025-11-25 the server sends elicitation/create during the call
//     and waits for the answer;
//   - from 2026-07-28 the server may not send requests while serving one
//     (multi round-trip requests, SEP-2322): the call returns its question
//     as inputRequests with an opaque requestState, the run stays parked,
//     and the client calls again with the answer and that state.
//
// A client without elicitation cannot be asked: the call is refused with
// an explanation, and the tool never runs.

// confirmingRun is a run that may stop to ask the user.
type confirmingRun struct {
	asks   chan question
	done   chan *runner.ExecResult
	cancel context.CancelFunc
	state  string   // requestState while parked
	owner  string   // the identity of the principal whose run it is
	asking question // the question a parked run waits on
	timer  *time.Timer
}

// question is one confirmation the run waits for.
type question struct {
	params *mcp.ElicitParams
	answer chan answer
}

type answer struct {
	res *mcp.ElicitResult
	err error
}

// inputKey names the one input request of a round.
const inputKey = "confirm"

// runConfirming starts a run whose destructive calls ask the user.
func (h *handler) runConfirming(ctx context.Context, req *mcp.CallToolRequest, command string) *mcp.CallToolResult {
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	cr := &confirmingRun{asks: make(chan question), done: make(chan *runner.ExecResult, 1), cancel: cancel, owner: principalOf(req).Key()}
	session := req.Session
	opts := append(runOptions(ctx, req), runner.ConfirmWith(func(ctx context.Context, c runner.ConfirmRequest) error {
		if !canElicit(session) {
			return fmt.Errorf("%w: this MCP client does not support elicitation, so the user cannot be asked; ask the user to confirm in the conversation and use a client that supports elicitation, or set security.confirm_destructive: false", runner.ErrCannotAsk)
		}
		q := question{params: confirmParams(c), answer: make(chan answer, 1)}
		select {
		case cr.asks <- q:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case a := <-q.answer:
			return verdict(c.Tool.ID(), a)
		case <-ctx.Done():
			return ctx.Err()
		}
	}))
	// Parked, the run outlives this request: it keeps its place in
	// serve.rate_limit.concurrent until it ends, not until the request does.
	release := keepSlot(ctx)
	go func() {
		defer cancel()
		defer release()
		cr.done <- h.execFor(session, principalOf(req)).Exec(runCtx, command, opts...)
	}()
	return h.serve(ctx, req.Session, cr)
}

// resume answers a parked run with the client's input and serves it on.
func (h *handler) resume(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	h.mu.Lock()
	cr := h.parked[req.Params.RequestState]
	if cr != nil && cr.owner != principalOf(req).Key() {
		cr = nil // another principal's run: unknown to this one, and left to its own
	} else {
		delete(h.parked, req.Params.RequestState)
	}
	h.mu.Unlock()
	if cr == nil || !cr.timer.Stop() {
		return errorResult("Error: this confirmation is unknown or has expired: send the program again")
	}
	var a answer
	switch r := req.Params.InputResponses[inputKey].(type) {
	case *mcp.ElicitResult:
		a.res = r
	default:
		a.err = fmt.Errorf("the client sent no answer to the confirmation")
	}
	cr.asking.answer <- a
	return h.serve(ctx, req.Session, cr)
}

// serve waits for the run to finish or to ask a question. It answers
// questions inline on older protocols and parks the run on newer ones.
func (h *handler) serve(ctx context.Context, session *mcp.ServerSession, cr *confirmingRun) *mcp.CallToolResult {
	for {
		select {
		case res := <-cr.done:
			return h.finish(res)
		case q := <-cr.asks:
			if !mustRoundTrip(session) {
				res, err := session.Elicit(ctx, q.params)
				q.answer <- answer{res, err}
				continue
			}
			cr.asking = q
			cr.state = rand.Text()
			h.mu.Lock()
			h.parked[cr.state] = cr
			h.mu.Unlock()
			cr.timer = time.AfterFunc(h.opts.ConfirmTimeout, func() { h.expire(cr) })
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{inputKey: q.params},
				RequestState:  cr.state,
			}
		case <-ctx.Done():
			cr.cancel()
			return h.finish(<-cr.done)
		}
	}
}

// expire ends a parked run the client never answered.
func (h *handler) expire(cr *confirmingRun) {
	h.mu.Lock()
	delete(h.parked, cr.state)
	h.mu.Unlock()
	cr.asking.answer <- answer{err: fmt.Errorf("no answer within %s", h.opts.ConfirmTimeout)}
	go func() { <-cr.done }() // the run ends with the refusal; nobody reads its result
}

// mustRoundTrip reports whether questions travel as inputRequests
// (protocol 2026-07-28 and later) rather than as requests of their own.
func mustRoundTrip(session *mcp.ServerSession) bool {
	p := session.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// canElicit reports whether the client said it supports elicitation.
func canElicit(session *mcp.ServerSession) bool {
	if session == nil {
		return false
	}
	p := session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// confirmParams is the question for one call: what will run, and why we ask.
func confirmParams(c runner.ConfirmRequest) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Message:         c.Question(),
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	}
}

// verdict turns the user's answer into the call's fate.
func verdict(id string, a answer) error {
	if a.err != nil {
		return fmt.Errorf("%w: asking the user failed: %w", runner.ErrNotConfirmed, a.err)
	}
	switch a.res.Action {
	case "accept":
		return nil
	case "decline":
		return fmt.Errorf("%w: the user declined %s; do not retry it unless the user asks", runner.ErrNotConfirmed, id)
	}
	return fmt.Errorf("%w: the user dismissed the confirmation of %s", runner.ErrNotConfirmed, id)
}
