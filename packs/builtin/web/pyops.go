package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/onetool-dev/onetool/internal/pyops"
	"github.com/onetool-dev/onetool/packs"
)

// The variants of web.fetch that Python's urllib.request and requests
// call (issue 31; the contract is internal/pyops/web.go): web.fetch@get
// for GET, HEAD and OPTIONS, web.fetch@send for POST, PUT, PATCH and
// DELETE. Both are an Exchange, the path web.fetch takes; they differ in
// their annotations only, so that a read_only policy refuses what may
// change something on a server.

// variantSchema is both variants' input.
const variantSchema = `{"type":"object","properties":{
	"method":{"type":"string"},
	"url":{"type":"string"},
	"headers":{"type":"array","items":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2}},
	"timeout":{"type":"number","minimum":0},
	"follow":{"type":"boolean"},
	"text":{"type":"string"},
	"b64":{"type":"string"}},
	"required":["url"],"additionalProperties":false}`

// variants are web.fetch@get and web.fetch@send over f.
func (f *fetcher) variants() []*packs.Tool {
	return []*packs.Tool{
		{
			Pack: "web", Name: "fetch", Variant: "get",
			Description: "An HTTP GET, HEAD or OPTIONS of urllib.request or requests: the whole response, any status.",
			InputSchema: variantSchema,
			Annotations: packs.Annotations{ReadOnly: true, OpenWorld: true},
			Handler:     f.variant(false),
		},
		{
			Pack: "web", Name: "fetch", Variant: "send",
			Description: "An HTTP POST, PUT, PATCH or DELETE of urllib.request or requests: the whole response, any status.",
			InputSchema: variantSchema,
			Annotations: packs.Annotations{OpenWorld: true},
			Handler:     f.variant(true),
		},
	}
}

// variantMethods are the methods each variant sends.
var variantMethods = map[bool][]string{
	false: {"GET", "HEAD", "OPTIONS"},
	true:  {"POST", "PUT", "PATCH", "DELETE"},
}

// variant is the handler of web.fetch@send (send) or web.fetch@get.
func (f *fetcher) variant(send bool) packs.Handler {
	return func(ctx context.Context, args map[string]any) (any, error) {
		x, err := exchangeArgs(args, send)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		r, err := f.exchange(ctx, x)
		if err != nil {
			return nil, err
		}
		body := r.Body
		if f.redact != nil && len(body) > 0 {
			// Here, not in the runner: a body that is not UTF-8 crosses
			// as base64, where a secret's text could not be found.
			text, err := f.redact(ctx, string(body))
			if err != nil {
				return nil, fmt.Errorf("checking the response for secrets: %w", err)
			}
			body = []byte(text)
		}
		out := map[string]any{
			"status":     int64(r.Status),
			"reason":     r.Reason,
			"url":        r.URL,
			"headers":    pairs(r.Header),
			"history":    hops(r.History),
			"elapsed_ms": time.Since(start).Milliseconds(),
		}
		pyops.PutContent(out, body)
		return out, nil
	}
}

// exchangeArgs reads a variant's arguments (validated by variantSchema).
func exchangeArgs(args map[string]any, send bool) (Exchange, error) {
	x := Exchange{URL: str(args["url"]), NoRedirects: args["follow"] != true}
	x.Method = strings.ToUpper(strings.TrimSpace(str(args["method"])))
	if x.Method == "" && !send {
		x.Method = "GET"
	}
	ok := false
	for _, m := range variantMethods[send] {
		ok = ok || m == x.Method
	}
	if !ok {
		op := pyops.WebGet
		if send {
			op = pyops.WebSend
		}
		return x, pyops.Tag(pyops.ErrBadURL, fmt.Errorf("%s sends %s, not %q", op, strings.Join(variantMethods[send], ", "), x.Method))
	}
	if hs, ok := args["headers"].([]any); ok {
		for _, h := range hs {
			kv, _ := h.([]any)
			if len(kv) != 2 {
				continue // the schema wants pairs
			}
			k, v := str(kv[0]), str(kv[1])
			if err := checkHeader(k, v); err != nil {
				return x, pyops.Tag(pyops.ErrBadURL, err)
			}
			x.Header = append(x.Header, [2]string{k, v})
		}
	}
	if t, ok := args["timeout"].(float64); ok && t > 0 {
		x.Timeout = time.Duration(math.Min(t, 1e6) * float64(time.Second))
	} else if t, ok := args["timeout"].(int64); ok && t > 0 {
		x.Timeout = time.Duration(min(t, 1e6)) * time.Second
	}
	if send {
		body, err := pyops.GetContent(args)
		if err != nil {
			return x, fmt.Errorf("the request body: %w", err)
		}
		x.Body = body
	}
	return x, nil
}

// checkHeader refuses what would split a request or that HTTP forbids
// in a name, with the header named (requests' InvalidHeader).
func checkHeader(name, value string) error {
	if name == "" {
		return fmt.Errorf("invalid header name %q: empty", name)
	}
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return fmt.Errorf("invalid header name %q", name)
		}
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("invalid header value for %s: it holds a line break or NUL", name)
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func pairs(h [][2]string) []any {
	out := make([]any, len(h))
	for i, kv := range h {
		out[i] = []any{kv[0], kv[1]}
	}
	return out
}

func hops(h []Hop) []any {
	out := make([]any, len(h))
	for i, hop := range h {
		out[i] = map[string]any{"status": int64(hop.Status), "url": hop.URL}
	}
	return out
}
