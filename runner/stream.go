package runner

import (
	"context"
	"time"

	"github.com/onetool-dev/onetool/packs"
)

// EventKind is the kind of a streaming event.
type EventKind string

const (
	EventProgress EventKind = "progress" // Progress is set
	EventChunk    EventKind = "chunk"    // Chunk is a partial result
	EventDone     EventKind = "done"     // Result is the final result; the stream ends
	EventError    EventKind = "error"    // Err is why the call failed; the stream ends
)

// Event is one message of RunStream.
type Event struct {
	Kind     EventKind
	Chunk    any
	Progress *Progress
	Result   *Result
	Err      error
}

// RunStream calls a tool whose backend streams, delivering partial output
// as chunk events and ending with one done or error event, after which the
// channel is closed. Problems found before the call starts (unknown tool,
// bad arguments, a backend that cannot stream: ErrStreamNotSupported) are
// returned at once instead. Cancelling ctx ends the stream with an error
// event; a receiver that stops reading must cancel ctx.
func (r *Runner) RunStream(ctx context.Context, id string, args map[string]any, opts ...CallOption) (<-chan Event, error) {
	cfg := callOptions(opts)
	t, bound, err := r.prepareCall(ctx, id, args)
	if err != nil {
		return nil, err
	}
	if r.validateIn {
		if err := t.ValidateInput(bound); err != nil {
			return nil, toolError(t.ID(), "", OpValidateInput, ErrValidation, err)
		}
	}
	b, err := r.selectBackend(t)
	if err != nil {
		return nil, err
	}
	if b.Stream == nil {
		return nil, toolError(t.ID(), b.Name, OpStream, ErrStreamNotSupported,
			errStreamUnsupported(string(b.Kind)))
	}
	events := make(chan Event, 16)
	send := func(ev Event) error {
		select {
		case events <- ev:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	go func() {
		defer close(events)
		start := time.Now()
		if cfg.progress != nil {
			p := Progress{ToolID: t.ID(), Step: 1, Total: 1, Message: "calling " + t.ID()}
			cfg.progress(p)
			_ = send(Event{Kind: EventProgress, Progress: &p})
		}
		v, err := packs.StreamBackend(ctx, t, b, bound, func(chunk any) error {
			return send(Event{Kind: EventChunk, Chunk: chunk})
		})
		if err == nil && r.validateOut {
			if verr := t.ValidateOutput(v); verr != nil {
				_ = send(Event{Kind: EventError, Err: toolError(t.ID(), b.Name, OpValidateOutput, ErrOutputValidation, verr)})
				return
			}
		}
		if err != nil {
			// The error event is delivered even when ctx is done, if the
			// receiver still reads (the buffer has room most of the time).
			select {
			case events <- Event{Kind: EventError, Err: toolError(t.ID(), b.Name, OpStream, ErrExecution, err)}:
			default:
			}
			return
		}
		_ = send(Event{Kind: EventDone, Result: &Result{ToolID: t.ID(), Backend: b.Name, Value: v, Duration: time.Since(start)}})
	}()
	return events, nil
}

type errStreamUnsupported string

func (k errStreamUnsupported) Error() string {
	return "the " + string(k) + " backend returns one result; use Run"
}
