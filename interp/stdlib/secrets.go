package stdlib

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Secrets is the secrets module: tokens and choices drawn from the
// operating system's cryptographic randomness (crypto/rand) at every
// call, as CPython's are. A token is only returned to the program: it is
// never logged. Sizes are charged to the run's memory budget before
// anything is drawn.
func Secrets() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "secrets", Members: starlark.StringDict{
		"token_bytes":     interp.NewBuiltin("token_bytes", secToken("token_bytes")),
		"token_hex":       interp.NewBuiltin("token_hex", secToken("token_hex")),
		"token_urlsafe":   interp.NewBuiltin("token_urlsafe", secToken("token_urlsafe")),
		"choice":          interp.NewBuiltin("choice", secChoice),
		"randbelow":       interp.NewBuiltin("randbelow", secRandbelow),
		"randbits":        interp.NewBuiltin("getrandbits", secRandbits),
		"compare_digest":  interp.NewBuiltin("compare_digest", secCompareDigest),
		"SystemRandom":    interp.NewBuiltin("SystemRandom", newSystemRandom),
		"DEFAULT_ENTROPY": starlark.MakeInt(secDefaultEntropy),
	}}
}

// secDefaultEntropy is the bytes of a token when none is asked for.
const secDefaultEntropy = 32

// secRead fills n cryptographically random bytes. crypto/rand does not
// fail on the platforms Go supports; an error is still an error, not a
// panic.
func secRead(n int) ([]byte, error) {
	out := make([]byte, n)
	if _, err := rand.Read(out); err != nil {
		return nil, fmt.Errorf("secrets: reading randomness: %w", err)
	}
	return out, nil
}

// secToken makes token_bytes, token_hex and token_urlsafe (nbytes=None).
func secToken(name string) interp.BuiltinFunc {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var nbytes starlark.Value = starlark.None
		if err := unpack(name, args, kwargs, "nbytes?", &nbytes); err != nil {
			return nil, err
		}
		n := secDefaultEntropy
		if nbytes != starlark.None {
			var v starlark.Int
			switch x := nbytes.(type) {
			case starlark.Int:
				v = x
			case starlark.Bool:
				v = starlark.MakeInt(boolInt(bool(x)))
			default:
				return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(nbytes))
			}
			if v.Sign() < 0 {
				return nil, pyrt.Errorf("ValueError", "negative argument not allowed")
			}
			size, ok := v.Int64()
			if !ok || size > math.MaxInt32 {
				size = math.MaxInt64
			}
			// The token, and its text twice the size at most.
			if err := secAlloc(thread, size, 3); err != nil {
				return nil, err
			}
			n = int(size)
		}
		raw, err := secRead(n)
		if err != nil {
			return nil, err
		}
		switch name {
		case "token_hex":
			return starlark.String(hex.EncodeToString(raw)), nil
		case "token_urlsafe":
			return starlark.String(base64.RawURLEncoding.EncodeToString(raw)), nil
		}
		return interp.Bytes(raw), nil
	}
}

// secAlloc charges n bytes made times over to the run's memory budget;
// a size beyond any budget is a MemoryError when the run has none.
func secAlloc(thread *starlark.Thread, n int64, times int64) error {
	b := interp.BudgetOf(thread)
	size := n
	if n < math.MaxInt64/times {
		size = n * times
	}
	if err := b.Alloc(size); err != nil {
		return err
	}
	if n > 1<<30 {
		return pyrt.Errorf("MemoryError", "")
	}
	return nil
}

// secBelow is a uniform random int in [0, n), n > 0.
func secBelow(n *big.Int) (*big.Int, error) {
	r, err := rand.Int(rand.Reader, n)
	if err != nil {
		return nil, fmt.Errorf("secrets: reading randomness: %w", err)
	}
	return r, nil
}

func secRandbelow(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var exclusive starlark.Value
	if err := unpack("randbelow", args, kwargs, "exclusive_upper_bound", &exclusive); err != nil {
		return nil, err
	}
	var n *big.Int
	switch x := exclusive.(type) {
	case starlark.Int:
		n = x.BigInt()
	case starlark.Bool:
		n = big.NewInt(int64(boolInt(bool(x))))
	default:
		return nil, pyrt.Errorf("AttributeError", "'%s' object has no attribute 'bit_length'", pyrt.TypeName(exclusive))
	}
	if n.Sign() <= 0 {
		return nil, pyrt.Errorf("ValueError", "Upper bound must be positive.")
	}
	if err := interp.BudgetOf(thread).Charge(uint64(n.BitLen())/64 + 1); err != nil {
		return nil, err
	}
	r, err := secBelow(n)
	if err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(r), nil
}

