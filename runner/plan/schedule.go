package plan

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/onetool-dev/onetool/interp/ordered"
)

// scheduler executes one validated plan.
//
// One coordinator (the goroutine of run) owns all state: it hands ready
// steps to MaxParallel workers over a channel and receives their results
// over another. A step is queued the moment its last dependency finishes
// ok, so a slow step never holds back an unrelated one.
type scheduler struct {
	steps []Step
	g     *graph
	call  Call
	opts  Options

	results []StepResult // written by the coordinator only
}

// finished is a worker's report on one step.
type finished struct {
	i   int
	res StepResult
}

func (s *scheduler) run(parent context.Context) []StepResult {
	n := len(s.steps)
	s.results = make([]StepResult, n)
	if n == 0 {
		return s.results
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)

	ready := make(chan int, n)       // each step is queued at most once
	report := make(chan finished, n) // workers never block on it
	workers := min(s.opts.MaxParallel, n)
	for range workers {
		go func() {
			for i := range ready {
				if ctx.Err() != nil {
					report <- finished{i, s.notStarted(i, context.Cause(ctx))}
					continue
				}
				res := s.exec(ctx, i)
				if res.Status == StatusFailed && s.opts.FailFast {
					// Cancel here, before taking the next step off the queue.
					cancel(fmt.Errorf("step %s failed (fail_fast)", s.g.ids[i]))
				}
				report <- finished{i, res}
			}
		}()
	}

	pending := make([]int, n) // unfinished dependencies of each step
	done := make([]bool, n)
	var stopped error // set once FailFast stops the plan
	left := n
	// settle records step i's result and settles what follows from it:
	// dependents become ready, or are skipped when i did not succeed.
	settle := func(i int, res StepResult) {
		queue := []finished{{i, res}}
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			if done[f.i] {
				continue
			}
			done[f.i] = true
			left--
			s.results[f.i] = f.res
			if s.opts.OnStepDone != nil {
				s.opts.OnStepDone(f.res)
			}
			for _, d := range s.g.dependents[f.i] {
				if done[d] {
					continue
				}
				if f.res.Status != StatusOK {
					queue = append(queue, finished{d, s.skipped(d, f.i)})
					continue
				}
				pending[d]--
				if pending[d] > 0 {
					continue
				}
				if stopped != nil {
					queue = append(queue, finished{d, s.notStarted(d, stopped)})
				} else {
					ready <- d
				}
			}
		}
	}
	for i := range n {
		pending[i] = len(s.g.deps[i])
		if pending[i] == 0 {
			ready <- i
		}
	}
	for left > 0 {
		f := <-report
		if f.res.Status == StatusFailed && s.opts.FailFast && stopped == nil {
			stopped = context.Cause(ctx) // the worker cancelled with this step's name
		}
		settle(f.i, f.res)
	}
	close(ready)
	return s.results
}

// skipped is the result of step i when its dependency dep did not succeed.
func (s *scheduler) skipped(i, dep int) StepResult {
	why := fmt.Sprintf("dependency %s failed", s.g.ids[dep])
	if s.results[dep].Status == StatusSkipped {
		why = fmt.Sprintf("dependency %s was skipped: %s", s.g.ids[dep], s.results[dep].Error)
	}
	return StepResult{
		ID: s.g.ids[i], Tool: s.steps[i].Tool, Status: StatusSkipped,
		Error: why, Err: fmt.Errorf("%w: %s", ErrDependencyFailed, why),
	}
}

// notStarted is the result of step i when the plan stopped before it ran.
func (s *scheduler) notStarted(i int, cause error) StepResult {
	err := fmt.Errorf("%w: %w", ErrNotStarted, cause)
	return StepResult{
		ID: s.g.ids[i], Tool: s.steps[i].Tool, Status: StatusSkipped,
		Error: err.Error(), Err: err,
	}
}

// exec runs step i: resolves its templates, then calls the tool, retrying
// with backoff as the options allow. It runs on a worker.
func (s *scheduler) exec(ctx context.Context, i int) (res StepResult) {
	step := s.steps[i]
	res = StepResult{ID: s.g.ids[i], Tool: step.Tool}
	if s.opts.Trace != nil {
		var end func(StepResult)
		ctx, end = s.opts.Trace(ctx, res.ID, step.Tool)
		defer func() { end(res) }()
	}
	start := time.Now()
	fail := func(err error) StepResult {
		res.Status, res.Err, res.Error = StatusFailed, err, err.Error()
		res.DurationMS = time.Since(start).Milliseconds()
		return res
	}
	// Dependencies finished before i was queued, and the coordinator wrote
	// their results before queuing i, so reading them here is safe.
	args, err := resolveArgs(step.Args, s.g, func(j int) *StepResult { return &s.results[j] })
	if err != nil {
		return fail(err)
	}
	for attempt := 1; ; attempt++ {
		a := args
		if attempt > 1 && args != nil {
			a = ordered.Clone(args).(map[string]any) // a tool may have changed the last copy
		}
		data, err := s.attempt(ctx, step.Tool, a)
		res.Attempts = attempt
		if err == nil {
			res.Status, res.Data = StatusOK, data
			res.DurationMS = time.Since(start).Milliseconds()
			return res
		}
		if ctx.Err() != nil {
			return fail(fmt.Errorf("%w (%v)", err, context.Cause(ctx)))
		}
		if attempt > s.opts.Retries || (s.opts.Retryable != nil && !s.opts.Retryable(err)) {
			return fail(err)
		}
		t := time.NewTimer(s.backoff(attempt))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fail(fmt.Errorf("%w (retry abandoned: %v)", err, context.Cause(ctx)))
		}
	}
}

// attempt makes one call, with the per-attempt timeout, turning a panic in
// the tool into an error.
func (s *scheduler) attempt(ctx context.Context, tool string, args map[string]any) (data any, err error) {
	actx := ctx
	if s.opts.Timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, s.opts.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			data, err = nil, fmt.Errorf("tool %s panicked: %v", tool, p)
		}
		if err != nil && s.opts.Timeout > 0 && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("timed out after %s: %w", s.opts.Timeout, err)
			} else {
				err = fmt.Errorf("timed out after %s: %w (%w)", s.opts.Timeout, context.DeadlineExceeded, err)
			}
		}
	}()
	return s.call(actx, tool, args)
}

// backoff is the wait before attempt+1: RetryDelay * 2^(attempt-1), ±20%.
func (s *scheduler) backoff(attempt int) time.Duration {
	d := s.opts.RetryDelay
	for k := 1; k < attempt && d < time.Hour; k++ {
		d *= 2
	}
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}
