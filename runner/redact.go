package runner

import (
	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/runner/config"
)

// SPEC §8.3: a secret's value never leaves a run, whichever tool or
// program put it there. Exec redacts everything it hands back: the text,
// the printed text, the value, the error, and what upstream servers report
// while the run goes on.

// redactResult hides secret values in every field of res.
func redactResult(s *config.Secrets, res *ExecResult) {
	res.Text = s.Redact(res.Text)
	res.Printed = s.Redact(res.Printed)
	res.Value = redactValue(s, res.Value)
	if res.Err != nil {
		if text := s.Redact(res.Err.Error()); text != res.Err.Error() {
			res.Err = &redactedError{text: text, err: res.Err}
		}
	}
}

// redactValue returns a copy of v with secret values hidden in every
// string, keys included.
func redactValue(s *config.Secrets, v any) any {
	switch v := v.(type) {
	case string:
		return s.Redact(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = redactValue(s, x)
		}
		return out
	case *ordered.Map:
		m := ordered.NewMap(v.Len())
		v.Range(func(k string, x any) bool {
			m.Set(s.Redact(k), redactValue(s, x))
			return true
		})
		return m
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[s.Redact(k)] = redactValue(s, x)
		}
		return m
	}
	return v
}

// redactedError reads as its cause with secret values hidden; errors.Is
// and errors.As still reach the cause.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
