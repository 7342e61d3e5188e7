package stdlib

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding"
	"encoding/hex"
	"hash"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// hashAlgos are the algorithms hashlib has, by CPython's names: those of
// Go's standard library, BLAKE2 (hashlib_blake2.go) and the SHAKE
// functions, whose digests have the length asked for.
var hashAlgos = map[string]func() hash.Hash{
	"md5":        md5.New,
	"sha1":       sha1.New,
	"sha224":     sha256.New224,
	"sha256":     sha256.New,
	"sha384":     sha512.New384,
	"sha512":     sha512.New,
	"sha512_224": sha512.New512_224,
	"sha512_256": sha512.New512_256,
	"sha3_224":   func() hash.Hash { return sha3.New224() },
	"sha3_256":   func() hash.Hash { return sha3.New256() },
	"sha3_384":   func() hash.Hash { return sha3.New384() },
	"sha3_512":   func() hash.Hash { return sha3.New512() },
	"blake2b":    func() hash.Hash { return newBlake2(true, blake2Defaults(true)) },
	"blake2s":    func() hash.Hash { return newBlake2(false, blake2Defaults(false)) },
	"shake_128":  func() hash.Hash { return &shake{s: sha3.NewSHAKE128(), bits: 128} },
	"shake_256":  func() hash.Hash { return &shake{s: sha3.NewSHAKE256(), bits: 256} },
}

// shake is a SHAKE function as a hash.Hash: its digest has the length
// digest(length) asks for (Size is 0, as CPython's digest_size).
type shake struct {
	s    *sha3.SHAKE
	bits int
}

func (x *shake) Write(p []byte) (int, error) { return x.s.Write(p) }
func (x *shake) Sum(b []byte) []byte         { return b }
func (x *shake) Reset()                      { x.s.Reset() }
func (x *shake) Size() int                   { return 0 }
func (x *shake) BlockSize() int              { return x.s.BlockSize() }

// read returns the first n bytes of the output, leaving the state as it
// is (update may follow).
func (x *shake) read(n int) ([]byte, error) {
	state, err := x.s.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := sha3.NewSHAKE128()
	if x.bits == 256 {
		c = sha3.NewSHAKE256()
	}
	if err := c.UnmarshalBinary(state); err != nil {
		return nil, err
	}
	out := make([]byte, n)
	_, err = c.Read(out)
	return out, err
}

func (x *shake) clone() hash.Hash {
	state, err := x.s.MarshalBinary()
	c := &shake{s: sha3.NewSHAKE128(), bits: x.bits}
	if x.bits == 256 {
		c.s = sha3.NewSHAKE256()
	}
	if err == nil {
		_ = c.s.UnmarshalBinary(state)
	}
	return c
}

// guaranteedAlgos are the names of hashAlgos CPython guarantees on every
// platform (sha512_224 and sha512_256 come from OpenSSL there).
var guaranteedAlgos = []string{"blake2b", "blake2s", "md5", "sha1", "sha224", "sha256", "sha384", "sha512",
	"sha3_224", "sha3_256", "sha3_384", "sha3_512", "shake_128", "shake_256"}

// HashLib is the hashlib module: a constructor per algorithm, new(name),
// and hash objects with update, digest, hexdigest and copy.
func HashLib() *starlarkstruct.Module {
	members := starlark.StringDict{
		"new": interp.NewBuiltin("new", hashNew),
	}
	for _, name := range guaranteedAlgos {
		switch name {
		case "blake2b", "blake2s":
			members[name] = interp.NewBuiltin(name, blake2Constructor(name == "blake2b"))
		default:
			members[name] = interp.NewBuiltin("openssl_"+name, hashConstructor(name))
		}
	}
	members["pbkdf2_hmac"] = interp.NewBuiltin("pbkdf2_hmac", pbkdf2HMAC)
	guaranteed := starlark.NewSet(len(guaranteedAlgos))
	available := starlark.NewSet(len(hashAlgos))
	for _, name := range guaranteedAlgos {
		_ = guaranteed.Insert(starlark.String(name))
	}
	names := make([]string, 0, len(hashAlgos))
	for name := range hashAlgos {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		_ = available.Insert(starlark.String(name))
	}
	members["algorithms_guaranteed"] = guaranteed
	members["algorithms_available"] = available
	return &starlarkstruct.Module{Name: "hashlib", Members: members}
}

