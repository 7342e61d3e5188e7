package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs"
)

const (
	toolsURI        = "onetool://tools"
	toolURIPrefix   = "onetool://tool/"
	toolURITemplate = "onetool://tool/{id}"
)

// addResources publishes the catalogue: onetool://tools lists every tool
// with its signature, and onetool://tool/{id} gives one tool's signature,
// description and schemas. Both read the registry when asked, so tools
// that appear later are included, and show a principal of serve.auth only
// the tools its policy lets it call.
func addResources(s *mcp.Server, reg *packs.Registry) {
	s.AddResource(&mcp.Resource{
		URI:         toolsURI,
		Name:        "tools",
		Description: "Every tool onetool can call from run: id, signature and description.",
		MIMEType:    "application/json",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		pol := policyOf(req)
		var list []any
		for _, t := range reg.Tools() {
			if !visible(pol, t) {
				continue
			}
			m := ordered.NewMap(3)
			m.Set("id", t.ID())
			m.Set("signature", t.Signature())
			m.Set("description", t.Description)
			list = append(list, m)
		}
		return jsonContents(req.Params.URI, list)
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: toolURITemplate,
		Name:        "tool",
		Description: "One tool: signature, description, input and output JSON Schemas, examples.",
		MIMEType:    "application/json",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		id := strings.TrimPrefix(req.Params.URI, toolURIPrefix)
		t, ok := reg.Tool(id)
		if !ok || !visible(policyOf(req), t) { // not there, for this principal
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		m := ordered.NewMap(6)
		m.Set("id", t.ID())
		m.Set("signature", t.Signature())
		m.Set("description", t.Description)
		m.Set("input_schema", schema(t.InputSchema))
		if t.OutputSchema != "" {
			m.Set("output_schema", schema(t.OutputSchema))
		}
		var examples []any
		for _, e := range t.Examples {
			examples = append(examples, e.Code)
		}
		m.Set("examples", examples)
		return jsonContents(req.Params.URI, m)
	})
}

// schema returns a tool schema as data, in declared order.
func schema(text string) any {
	if text == "" {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	v, err := ordered.Decode([]byte(text))
	if err != nil {
		return text
	}
	return v
}

func jsonContents(uri string, v any) (*mcp.ReadResourceResult, error) {
	data, err := ordered.EncodeIndent(v, "  ")
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
}
