package mcpclient

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onetool-dev/onetool/interp/ordered"
)

// enc is the JSON of a converted value, keys in order.
func enc(t *testing.T, v any) string {
	t.Helper()
	b, err := ordered.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConvertResult(t *testing.T) {
	text := func(s string) mcp.Content { return &mcp.TextContent{Text: s} }
	cases := []struct {
		name string
		res  *mcp.CallToolResult
		raw  string
		want string
	}{
		{"plain text", &mcp.CallToolResult{Content: []mcp.Content{text("hello")}}, "", `"hello"`},
		{"JSON text keeps order", &mcp.CallToolResult{Content: []mcp.Content{text(` {"z":1,"a":[true,null]} `)}}, "", `{"z":1,"a":[true,null]}`},
		{"number text", &mcp.CallToolResult{Content: []mcp.Content{text("42")}}, "", `42`},
		{"no content", &mcp.CallToolResult{}, "", `null`},
		{"structured from raw keeps order",
			&mcp.CallToolResult{Content: []mcp.Content{text("ignored")}, StructuredContent: map[string]any{"z": 1, "a": 2}},
			`{"content":[],"structuredContent":{"z":1,"a":2}}`, `{"z":1,"a":2}`},
		{"structured without raw sorts",
			&mcp.CallToolResult{StructuredContent: map[string]any{"z": 1.5, "a": "x"}}, "", `{"a":"x","z":1.5}`},
		{"structured list", &mcp.CallToolResult{StructuredContent: []any{1.0, "two"}}, "", `[1,"two"]`},
		{"image", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: make([]byte, 10), MIMEType: "image/png"}}}, "",
			`{"type":"image","mime":"image/png","bytes":10}`},
		{"several parts", &mcp.CallToolResult{Content: []mcp.Content{
			text("a"), text(`{"k":1}`),
			&mcp.AudioContent{Data: []byte("xyz"), MIMEType: "audio/wav"},
			&mcp.ResourceLink{URI: "file:///x", Name: "x"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "m://t", MIMEType: "text/plain", Text: "hi"}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "m://b", MIMEType: "application/zip", Blob: []byte{1, 2}}},
		}}, "", `["a",{"k":1},{"type":"audio","mime":"audio/wav","bytes":3},` +
			`{"type":"resource_link","uri":"file:///x","name":"x"},` +
			`{"type":"resource","uri":"m://t","mime":"text/plain","text":"hi"},` +
			`{"type":"resource","uri":"m://b","mime":"application/zip","bytes":2}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := convertResult(c.res, json.RawMessage(c.raw))
			if err != nil {
				t.Fatal(err)
			}
			if got := enc(t, r.Value); got != c.want {
				t.Errorf("got %s\nwant %s", got, c.want)
			}
		})
	}

	r, _ := convertResult(cases[len(cases)-1].res, nil)
	if len(r.Blobs) != 2 || string(r.Blobs[0].Data) != "xyz" || r.Blobs[1].URI != "m://b" {
		t.Errorf("blobs: %+v", r.Blobs)
	}

	_, err := convertResult(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("bad"), text("input")}}, nil)
	if !errors.Is(err, ErrToolFailed) || err.Error() != "bad\ninput" {
		t.Errorf("isError: %v", err)
	}
	_, err = convertResult(&mcp.CallToolResult{IsError: true}, nil)
	if !errors.Is(err, ErrToolFailed) || !strings.Contains(err.Error(), "without a message") {
		t.Errorf("isError without text: %v", err)
	}
}

func TestTailBuffer(t *testing.T) {
	var b tailBuffer
	if b.String() != "" {
		t.Fatal("empty buffer not empty")
	}
	b.Write([]byte("first line\n"))
	if got := b.String(); got != "first line" {
		t.Fatalf("got %q", got)
	}
	for range 1000 {
		b.Write([]byte("noise noise noise\n"))
	}
	b.Write([]byte("fatal: the end\n"))
	got := b.String()
	if len(got) > stderrTailSize+4 || !strings.HasPrefix(got, "…noise") || !strings.HasSuffix(got, "fatal: the end") {
		t.Errorf("tail = %d bytes, %q…%q", len(got), got[:20], got[len(got)-20:])
	}
}

func TestMinimalEnvUnit(t *testing.T) {
	t.Setenv("PATH", "/bin")
	t.Setenv("HOME", "/home/x")
	t.Setenv("SECRET_TOKEN", "s3cr3t")
	got := strings.Join(minimalEnv(map[string]string{"PATH": "/opt/bin", "API_KEY": "k"}), " ")
	if got != "API_KEY=k HOME=/home/x PATH=/opt/bin" {
		t.Errorf("env = %s", got)
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range map[int]string{0: "0s", 1: "100ms", 2: "200ms", 3: "400ms", 8: "10s", 50: "10s"} {
		if got := backoff(n).String(); got != want {
			t.Errorf("backoff(%d) = %s, want %s", n, got, want)
		}
	}
}