// hashConstructor is hashlib.<name>(string=b”, *, usedforsecurity=True).
func hashConstructor(name string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var data, security starlark.Value
		params := webParams{fn: b.Name(), names: []string{"string", "usedforsecurity"}, maxPos: 1, builtin: true}
		if err := params.unpack(args, kwargs, &data, &security); err != nil {
			return nil, err
		}
		return newHashObject(thread, name, data)
	}
}

// hashNew is hashlib.new(name, data=b”, **kwargs).
func hashNew(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, data starlark.Value
	var rest, params []starlark.Tuple
	for _, kv := range kwargs {
		switch k, _ := starlark.AsString(kv[0]); k {
		case "name", "data":
			rest = append(rest, kv)
		case "usedforsecurity":
		case "digest_size", "key", "salt", "person", "fanout", "depth", "leaf_size", "node_offset", "node_depth", "inner_size", "last_node":
			params = append(params, kv) // blake2's parameters
		case "string":
			// CPython passes data on by position, so string= clashes.
			return nil, pyrt.Errorf("TypeError", "argument for new() given by name ('string') and position (2)")
		default:
			return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for new()", k)
		}
	}
	if err := (webParams{fn: "__hash_new", names: []string{"name", "data"}, required: 1, maxPos: 2}).unpack(args, rest, &name, &data); err != nil {
		return nil, err
	}
	text, ok := interp.AsText(name)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "name must be a string")
	}
	key, ok := hashName(text)
	if !ok {
		return nil, pyrt.Errorf("ValueError", "unsupported hash type %s", text)
	}
	if key == "blake2b" || key == "blake2s" {
		var args starlark.Tuple
		if data != nil {
			args = starlark.Tuple{data}
		}
		return blake2Constructor(key == "blake2b")(thread, nil, args, params)
	}
	if len(params) > 0 {
		k, _ := starlark.AsString(params[0][0])
		return nil, pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for new()", k)
	}
	return newHashObject(thread, key, data)
}

// hashName is the algorithm new() finds for name: CPython asks OpenSSL
// first, which ignores case and knows the names with '-' (SHA3-256,
// sha-256), then its own constructors, by their exact names.
func hashName(name string) (string, bool) {
	if _, ok := hashAlgos[name]; ok {
		return name, true
	}
	lower := strings.ToLower(name)
	switch {
	case strings.HasPrefix(lower, "sha3_"):
		return "", false // OpenSSL's names for these have '-'
	case strings.HasPrefix(lower, "sha3-"), strings.HasPrefix(lower, "sha512-"):
		lower = strings.Replace(lower, "-", "_", 1)
	case strings.HasPrefix(lower, "sha-"):
		lower = "sha" + lower[len("sha-"):]
	}
	_, ok := hashAlgos[lower]
	return lower, ok
}

