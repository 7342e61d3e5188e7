package stdlib

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"math/big"
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// The variants a UUID's variant attribute names, CPython's texts.
const (
	variantNCS       = "reserved for NCS compatibility"
	variantRFC4122   = "specified in RFC 4122"
	variantMicrosoft = "reserved for Microsoft compatibility"
	variantFuture    = "reserved for future definition"
)

// UUID is the uuid module: the UUID class, uuid1, uuid3, uuid4, uuid5
// and the standard namespaces. uuid1's node is random (a program has no
// network interface to read), as CPython's is when it finds none.
func UUID() *starlarkstruct.Module {
	ns := func(s string) *uuidValue {
		b, _ := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
		var u uuidValue
		copy(u.b[:], b)
		return &u
	}
	return &starlarkstruct.Module{Name: "uuid", Members: starlark.StringDict{
		"UUID":               theUUIDClass,
		"getnode":            interp.NewBuiltin("getnode", uuidGetnode),
		"uuid1":              interp.NewBuiltin("uuid1", uuid1),
		"uuid3":              interp.NewBuiltin("uuid3", uuidNamed),
		"uuid4":              interp.NewBuiltin("uuid4", uuid4),
		"uuid5":              interp.NewBuiltin("uuid5", uuidNamed),
		"NAMESPACE_DNS":      ns("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_URL":      ns("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_OID":      ns("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
		"NAMESPACE_X500":     ns("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
		"RESERVED_NCS":       starlark.String(variantNCS),
		"RFC_4122":           starlark.String(variantRFC4122),
		"RESERVED_MICROSOFT": starlark.String(variantMicrosoft),
		"RESERVED_FUTURE":    starlark.String(variantFuture),
		"SafeUUID":           safeUUIDClass,
	}}
}

// safeUUID is a member of the enum uuid.SafeUUID: what UUID.is_safe
// says (always unknown here: no UUID comes from a platform's safe
// generator).
type safeUUID struct {
	name  string
	value starlark.Value
}

var (
	safeUUIDs = []*safeUUID{{"safe", starlark.MakeInt(0)}, {"unsafe", starlark.MakeInt(-1)}, {"unknown", starlark.None}}
	// safeUUIDClass is uuid.SafeUUID, its members its attributes.
	safeUUIDClass = &pyClass{module: "uuid", name: "SafeUUID", is: isOf[*safeUUID], attrs: func(name string) starlark.Value {
		for _, m := range safeUUIDs {
			if m.name == name {
				return m
			}
		}
		return nil
	}}
)

func (s *safeUUID) String() string        { return "SafeUUID." + s.name }
func (s *safeUUID) Type() string          { return "SafeUUID" }
func (s *safeUUID) Freeze()               {}
func (s *safeUUID) Truth() starlark.Bool  { return true }
func (s *safeUUID) Hash() (uint32, error) { return starlark.String(s.name).Hash() }

// WriteText: str is SafeUUID.unknown, repr <SafeUUID.unknown: None>.
func (s *safeUUID) WriteText(w *interp.TextWriter, str bool, depth int) error {
	if str {
		return w.WriteString(s.String())
	}
	if err := w.WriteString("<" + s.String() + ": "); err != nil {
		return err
	}
	if err := w.Nested(s.value, depth+1); err != nil {
		return err
	}
	return w.WriteString(">")
}

func (s *safeUUID) AttrNames() []string { return []string{"name", "value"} }
func (s *safeUUID) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(s.name), nil
	case "value":
		return s.value, nil
	}
	return nil, nil
}

// PyClass is type(u.is_safe): uuid.SafeUUID.
func (s *safeUUID) PyClass() starlark.Value { return safeUUIDClass }

// uuidValue is a UUID: 16 bytes, big-endian.
type uuidValue struct{ b [16]byte }

var (
	_ starlark.HasAttrs   = (*uuidValue)(nil)
	_ starlark.Comparable = (*uuidValue)(nil)
	_ interp.HasStr       = (*uuidValue)(nil)
	_ interp.GoValuer     = (*uuidValue)(nil)
)

// Str is the canonical form, 8-4-4-4-12 hex digits.
func (u *uuidValue) Str() string {
	h := hex.EncodeToString(u.b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func (u *uuidValue) String() string        { return "UUID('" + u.Str() + "')" }
func (u *uuidValue) Type() string          { return "UUID" }
func (u *uuidValue) Freeze()               {}
func (u *uuidValue) Truth() starlark.Bool  { return true }
func (u *uuidValue) Hash() (uint32, error) { return starlark.String(u.b[:]).Hash() }

// GoValue is the UUID's str: a result shows it as text.
func (u *uuidValue) GoValue() (any, error) { return u.Str(), nil }

func (u *uuidValue) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return interp.CompareOp(op, strings.Compare(string(u.b[:]), string(y.(*uuidValue).b[:])), u, y)
}

func (u *uuidValue) int() *big.Int { return new(big.Int).SetBytes(u.b[:]) }

func (u *uuidValue) variant() string {
	switch v := u.b[8]; {
	case v&0x80 == 0:
		return variantNCS
	case v&0xc0 == 0x80:
		return variantRFC4122
	case v&0xe0 == 0xc0:
		return variantMicrosoft
	}
	return variantFuture
}

func (u *uuidValue) AttrNames() []string {
	return []string{"bytes", "bytes_le", "clock_seq", "clock_seq_hi_variant", "clock_seq_low", "fields", "hex", "int", "is_safe", "node",
		"time", "time_hi_version", "time_low", "time_mid", "urn", "variant", "version"}
}

func (u *uuidValue) Attr(name string) (starlark.Value, error) {
	b := u.b
	timeLow := uint64(binary.BigEndian.Uint32(b[0:4]))
	timeMid := uint64(binary.BigEndian.Uint16(b[4:6]))
	timeHi := uint64(binary.BigEndian.Uint16(b[6:8]))
	node := uint64(b[10])<<40 | uint64(b[11])<<32 | uint64(binary.BigEndian.Uint32(b[12:16]))
	switch name {
	case "hex":
		return starlark.String(hex.EncodeToString(b[:])), nil
	case "is_safe":
		return safeUUIDs[2], nil
	case "int":
		return starlark.MakeBigInt(u.int()), nil
	case "bytes":
		return interp.Bytes(b[:]), nil
	case "bytes_le":
		le := []byte{b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6]}
		return interp.Bytes(append(le, b[8:]...)), nil
	case "urn":
		return starlark.String("urn:uuid:" + u.Str()), nil
	case "variant":
		return starlark.String(u.variant()), nil
	case "version":
		if u.variant() != variantRFC4122 {
			return starlark.None, nil
		}
		return starlark.MakeInt(int(b[6] >> 4)), nil
	case "time_low":
		return starlark.MakeUint64(timeLow), nil
	case "time_mid":
		return starlark.MakeUint64(timeMid), nil
	case "time_hi_version":
		return starlark.MakeUint64(timeHi), nil
	case "clock_seq_hi_variant":
		return starlark.MakeInt(int(b[8])), nil
	case "clock_seq_low":
		return starlark.MakeInt(int(b[9])), nil
	case "clock_seq":
		return starlark.MakeInt(int(b[8]&0x3f)<<8 | int(b[9])), nil
	case "node":
		return starlark.MakeUint64(node), nil
	case "time":
		return starlark.MakeUint64((timeHi&0x0fff)<<48 | timeMid<<32 | timeLow), nil
	case "fields":
		return starlark.Tuple{starlark.MakeUint64(timeLow), starlark.MakeUint64(timeMid), starlark.MakeUint64(timeHi),
			starlark.MakeInt(int(b[8])), starlark.MakeInt(int(b[9])), starlark.MakeUint64(node)}, nil
	}
	return nil, nil
}

// setVersion sets the variant to RFC 4122's and the version.
func (u *uuidValue) setVersion(v int) {
	u.b[8] = u.b[8]&0x3f | 0x80
	u.b[6] = u.b[6]&0x0f | byte(v)<<4
}

// uuidClass is uuid.UUID: called, it makes a UUID.
type uuidClass struct{}

// theUUIDClass is uuid.UUID, shared by every build of the module.
var theUUIDClass = &uuidClass{}

// HasInstance: isinstance(u, uuid.UUID).
func (c *uuidClass) HasInstance(v starlark.Value) bool { return isOf[*uuidValue](v) }

func (c *uuidClass) AttrNames() []string { return []string{"__name__"} }
func (c *uuidClass) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String("UUID"), nil
	}
	return nil, nil
}

