package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/internal/suggest"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/proxy"
	"github.com/onetool-dev/onetool/runner/plan"
)

// ParallelCall is one call of RunParallel.
type ParallelCall struct {
	ToolID string
	Args   map[string]any
}

// RunParallel runs calls concurrently, at most maxParallel at a time (0:
// 8), and returns results and errors in the order of calls: for each call
// exactly one of them is non-nil.
func (r *Runner) RunParallel(ctx context.Context, calls []ParallelCall, maxParallel int, opts ...CallOption) ([]*Result, []error) {
	if maxParallel <= 0 {
		maxParallel = proxy.DefaultMaxParallel
	}
	results := make([]*Result, len(calls))
	errs := make([]error, len(calls))
	sem := make(chan struct{}, maxParallel)
	done := make(chan struct{})
	cfg := callOptions(opts)
	finished := 0
	for i, c := range calls {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; done <- struct{}{} }()
			results[i], errs[i] = r.runBound(ctx, c.ToolID, c.Args)
		}()
	}
	for range calls {
		<-done
		finished++
		cfg.report(Progress{Step: finished, Total: len(calls), Message: fmt.Sprintf("%d of %d calls done", finished, len(calls))})
	}
	return results, errs
}

// retryable says whether a failed plan step may be tried again: not when
// retrying cannot help (bad arguments, unknown tools).
func retryable(err error) bool {
	return !errors.Is(err, ErrValidation) && !errors.Is(err, ErrToolNotFound) &&
		!errors.Is(err, ErrInvalidToolID) && !errors.Is(err, ErrLimit)
}

// RunPlan runs a DAG of tool calls (SPEC §6.4): each step starts as soon
// as its dependencies have finished, at most opts.MaxParallel at a time;
// templates like ${steps.s0.data.items[0].id} in arguments take values
// from earlier results. The error is only for a plan that cannot run (a
// cycle, an unknown dependency); step failures are in the results.
func (r *Runner) RunPlan(ctx context.Context, steps []plan.Step, opts plan.Options, callOpts ...CallOption) ([]plan.StepResult, error) {
	cfg := callOptions(callOpts)
	return r.runPlan(ctx, steps, opts, func(ctx context.Context, tool string, args map[string]any) (any, error) {
		res, err := r.runBound(ctx, tool, args)
		if err != nil {
			return nil, err
		}
		return res.Value, nil
	}, cfg)
}

func (r *Runner) runPlan(ctx context.Context, steps []plan.Step, opts plan.Options, call plan.Call, cfg callConfig) ([]plan.StepResult, error) {
	if opts.Retryable == nil {
		opts.Retryable = retryable
	}
	var done atomic.Int64
	userDone := opts.OnStepDone
	opts.OnStepDone = func(s plan.StepResult) {
		n := int(done.Add(1))
		r.metrics.retried(s.Tool, s.Attempts-1)
		cfg.report(Progress{ToolID: s.Tool, Step: n, Total: len(steps), Message: fmt.Sprintf("step %s %s", s.ID, s.Status),
			stepID: s.ID, stepStatus: string(s.Status)})
		if userDone != nil {
			userDone(s)
		}
	}
	if r.tracer != nil {
		opts.Trace = r.traceStep
	}
	return plan.Run(ctx, steps, call, opts)
}

var planStepKeys = []string{"id", "tool", "args", "depends_on"}

