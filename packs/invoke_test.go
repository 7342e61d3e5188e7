package packs

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestInvokePanic(t *testing.T) {
	tool := &Tool{Pack: "x", Name: "boom", Handler: func(context.Context, map[string]any) (any, error) {
		panic("kaboom")
	}}
	res, err := Invoke(context.Background(), tool, nil)
	if res != nil || err == nil || err.Error() != "x.boom panicked: kaboom" || !errors.Is(err, ErrPanic) {
		t.Fatalf("got %v, %v", res, err)
	}

	// A runtime error keeps its identity, and no stack leaks.
	tool.Handler = func(context.Context, map[string]any) (any, error) {
		var m map[string]int
		m["x"] = 1
		return nil, nil
	}
	_, err = Invoke(context.Background(), tool, nil)
	var rt interface{ RuntimeError() }
	if !errors.Is(err, ErrPanic) || !errors.As(err, &rt) {
		t.Fatalf("got %v", err)
	}
	if want := "x.boom panicked: assignment to entry in nil map"; err.Error() != want || strings.Contains(err.Error(), "goroutine") {
		t.Errorf("got %q", err)
	}

	// Panics in many goroutines at once stay in their own calls.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Invoke(context.Background(), tool, nil); !errors.Is(err, ErrPanic) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

func TestInvokeNoHandler(t *testing.T) {
	_, err := Invoke(context.Background(), &Tool{Pack: "x", Name: "y"}, nil)
	if !errors.Is(err, ErrInvalidTool) || err.Error() != "x.y: tool has no handler" {
		t.Errorf("got %v", err)
	}
}

func TestInvokeTimeout(t *testing.T) {
	tool := &Tool{Pack: "x", Name: "slow", Timeout: 20 * time.Millisecond,
		Handler: func(ctx context.Context, _ map[string]any) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(5 * time.Second):
				return "late", nil
			}
		}}
	start := time.Now()
	_, err := Invoke(context.Background(), tool, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	// The caller's own cancellation passes through too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Invoke(ctx, tool, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

func TestCall(t *testing.T) {
	tool := &Tool{Pack: "x", Name: "up", Handler: func(_ context.Context, args map[string]any) (any, error) {
		if args["text"] == "bad" {
			return 5, nil
		}
		return strings.ToUpper(args["text"].(string)), nil
	}, InputSchema: textSchema, OutputSchema: `{"type":"string"}`}
	if res, err := Call(context.Background(), tool, []any{"hi"}, nil); err != nil || res != "HI" {
		t.Errorf("got %v, %v", res, err)
	}
	if _, err := Call(context.Background(), tool, nil, nil); !errors.Is(err, ErrArgs) {
		t.Errorf("got %v", err)
	}
	if _, err := Call(context.Background(), tool, []any{1}, nil); !errors.Is(err, ErrValidation) {
		t.Errorf("got %v", err)
	}
	if _, err := Call(context.Background(), tool, []any{"bad"}, nil); !errors.Is(err, ErrOutputValidation) {
		t.Errorf("got %v", err)
	}
}
