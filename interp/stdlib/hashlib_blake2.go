package stdlib

import (
	"crypto/hmac"
	"encoding/binary"
	"fmt"
	"hash"
	"math/big"
	"math/bits"

	"go.starlark.net/starlark"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// BLAKE2b and BLAKE2s as RFC 7693 specifies them, with the parameter
// block of the BLAKE2 paper (salt, personalization, tree parameters), for
// hashlib.blake2b and hashlib.blake2s. Go's standard library has neither.

// blake2Sigma is the message schedule: the order of the sixteen message
// words in each round (rounds past ten start over).
var blake2Sigma = [10][16]byte{
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
	{14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
	{11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
	{7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
	{9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
	{2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
	{12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
	{13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
	{6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
	{10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
}

// The initialization vectors: SHA-512's for BLAKE2b, SHA-256's for
// BLAKE2s.
var (
	blake2bIV = [8]uint64{
		0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
		0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
	}
	blake2sIV = [8]uint32{
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	}
)

// blake2Params are the parameters of a BLAKE2 hash, as hashlib takes them.
type blake2Params struct {
	digestSize int
	key        []byte
	salt       []byte
	person     []byte
	fanout     int
	depth      int
	leafSize   uint32
	nodeOffset uint64
	nodeDepth  int
	innerSize  int
	lastNode   bool
}

// blake2 is a running BLAKE2b (big) or BLAKE2s hash.
type blake2 struct {
	big    bool
	p      blake2Params
	hb     [8]uint64 // BLAKE2b state
	hs     [8]uint32 // BLAKE2s state
	t      [2]uint64 // bytes compressed so far (BLAKE2s uses t[0] as 64 bits)
	buf    []byte    // input not yet compressed: at most one block
	keyed  bool
	blkLen int
}

var _ hash.Hash = (*blake2)(nil)

func newBlake2(big bool, p blake2Params) *blake2 {
	b := &blake2{big: big, p: p, blkLen: 64}
	if big {
		b.blkLen = 128
	}
	b.Reset()
	return b
}

func (b *blake2) Size() int      { return b.p.digestSize }
func (b *blake2) BlockSize() int { return b.blkLen }

func (b *blake2) Reset() {
	p := b.p
	b.t = [2]uint64{}
	b.buf = make([]byte, 0, b.blkLen)
	var block [64]byte // the parameter block (32 bytes for BLAKE2s)
	block[0] = byte(p.digestSize)
	block[1] = byte(len(p.key))
	block[2] = byte(p.fanout)
	block[3] = byte(p.depth)
	binary.LittleEndian.PutUint32(block[4:], p.leafSize)
	if b.big {
		binary.LittleEndian.PutUint64(block[8:], p.nodeOffset)
		block[16] = byte(p.nodeDepth)
		block[17] = byte(p.innerSize)
		copy(block[32:48], p.salt)
		copy(block[48:64], p.person)
		for i := range b.hb {
			b.hb[i] = blake2bIV[i] ^ binary.LittleEndian.Uint64(block[8*i:])
		}
	} else {
		var off [8]byte
		binary.LittleEndian.PutUint64(off[:], p.nodeOffset)
		copy(block[8:14], off[:6])
		block[14] = byte(p.nodeDepth)
		block[15] = byte(p.innerSize)
		copy(block[16:24], p.salt)
		copy(block[24:32], p.person)
		for i := range b.hs {
			b.hs[i] = blake2sIV[i] ^ binary.LittleEndian.Uint32(block[4*i:])
		}
	}
	b.keyed = false
	if len(p.key) > 0 {
		// A key is hashed first, as a whole block padded with zeros.
		key := make([]byte, b.blkLen)
		copy(key, p.key)
		b.buf = append(b.buf, key...)
		b.keyed = true
	}
}

func (b *blake2) Write(data []byte) (int, error) {
	n := len(data)
	for len(data) > 0 {
		if len(b.buf) == b.blkLen {
			// A full block is compressed only once more input follows:
			// the last block is compressed with the final flag.
			b.compress(b.buf, false)
			b.buf = b.buf[:0]
		}
		k := copy(b.buf[len(b.buf):b.blkLen], data)
		b.buf = b.buf[:len(b.buf)+k]
		data = data[k:]
	}
	return n, nil
}

func (b *blake2) Sum(in []byte) []byte {
	c := b.clone().(*blake2)
	block := make([]byte, c.blkLen)
	copy(block, c.buf)
	c.t[0] += uint64(len(c.buf))
	if c.t[0] < uint64(len(c.buf)) {
		c.t[1]++
	}
	c.compressBlock(block, true)
	out := make([]byte, 0, 64)
	if c.big {
		for _, w := range c.hb {
			out = binary.LittleEndian.AppendUint64(out, w)
		}
	} else {
		for _, w := range c.hs {
			out = binary.LittleEndian.AppendUint32(out, w)
		}
	}
	return append(in, out[:c.p.digestSize]...)
}

func (b *blake2) clone() hash.Hash {
	c := *b
	c.buf = append(make([]byte, 0, b.blkLen), b.buf...)
	return &c
}

// compress compresses a full block of input that is not the last.
func (b *blake2) compress(block []byte, final bool) {
	b.t[0] += uint64(len(block))
	if b.t[0] < uint64(len(block)) {
		b.t[1]++
	}
	b.compressBlock(block, final)
}

func (b *blake2) compressBlock(block []byte, final bool) {
	if b.big {
		b.compressB(block, final)
	} else {
		b.compressS(block, final)
	}
}

func (b *blake2) compressB(block []byte, final bool) {
	var m [16]uint64
	for i := range m {
		m[i] = binary.LittleEndian.Uint64(block[8*i:])
	}
	var v [16]uint64
	copy(v[:8], b.hb[:])
	copy(v[8:], blake2bIV[:])
	v[12] ^= b.t[0]
	v[13] ^= b.t[1]
	if final {
		v[14] = ^v[14]
		if b.p.lastNode {
			v[15] = ^v[15]
		}
	}
	g := func(a, bb, c, d int, x, y uint64) {
		v[a] += v[bb] + x
		v[d] = bits.RotateLeft64(v[d]^v[a], -32)
		v[c] += v[d]
		v[bb] = bits.RotateLeft64(v[bb]^v[c], -24)
		v[a] += v[bb] + y
		v[d] = bits.RotateLeft64(v[d]^v[a], -16)
		v[c] += v[d]
		v[bb] = bits.RotateLeft64(v[bb]^v[c], -63)
	}
	for r := 0; r < 12; r++ {
		s := &blake2Sigma[r%10]
		g(0, 4, 8, 12, m[s[0]], m[s[1]])
		g(1, 5, 9, 13, m[s[2]], m[s[3]])
		g(2, 6, 10, 14, m[s[4]], m[s[5]])
		g(3, 7, 11, 15, m[s[6]], m[s[7]])
		g(0, 5, 10, 15, m[s[8]], m[s[9]])
		g(1, 6, 11, 12, m[s[10]], m[s[11]])
		g(2, 7, 8, 13, m[s[12]], m[s[13]])
		g(3, 4, 9, 14, m[s[14]], m[s[15]])
	}
	for i := range b.hb {
		b.hb[i] ^= v[i] ^ v[i+8]
	}
}

func (b *blake2) compressS(block []byte, final bool) {
	var m [16]uint32
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(block[4*i:])
	}
	var v [16]uint32
	copy(v[:8], b.hs[:])
	copy(v[8:], blake2sIV[:])
	v[12] ^= uint32(b.t[0])
	v[13] ^= uint32(b.t[0] >> 32)
	if final {
		v[14] = ^v[14]
		if b.p.lastNode {
			v[15] = ^v[15]
		}
	}
	g := func(a, bb, c, d int, x, y uint32) {
		v[a] += v[bb] + x
		v[d] = bits.RotateLeft32(v[d]^v[a], -16)
		v[c] += v[d]
		v[bb] = bits.RotateLeft32(v[bb]^v[c], -12)
		v[a] += v[bb] + y
		v[d] = bits.RotateLeft32(v[d]^v[a], -8)
		v[c] += v[d]
		v[bb] = bits.RotateLeft32(v[bb]^v[c], -7)
	}
	for r := 0; r < 10; r++ {
		s := &blake2Sigma[r]
		g(0, 4, 8, 12, m[s[0]], m[s[1]])
		g(1, 5, 9, 13, m[s[2]], m[s[3]])
		g(2, 6, 10, 14, m[s[4]], m[s[5]])
		g(3, 7, 11, 15, m[s[6]], m[s[7]])
		g(0, 5, 10, 15, m[s[8]], m[s[9]])
		g(1, 6, 11, 12, m[s[10]], m[s[11]])
		g(2, 7, 8, 13, m[s[12]], m[s[13]])
		g(3, 4, 9, 14, m[s[14]], m[s[15]])
	}
	for i := range b.hs {
		b.hs[i] ^= v[i] ^ v[i+8]
	}
}

// blake2Defaults are the parameters of blake2b() or blake2s() called
// with none: the longest digest, sequential mode.
func blake2Defaults(isB bool) blake2Params {
	size := 32
	if isB {
		size = 64
	}
	return blake2Params{digestSize: size, fanout: 1, depth: 1}
}

// blake2Constructor is hashlib.blake2b(data=b”, /, *, digest_size=64,
// key=b”, salt=b”, person=b”, fanout=1, depth=1, leaf_size=0,
// node_offset=0, node_depth=0, inner_size=0, last_node=False,
// usedforsecurity=True), or blake2s with its smaller bounds.
func blake2Constructor(isB bool) interp.BuiltinFunc {
	name, maxSize, maxSalt, maxOffset := "blake2s", 32, 8, uint64(1)<<48
	if isB {
		name, maxSize, maxSalt, maxOffset = "blake2b", 64, 16, 0
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 1 {
			return nil, pyrt.Errorf("TypeError", "%s() takes at most 1 positional argument (%d given)", name, len(args))
		}
		p := blake2Defaults(isB)
		intArg := func(v starlark.Value) (*big.Int, error) {
			i, ok := v.(starlark.Int)
			if !ok {
				if b, isBool := v.(starlark.Bool); isBool {
					if b {
						return bigOne, nil
					}
					return new(big.Int), nil
				}
				return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
			}
			return i.BigInt(), nil
		}
		between := func(field string, v starlark.Value, lo, hi int64, msg string) (int, error) {
			n, err := intArg(v)
			if err != nil {
				return 0, err
			}
			if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
				return 0, pyrt.Errorf("ValueError", "%s", msg)
			}
			return int(n.Int64()), nil
		}
		bytesParam := func(v starlark.Value, max int, what string) ([]byte, error) {
			b, ok := interp.AsBytes(v)
			if !ok {
				return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(v))
			}
			if len(b) > max {
				return nil, pyrt.Errorf("ValueError", "maximum %s length is %d bytes", what, max)
			}
			return []byte(b), nil
		}
		for _, kv := range kwargs {
			k, _ := starlark.AsString(kv[0])
			v := kv[1]
			var err error
			switch k {
			case "digest_size":
				p.digestSize, err = between(k, v, 1, int64(maxSize), fmt.Sprintf("digest_size must be between 1 and %d bytes", maxSize))
			case "key":
				p.key, err = bytesParam(v, maxSize, "key")
			case "salt":
				p.salt, err = bytesParam(v, maxSalt, "salt")
			case "person":
				p.person, err = bytesParam(v, maxSalt, "person")
			case "fanout":
				p.fanout, err = between(k, v, 0, 255, "fanout must be between 0 and 255")
			case "depth":
				p.depth, err = between(k, v, 1, 255, "depth must be between 1 and 255")
			case "node_depth":
				p.nodeDepth, err = between(k, v, 0, 255, "node_depth must be between 0 and 255")
			case "inner_size":
				p.innerSize, err = between(k, v, 0, int64(maxSize), fmt.Sprintf("inner_size must be between 0 and is %d", maxSize))
			case "leaf_size":
				var n *big.Int
				if n, err = intArg(v); err == nil {
					switch {
					case n.Sign() < 0:
						err = pyrt.Errorf("ValueError", "value must be positive")
					case n.BitLen() > 32:
						err = pyrt.Errorf("OverflowError", "leaf_size is too large")
					default:
						p.leafSize = uint32(n.Uint64())
					}
				}
			case "node_offset":
				var n *big.Int
				if n, err = intArg(v); err == nil {
					switch {
					case n.Sign() < 0:
						err = pyrt.Errorf("ValueError", "value must be positive")
					case n.BitLen() > 64 || (maxOffset > 0 && n.Uint64() >= maxOffset):
						err = pyrt.Errorf("OverflowError", "node_offset is too large")
					default:
						p.nodeOffset = n.Uint64()
					}
				}
			case "last_node":
				p.lastNode = bool(v.Truth())
			case "usedforsecurity":
			default:
				err = pyrt.Errorf("TypeError", "'%s' is an invalid keyword argument for %s()", k, name)
			}
			if err != nil {
				return nil, err
			}
		}
		h := &hashObject{name: name, h: newBlake2(isB, p)}
		if len(args) == 1 {
			if err := h.write(thread, args[0]); err != nil {
				return nil, err
			}
		}
		return h, nil
	}
}

var bigOne = big.NewInt(1)

// pbkdf2HMAC is hashlib.pbkdf2_hmac(hash_name, password, salt, iterations,
// dklen=None): PBKDF2 (RFC 8018) with HMAC over the named hash, each
// iteration charged to the run's budget.
func pbkdf2HMAC(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var algo, password, salt, iterations starlark.Value
	var dklen starlark.Value = starlark.None
	params := webParams{fn: "pbkdf2_hmac", names: []string{"hash_name", "password", "salt", "iterations", "dklen"}, required: 4, maxPos: 5, builtin: true}
	if err := params.unpack(args, kwargs, &algo, &password, &salt, &iterations, &dklen); err != nil {
		return nil, err
	}
	text, ok := interp.AsText(algo)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "pbkdf2_hmac() argument 'hash_name' must be str, not %s", pyrt.TypeName(algo))
	}
	pw, ok := interp.AsBytes(password)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(password))
	}
	sl, ok := interp.AsBytes(salt)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "a bytes-like object is required, not '%s'", pyrt.TypeName(salt))
	}
	it, ok := iterations.(starlark.Int)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(iterations))
	}
	iter, ok := it.Int64()
	if !ok || iter < 1 {
		if it.Sign() > 0 {
			return nil, pyrt.Errorf("OverflowError", "iteration value is too great.")
		}
		return nil, pyrt.Errorf("ValueError", "iteration value must be greater than 0.")
	}
	key, ok := hashName(text)
	if !ok || key == "shake_128" || key == "shake_256" {
		return nil, pyrt.Errorf("ValueError", "unsupported hash type %s", text)
	}
	newHash := hashAlgos[key]
	size := newHash().Size()
	n := int64(size)
	if dklen != starlark.None {
		d, ok := dklen.(starlark.Int)
		if !ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(dklen))
		}
		v, ok := d.Int64()
		if !ok || v < 1 {
			if d.Sign() > 0 {
				return nil, pyrt.Errorf("OverflowError", "key length is too great.")
			}
			return nil, pyrt.Errorf("ValueError", "key length must be greater than 0.")
		}
		n = v
	}
	bud := interp.BudgetOf(thread)
	if err := bud.Alloc(n); err != nil {
		return nil, err
	}
	mac := hmac.New(newHash, []byte(pw))
	out := make([]byte, 0, n)
	u := make([]byte, 0, size)
	for block := uint32(1); int64(len(out)) < n; block++ {
		// Each block hashes the salt again: a long salt over many blocks.
		if err := bud.Charge(uint64(len(sl))/16 + 1); err != nil {
			return nil, err
		}
		mac.Reset()
		mac.Write([]byte(sl))
		mac.Write(binary.BigEndian.AppendUint32(nil, block))
		u = mac.Sum(u[:0])
		t := append([]byte(nil), u...)
		for i := int64(1); i < iter; i++ {
			// An HMAC is two hashes of a block or so: a few steps each.
			if err := bud.Charge(8); err != nil {
				return nil, err
			}
			mac.Reset()
			mac.Write(u)
			u = mac.Sum(u[:0])
			for j := range t {
				t[j] ^= u[j]
			}
		}
		out = append(out, t...)
	}
	return interp.Bytes(out[:n]), nil
}
