package pyops

import (
	"encoding/base64"
	"fmt"
	"unicode/utf8"
)

// Content keys: bytes cross as {"text": s} when they are valid UTF-8
// (most files and pages, at no extra cost), else as {"b64": s} in
// standard base64. Raw bytes cannot cross the JSON pipe of isolation:
// process, and one form for both modes keeps the modules simple.
const (
	ContentText = "text"
	ContentB64  = "b64"
)

// PutContent puts b in m under ContentText or ContentB64.
func PutContent(m map[string]any, b []byte) {
	if utf8.Valid(b) {
		m[ContentText] = string(b)
		return
	}
	m[ContentB64] = base64.StdEncoding.EncodeToString(b)
}

// getter is a map as it arrives: map[string]any in-process, or a map
// kept in order (interp/ordered.Map) after the pipe.
type getter interface{ Get(string) (any, bool) }

// GetContent returns the bytes PutContent put in v, a map (or nil: no
// bytes). It fails when v is not such a map or the base64 is bad.
func GetContent(v any) ([]byte, error) {
	var get func(string) (any, bool)
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		get = func(k string) (any, bool) { x, ok := m[k]; return x, ok }
	case getter:
		get = m.Get
	default:
		return nil, fmt.Errorf("content: want a map, got %T", v)
	}
	if x, ok := get(ContentText); ok {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("content: %q is %T, want a string", ContentText, x)
		}
		return []byte(s), nil
	}
	if x, ok := get(ContentB64); ok {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("content: %q is %T, want a string", ContentB64, x)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("content: %w", err)
		}
		return b, nil
	}
	return nil, nil
}