func newHashObject(thread *starlark.Thread, name string, data starlark.Value) (starlark.Value, error) {
	h := &hashObject{name: name, h: hashAlgos[name]()}
	if data != nil {
		if err := h.write(thread, data); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// hashObject is a running hash, as hashlib's HASH objects.
type hashObject struct {
	name string
	h    hash.Hash
}

var _ starlark.HasAttrs = (*hashObject)(nil)

func (h *hashObject) String() string        { return "<" + h.name + " _hashlib.HASH object>" }
func (h *hashObject) Type() string          { return "_hashlib.HASH" }
func (h *hashObject) Freeze()               {}
func (h *hashObject) Truth() starlark.Bool  { return true }
func (h *hashObject) Hash() (uint32, error) { return starlark.String(h.name).Hash() }

// hashChunk is how much input is hashed between two charges, so that a
// huge input stops at the run's budget partway.
const hashChunk = 1 << 20

// write hashes the bytes of data: bytes only, as CPython (a str must be
// encoded first).
func (h *hashObject) write(thread *starlark.Thread, data starlark.Value) error {
	bs, err := bytesArg(data)
	if err != nil {
		return err
	}
	b := interp.BudgetOf(thread)
	for len(bs) > 0 {
		n := min(len(bs), hashChunk)
		// Hashing runs at about a byte a nanosecond: a step per 16 bytes.
		if err := b.Charge(uint64(n) / 16); err != nil {
			return err
		}
		h.h.Write([]byte(bs[:n]))
		bs = bs[n:]
	}
	return nil
}

// bytesArg is the data of a hash function's argument.
func bytesArg(v starlark.Value) (string, error) {
	if b, ok := interp.AsBytes(v); ok {
		return b, nil
	}
	switch v.(type) {
	case starlark.String, *interp.Unicode:
		return "", pyrt.Errorf("TypeError", "Strings must be encoded before hashing")
	}
	return "", pyrt.Errorf("TypeError", "object supporting the buffer API required")
}

func (h *hashObject) AttrNames() []string {
	return []string{"block_size", "copy", "digest", "digest_size", "hexdigest", "name", "update"}
}

func (h *hashObject) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(h.name), nil
	case "digest_size":
		return starlark.MakeInt(h.h.Size()), nil
	case "block_size":
		return starlark.MakeInt(h.h.BlockSize()), nil
	case "update":
		return interp.NewBuiltin("update", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var data starlark.Value
			params := webParams{fn: "HASH.update", names: []string{"obj"}, required: 1, maxPos: 1, builtin: true}
			if len(kwargs) > 0 {
				return nil, pyrt.Errorf("TypeError", "HASH.update() takes no keyword arguments")
			}
			if err := params.unpack(args, nil, &data); err != nil {
				return nil, err
			}
			return starlark.None, h.write(thread, data)
		}), nil
	case "digest", "hexdigest":
		if x, ok := h.h.(*shake); ok {
			return interp.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				var length starlark.Value
				if len(args) == 0 && len(kwargs) == 0 {
					return nil, pyrt.Errorf("TypeError", "%s() missing required argument 'length' (pos 1)", name)
				}
				if err := (webParams{fn: name, names: []string{"length"}, required: 1, maxPos: 1, builtin: true}).unpack(args, kwargs, &length); err != nil {
					return nil, err
				}
				n, ok := length.(starlark.Int)
				if !ok {
					return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(length))
				}
				k, ok := n.Int64()
				if !ok || k < 0 || k > 1<<30 {
					return nil, pyrt.Errorf("MemoryError", "")
				}
				if err := interp.BudgetOf(thread).Alloc(3 * k); err != nil {
					return nil, err
				}
				if err := interp.BudgetOf(thread).Charge(uint64(k) / 16); err != nil {
					return nil, err
				}
				sum, err := x.read(int(k))
				if err != nil {
					return nil, err
				}
				if name == "digest" {
					return interp.Bytes(sum), nil
				}
				return starlark.String(hex.EncodeToString(sum)), nil
			}), nil
		}
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			sum := h.h.Sum(nil) // Sum leaves the state as it is: update may follow
			if name == "digest" {
				return interp.Bytes(sum), nil
			}
			return starlark.String(hex.EncodeToString(sum)), nil
		}), nil
	case "copy":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			c, err := cloneHash(h.name, h.h)
			if err != nil {
				return nil, err
			}
			return &hashObject{name: h.name, h: c}, nil
		}), nil
	}
	return nil, noAttr(h, name)
}

// cloneHash is a copy of the running hash h of algorithm algo.
func cloneHash(algo string, h hash.Hash) (hash.Hash, error) {
	if c, ok := h.(interface{ clone() hash.Hash }); ok {
		return c.clone(), nil
	}
	// Every hash of Go's standard library can save and restore its state.
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := hashAlgos[algo]()
	if err := c.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		return nil, err
	}
	return c, nil
}
