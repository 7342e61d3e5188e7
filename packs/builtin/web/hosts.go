package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"code.dny.dev/ssrf"
)

// Which hosts web.fetch reaches (packs.web.allow_hosts, deny_hosts).
//
// Only public addresses by default: loopback, private (RFC 1918,
// fc00::/7), link-local, shared (100.64.0.0/10), unspecified (0.0.0.0,
// ::, which reach this machine), multicast, documentation and every other
// range of IANA's special-purpose registries (package ssrf keeps that
// list) are refused unless allow_hosts names the host exactly or gives its
// address or CIDR. A wildcard ("*", "*.example.com") admits public
// addresses only.
//
// Every form of an address is the address: IPv4-mapped IPv6
// ([::ffff:127.0.0.1], [::ffff:7f00:1]) is unmapped, the IPv4 address in
// IPv4-compatible, NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
// (2001::/32) addresses is checked too, zones and trailing dots are
// dropped, and IPv4 written otherwise than a.b.c.d (2130706433, 0x7f.1,
// 0177.0.0.1, 127.1) is refused outright. Names are decided by the
// addresses they resolve to, resolved once, by the dialler, which then
// dials exactly those: a name cannot resolve to one address for the check
// and another for the connection (DNS rebinding).

// hostRule is one entry of allow_hosts or deny_hosts.
type hostRule struct {
	raw    string
	name   string       // exact host name, lower case, no trailing dot
	suffix string       // "*.example.com" → ".example.com"
	any    bool         // "*": every host (public addresses only)
	prefix netip.Prefix // a CIDR, or a single address as /32 or /128
}

func (r hostRule) isPrefix() bool { return r.prefix.IsValid() }

// matchName reports whether a host name (not an address) matches r, and
// whether exactly (a wildcard is not exact).
func (r hostRule) matchName(host string) (match, exact bool) {
	switch {
	case r.name != "":
		return host == r.name, true
	case r.suffix != "":
		return strings.HasSuffix(host, r.suffix) && len(host) > len(r.suffix), false
	case r.any:
		return true, false
	}
	return false, false
}

// parseHostRule accepts "example.com", "*.example.com", "*", "10.0.0.0/8",
// "127.0.0.1", "::1" and "[::1]".
func parseHostRule(s string) (hostRule, error) {
	raw := s
	s = strings.TrimSpace(s)
	if s == "" {
		return hostRule{}, errors.New("an empty host")
	}
	if s == "*" {
		return hostRule{raw: raw, any: true}, nil
	}
	if strings.Contains(s, "://") {
		return hostRule{}, fmt.Errorf("%q is not a host: give only the host name (example.com), without scheme, port or path", raw)
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return hostRule{}, fmt.Errorf("%q is neither a host nor a CIDR (a CIDR looks like 10.0.0.0/8)", raw)
		}
		if p.Addr().Is4In6() {
			// ::ffff:10.0.0.0/104 is 10.0.0.0/8.
			if p.Bits() < 96 {
				return hostRule{}, fmt.Errorf("%q is wider than the IPv4-mapped range: write the IPv4 CIDR", raw)
			}
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return hostRule{raw: raw, prefix: p.Masked()}, nil
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		a = a.WithZone("").Unmap()
		return hostRule{raw: raw, prefix: netip.PrefixFrom(a, a.BitLen())}, nil
	}
	if strings.ContainsAny(s, ":@?# \t") {
		return hostRule{}, fmt.Errorf("%q is not a host: give only the host name (example.com), without scheme, port or path", raw)
	}
	if a, ok, err := ipv4Form(s); ok || err != nil {
		if err != nil {
			return hostRule{}, fmt.Errorf("%q is not a valid address", raw)
		}
		return hostRule{}, fmt.Errorf("%q is the address %s written another way: write %s", raw, a, a)
	}
	s = normalizeHost(s)
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		if rest == "" || strings.Contains(rest, "*") {
			return hostRule{}, fmt.Errorf("%q is not a valid wildcard: write *.example.com", raw)
		}
		return hostRule{raw: raw, suffix: "." + rest}, nil
	}
	if strings.Contains(s, "*") {
		return hostRule{}, fmt.Errorf("%q is not a valid wildcard: '*' may only start the host, as in *.example.com, or stand alone for every public host", raw)
	}
	return hostRule{raw: raw, name: s}, nil
}

