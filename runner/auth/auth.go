// Package auth is the authentication of HTTP requests and the policies of
// principals (SPEC §7.4): static bearer tokens checked in constant time,
// the principal a token stands for, and what that principal's policy lets
// its runs call.
package auth

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/onetool-dev/onetool/packs"
	"github.com/onetool-dev/onetool/runner/config"
)

// Principal is who sent a request: a token's name and its policy.
type Principal struct {
	// Name is what users and operators see (messages, the audit log,
	// stats and metrics): a static token's name ("alice"), or for an
	// OAuth access token "oauth:" and its subject ("oauth:alice"). Static
	// names cannot hold ':', so the two never meet.
	Name string
	// ID tells principals apart wherever they own something: rate-limit
	// counts, sessions, session state, stored results. "token:" and the
	// name for a static token, "oauth:<issuer>#<subject>" for an OAuth
	// subject, so that a JWT whose sub is a static token's name is
	// another principal. Empty reads as "token:" and Name (see Key).
	ID     string
	Policy *Policy
}

// Key is the principal's identity (ID, else "token:" and Name), or ""
// for a nil principal: runs nobody authenticated, which all count as one.
func (pr *Principal) Key() string {
	switch {
	case pr == nil:
		return ""
	case pr.ID != "":
		return pr.ID
	}
	return TokenID(pr.Name)
}

// TokenID is the identity of the static token named name.
func TokenID(name string) string { return "token:" + name }

// OAuthID is the identity of an OAuth subject of issuer.
func OAuthID(issuer, subject string) string { return "oauth:" + issuer + "#" + subject }

// Policy is a named entry of `policies:`.
type Policy struct {
	Name string
	// Allow are glob patterns over tool ids, as path.Match reads them.
	Allow    []string
	ReadOnly bool
	// Limits replace the run's budgets field by field; nil fields keep them.
	Limits config.Limits
	// Isolation is "process" when the policy's runs must run in workers.
	Isolation string
}

// NewPolicy makes the policy name of the configuration.
func NewPolicy(name string, p *config.Policy) *Policy {
	if p == nil {
		return &Policy{Name: name}
	}
	return &Policy{Name: name, Allow: p.Allow, ReadOnly: p.ReadOnly, Limits: p.Limits, Isolation: p.Isolation}
}

// ErrNotAllowed is the cause of a call a policy refuses. It is
// packs.ErrNotAllowed, so that a program's error names the tool once and
// the refusal crosses to worker processes.
var ErrNotAllowed = packs.ErrNotAllowed

// DeniedError is a tool call refused by a policy. Its text is the one of
// SPEC §7.4, with " (read-only)" when only read_only refused it.
type DeniedError struct {
	Tool, Policy string
	ReadOnly     bool // the tool matched allow but is not annotated read-only
}

func (e *DeniedError) Error() string {
	msg := fmt.Sprintf("%s is not allowed by policy '%s'", e.Tool, e.Policy)
	if e.ReadOnly {
		msg += " (read-only)"
	}
	return msg
}

// Is makes errors.Is(err, ErrNotAllowed) hold.
func (e *DeniedError) Is(target error) bool { return target == ErrNotAllowed }

// Matches reports whether the tool id matches one of the allow patterns.
// "pack:name" is read as "pack.name", in patterns and ids alike.
func (p *Policy) Matches(id string) bool {
	id = strings.Replace(id, ":", ".", 1)
	for _, pat := range p.Allow {
		if ok, err := path.Match(strings.Replace(pat, ":", ".", 1), id); err == nil && ok {
			return true
		}
	}
	return false
}

// Check returns a *DeniedError when the policy refuses t, nil otherwise.
func (p *Policy) Check(t *packs.Tool) error {
	id := t.ID()
	if !p.Matches(id) {
		return &DeniedError{Tool: id, Policy: p.Name}
	}
	if p.ReadOnly && !t.Annotations.ReadOnly {
		return &DeniedError{Tool: id, Policy: p.Name, ReadOnly: true}
	}
	return nil
}

// Check applies the principal's policy to t. A nil principal (stdio, or
// HTTP without serve.auth) may call everything.
func (pr *Principal) Check(t *packs.Tool) error {
	if pr == nil || pr.Policy == nil {
		return nil
	}
	return pr.Policy.Check(t)
}

type principalKey struct{}

// NewContext returns ctx carrying pr.
func NewContext(ctx context.Context, pr *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, pr)
}

// FromContext returns the principal ctx carries, or nil.
func FromContext(ctx context.Context) *Principal {
	pr, _ := ctx.Value(principalKey{}).(*Principal)
	return pr
}
