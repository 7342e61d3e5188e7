package stdlib

import (
	"encoding/hex"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// HMAC is the hmac module: keyed hashes (RFC 2104) over hashlib's
// algorithms, as programs sign and check webhook payloads and API
// requests. new and HMAC make an HMAC object; digest is the one-shot
// form; compare_digest is secrets'.
func HMAC() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "hmac", Members: starlark.StringDict{
		"new":            interp.NewBuiltin("new", hmacNew),
		"HMAC":           interp.NewBuiltin("HMAC", hmacNew),
		"digest":         interp.NewBuiltin("digest", hmacDigest),
		"compare_digest": interp.NewBuiltin("compare_digest", secCompareDigest),
	}}
}

// hmacNew is hmac.new(key, msg=None, digestmod=”).
func hmacNew(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key, msg, digestmod starlark.Value
	params := webParams{fn: b.Name(), names: []string{"key", "msg", "digestmod"}, required: 1, maxPos: 3}
	if err := params.unpack(args, kwargs, &key, &msg, &digestmod); err != nil {
		return nil, err
	}
	h, err := newHMAC(thread, key, digestmod)
	if err != nil {
		return nil, err
	}
	if msg != nil && msg != starlark.None {
		if err := h.write(thread, msg); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// hmacDigest is hmac.digest(key, msg, digest).
func hmacDigest(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var key, msg, digest starlark.Value
	params := webParams{fn: "digest", names: []string{"key", "msg", "digest"}, required: 3, maxPos: 3}
	if err := params.unpack(args, kwargs, &key, &msg, &digest); err != nil {
		return nil, err
	}
	h, err := newHMAC(thread, key, digest)
	if err != nil {
		return nil, err
	}
	if err := h.write(thread, msg); err != nil {
		return nil, err
	}
	return interp.Bytes(h.sum()), nil
}

// hmacAlgo is the hashlib algorithm digestmod names: a name
// ("sha256"), a hashlib constructor (hashlib.sha256), or a function that
// returns a hashlib object.
func hmacAlgo(thread *starlark.Thread, digestmod starlark.Value) (string, error) {
	if digestmod == nil || digestmod == starlark.None {
		return "", pyrt.Errorf("TypeError", "Missing required parameter 'digestmod'.")
	}
	if text, ok := interp.AsText(digestmod); ok {
		if text == "" {
			return "", pyrt.Errorf("TypeError", "Missing required parameter 'digestmod'.")
		}
		key, ok := hashName(text)
		if !ok || strings.HasPrefix(key, "shake") {
			return "", pyrt.Errorf("ValueError", "unsupported hash type %s", text)
		}
		return key, nil
	}
	if b, ok := digestmod.(*starlark.Builtin); ok {
		name := strings.TrimPrefix(b.Name(), "openssl_")
		if _, ok := hashAlgos[name]; ok && !strings.HasPrefix(name, "shake") {
			return name, nil
		}
	}
	if _, ok := digestmod.(starlark.Callable); ok {
		v, err := starlark.Call(thread, digestmod, nil, nil)
		if err != nil {
			return "", err
		}
		if h, ok := v.(*hashObject); ok && !strings.HasPrefix(h.name, "shake") {
			return h.name, nil
		}
	}
	return "", pyrt.Errorf("TypeError", "expected a hashlib name, constructor or object for digestmod, got %s", pyrt.TypeName(digestmod))
}

func newHMAC(thread *starlark.Thread, key, digestmod starlark.Value) (*hmacObject, error) {
	k, ok := interp.AsBytes(key)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "key: expected bytes or bytearray, but got '%s'", pyrt.TypeName(key))
	}
	algo, err := hmacAlgo(thread, digestmod)
	if err != nil {
		return nil, err
	}
	newHash := hashAlgos[algo]
	inner := newHash()
	block := inner.BlockSize()
	pad := []byte(k)
	if len(pad) > block {
		h := newHash()
		h.Write(pad)
		pad = h.Sum(nil)
	}
	ipad, opad := make([]byte, block), make([]byte, block)
	copy(ipad, pad)
	copy(opad, pad)
	for i := range ipad {
		ipad[i] ^= 0x36
		opad[i] ^= 0x5c
	}
	inner.Write(ipad)
	return &hmacObject{algo: algo, inner: &hashObject{name: algo, h: inner}, opad: opad}, nil
}

// hmacObject is a running HMAC: the inner hash, which has taken the key
// and the message so far, and the outer key, hashed with the inner
// digest when a digest is asked for.
type hmacObject struct {
	algo  string
	inner *hashObject
	opad  []byte
}

var _ starlark.HasAttrs = (*hmacObject)(nil)

func (h *hmacObject) String() string        { return "<hmac.HMAC object>" }
func (h *hmacObject) Type() string          { return "hmac.HMAC" }
func (h *hmacObject) Freeze()               {}
func (h *hmacObject) Truth() starlark.Bool  { return true }
func (h *hmacObject) Hash() (uint32, error) { return starlark.String(h.algo).Hash() }

func (h *hmacObject) write(thread *starlark.Thread, data starlark.Value) error {
	return h.inner.write(thread, data)
}

func (h *hmacObject) sum() []byte {
	outer := hashAlgos[h.algo]()
	outer.Write(h.opad)
	outer.Write(h.inner.h.Sum(nil))
	return outer.Sum(nil)
}

func (h *hmacObject) AttrNames() []string {
	return []string{"block_size", "copy", "digest", "digest_size", "hexdigest", "name", "update"}
}

func (h *hmacObject) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String("hmac-" + h.algo), nil
	case "digest_size":
		return starlark.MakeInt(h.inner.h.Size()), nil
	case "block_size":
		return starlark.MakeInt(h.inner.h.BlockSize()), nil
	case "update":
		return interp.NewBuiltin("update", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var msg starlark.Value
			if err := (webParams{fn: "update", names: []string{"msg"}, required: 1, maxPos: 1, self: true}).unpack(args, kwargs, &msg); err != nil {
				return nil, err
			}
			return starlark.None, h.write(thread, msg)
		}), nil
	case "digest", "hexdigest":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			if name == "digest" {
				return interp.Bytes(h.sum()), nil
			}
			return starlark.String(hex.EncodeToString(h.sum())), nil
		}), nil
	case "copy":
		return interp.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
				return nil, err
			}
			c, err := cloneHash(h.algo, h.inner.h)
			if err != nil {
				return nil, err
			}
			return &hmacObject{algo: h.algo, inner: &hashObject{name: h.algo, h: c}, opad: h.opad}, nil
		}), nil
	}
	return nil, noAttr(h, name)
}