// normalizeHost lowers a host name and drops a trailing dot.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// hostAddr reads a URL's host as an address when it is one: brackets,
// an IPv6 zone and a trailing dot are dropped and IPv4-mapped addresses
// unmapped. IPv4 written otherwise than a.b.c.d — which resolvers still
// read as an address — is an error.
func hostAddr(host string) (netip.Addr, bool, error) {
	h := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if i := strings.IndexByte(h, '%'); i >= 0 && strings.Contains(h, ":") { // a zone
		h = h[:i]
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.WithZone("").Unmap(), true, nil
	}
	a, ok, err := ipv4Form(strings.TrimSuffix(h, "."))
	switch {
	case err != nil:
		return netip.Addr{}, false, refused("host %s is not a valid IPv4 address (a name cannot end in a number)", host)
	case ok && a.String() == strings.TrimSuffix(h, "."):
		return a, true, nil // "127.0.0.1.": the address
	case ok:
		also := ""
		if why := special(a); why != "" {
			also = fmt.Sprintf(" (%s, %s, is reached only when packs.web.allow_hosts names it)", a, why)
		}
		return netip.Addr{}, false, refused("host %s is the IPv4 address %s written another way, which web.fetch does not accept: write %s%s", host, a, a, also)
	}
	return netip.Addr{}, false, nil
}

