package mcpserver

import (
	"context"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/auth"
)

// What a principal sees (SPEC §7.4): ot.help lists only what its policy
// lets it call, and so do the server's instructions and the tool
// resources, which would otherwise name every tool of the server.

// principalOf returns who sent req (serve.auth), or nil.
func principalOf(req mcp.Request) *auth.Principal {
	if req == nil {
		return nil
	}
	extra := req.GetExtra()
	if extra == nil {
		return nil
	}
	return auth.PrincipalOf(extra.TokenInfo)
}

// policyOf returns the policy of who sent req, or nil: everything visible.
func policyOf(req mcp.Request) *auth.Policy {
	if pr := principalOf(req); pr != nil {
		return pr.Policy
	}
	return nil
}

// visible reports whether pol lets its principal call t; a nil policy
// shows everything.
func visible(pol *auth.Policy, t *packs.Tool) bool {
	return pol == nil || pol.Check(t) == nil
}

// packVisible reports whether pol lets its principal call any tool of
// the pack: one of its registered tools, or, for an upstream server
// whose tools have not arrived yet, an allow pattern that names the pack.
func packVisible(pol *auth.Policy, reg *packs.Registry, pack string) bool {
	if pol == nil {
		return true
	}
	known := false
	for _, t := range reg.Tools() {
		if t.Pack != pack {
			continue
		}
		known = true
		if pol.Check(t) == nil {
			return true
		}
	}
	if known {
		return false
	}
	for _, pat := range pol.Allow {
		head, _, _ := strings.Cut(strings.Replace(pat, ":", ".", 1), ".")
		if ok, err := path.Match(head, pack); err == nil && ok {
			return true
		}
	}
	return false
}

// instructionsPerPrincipal replaces the instructions of an initialize (or
// server/discover) answer with those of the principal's policy, which
// list only the packs it may call.
func instructionsPerPrincipal(r *runner.Runner) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			pol := policyOf(req)
			if pol == nil {
				return res, nil
			}
			switch res := res.(type) {
			case *mcp.InitializeResult:
				res.Instructions = instructions(r, pol)
			case *mcp.DiscoverResult:
				res.Instructions = instructions(r, pol)
			}
			return res, nil
		}
	}
}
