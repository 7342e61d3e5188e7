package runner_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
)

// A program embeds onetool by building a Runner over its own tools and
// running Starlark programs that combine them.
func Example() {
	reg := packs.NewRegistry()
	reg.SetPackDescription("greet", "Greetings")
	err := reg.Register(&packs.Tool{
		Pack: "greet", Name: "hello",
		Description: "Greet someone.",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`,
		Handler: func(_ context.Context, args map[string]any) (any, error) {
			return "Hello, " + args["name"].(string) + "!", nil
		},
	})
	if err != nil {
		panic(err)
	}
	r, err := runner.New(runner.WithRegistry(reg))
	if err != nil {
		panic(err)
	}
	res := r.Exec(context.Background(), `[greet.hello(name=n) for n in ["Ada", "Alan"]]`)
	fmt.Println(res.Text)
	// Output: ["Hello, Ada!","Hello, Alan!"]
}

// Run calls one tool from Go, with the same binding, validation and
// caching as a call from a program.
func ExampleRunner_Run() {
	r, _ := runner.New() // the built-in packs
	res, err := r.Run(context.Background(), "demo.foo", map[string]any{"text": "test"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Value, res.Backend)
	// Output: orange go:demo.foo
}

// Failures are *ToolError values that match a sentinel and their cause.
func ExampleRunner_Run_errors() {
	r, _ := runner.New()
	_, err := r.Run(context.Background(), "demo.add", map[string]any{"a": "one", "b": 2})
	var te *runner.ToolError
	fmt.Println(errors.Is(err, runner.ErrValidation), errors.As(err, &te) && te.Op == runner.OpValidateInput)

	_, err = r.Run(context.Background(), "demo.nope", nil)
	fmt.Println(errors.Is(err, runner.ErrToolNotFound))
	// Output:
	// true true
	// true
}

// RunChain passes each result to the next step that asks for it.
func ExampleRunner_RunChain() {
	reg := packs.NewRegistry()
	reg.Register(
		&packs.Tool{Pack: "text", Name: "words",
			InputSchema: `{"type":"object","properties":{"text":{"type":"string"}}}`,
			Handler: func(_ context.Context, a map[string]any) (any, error) {
				var out []any
				for _, w := range strings.Fields(a["text"].(string)) {
					out = append(out, w)
				}
				return out, nil
			}},
		&packs.Tool{Pack: "text", Name: "count",
			InputSchema: `{"type":"object","properties":{"previous":{"type":"array"}}}`,
			Handler: func(_ context.Context, a map[string]any) (any, error) {
				return len(a["previous"].([]any)), nil
			}},
	)
	r, _ := runner.New(runner.WithRegistry(reg))
	final, results, err := r.RunChain(context.Background(), []runner.ChainStep{
		{ToolID: "text.words", Args: map[string]any{"text": "one tool to run them"}},
		{ToolID: "text.count", UsePrevious: true},
	})
	fmt.Println(final.Value, len(results), err)
	// Output: 5 2 <nil>
}