// ipv4Form parses the IPv4 forms of inet_aton and the WHATWG URL
// standard: one to four parts, each decimal, octal (leading 0) or hex
// (0x), the last filling the remaining bytes. ok says the host ends in a
// number, so that it is meant as an address (a name cannot); err that it
// is not a valid one.
func ipv4Form(h string) (a netip.Addr, ok bool, err error) {
	parts := strings.Split(h, ".")
	last := parts[len(parts)-1]
	if !isNumberPart(last) {
		return netip.Addr{}, false, nil
	}
	if len(parts) > 4 {
		return netip.Addr{}, true, errors.New("too many parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := parseNumberPart(p)
		if err != nil {
			return netip.Addr{}, true, err
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, true, errors.New("part out of range")
		}
		v |= n << (8 * (3 - i))
	}
	rest := nums[len(nums)-1]
	if rest >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, true, errors.New("last part out of range")
	}
	v |= rest
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

func isNumberPart(p string) bool {
	if p == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(p), "0x"); ok {
		for _, c := range rest {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseNumberPart(p string) (uint64, error) {
	if p == "" {
		return 0, errors.New("empty part")
	}
	base := 10
	switch lower := strings.ToLower(p); {
	case strings.HasPrefix(lower, "0x"):
		p, base = lower[2:], 16
		if p == "" {
			return 0, nil
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	return strconv.ParseUint(p, base, 32)
}

// special says what an address is when it is not a public (global
// unicast) one: "a loopback address"; "" for a public address.
func special(a netip.Addr) string {
	a = a.WithZone("").Unmap()
	denied := netip.Prefix{}
	if a.Is4() {
		for _, p := range ssrf.IPv4DeniedPrefixes {
			if p.Contains(a) {
				denied = p
				break
			}
		}
	} else {
		if !ssrf.IPv6GlobalUnicast.Contains(a) {
			denied = netip.PrefixFrom(a, a.BitLen())
		}
		for _, p := range ssrf.IPv6DeniedPrefixes {
			if p.Contains(a) {
				denied = p
				break
			}
		}
	}
	if !denied.IsValid() {
		return ""
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "the unspecified address, which reaches this machine"
	case a.Is4() && netip.MustParsePrefix("0.0.0.0/8").Contains(a):
		return `a "this network" address (0.0.0.0/8)`
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsMulticast():
		return "a multicast address"
	case netip.MustParsePrefix("100.64.0.0/10").Contains(a):
		return "a shared (carrier-grade NAT) address"
	case nat64.Contains(a):
		return "a NAT64 address"
	case sixToFour.Contains(a):
		return "a 6to4 address"
	case teredo.Contains(a):
		return "a Teredo address"
	case a.Is6() && ipv4Compatible.Contains(a):
		return "an IPv4-compatible address"
	case denied.Bits() < a.BitLen():
		return fmt.Sprintf("an address for special use (%s)", denied)
	}
	return "an address for special use"
}

var (
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	teredo         = netip.MustParsePrefix("2001::/32")
	ipv4Compatible = netip.MustParsePrefix("::/96")
)

// embedded returns the IPv4 addresses an IPv6 address carries (NAT64,
// 6to4, Teredo server and client, IPv4-compatible): each reaches, or
// stands for, that IPv4 host.
func embedded(a netip.Addr) []netip.Addr {
	if !a.Is6() {
		return nil
	}
	b := a.As16()
	v4 := func(x []byte) netip.Addr { return netip.AddrFrom4([4]byte(x)) }
	switch {
	case nat64.Contains(a):
		return []netip.Addr{v4(b[12:16])}
	case sixToFour.Contains(a):
		return []netip.Addr{v4(b[2:6])}
	case teredo.Contains(a):
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return []netip.Addr{v4(b[4:8]), netip.AddrFrom4(client)}
	case ipv4Compatible.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		return []netip.Addr{v4(b[12:16])}
	}
	return nil
}

// admission is how a host got past the name rules.
type admission int

const (
	// admitNone: allow_hosts lists hosts and no name rule matched; only
	// an allow CIDR can admit the host's addresses.
	admitNone admission = iota
	// admitPublic: no allow_hosts, "*", or a wildcard matched: public
	// addresses only.
	admitPublic
	// admitNamed: allow_hosts names the host exactly: whatever it
	// resolves to (deny_hosts aside).
	admitNamed
)

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
		if r.any {
			errs = append(errs, fmt.Errorf(`deny_hosts[%d]: "*" would deny every host: disable the pack instead (packs.web.enabled: false)`, i))
			continue
		}
		p.deny = append(p.deny, r)
	}
	return p, errors.Join(errs...)
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

// openList reports whether allow_hosts lets in every public host: it is
// empty or holds "*".
func (p *policy) openList() bool {
	if len(p.allow) == 0 {
		return true
	}
	for _, r := range p.allow {
		if r.any {
			return true
		}
	}
	return false
}

// addrAdmission is the admission of a host written as an address.
func (p *policy) addrAdmission() admission {
	if p.openList() {
		return admitPublic
	}
	return admitNone
}

// checkName checks a host name (not an address) before it is resolved.
// proxy: the host is a proxy from the environment, which allow_hosts
// need not list (its addresses are checked all the same).
func (p *policy) checkName(host string, proxy bool) (admission, error) {
	host = normalizeHost(host)
	for _, r := range p.deny {
		if m, _ := r.matchName(host); m {
			return admitNone, denied("host %s is refused by packs.web.deny_hosts (%s)", host, r.raw)
		}
	}
	for _, r := range p.allow {
		if m, exact := r.matchName(host); m && exact {
			return admitNamed, nil
		}
	}
	if proxy || p.openList() {
		return admitPublic, nil
	}
	for _, r := range p.allow {
		if m, _ := r.matchName(host); m {
			return admitPublic, nil
		}
	}
	if !p.allowsPrefixes() {
		return admitNone, refused("host %s is not in packs.web.allow_hosts (%s)", host, strings.Join(p.allowList(), ", "))
	}
	return admitNone, nil // its addresses decide
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

// allowedPrefix reports whether an allow CIDR or address contains a.
func (p *policy) allowedPrefix(a netip.Addr) bool {
	for _, r := range p.allow {
		if r.isPrefix() && r.prefix.Contains(a) {
			return true
		}
	}
	return false
}

// checkAddr checks one address a of host (the host itself, or what it
// resolved to), admitted by adm.
func (p *policy) checkAddr(host string, a netip.Addr, adm admission) error {
	a = a.WithZone("").Unmap()
	aliases := embedded(a)
	_, literal, _ := hostAddr(host)
	shown := host
	if normalizeHost(strings.Trim(host, "[]")) != a.String() {
		shown = fmt.Sprintf("%s (%s)", host, a)
	}
	// What the refusal of a special address says the host is.
	is := func(why string) string {
		if literal {
			return shown + " is " + why
		}
		return host + " resolves to " + a.String() + ", " + why
	}
	for _, r := range p.deny {
		if !r.isPrefix() {
			continue
		}
		if r.prefix.Contains(a) {
			return denied("host %s is refused by packs.web.deny_hosts (%s)", shown, r.raw)
		}
		for _, x := range aliases {
			if r.prefix.Contains(x) {
				return denied("host %s embeds %s, which packs.web.deny_hosts refuses (%s)", shown, x, r.raw)
			}
		}
	}
	if adm == admitNamed {
		return nil
	}
	if p.allowedPrefix(a) {
		for _, x := range aliases {
			if why := special(x); why != "" && !p.allowedPrefix(x) {
				return refuseSpecial(is(fmt.Sprintf("an address that embeds %s, %s", x, why)), x)
			}
		}
		return nil
	}
	if adm == admitNone {
		return refused("host %s is not in packs.web.allow_hosts (%s)", shown, strings.Join(p.allowList(), ", "))
	}
	for _, x := range aliases {
		if why := special(x); why != "" {
			return refuseSpecial(is(fmt.Sprintf("an address that embeds %s, %s", x, why)), x)
		}
	}
	if why := special(a); why != "" {
		return refuseSpecial(is(why), a)
	}
	return nil
}

// refuseSpecial is the refusal of an address that is not public: what
// the host is, and what allows it.
func refuseSpecial(what string, a netip.Addr) error {
	return refused(`host %s: web.fetch reaches only public addresses unless packs.web.allow_hosts names the host. To allow it, add "%s" (or the host's name) to packs.web.allow_hosts in onetool.yaml`, what, a)
}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// resolve checks host — an address or a name, which it resolves with r —
// and returns the addresses that may be dialled. One address that is
// denied or not public refuses the host (a name that points there is
// not trusted for its other addresses); with an allow list of CIDRs, the
// addresses outside it are left out, and the host is refused when none
// is left. proxy: see checkName.
func (p *policy) resolve(ctx context.Context, r Resolver, host string, proxy bool) ([]netip.Addr, error) {
	a, isAddr, err := hostAddr(host)
	if err != nil {
		return nil, err
	}
	if isAddr {
		adm := p.addrAdmission()
		if proxy {
			adm = admitPublic
		}
		if err := p.checkAddr(host, a, adm); err != nil {
			return nil, err
		}
		return []netip.Addr{a}, nil
	}
	adm, err := p.checkName(host, proxy)
	if err != nil {
		return nil, err
	}
	addrs, err := r.LookupNetIP(ctx, "ip", normalizeHost(host))
	if err != nil {
		return nil, err
	}
	var ok []netip.Addr
	var notAllowed error
	for _, a := range addrs {
		err := p.checkAddr(host, a, adm)
		if errors.Is(err, errDenied) || (err != nil && adm == admitPublic) {
			return nil, err
		}
		if err != nil {
			if notAllowed == nil {
				notAllowed = err
			}
			continue
		}
		ok = append(ok, a.WithZone("").Unmap())
	}
	if len(ok) == 0 {
		if notAllowed != nil {
			return nil, notAllowed
		}
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return ok, nil
}
