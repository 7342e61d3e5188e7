// Package packs is the tool model and registry of onetool: what a tool is
// (name, parameter schema, examples, handler), how a call's arguments are
// bound to parameters and validated, how a tool is shown to a model (typed
// stubs and help text), and the registry that groups tools into packs.
//
// It is the Go side of a tool call. Starlark values are made elsewhere
// (package proxy); here arguments and results are plain Go values: nil,
// bool, int64, float64, string, []any, *ordered.Map and map[string]any.
//
// A call goes through four steps, each usable on its own:
//
//	args, err := tool.Bind(positional, named) // names, synonyms, prefixes, defaults
//	err = tool.ValidateInput(args)            // JSON Schema, compiled once
//	result, err := packs.Invoke(ctx, tool, args) // timeout, panic recovery
//	err = tool.ValidateOutput(result)
//
// Call does all four.
//
// Validation uses github.com/kaptinlin/jsonschema for the full language, and
// a compiled validator of its own for the common subset of keywords, because
// a tool call must cost microseconds and the library needs several per call.
// Both produce the same messages, one per failing path:
//
//	demo.items: invalid arguments: args.count: must be >= 0
package packs