var _ starlark.Callable = (*uuidClass)(nil)

func (c *uuidClass) String() string        { return "<class 'uuid.UUID'>" }
func (c *uuidClass) Type() string          { return "type" }
func (c *uuidClass) Name() string          { return "UUID" }
func (c *uuidClass) Freeze()               {}
func (c *uuidClass) Truth() starlark.Bool  { return true }
func (c *uuidClass) Hash() (uint32, error) { return starlark.String("uuid.UUID").Hash() }

// CallInternal is UUID(hex=None, bytes=None, bytes_le=None, fields=None,
// int=None, version=None).
func (c *uuidClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var hexV, bytesV, bytesLE, fields, intV, version starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	params := webParams{fn: "UUID.__init__", names: []string{"hex", "bytes", "bytes_le", "fields", "int", "version", "is_safe"}, maxPos: 6, self: true}
	if err := params.unpack(args, kwargs, &hexV, &bytesV, &bytesLE, &fields, &intV, &version, new(starlark.Value)); err != nil {
		return nil, err
	}
	given := 0
	for _, v := range []starlark.Value{hexV, bytesV, bytesLE, fields, intV} {
		if v != starlark.None {
			given++
		}
	}
	if given != 1 {
		return nil, pyrt.Errorf("TypeError", "one of the hex, bytes, bytes_le, fields, or int arguments must be given")
	}
	u := &uuidValue{}
	switch {
	case hexV != starlark.None:
		s, ok := interp.AsText(hexV)
		if !ok {
			return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'replace'", pyrt.TypeName(hexV))
		}
		if err := interp.BudgetOf(thread).Alloc(int64(len(s))); err != nil {
			return nil, err
		}
		s = strings.ReplaceAll(strings.ReplaceAll(s, "urn:", ""), "uuid:", "")
		s = strings.ReplaceAll(strings.Trim(s, "{}"), "-", "")
		if len(s) != 32 {
			return nil, pyrt.Errorf("ValueError", "badly formed hexadecimal UUID string")
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, pyrt.Errorf("ValueError", "invalid literal for int() with base 16: %s", interp.QuoteString(s))
		}
		copy(u.b[:], b)
	case bytesV != starlark.None || bytesLE != starlark.None:
		v := bytesV
		if v == starlark.None {
			v = bytesLE
		}
		bs, ok := interp.AsBytes(v)
		if !ok || len(bs) != 16 {
			if ok || v.Type() == "string" {
				return nil, pyrt.Errorf("ValueError", "bytes is not a 16-char string")
			}
			return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(v))
		}
		copy(u.b[:], bs)
		if bytesLE != starlark.None {
			b := u.b
			u.b = [16]byte{b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]}
		}
	case intV != starlark.None:
		i, ok := intV.(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'<=' not supported between instances of 'int' and '%s'", pyrt.TypeName(intV))
		}
		n := i.BigInt()
		if n.Sign() < 0 || n.BitLen() > 128 {
			return nil, pyrt.Errorf("ValueError", "int is out of range (need a 128-bit value)")
		}
		n.FillBytes(u.b[:])
	default:
		// fields: time_low, time_mid, time_hi_version,
		// clock_seq_hi_variant, clock_seq_low, node, of these sizes.
		items, ok := fields.(starlark.Indexable)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(fields))
		}
		if items.Len() != 6 {
			return nil, pyrt.Errorf("ValueError", "fields is not a 6-tuple")
		}
		widths := []int{32, 16, 16, 8, 8, 48}
		n := new(big.Int)
		for i, w := range widths {
			f, ok := items.Index(i).(starlark.Int)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "'<=' not supported between instances of 'int' and '%s'", pyrt.TypeName(items.Index(i)))
			}
			x := f.BigInt()
			if x.Sign() < 0 || x.BitLen() > w {
				article := "a"
				if w == 8 {
					article = "an"
				}
				return nil, pyrt.Errorf("ValueError", "field %d out of range (need %s %d-bit value)", i+1, article, w)
			}
			n.Lsh(n, uint(w)).Or(n, x)
		}
		n.FillBytes(u.b[:])
	}
	if version != starlark.None {
		var v int
		if err := starlark.AsInt(version, &v); err != nil || v < 1 || v > 5 {
			return nil, pyrt.Errorf("ValueError", "illegal version number")
		}
		u.setVersion(v)
	}
	return u, nil
}

