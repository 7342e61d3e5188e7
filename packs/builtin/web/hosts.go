package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// hostRule is one entry of allow_hosts or deny_hosts.
type hostRule struct {
	raw    string
	name   string       // exact host name, lower case, no trailing dot
	suffix string       // "*.example.com" → ".example.com"
	prefix netip.Prefix // a CIDR, or a single address as /32 or /128
}

func (r hostRule) isPrefix() bool { return r.prefix.IsValid() }

// matchName reports whether a host name (not an address) matches r.
func (r hostRule) matchName(host string) bool {
	switch {
	case r.name != "":
		return host == r.name
	case r.suffix != "":
		return strings.HasSuffix(host, r.suffix) && len(host) > len(r.suffix)
	}
	return false
}

// parseHostRule accepts "example.com", "*.example.com", "10.0.0.0/8",
// "127.0.0.1", "::1" and "[::1]".
func parseHostRule(s string) (hostRule, error) {
	raw := s
	s = strings.TrimSpace(s)
	if s == "" {
		return hostRule{}, errors.New("an empty host")
	}
	if strings.Contains(s, "://") {
		return hostRule{}, fmt.Errorf("%q is not a host: give only the host name (example.com), without scheme, port or path", raw)
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return hostRule{}, fmt.Errorf("%q is neither a host nor a CIDR (a CIDR looks like 10.0.0.0/8)", raw)
		}
		return hostRule{raw: raw, prefix: p.Masked()}, nil
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		a = a.Unmap()
		return hostRule{raw: raw, prefix: netip.PrefixFrom(a, a.BitLen())}, nil
	}
	if strings.ContainsAny(s, ":@?# \t") {
		return hostRule{}, fmt.Errorf("%q is not a host: give only the host name (example.com), without scheme, port or path", raw)
	}
	s = normalizeHost(s)
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		if rest == "" || strings.Contains(rest, "*") {
			return hostRule{}, fmt.Errorf("%q is not a valid wildcard: write *.example.com", raw)
		}
		return hostRule{raw: raw, suffix: "." + rest}, nil
	}
	if strings.Contains(s, "*") {
		return hostRule{}, fmt.Errorf("%q is not a valid wildcard: '*' may only start the host, as in *.example.com", raw)
	}
	return hostRule{raw: raw, name: s}, nil
}

// normalizeHost lowers a host name and drops a trailing dot.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// policy decides which hosts may be fetched.
type policy struct {
	allow, deny []hostRule
}

func newPolicy(allow, deny []string) (*policy, error) {
	p := &policy{}
	var errs []error
	for i, s := range allow {
		r, err := parseHostRule(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("allow_hosts[%d]: %w", i, err))
			continue
		}
		p.allow = append(p.allow, r)
	}
	for i, s := range deny {
		r, err := parseHostRule(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("deny_hosts[%d]: %w", i, err))
			continue
		}
		p.deny = append(p.deny, r)
	}
	return p, errors.Join(errs...)
}

// hasPrefixes reports whether any rule is about addresses, so names must
// be resolved to be checked.
func (p *policy) hasPrefixes() bool {
	for _, r := range p.allow {
		if r.isPrefix() {
			return true
		}
	}
	for _, r := range p.deny {
		if r.isPrefix() {
			return true
		}
	}
	return false
}

// errRefused marks a host the settings refuse; errDenied one that
// deny_hosts names.
var (
	errRefused = errors.New("host refused")
	errDenied  = errors.New("host denied")
)

type refusedError struct {
	msg    string
	denied bool
}

func (e *refusedError) Error() string { return e.msg }
func (e *refusedError) Is(target error) bool {
	return target == errRefused || (e.denied && target == errDenied)
}

func refused(format string, args ...any) error {
	return &refusedError{msg: fmt.Sprintf(format, args...)}
}

func denied(format string, args ...any) error {
	return &refusedError{msg: fmt.Sprintf(format, args...), denied: true}
}

// checkName checks a host as written in a URL, before any resolution.
// For an address it is the whole check. For a name it returns
// byName=true when an allow rule names it, so its addresses need not be
// in an allowed CIDR (they are still checked against denied CIDRs).
func (p *policy) checkName(host string) (byName bool, err error) {
	if a, ok := parseAddr(host); ok {
		return false, p.checkAddr(host, a, false)
	}
	host = normalizeHost(host)
	for _, r := range p.deny {
		if r.matchName(host) {
			return false, denied("host %s is refused by packs.web.deny_hosts (%s)", host, r.raw)
		}
	}
	if len(p.allow) == 0 {
		return false, nil
	}
	for _, r := range p.allow {
		if r.matchName(host) {
			return true, nil
		}
	}
	if !p.allowsPrefixes() {
		return false, refused("host %s is not in packs.web.allow_hosts (%s)", host, strings.Join(p.allowList(), ", "))
	}
	return false, nil // its addresses decide
}

func (p *policy) allowsPrefixes() bool {
	for _, r := range p.allow {
		if r.isPrefix() {
			return true
		}
	}
	return false
}

func (p *policy) allowList() []string {
	l := make([]string, len(p.allow))
	for i, r := range p.allow {
		l[i] = r.raw
	}
	return l
}

// checkAddr checks one address of host. byName: an allow rule named the host.
func (p *policy) checkAddr(host string, a netip.Addr, byName bool) error {
	a = a.Unmap()
	shown := host
	if shown != a.String() {
		shown = fmt.Sprintf("%s (%s)", host, a)
	}
	for _, r := range p.deny {
		if r.isPrefix() && r.prefix.Contains(a) {
			return denied("host %s is refused by packs.web.deny_hosts (%s)", shown, r.raw)
		}
	}
	if len(p.allow) == 0 || byName {
		return nil
	}
	for _, r := range p.allow {
		if r.isPrefix() && r.prefix.Contains(a) {
			return nil
		}
	}
	return refused("host %s is not in packs.web.allow_hosts (%s)", shown, strings.Join(p.allowList(), ", "))
}

// parseAddr parses an address host, with or without brackets.
func parseAddr(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if i := strings.IndexByte(host, '%'); i >= 0 { // a zone
		host = host[:i]
	}
	a, err := netip.ParseAddr(host)
	return a, err == nil
}

// resolver is what checkResolved looks names up with.
var resolver = net.DefaultResolver

// checkResolved checks a host name and the addresses it resolves to,
// returning those that may be dialled. One address in a denied network
// refuses the host (a name that points there is not trusted for its other
// addresses); with an allow list of CIDRs, the addresses outside it are
// left out, and the host is refused when none is left.
func (p *policy) checkResolved(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, ok := parseAddr(host); ok {
		if err := p.checkAddr(host, a, false); err != nil {
			return nil, err
		}
		return []netip.Addr{a.Unmap()}, nil
	}
	byName, err := p.checkName(host)
	if err != nil {
		return nil, err
	}
	addrs, err := resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	var ok []netip.Addr
	var notAllowed error
	for _, a := range addrs {
		err := p.checkAddr(host, a, byName)
		if errors.Is(err, errDenied) {
			return nil, err
		}
		if err != nil {
			if notAllowed == nil {
				notAllowed = err
			}
			continue
		}
		ok = append(ok, a.Unmap())
	}
	if len(ok) == 0 && notAllowed != nil {
		return nil, notAllowed
	}
	return ok, nil
}
