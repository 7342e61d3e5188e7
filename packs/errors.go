package packs

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// that callers (the runner, the MCP layer) can classify a failure with
// errors.Is without parsing text.
var (
	// ErrArgs: the call's arguments do not fit the signature (unknown or
	// ambiguous name, too many positional arguments, a value given twice,
	// a required parameter missing). Returned as *ArgError.
	ErrArgs = errors.New("bad arguments")

	// ErrNotAllowed: the caller's policy does not allow the tool (SPEC
	// §7.4). The error's text names the tool and the policy already.
	ErrNotAllowed = errors.New("not allowed by policy")

	// ErrValidation: the arguments do not satisfy the input schema.
	// Returned as *ValidationError.
	ErrValidation = errors.New("invalid arguments")

	// ErrOutputValidation: a result does not satisfy the output schema.
	// Returned as *ValidationError.
	ErrOutputValidation = errors.New("invalid result")

	// ErrPanic: a handler panicked. Returned as *PanicError.
	ErrPanic = errors.New("tool panicked")

	// ErrInvalidToolID: a tool id is not "pack.name" or "pack:name".
	ErrInvalidToolID = errors.New("invalid tool id")

	// ErrSchema: a tool's input or output schema is not valid JSON Schema,
	// or refers to something outside itself.
	ErrSchema = errors.New("invalid schema")

	// ErrInvalidTool: a tool definition is unusable for reasons other than
	// its schemas (bad names, bad synonyms, no handler).
	ErrInvalidTool = errors.New("invalid tool")

	// ErrDuplicateTool: a tool id is registered twice.
	ErrDuplicateTool = errors.New("duplicate tool")
)

// ArgErrorKind says which rule of argument binding a call broke.
type ArgErrorKind int

// The kinds of *ArgError.
const (
	ArgUnknown   ArgErrorKind = iota + 1 // no parameter has this name, synonym or prefix
	ArgAmbiguous                         // the name is a prefix of several parameters
	ArgTooMany                           // more positional arguments than parameters
	ArgDuplicate                         // one parameter received two values
	ArgMissing                           // required parameters received none
)

// ArgError reports arguments that do not fit a tool's signature. Its text
// is meant for the model that wrote the call: it names the problem, offers
// a correction when there is a plausible one, and ends with the signature.
type ArgError struct {
	ToolID     string
	Kind       ArgErrorKind
	Name       string   // the argument as written (ArgUnknown, ArgAmbiguous, ArgDuplicate)
	Suggestion string   // ArgUnknown: the parameter the caller probably meant, or ""
	Candidates []string // ArgAmbiguous: the parameters the prefix matches, sorted
	Missing    []string // ArgMissing: in signature order
	Max, Given int      // ArgTooMany: positional parameters and arguments
	Signature  string
}

func (e *ArgError) Error() string {
	var b strings.Builder
	b.WriteString(e.ToolID)
	b.WriteString(": ")
	switch e.Kind {
	case ArgUnknown:
		fmt.Fprintf(&b, "unknown parameter '%s'.", e.Name)
		if e.Suggestion != "" {
			fmt.Fprintf(&b, " Did you mean '%s'?", e.Suggestion)
		}
	case ArgAmbiguous:
		fmt.Fprintf(&b, "ambiguous parameter '%s' matches %s.", e.Name, strings.Join(e.Candidates, ", "))
	case ArgTooMany:
		fmt.Fprintf(&b, "takes %d positional %s but %d %s given.",
			e.Max, plural(e.Max, "argument", "arguments"), e.Given, plural(e.Given, "was", "were"))
	case ArgDuplicate:
		fmt.Fprintf(&b, "got multiple values for parameter '%s'.", e.Name)
	case ArgMissing:
		fmt.Fprintf(&b, "missing required %s %s.",
			plural(len(e.Missing), "parameter", "parameters"), quoteList(e.Missing))
	default:
		b.WriteString("bad arguments.")
	}
	b.WriteString(" Signature: ")
	b.WriteString(e.Signature)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrArgs) true.
func (e *ArgError) Unwrap() error { return ErrArgs }

// PythonClass is the exception class a Python program catches a failed
// tool call as (SPEC §2.7), whatever the step that failed.
func (e *ArgError) PythonClass() string { return "ToolError" }

// Problem is one failed constraint of a validation: where and what.
type Problem struct {
	Path    string // "args.count", "args.items[2].name", "result"
	Keyword string // the JSON Schema keyword that failed ("minimum"), or ""
	Message string // "must be >= 1"
}

// ValidationError reports every constraint a value broke, sorted by path.
// With one problem the text is one line:
//
//	demo.items: invalid arguments: args.count: must be >= 0
//
// with several, one problem per indented line. Input errors end with a
// line giving the signature, as argument errors do.
type ValidationError struct {
	ToolID    string
	Output    bool // a result failed the output schema, not arguments the input schema
	Problems  []Problem
	Signature string // input errors only
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString(e.ToolID)
	if e.Output {
		b.WriteString(": invalid result:")
	} else {
		b.WriteString(": invalid arguments:")
	}
	if len(e.Problems) == 1 {
		p := e.Problems[0]
		b.WriteString(" ")
		b.WriteString(p.Path)
		b.WriteString(": ")
		b.WriteString(p.Message)
	} else {
		for _, p := range e.Problems {
			b.WriteString("\n  ")
			b.WriteString(p.Path)
			b.WriteString(": ")
			b.WriteString(p.Message)
		}
	}
	if e.Signature != "" {
		b.WriteString("\nSignature: ")
		b.WriteString(e.Signature)
	}
	return b.String()
}

// Unwrap makes errors.Is match ErrValidation or ErrOutputValidation.
func (e *ValidationError) Unwrap() error {
	if e.Output {
		return ErrOutputValidation
	}
	return ErrValidation
}

// PythonClass is the exception class a Python program catches it as.
func (e *ValidationError) PythonClass() string { return "ToolError" }

// PanicError is a recovered handler panic. The text carries the panic
// value only: Go stack traces never reach the model.
type PanicError struct {
	ToolID string
	Value  any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%s panicked: %v", e.ToolID, e.Value)
}

// Unwrap makes errors.Is match ErrPanic and, when the panic value was an
// error (a runtime error, say), that error too.
func (e *PanicError) Unwrap() []error {
	if err, ok := e.Value.(error); ok {
		return []error{ErrPanic, err}
	}
	return []error{ErrPanic}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteList renders names as 'a', 'b'.
func quoteList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'")
		b.WriteString(n)
		b.WriteString("'")
	}
	return b.String()
}