func randomUUID() (*uuidValue, error) {
	u := &uuidValue{}
	if _, err := rand.Read(u.b[:]); err != nil {
		return nil, err
	}
	return u, nil
}

// uuid4 is uuid4(): a random UUID.
func uuid4(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "uuid4"}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	u, err := randomUUID()
	if err != nil {
		return nil, err
	}
	u.setVersion(4)
	return u, nil
}

// hostNode is the node of this process: 48 random bits with the multicast
// bit set (RFC 4122's choice for a host without an address to use), the
// same for every uuid1() and getnode(), as a machine's address would be.
var hostNode = sync.OnceValue(func() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[2:])
	b[2] |= 0x01
	return binary.BigEndian.Uint64(b[:])
})

// uuidGetnode is getnode(): the node uuid1() uses.
func uuidGetnode(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := (webParams{fn: "getnode"}).unpack(args, kwargs); err != nil {
		return nil, err
	}
	return starlark.MakeUint64(hostNode()), nil
}

// uuid1 is uuid1(node=None, clock_seq=None): the time in 100 ns since
// 1582-10-15, the clock sequence (random unless given) and the node
// (random with the multicast bit set unless given, as RFC 4122 says
// for hosts without an address to use).
func uuid1(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var nodeV, seqV starlark.Value = starlark.None, starlark.None
	if err := (webParams{fn: "uuid1", names: []string{"node", "clock_seq"}, maxPos: 2}).unpack(args, kwargs, &nodeV, &seqV); err != nil {
		return nil, err
	}
	u, err := randomUUID()
	if err != nil {
		return nil, err
	}
	node := hostNode()
	if nodeV != starlark.None {
		if err := starlark.AsInt(nodeV, &node); err != nil || node >= 1<<48 {
			return nil, pyrt.Errorf("ValueError", "field 6 out of range (need a 48-bit value)")
		}
	}
	u.b[10], u.b[11] = byte(node>>40), byte(node>>32)
	binary.BigEndian.PutUint32(u.b[12:], uint32(node))
	if seqV != starlark.None {
		var seq uint64
		if err := starlark.AsInt(seqV, &seq); err != nil || seq >= 1<<14 {
			return nil, pyrt.Errorf("ValueError", "field 4 out of range (need a 8-bit value)")
		}
		u.b[8], u.b[9] = byte(seq>>8), byte(seq)
	}
	const gregorianOffset = 0x01b21dd213814000 // 100 ns intervals from 1582-10-15 to 1970-01-01
	ts := uint64(time.Now().UnixNano()/100) + gregorianOffset
	binary.BigEndian.PutUint32(u.b[0:4], uint32(ts))
	binary.BigEndian.PutUint16(u.b[4:6], uint16(ts>>32))
	binary.BigEndian.PutUint16(u.b[6:8], uint16(ts>>48)&0x0fff)
	u.setVersion(1)
	return u, nil
}

