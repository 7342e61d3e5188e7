package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNoCode is returned by Rerun for a trial whose calls have no programs
// (a stats file).
var ErrNoCode = errors.New("the trial has no programs to rerun")

// Replacement is a text put in place of another in every program before it
// is rerun: the address of the trial's website, say, which runs elsewhere
// today.
type Replacement struct{ Old, New string }

// ParseReplacement reads OLD=NEW (OLD cannot hold "=").
func ParseReplacement(s string) (Replacement, error) {
	old, with, ok := strings.Cut(s, "=")
	if !ok || old == "" {
		return Replacement{}, fmt.Errorf("--replace %q: write OLD=NEW, such as http://127.0.0.1:8000=http://127.0.0.1:41234", s)
	}
	return Replacement{old, with}, nil
}

// Rerun runs every program of t against srv, as a client would, and
// returns the trial with today's results: the same tasks and calls, each
// call keeping its program and its kind (discovery or not: it is the same
// program). Each task runs in its own MCP session, its calls in order, as
// an agent working on one task in one conversation would send them. Only
// ctx's end stops it; a program that fails today is a result like any
// other.
func Rerun(ctx context.Context, t *Trial, srv *mcp.Server, repl []Replacement) (*Trial, error) {
	if !t.HasCode {
		return nil, fmt.Errorf("%s: %w: a stats file holds sizes only; record the programs and results (docs/agents.md)", t.Name, ErrNoCode)
	}
	out := &Trial{Name: t.Name, Notes: t.Notes, HasCode: true}
	for _, tk := range t.Tasks {
		calls, err := rerunTask(ctx, tk, srv, repl)
		if err != nil {
			return nil, fmt.Errorf("rerunning task %s: %w", tk.ID, err)
		}
		out.Tasks = append(out.Tasks, &Task{ID: tk.ID, Calls: calls})
	}
	return out, nil
}

func rerunTask(ctx context.Context, tk *Task, srv *mcp.Server, repl []Replacement) ([]*Call, error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "onetool-bench-replay", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	var calls []*Call
	for _, c := range tk.Calls {
		code := c.Code
		for _, r := range repl {
			code = strings.ReplaceAll(code, r.Old, r.New)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": code}})
		var now *Call
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			now = NewCall(c.Code, err.Error(), true, c.Tools)
		default:
			var texts []string
			for _, ct := range res.Content {
				if tc, ok := ct.(*mcp.TextContent); ok {
					texts = append(texts, tc.Text)
				}
			}
			now = NewCall(c.Code, strings.Join(texts, "\n"), res.IsError, c.Tools)
		}
		now.Discovery, now.Line = c.Discovery, c.Line
		calls = append(calls, now)
	}
	return calls, nil
}

// Merge joins trials read from several files into one: a task named in
// more than one keeps its calls in the order of the files.
func Merge(trials ...*Trial) *Trial {
	if len(trials) == 1 {
		return trials[0]
	}
	out := &Trial{HasCode: true}
	byID := map[string]*Task{}
	var names []string
	for _, t := range trials {
		names = append(names, t.Name)
		out.Notes = append(out.Notes, t.Notes...)
		out.HasCode = out.HasCode && t.HasCode
		for _, tk := range t.Tasks {
			m := byID[tk.ID]
			if m == nil {
				m = &Task{ID: tk.ID}
				byID[tk.ID] = m
				out.Tasks = append(out.Tasks, m)
			}
			m.Calls = append(m.Calls, tk.Calls...)
		}
	}
	out.Name = strings.Join(names, ", ")
	return out
}