func secRandbits(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "Random.getrandbits() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, pyrt.Errorf("TypeError", "Random.getrandbits() takes exactly one argument (%d given)", len(args))
	}
	var k int64
	switch x := args[0].(type) {
	case starlark.Int:
		v, ok := x.Int64()
		if !ok {
			if x.Sign() < 0 {
				return nil, pyrt.Errorf("ValueError", "number of bits must be non-negative")
			}
			v = math.MaxInt64
		}
		k = v
	case starlark.Bool:
		k = int64(boolInt(bool(x)))
	default:
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(args[0]))
	}
	if k < 0 {
		return nil, pyrt.Errorf("ValueError", "number of bits must be non-negative")
	}
	b := interp.BudgetOf(thread)
	if max := b.IntBits(); max > 0 && k > int64(max) {
		return nil, b.IntLimit()
	}
	if err := secAlloc(thread, (k+7)/8, 2); err != nil {
		return nil, err
	}
	if k == 0 {
		return starlark.MakeInt(0), nil
	}
	raw, err := secRead(int((k + 7) / 8))
	if err != nil {
		return nil, err
	}
	r := new(big.Int).SetBytes(raw)
	r.Rsh(r, uint(int64(len(raw))*8-k))
	return starlark.MakeBigInt(r), nil
}

func secChoice(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq starlark.Value
	if err := unpack("choice", args, kwargs, "seq", &seq); err != nil {
		return nil, err
	}
	if err := interp.BudgetOf(thread).Charge(1); err != nil {
		return nil, err
	}
	var n int
	if s, ok := interp.AsText(seq); ok {
		runes := []rune(s)
		if len(runes) == 0 {
			return nil, pyrt.Errorf("IndexError", "Cannot choose from an empty sequence")
		}
		if err := interp.BudgetOf(thread).Charge(uint64(len(s)) / 16); err != nil {
			return nil, err
		}
		i, err := secBelow(big.NewInt(int64(len(runes))))
		if err != nil {
			return nil, err
		}
		return interp.MakeString(string(runes[i.Int64()])), nil
	}
	sized, ok := seq.(starlark.Sequence)
	if !ok {
		if ix, isIx := seq.(starlark.Indexable); isIx {
			n = ix.Len()
		} else {
			return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(seq))
		}
	} else {
		n = sized.Len()
	}
	if n == 0 {
		return nil, pyrt.Errorf("IndexError", "Cannot choose from an empty sequence")
	}
	r, err := secBelow(big.NewInt(int64(n)))
	if err != nil {
		return nil, err
	}
	i := int(r.Int64())
	switch x := seq.(type) {
	case starlark.Indexable:
		return x.Index(i), nil
	case starlark.Mapping:
		v, found, err := x.Get(starlark.MakeInt(i))
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, pyrt.Errorf("KeyError", "%d", i)
		}
		return v, nil
	}
	return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(seq))
}

// secCompareDigest is compare_digest(a, b): equality in time that does
// not depend on where the two differ, of two ASCII str or two bytes-like
// values.
func secCompareDigest(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, pyrt.Errorf("TypeError", "compare_digest() takes no keyword arguments")
	}
	if len(args) != 2 {
		return nil, pyrt.Errorf("TypeError", "compare_digest expected 2 arguments, got %d", len(args))
	}
	a, b := args[0], args[1]
	as, aText := interp.AsText(a)
	bs, bText := interp.AsText(b)
	switch {
	case aText && bText:
		for _, s := range []string{as, bs} {
			for i := 0; i < len(s); i++ {
				if s[i] >= 0x80 {
					return nil, pyrt.Errorf("TypeError", "comparing strings with non-ASCII characters is not supported")
				}
			}
		}
	case aText || bText:
		other := b
		if bText {
			other = a
		}
		if _, ok := bytesLike(other); ok {
			return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not 'str'")
		}
		return nil, pyrt.Errorf("TypeError", "unsupported operand types(s) or combination of types: '%s' and '%s'", pyrt.TypeName(a), pyrt.TypeName(b))
	default:
		var ok1, ok2 bool
		as, ok1 = bytesLike(a)
		bs, ok2 = bytesLike(b)
		if !ok1 || !ok2 {
			return nil, pyrt.Errorf("TypeError", "unsupported operand types(s) or combination of types: '%s' and '%s'", pyrt.TypeName(a), pyrt.TypeName(b))
		}
	}
	if err := interp.BudgetOf(thread).Charge(uint64(len(as)+len(bs))/64 + 1); err != nil {
		return nil, err
	}
	return starlark.Bool(subtle.ConstantTimeCompare([]byte(as), []byte(bs)) == 1), nil
}

// bytesLike is the content of bytes or a bytearray.
func bytesLike(v starlark.Value) (string, bool) {
	if s, ok := interp.AsBytes(v); ok {
		return s, true
	}
	if pyrt.TypeName(v) == "bytearray" {
		if ix, ok := v.(starlark.Indexable); ok {
			out := make([]byte, ix.Len())
			for i := range out {
				n, _ := starlark.AsInt32(ix.Index(i))
				out[i] = byte(n)
			}
			return string(out), true
		}
	}
	return "", false
}