// uuidNamed is uuid3(namespace, name) (MD5) and uuid5 (SHA-1).
func uuidNamed(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var nsV, nameV starlark.Value
	if err := (webParams{fn: b.Name(), names: []string{"namespace", "name"}, required: 2, maxPos: 2}).unpack(args, kwargs, &nsV, &nameV); err != nil {
		return nil, err
	}
	ns, ok := nsV.(*uuidValue)
	if !ok {
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'bytes'", pyrt.TypeName(nsV))
	}
	name, ok := interp.AsText(nameV)
	if !ok {
		if _, isBytes := interp.AsBytes(nameV); isBytes {
			return nil, pyrt.Errorf("TypeError", "encoding without a string argument")
		}
		return nil, pyrt.Errorf("TypeError", "str() argument 'encoding' must be str, not %s", pyrt.TypeName(nameV))
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(name)) / 16); err != nil {
		return nil, err
	}
	data := append(ns.b[:len(ns.b):len(ns.b)], name...)
	u := &uuidValue{}
	version := 5
	if b.Name() == "uuid3" {
		sum := md5.Sum(data)
		copy(u.b[:], sum[:])
		version = 3
	} else {
		sum := sha1.Sum(data)
		copy(u.b[:], sum[:16])
	}
	u.setVersion(version)
	return u, nil
}