// planBuiltin is plan(steps, max_parallel=5, fail_fast=False, retries=0,
// retry_delay="1s", timeout="30s").
func (r *Runner) planBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var (
		stepsV      *starlark.List
		maxParallel = 5
		failFast    bool
		retries     int
		retryDelay  starlark.Value = starlark.String("1s")
		timeout     starlark.Value = starlark.String("30s")
	)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "steps", &stepsV, "max_parallel?", &maxParallel,
		"fail_fast?", &failFast, "retries?", &retries, "retry_delay?", &retryDelay, "timeout?", &timeout); err != nil {
		return nil, err
	}
	if retries < 0 {
		return nil, fmt.Errorf("plan: retries must be >= 0, got %d", retries)
	}
	delay, err := durationArg("retry_delay", retryDelay)
	if err != nil {
		return nil, err
	}
	stepTimeout, err := durationArg("timeout", timeout)
	if err != nil {
		return nil, err
	}
	ctx := interp.Context(thread)
	budget := newPlanBudget(ctx)
	n := stepsV.Len()
	if !budget.add(int64(n) * stepCost) {
		return nil, fmt.Errorf("plan: %w", budget.exceeded(
			fmt.Sprintf("its %d steps (about %s each before their arguments and results)", n, interp.FormatBytes(stepCost)),
			"run fewer steps per plan"))
	}
	steps := make([]plan.Step, n)
	for i := range steps {
		if steps[i], err = r.planStep(ctx, interp.BudgetOf(thread), stepsV.Index(i), i); err != nil {
			return nil, err
		}
		if !budget.add(budget.size(steps[i].Args)) {
			return nil, fmt.Errorf("plan: %w", budget.exceeded(
				fmt.Sprintf("the arguments of its steps (%d of %d read)", i+1, n),
				"pass less to each step, or run fewer steps per plan"))
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer r.HoldResults(ctx)() // the steps' results count together
	var returned atomic.Int64
	call := func(ctx context.Context, tool string, args map[string]any) (any, error) {
		t, err := r.resolve(ctx, tool)
		if err != nil {
			return nil, r.enterError(err) // what a resolver says enters the program, as CallTool's errors do
		}
		bound, err := t.BindMap(args)
		if err != nil {
			return nil, toolError(t.ID(), "", OpValidateInput, ErrValidation, err)
		}
		// Templates may repeat a large result many times over: what a step
		// is given counts before it is handed to the tool (SPEC §8.1).
		if !budget.add(budget.size(bound)) {
			err := budget.exceeded(
				fmt.Sprintf("the arguments its templates made for step %s", tool),
				"refer to less of the earlier results, or run fewer steps per plan")
			cancel(err)
			return nil, err
		}
		v, err := r.CallTool(ctx, t, bound)
		if err != nil {
			if errors.Is(err, errResultMemory) {
				cancel(err) // what a step received passed the run's budget: the plan ends
			}
			return nil, err
		}
		if !budget.add(budget.size(v)) {
			// The whole plan fails: its results are what it must return.
			err := budget.exceeded(
				fmt.Sprintf("the results of its steps (%d of %d returned)", returned.Load()+1, n),
				"make the steps return less, or run fewer per plan")
			cancel(err)
			return nil, err
		}
		returned.Add(1)
		return v, nil
	}
	var cfg callConfig
	if st := runStateFrom(ctx); st != nil && st.onStep != nil {
		cfg.progress = func(p Progress) {
			st.onStep(PlanStep{ID: p.stepID, Tool: p.ToolID, Status: p.stepStatus, Step: p.Step, Total: p.Total})
		}
	}
	results, err := r.runPlan(ctx, steps, plan.Options{
		MaxParallel: maxParallel, FailFast: failFast, Retries: retries,
		RetryDelay: delay, Timeout: stepTimeout,
	}, call, cfg)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if over := (*planMemoryError)(nil); errors.As(context.Cause(ctx), &over) {
		return nil, fmt.Errorf("plan: %w", over)
	}
	if cause := context.Cause(ctx); errors.Is(cause, errResultMemory) {
		return nil, fmt.Errorf("plan: %w", cause)
	}
	out := make([]any, len(results))
	for i, s := range results {
		m := ordered.NewMap(7)
		m.Set("id", s.ID)
		m.Set("tool", s.Tool)
		m.Set("status", string(s.Status))
		m.Set("data", s.Data)
		m.Set("error", nilIfEmpty(s.Error))
		m.Set("attempts", s.Attempts)
		m.Set("duration_ms", s.DurationMS)
		out[i] = m
	}
	return interp.FromGo(out)
}

// stepCost is what one step costs a plan besides its arguments and
// result data: the step, its place in the scheduler, its result record and
// the dict that record becomes (measured: 0.7 KiB a step stays live as the
// result dict of a small step, and more is in use while the plan runs).
const stepCost = 1 << 10

// planBudget charges a plan's steps and results to the run's memory
// budget (limits.max_memory, SPEC §6.4, §8.1). A plan runs inside one
// builtin call, where the watchdog cannot stop the program (it checks
// between steps of Starlark), so the plan counts for itself. A nil
// *planBudget (no budget) lets everything through.
type planBudget struct {
	limit int64
	used  atomic.Int64
}

func newPlanBudget(ctx context.Context) *planBudget {
	st := runStateFrom(ctx)
	if st == nil || st.limits.MaxMemory <= 0 {
		return nil
	}
	return &planBudget{limit: st.limits.MaxMemory}
}

// add charges n bytes and reports whether the plan still fits.
func (b *planBudget) add(n int64) bool {
	return b == nil || b.used.Add(n) <= b.limit
}

// size estimates v, walking no further than the budget left.
func (b *planBudget) size(v any) int64 {
	if b == nil {
		return 0
	}
	return plan.Size(v, max(b.limit-b.used.Load(), 1))
}

// exceeded is the error of a plan over budget: by what, and what to do.
func (b *planBudget) exceeded(by, advice string) *planMemoryError {
	return &planMemoryError{limit: b.limit, by: by, advice: advice}
}

// planMemoryError is a plan over the run's memory budget. Its text starts
// as interp's does, and errors.Is matches interp.ErrMemoryLimit.
type planMemoryError struct {
	limit      int64
	by, advice string
}

func (e *planMemoryError) Error() string {
	return fmt.Sprintf("memory limit of %s exceeded by %s: %s, or raise limits.max_memory (--max-memory)", interp.FormatBytes(e.limit), e.by, e.advice)
}

func (e *planMemoryError) Unwrap() error { return interp.ErrMemoryLimit }

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// planStep reads one step dict.
func (r *Runner) planStep(ctx context.Context, b *interp.Budget, v starlark.Value, i int) (plan.Step, error) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return plan.Step{}, fmt.Errorf(`plan: step %d: want a dict like {"id": "s1", "tool": "demo.foo", "args": {...}, "depends_on": ["s0"]}, got %s`, i, v.Type())
	}
	var s plan.Step
	for _, kv := range d.Items() {
		key, _ := interp.AsText(kv[0])
		switch key {
		case "id":
			id, ok := interp.AsText(kv[1])
			if !ok {
				return s, fmt.Errorf("plan: step %d: id must be a string, got %s", i, kv[1].Type())
			}
			s.ID = id
		case "tool":
			if id, ok := interp.AsText(kv[1]); ok {
				s.Tool = id
				continue
			}
			t, err := r.toolOf(ctx, kv[1])
			if err != nil {
				return s, fmt.Errorf("plan: step %d: %w", i, err)
			}
			s.Tool = t.ID()
		case "args":
			a, err := interp.ToGoBudget(b, kv[1])
			if err != nil {
				return s, fmt.Errorf("plan: step %d: args: %w", i, err)
			}
			m, ok := a.(*ordered.Map)
			if !ok {
				return s, fmt.Errorf("plan: step %d: args must be a dict, got %s", i, kv[1].Type())
			}
			s.Args = make(map[string]any, m.Len())
			m.Range(func(k string, v any) bool { s.Args[k] = v; return true })
		case "depends_on":
			list, ok := kv[1].(starlark.Indexable)
			if !ok {
				return s, fmt.Errorf("plan: step %d: depends_on must be a list of step ids, got %s", i, kv[1].Type())
			}
			for j := range list.Len() {
				switch dep := list.Index(j).(type) {
				case starlark.String, *interp.Unicode:
					text, _ := interp.AsText(dep)
					s.DependsOn = append(s.DependsOn, text)
				case starlark.Int:
					n, _ := dep.Int64()
					s.DependsOn = append(s.DependsOn, strconv.FormatInt(n, 10))
				default:
					return s, fmt.Errorf("plan: step %d: depends_on holds a %s; use step ids or indexes", i, dep.Type())
				}
			}
		default:
			msg := fmt.Sprintf("plan: step %d: unknown key %s", i, kv[0])
			if sg := suggest.Closest(key, planStepKeys); sg != "" {
				msg += fmt.Sprintf("; did you mean '%s'?", sg)
			}
			return s, fmt.Errorf("%s (keys: id, tool, args, depends_on)", msg)
		}
	}
	if s.Tool == "" {
		return s, fmt.Errorf(`plan: step %d: missing "tool"`, i)
	}
	return s, nil
}

// durationArg reads "1s", "250ms" or a number of seconds.
func durationArg(name string, v starlark.Value) (time.Duration, error) {
	switch x := v.(type) {
	case starlark.String:
		d, err := time.ParseDuration(string(x))
		if err != nil {
			return 0, fmt.Errorf(`plan: %s: want a duration like "1s" or "250ms", got %q`, name, string(x))
		}
		return d, nil
	case starlark.Int:
		n, _ := x.Int64()
		return time.Duration(n) * time.Second, nil
	case starlark.Float:
		return time.Duration(float64(x) * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("plan: %s: want a duration, got %s", name, v.Type())
}
