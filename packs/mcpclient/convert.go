package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// Result is a converted tool result: Value is what a Starlark program
// gets; Blobs holds the binary data that Value only describes (the
// placeholders of image, audio and blob parts, in the same order), for
// callers that keep it for later retrieval (SPEC §4.5, ot.result).
type Result struct {
	Value any
	Blobs []Blob
}

// Blob is the data of one image, audio or embedded blob part.
type Blob struct {
	Type string // "image", "audio" or "resource"
	MIME string
	URI  string // embedded resources only
	Data []byte
}

// convertResult turns a tools/call result into plain Go data (SPEC §4.5):
//
//   - isError → an error wrapping ErrToolFailed whose text is the text
//     content (parts joined by newlines);
//   - structuredContent when present, objects as *ordered.Map in the
//     server's key order (taken from raw, the captured JSON result, when
//     there is one);
//   - else one part → that part converted; several parts → a list of the
//     converted parts; no parts → nil.
//
// A text part becomes the JSON value it holds when it parses as JSON,
// else the text. Binary parts become small placeholder maps:
// {"type": "image"|"audio", "mime": …, "bytes": N}; embedded resources
// {"type": "resource", "uri": …, "mime": …, "text": … or "bytes": N};
// resource links {"type": "resource_link", "uri": …, "name": …}.
func convertResult(res *mcp.CallToolResult, raw json.RawMessage) (Result, error) {
	if res == nil {
		return Result{}, nil
	}
	if res.IsError {
		return Result{}, newError(ErrToolFailed, nil, errorText(res))
	}
	var out Result
	parts := make([]any, 0, len(res.Content))
	for _, c := range res.Content {
		v, blob := convertContent(c)
		parts = append(parts, v)
		if blob != nil {
			out.Blobs = append(out.Blobs, *blob)
		}
	}
	if res.StructuredContent != nil {
		v, err := structured(res.StructuredContent, raw)
		if err != nil {
			return Result{}, fmt.Errorf("reading structuredContent: %w", err)
		}
		out.Value = v
		return out, nil
	}
	switch len(parts) {
	case 0:
	case 1:
		out.Value = parts[0]
	default:
		out.Value = parts
	}
	return out, nil
}

// structured converts structuredContent, from the raw JSON when it was
// captured (keeping key order), else by re-encoding the decoded value.
func structured(decoded any, raw json.RawMessage) (any, error) {
	if len(raw) > 0 {
		var w struct {
			SC json.RawMessage `json:"structuredContent"`
		}
		if json.Unmarshal(raw, &w) == nil && len(w.SC) > 0 && string(w.SC) != "null" {
			return ordered.Decode(w.SC)
		}
	}
	data, err := json.Marshal(decoded)
	if err != nil {
		return nil, err
	}
	return ordered.Decode(data)
}

// convertContent converts one content part and returns its binary data,
// if any.
func convertContent(c mcp.Content) (any, *Blob) {
	switch c := c.(type) {
	case *mcp.TextContent:
		return textValue(c.Text), nil
	case *mcp.ImageContent:
		return placeholder("image", c.MIMEType, len(c.Data)), &Blob{Type: "image", MIME: c.MIMEType, Data: c.Data}
	case *mcp.AudioContent:
		return placeholder("audio", c.MIMEType, len(c.Data)), &Blob{Type: "audio", MIME: c.MIMEType, Data: c.Data}
	case *mcp.ResourceLink:
		m := ordered.NewMap(4)
		m.Set("type", "resource_link")
		m.Set("uri", c.URI)
		m.Set("name", c.Name)
		if c.MIMEType != "" {
			m.Set("mime", c.MIMEType)
		}
		return m, nil
	case *mcp.EmbeddedResource:
		m := ordered.NewMap(4)
		m.Set("type", "resource")
		r := c.Resource
		if r == nil {
			return m, nil
		}
		m.Set("uri", r.URI)
		m.Set("mime", r.MIMEType)
		if r.Blob != nil {
			m.Set("bytes", int64(len(r.Blob)))
			return m, &Blob{Type: "resource", MIME: r.MIMEType, URI: r.URI, Data: r.Blob}
		}
		m.Set("text", r.Text)
		return m, nil
	case nil:
		return nil, nil
	default:
		// A content type newer than this code: pass its JSON form on
		// rather than failing the whole call.
		if data, err := json.Marshal(c); err == nil {
			if v, err := ordered.Decode(data); err == nil {
				return v, nil
			}
		}
		m := ordered.NewMap(1)
		m.Set("type", fmt.Sprintf("%T", c))
		return m, nil
	}
}

// textValue is the JSON value a text holds, or the text itself.
func textValue(s string) any {
	t := strings.TrimSpace(s)
	if t == "" || !json.Valid([]byte(t)) {
		return s
	}
	v, err := ordered.Decode([]byte(t))
	if err != nil {
		return s
	}
	return v
}

func placeholder(kind, mime string, n int) *ordered.Map {
	m := ordered.NewMap(3)
	m.Set("type", kind)
	m.Set("mime", mime)
	m.Set("bytes", int64(n))
	return m
}

// errorText is the message of an isError result: its text parts joined,
// else its structured content as JSON, else a generic sentence.
func errorText(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(t.Text) != "" {
			texts = append(texts, t.Text)
		}
	}
	if len(texts) > 0 {
		return strings.Join(texts, "\n")
	}
	if res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			return string(data)
		}
	}
	return "the tool reported an error without a message"
}
