package proxy

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/packs"
)

// Call is one bound tool call.
type Call struct {
	Tool *packs.Tool
	Args map[string]any
}

// Outcome is the result of one Call.
type Outcome struct {
	Value any
	Err   error
}

// DefaultMaxParallel is the width of parallel(), tool.map() and plan()
// when the program does not say.
const DefaultMaxParallel = 8

// ResultHolder is a Caller that meters what its calls receive against
// the run's memory budget (the runner, package meter): HoldResults keeps
// those bytes counted until release is called, while results are
// gathered.
type ResultHolder interface {
	HoldResults(ctx context.Context) (release func())
}

// CallAll runs calls concurrently, at most maxParallel at a time, and
// returns their outcomes in the same order. Only the tool calls run
// concurrently: the Starlark thread waits here. Once a call has failed on
// a budget of the run (its tool calls, its time), the calls not yet
// started fail with the same error instead of each asking again: a
// hundred thousand calls over a limit of a thousand end at once.
func CallAll(ctx context.Context, c Caller, calls []Call, maxParallel int) []Outcome {
	if maxParallel <= 0 {
		maxParallel = DefaultMaxParallel
	}
	if h, ok := c.(ResultHolder); ok {
		// The outcomes are held together until the program gets them.
		defer h.HoldResults(ctx)()
	}
	out := make([]Outcome, len(calls))
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	var spent atomic.Pointer[error]
	for i, call := range calls {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			for j := i; j < len(calls); j++ {
				out[j].Err = ctx.Err()
			}
			wg.Wait()
			return out
		}
		if err := spent.Load(); err != nil {
			<-sem
			for j := i; j < len(calls); j++ {
				out[j].Err = *err
			}
			wg.Wait()
			return out
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			defer func() {
				if r := recover(); r != nil {
					out[i].Err = fmt.Errorf("%s failed: panic: %v", call.Tool.ID(), r)
				}
			}()
			v, err := c.CallTool(ctx, call.Tool, call.Args)
			out[i] = Outcome{Value: v, Err: err}
			if err != nil && errors.Is(err, interp.ErrLimit) {
				spent.CompareAndSwap(nil, &err)
			}
		}()
	}
	wg.Wait()
	return out
}

// ErrorMode says what a failed call does to parallel() and tool.map().
type ErrorMode int

const (
	// Raise fails the whole call with the first failure, by position.
	Raise ErrorMode = iota
	// Return puts {"error": "..."} in the failed slots.
	Return
)

// ParseErrorMode reads errors="raise" or errors="return".
func ParseErrorMode(s string) (ErrorMode, error) {
	switch s {
	case "", "raise":
		return Raise, nil
	case "return":
		return Return, nil
	}
	return Raise, fmt.Errorf(`errors must be "raise" or "return", got %q`, s)
}

// Results converts outcomes to Starlark values: a failed slot raises (the
// first failure by position, naming its slot) or becomes {"error": "..."}.
func Results(outcomes []Outcome, calls []Call, mode ErrorMode, slot func(i int) string) ([]starlark.Value, error) {
	out := make([]starlark.Value, len(outcomes))
	for i, o := range outcomes {
		if o.Err != nil {
			err := callError(calls[i].Tool.ID(), o.Err)
			// A spent budget ends the run whatever errors= says.
			if mode == Raise || errors.Is(o.Err, interp.ErrLimit) {
				return nil, fmt.Errorf("%s: %w", slot(i), err)
			}
			d := starlark.NewDict(1)
			d.SetKey(starlark.String("error"), starlark.String(err.Error()))
			out[i] = d
			continue
		}
		v, err := interp.FromGo(o.Value)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): its result cannot be used: %w", slot(i), calls[i].Tool.ID(), err)
		}
		out[i] = v
	}
	return out, nil
}

// BindKwargs binds Starlark arguments for t, converting them under the
// run's budget b (nil: unbounded).
func BindKwargs(b *interp.Budget, t *packs.Tool, args starlark.Tuple, kwargs []starlark.Tuple) (map[string]any, error) {
	id := t.ID()
	positional := make([]any, len(args))
	for i, a := range args {
		x, err := interp.ToGoBudget(b, a)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %d: %w", id, i+1, err)
		}
		positional[i] = x
	}
	named := make([]packs.NamedArg, len(kwargs))
	for i, kv := range kwargs {
		name := string(kv[0].(starlark.String))
		x, err := interp.ToGoBudget(b, kv[1])
		if err != nil {
			return nil, fmt.Errorf("%s: argument '%s': %w", id, name, err)
		}
		named[i] = packs.NamedArg{Name: name, Value: x}
	}
	return t.Bind(positional, named)
}
