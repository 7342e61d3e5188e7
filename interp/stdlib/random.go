package stdlib

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"math"
	"math/big"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/pyrt"
)

// Random is the random module. Its generator is CPython's Mersenne
// Twister, seeded as CPython seeds it, and every function draws from it
// in CPython's order, so a seeded program prints CPython's numbers. The
// module-level generator belongs to the run (a thread-local made on
// first use): seed() in one run never changes another run's sequence.
func Random() *starlarkstruct.Module {
	members := starlark.StringDict{
		"Random":       randomClass,
		"SystemRandom": interp.NewBuiltin("SystemRandom", newSystemRandom),
	}
	for name, m := range randomMethods {
		name, m := name, m
		members[name] = interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return m(thread, fn.Name(), runGenerator(thread), args, kwargs)
		})
	}
	return &starlarkstruct.Module{Name: "random", Members: members}
}

// randomLocal is the thread-local key of a run's module-level generator.
const randomLocal = "onetool.stdlib.random"

// runGenerator is the run's module-level generator, seeded from the
// operating system's randomness when first used, as CPython's is at
// import.
func runGenerator(thread *starlark.Thread) *mt {
	if g, ok := interp.RunLocal(thread, randomLocal).(*mt); ok {
		return g
	}
	g := &mt{}
	g.seedRandom()
	interp.SetRunLocal(thread, randomLocal, g)
	return g
}

const mtN, mtM = 624, 397

// mt is MT19937 with the state CPython's Random keeps beside it (the
// second value gauss() computed).
type mt struct {
	state     [mtN]uint32
	index     int
	gaussNext starlark.Value // None or a float
}

func (g *mt) initGenrand(s uint32) {
	g.state[0] = s
	for i := 1; i < mtN; i++ {
		g.state[i] = 1812433253*(g.state[i-1]^(g.state[i-1]>>30)) + uint32(i)
	}
	g.index = mtN
}

func (g *mt) initByArray(key []uint32) {
	g.initGenrand(19650218)
	i, j := 1, 0
	k := max(mtN, len(key))
	for ; k > 0; k-- {
		g.state[i] = (g.state[i] ^ ((g.state[i-1] ^ (g.state[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			g.state[0] = g.state[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		g.state[i] = (g.state[i] ^ ((g.state[i-1] ^ (g.state[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			g.state[0] = g.state[mtN-1]
			i = 1
		}
	}
	g.state[0] = 0x80000000
	g.gaussNext = starlark.None
}

func (g *mt) uint32() uint32 {
	if g.index >= mtN {
		for k := 0; k < mtN; k++ {
			y := g.state[k]&0x80000000 | g.state[(k+1)%mtN]&0x7fffffff
			v := g.state[(k+mtM)%mtN] ^ (y >> 1)
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			g.state[k] = v
		}
		g.index = 0
	}
	y := g.state[g.index]
	g.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// float is random(): 53 bits from two outputs.
func (g *mt) float() float64 {
	a, b := g.uint32()>>5, g.uint32()>>6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// seedRandom seeds from the operating system, as seed(None) does.
func (g *mt) seedRandom() {
	var buf [mtN * 4]byte
	if _, err := rand.Read(buf[:]); err != nil {
		// crypto/rand does not fail on supported systems; a fixed
		// seed would still give a working generator.
		g.initGenrand(5489)
		return
	}
	key := make([]uint32, mtN)
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	g.initByArray(key)
}

// seedInt seeds from |n|, its 32-bit words least significant first.
func (g *mt) seedInt(n *big.Int) {
	n = new(big.Int).Abs(n)
	words := (n.BitLen() + 31) / 32
	key := make([]uint32, max(words, 1))
	bs := n.Bytes() // big-endian
	for i := range bs {
		byteIndex := len(bs) - 1 - i // 0 is the least significant
		key[byteIndex/4] |= uint32(bs[i]) << (8 * (byteIndex % 4))
	}
	g.initByArray(key)
}

// seed is Random.seed(a): None, int, float, str, bytes as CPython.
func (g *mt) seed(a starlark.Value) error {
	switch x := a.(type) {
	case starlark.NoneType:
		g.seedRandom()
	case starlark.Int:
		g.seedInt(x.BigInt())
	case starlark.Bool:
		n := int64(0)
		if x {
			n = 1
		}
		g.seedInt(big.NewInt(n))
	case starlark.Float:
		g.seedInt(new(big.Int).SetUint64(uint64(pyrt.HashFloat(float64(x)))))
	default:
		if b, ok := interp.AsBytes(a); ok {
			g.seedBytes([]byte(b))
			break
		}
		s, ok := interp.AsText(a)
		if !ok {
			return pyrt.Errorf("TypeError", "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
		}
		g.seedBytes([]byte(s))
	}
	g.gaussNext = starlark.None
	return nil
}

// seedBytes is version 2 seeding: the bytes followed by their SHA-512,
// read as one big-endian integer.
func (g *mt) seedBytes(b []byte) {
	sum := sha512.Sum512(b)
	all := append(append([]byte{}, b...), sum[:]...)
	g.seedInt(new(big.Int).SetBytes(all))
}

// bits64 is getrandbits(k) for k <= 64.
func (g *mt) bits64(k int) uint64 {
	if k <= 32 {
		if k == 0 {
			return 0
		}
		return uint64(g.uint32() >> (32 - k))
	}
	lo := uint64(g.uint32())
	hi := uint64(g.uint32() >> (64 - k))
	return lo | hi<<32
}

// bits is getrandbits(k) for any k >= 0: 32-bit words, least
// significant first, the last one shifted down to the bits still needed.
func (g *mt) bits(b *interp.Budget, k int) (*big.Int, error) {
	if k <= 64 {
		return new(big.Int).SetUint64(g.bits64(k)), nil
	}
	words := (k-1)/32 + 1
	if err := b.Charge(uint64(words) / 8); err != nil {
		return nil, err
	}
	if err := b.Alloc(int64(words) * 4); err != nil {
		return nil, err
	}
	out := make([]big.Word, 0, words)
	var acc uint64
	for i := 0; i < words; i++ {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		r := g.uint32()
		if k < 32 {
			r >>= 32 - k
		}
		k -= 32
		if bitsPerWord == 64 {
			if i%2 == 0 {
				acc = uint64(r)
			} else {
				out = append(out, big.Word(acc|uint64(r)<<32))
				acc = 0
			}
		} else {
			out = append(out, big.Word(r))
		}
	}
	if bitsPerWord == 64 && words%2 == 1 {
		out = append(out, big.Word(acc))
	}
	return new(big.Int).SetBits(out), nil
}

const bitsPerWord = 32 << (^uint(0) >> 63)

// below is _randbelow(n) for n > 0: getrandbits(n.bit_length()) until
// the value is under n.
func (g *mt) below(b *interp.Budget, n *big.Int) (*big.Int, error) {
	k := n.BitLen()
	if k <= 64 {
		limit := n.Uint64()
		for {
			if err := b.Charge(1); err != nil {
				return nil, err
			}
			if r := g.bits64(k); r < limit {
				return new(big.Int).SetUint64(r), nil
			}
		}
	}
	for {
		r, err := g.bits(b, k)
		if err != nil {
			return nil, err
		}
		if r.Cmp(n) < 0 {
			return r, nil
		}
	}
}

// belowInt is _randbelow(n) for a length.
func (g *mt) belowInt(b *interp.Budget, n int) (int, error) {
	k := big.NewInt(int64(n)).BitLen()
	for {
		if err := b.Charge(1); err != nil {
			return 0, err
		}
		if r := g.bits64(k); r < uint64(n) {
			return int(r), nil
		}
	}
}

// randomMethod is a method of Random, also a function of the module on
// the run's generator.
type randomMethod func(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// randomMethods are Random's methods by name; never changed.
var randomMethods = map[string]randomMethod{
	"seed":            randSeed,
	"random":          randRandom,
	"getrandbits":     randGetrandbits,
	"randrange":       randRandrange,
	"randint":         randRandint,
	"choice":          randChoice,
	"choices":         randChoices,
	"sample":          randSample,
	"shuffle":         randShuffle,
	"uniform":         randUniform,
	"triangular":      randTriangular,
	"expovariate":     randExpovariate,
	"gauss":           randGauss,
	"normalvariate":   randNormalvariate,
	"lognormvariate":  randLognormvariate,
	"paretovariate":   randParetovariate,
	"weibullvariate":  randWeibullvariate,
	"gammavariate":    randGammavariate,
	"betavariate":     randBetavariate,
	"vonmisesvariate": randVonmisesvariate,
	"randbytes":       randRandbytes,
	"getstate":        randGetstate,
	"setstate":        randSetstate,
}

func randSeed(_ *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a starlark.Value = starlark.None
	version := 2
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "a?", &a, "version?", &version); err != nil {
		return nil, err
	}
	if version == 1 {
		if x, ok := seedVersion1(a); ok {
			return starlark.None, g.seed(starlark.MakeUint64(x))
		}
	}
	return starlark.None, g.seed(a)
}

// seedVersion1 is the int that seed(a, version=1) makes of a str or
// bytes (Python 2's hash of the text, in 64 bits), as CPython 3.11 still
// does; false for any other seed.
func seedVersion1(a starlark.Value) (uint64, bool) {
	var codes []rune
	if b, ok := interp.AsBytes(a); ok {
		for _, c := range []byte(b) {
			codes = append(codes, rune(c)) // decoded as Latin-1
		}
	} else if s, ok := interp.AsText(a); ok {
		codes = []rune(s)
	} else {
		return 0, false
	}
	var x uint64
	if len(codes) > 0 {
		x = uint64(codes[0]) << 7
	}
	for _, c := range codes {
		x = (1000003 * x) ^ uint64(c)
	}
	return x ^ uint64(len(codes)), true
}

func randRandom(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs); err != nil {
		return nil, err
	}
	return starlark.Float(g.float()), interp.BudgetOf(thread).Charge(1)
}

func randGetrandbits(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var k int
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "k", &k); err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, pyrt.Errorf("ValueError", "number of bits must be non-negative")
	}
	b := interp.BudgetOf(thread)
	if err := b.Charge(1); err != nil {
		return nil, err
	}
	// An int of k bits may have more digits than the run allows: refused
	// before it is drawn (getrandbits(10**9) is 301 million digits).
	if max := b.IntBits(); max > 0 && k > max {
		return nil, b.IntLimit()
	}
	r, err := g.bits(b, k)
	if err != nil {
		return nil, err
	}
	return bigResult(b, r)
}

// rangeArg is an argument of randrange: an int, or a float with an
// integral value (deprecated in CPython 3.11, still accepted).
func rangeArg(v starlark.Value, what string) (*big.Int, error) {
	switch x := v.(type) {
	case starlark.Int:
		return x.BigInt(), nil
	case starlark.Bool:
		if x {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	case starlark.Float:
		f := float64(x)
		if math.IsInf(f, 0) {
			return nil, pyrt.Errorf("OverflowError", "cannot convert float infinity to integer")
		}
		if math.IsNaN(f) {
			return nil, pyrt.Errorf("ValueError", "cannot convert float NaN to integer")
		}
		if f != math.Trunc(f) {
			return nil, pyrt.Errorf("ValueError", "non-integer %s for randrange()", what)
		}
		n, _ := big.NewFloat(f).Int(nil)
		return n, nil
	}
	if s, ok := interp.AsText(v); ok {
		// CPython tries int(v), then refuses the value for not being
		// the int it converts to.
		if _, ok := new(big.Int).SetString(strings.TrimSpace(s), 10); !ok {
			return nil, pyrt.Errorf("ValueError", "invalid literal for int() with base 10: %s", interp.QuoteString(s))
		}
		return nil, pyrt.Errorf("ValueError", "non-integer %s for randrange()", what)
	}
	return nil, pyrt.Errorf("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '%s'", pyrt.TypeName(v))
}

func randRandrange(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var start, stop, step starlark.Value = nil, starlark.None, nil
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "start", &start, "stop?", &stop, "step?", &step); err != nil {
		return nil, err
	}
	return g.randrange(interp.BudgetOf(thread), start, stop, step)
}

func (g *mt) randrange(b *interp.Budget, start, stop, step starlark.Value) (starlark.Value, error) {
	istart, err := rangeArg(start, "arg 1")
	if err != nil {
		return nil, err
	}
	if stop == starlark.None {
		if step != nil {
			return nil, pyrt.Errorf("TypeError", "Missing a non-None stop argument")
		}
		if istart.Sign() > 0 {
			r, err := g.below(b, istart)
			if err != nil {
				return nil, err
			}
			return starlark.MakeBigInt(r), nil
		}
		return nil, pyrt.Errorf("ValueError", "empty range for randrange()")
	}
	istop, err := rangeArg(stop, "stop")
	if err != nil {
		return nil, err
	}
	width := new(big.Int).Sub(istop, istart)
	istep := big.NewInt(1)
	if step != nil {
		if istep, err = rangeArg(step, "step"); err != nil {
			return nil, err
		}
	}
	if istep.IsInt64() && istep.Int64() == 1 {
		if width.Sign() > 0 {
			r, err := g.below(b, width)
			if err != nil {
				return nil, err
			}
			return starlark.MakeBigInt(r.Add(r, istart)), nil
		}
		return nil, pyrt.Errorf("ValueError", "empty range for randrange() (%s, %s, %s)", istart, istop, width)
	}
	var n *big.Int
	switch istep.Sign() {
	case 0:
		return nil, pyrt.Errorf("ValueError", "zero step for randrange()")
	case 1:
		n = new(big.Int).Add(width, istep)
		n.Sub(n, big.NewInt(1))
	default:
		n = new(big.Int).Add(width, istep)
		n.Add(n, big.NewInt(1))
	}
	n = bigFloorDiv(n, istep)
	if n.Sign() <= 0 {
		return nil, pyrt.Errorf("ValueError", "empty range for randrange()")
	}
	r, err := g.below(b, n)
	if err != nil {
		return nil, err
	}
	r.Mul(r, istep)
	return starlark.MakeBigInt(r.Add(r, istart)), nil
}

// bigFloorDiv is Python's a // b of big ints.
func bigFloorDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(a, b, new(big.Int)) // Euclidean: m >= 0
	if m.Sign() != 0 && b.Sign() < 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

func randRandint(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, bv starlark.Value
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "a", &a, "b", &bv); err != nil {
		return nil, err
	}
	if _, err := rangeArg(a, "arg 1"); err != nil {
		return nil, err
	}
	last, err := rangeArg(bv, "stop")
	if err != nil {
		return nil, err
	}
	stop := starlark.MakeBigInt(last.Add(last, big.NewInt(1)))
	return g.randrange(interp.BudgetOf(thread), a, stop, nil)
}

// sequence is a population: something with a length and items by index.
func sequence(v starlark.Value) (starlark.Indexable, bool) {
	switch v.(type) {
	case *starlark.Dict, *starlark.Set:
		return nil, false
	}
	s, ok := v.(starlark.Indexable)
	return s, ok
}

func randChoice(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq starlark.Value
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "seq", &seq); err != nil {
		return nil, err
	}
	// seq[randbelow(len(seq))], as CPython: the number is drawn before
	// the indexing fails (a set), and a dict is indexed by its keys.
	s, isSeq := sequence(seq)
	n := -1
	switch x := seq.(type) {
	case starlark.Sequence:
		n = x.Len()
	case starlark.Indexable:
		n = x.Len()
	}
	if n < 0 {
		return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(seq))
	}
	if n == 0 {
		return nil, pyrt.Errorf("IndexError", "Cannot choose from an empty sequence")
	}
	i, err := g.belowInt(interp.BudgetOf(thread), n)
	if err != nil {
		return nil, err
	}
	if isSeq {
		return s.Index(i), nil
	}
	if m, ok := seq.(starlark.Mapping); ok {
		v, found, err := m.Get(starlark.MakeInt(i))
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

// listOf makes a list of n values from at(i), its memory and work
// charged first.
func listOf(b *interp.Budget, n int, at func(i int) (starlark.Value, error)) (starlark.Value, error) {
	if err := b.Alloc(int64(n) * 16); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, n)
	for i := range out {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		v, err := at(i)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return starlark.NewList(out), nil
}

func randChoices(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var population starlark.Value
	var weights, cumWeights starlark.Value = starlark.None, starlark.None
	var kv starlark.Value = starlark.MakeInt(1)
	if len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "Random.choices() takes from 2 to 3 positional arguments but %d were given", len(args)+1)
	}
	if err := unpackWith(argStyle{name: "Random." + name, self: true, maxPos: 2}, args, kwargs, "population", &population, "weights?", &weights, "cum_weights?", &cumWeights, "k?", &kv); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	pop, ok := sequence(population)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(population))
	}
	k, err := choicesCount(kv)
	if err != nil {
		return nil, err
	}
	n := pop.Len()
	index := func(i int) (starlark.Value, error) {
		if i >= pop.Len() {
			return nil, pyrt.Errorf("IndexError", "%s index out of range", pyrt.TypeName(population))
		}
		return pop.Index(i), nil
	}
	if cumWeights == starlark.None {
		if weights == starlark.None {
			return listOf(b, k, func(int) (starlark.Value, error) {
				return index(int(math.Floor(g.float() * float64(n))))
			})
		}
		if w, ok := weights.(starlark.Int); ok {
			return nil, pyrt.Errorf("TypeError", "The number of choices must be a keyword argument: k=%s", w)
		}
	} else if weights != starlark.None {
		return nil, pyrt.Errorf("TypeError", "Cannot specify both weights and cumulative weights")
	}
	var cum []float64
	src, cumulative := weights, false
	if cumWeights != starlark.None {
		src, cumulative = cumWeights, true
	}
	total := 0.0
	tooMany := pyrt.Errorf("ValueError", "The number of weights does not match the population")
	err = pyrt.ForEach(thread, src, func(x starlark.Value) (bool, error) {
		f, err := toFloat(x)
		if err != nil {
			return true, err
		}
		if len(cum) == n {
			// More weights than the population: an endless iterable of
			// them is not read to its end.
			return true, tooMany
		}
		if cumulative {
			total = f
		} else {
			total += f
		}
		cum = append(cum, total)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if len(cum) != n {
		return nil, pyrt.Errorf("ValueError", "The number of weights does not match the population")
	}
	total = cum[n-1]
	if total <= 0 {
		return nil, pyrt.Errorf("ValueError", "Total of weights must be greater than zero")
	}
	if math.IsInf(total, 0) || math.IsNaN(total) {
		return nil, pyrt.Errorf("ValueError", "Total of weights must be finite")
	}
	return listOf(b, k, func(int) (starlark.Value, error) {
		x := g.float() * total
		lo, hi := 0, n-1 // bisect_right(cum, x, 0, n-1)
		for lo < hi {
			mid := (lo + hi) / 2
			if x < cum[mid] {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return index(lo)
	})
}

// choicesCount is k of choices(): a negative k gives no choices.
func choicesCount(v starlark.Value) (int, error) {
	var k int
	if err := starlark.AsInt(v, &k); err != nil {
		if _, ok := v.(starlark.Int); ok {
			return 0, pyrt.Errorf("OverflowError", "cannot fit 'int' into an index-sized integer")
		}
		return 0, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(v))
	}
	return max(k, 0), nil
}

func randSample(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var population, kv starlark.Value
	var counts starlark.Value = starlark.None
	if len(args) > 2 {
		return nil, pyrt.Errorf("TypeError", "Random.sample() takes 3 positional arguments but %d were given", len(args)+1)
	}
	if err := unpackWith(argStyle{name: "Random." + name, self: true, maxPos: 2}, args, kwargs, "population", &population, "k", &kv, "counts?", &counts); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	pop, ok := sequence(population)
	if !ok {
		return nil, pyrt.Errorf("TypeError", "Population must be a sequence.  For dicts or sets, use sorted(d).")
	}
	var k int
	if err := starlark.AsInt(kv, &k); err != nil {
		if _, isInt := kv.(starlark.Int); isInt {
			return nil, pyrt.Errorf("ValueError", "Sample larger than population or is negative")
		}
		return nil, pyrt.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyrt.TypeName(kv))
	}
	n := pop.Len()
	if counts == starlark.None {
		idx, err := g.sampleIndices(b, n, k)
		if err != nil {
			return nil, err
		}
		return listOf(b, len(idx), func(i int) (starlark.Value, error) { return pop.Index(idx[i]), nil })
	}
	var cum []int
	total := 0
	err := pyrt.ForEach(thread, counts, func(x starlark.Value) (bool, error) {
		var c int
		if err := starlark.AsInt(x, &c); err != nil {
			return true, pyrt.Errorf("TypeError", "Counts must be integers")
		}
		if len(cum) == n {
			// More counts than the population: an endless iterable of
			// them is not read to its end.
			return true, pyrt.Errorf("ValueError", "The number of counts does not match the population")
		}
		total += c
		cum = append(cum, total)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if len(cum) != n {
		return nil, pyrt.Errorf("ValueError", "The number of counts does not match the population")
	}
	if n == 0 || total <= 0 {
		// CPython pops the last count before checking it: an empty
		// population fails there with its IndexError.
		if n == 0 {
			return nil, pyrt.Errorf("IndexError", "pop from empty list")
		}
		return nil, pyrt.Errorf("ValueError", "Total of counts must be greater than zero")
	}
	cum = cum[:n-1]
	sel, err := g.sampleIndices(b, total, k)
	if err != nil {
		return nil, err
	}
	return listOf(b, len(sel), func(i int) (starlark.Value, error) {
		s := sel[i]
		lo, hi := 0, len(cum) // bisect_right(cum, s)
		for lo < hi {
			mid := (lo + hi) / 2
			if s < cum[mid] {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return pop.Index(lo), nil
	})
}

// sampleIndices is sample(range(n), k): CPython's pool of remaining
// indices when n is small for k, else draws rejected when already
// taken, chosen by the same rule.
func (g *mt) sampleIndices(b *interp.Budget, n, k int) ([]int, error) {
	if k < 0 || k > n {
		return nil, pyrt.Errorf("ValueError", "Sample larger than population or is negative")
	}
	setsize := 21
	if k > 5 {
		e := math.Ceil(pyrt.Log(float64(k)*3) / pyrt.Log(4))
		if e >= 31 {
			setsize = math.MaxInt // no population a run can index is larger
		} else {
			setsize += 1 << (2 * int(e))
		}
	}
	if err := b.Alloc(int64(k) * 8); err != nil {
		return nil, err
	}
	out := make([]int, k)
	if n <= setsize {
		if err := b.Alloc(int64(n) * 8); err != nil {
			return nil, err
		}
		if err := b.Charge(uint64(n) / 8); err != nil {
			return nil, err
		}
		pool := make([]int, n)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j, err := g.belowInt(b, n-i)
			if err != nil {
				return nil, err
			}
			out[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return out, nil
	}
	selected := make(map[int]bool, k)
	if err := b.Alloc(int64(k) * 16); err != nil {
		return nil, err
	}
	for i := 0; i < k; i++ {
		j, err := g.belowInt(b, n)
		if err != nil {
			return nil, err
		}
		for selected[j] {
			if j, err = g.belowInt(b, n); err != nil {
				return nil, err
			}
		}
		selected[j] = true
		out[i] = j
	}
	return out, nil
}

func randShuffle(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "x", &x); err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	s, ok := x.(starlark.HasSetIndex)
	if !ok {
		// CPython draws the first number, then fails to swap (nothing
		// to do for fewer than two elements).
		n := -1
		switch v := x.(type) {
		case starlark.Sequence:
			n = v.Len()
		case starlark.Indexable:
			n = v.Len()
		}
		if n < 0 {
			return nil, pyrt.Errorf("TypeError", "object of type '%s' has no len()", pyrt.TypeName(x))
		}
		if n < 2 {
			return starlark.None, nil
		}
		if _, err := g.belowInt(b, n); err != nil {
			return nil, err
		}
		if _, ok := sequence(x); ok {
			return nil, pyrt.Errorf("TypeError", "'%s' object does not support item assignment", pyrt.TypeName(x))
		}
		return nil, pyrt.Errorf("TypeError", "'%s' object is not subscriptable", pyrt.TypeName(x))
	}
	for i := s.Len() - 1; i >= 1; i-- {
		j, err := g.belowInt(b, i+1)
		if err != nil {
			return nil, err
		}
		xi, xj := s.Index(i), s.Index(j)
		if err := s.SetIndex(i, xj); err != nil {
			return nil, err
		}
		if err := s.SetIndex(j, xi); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// floatArgs reads float arguments (ints and floats), named as given,
// with defaults for the optional ones (NaN marks a required one).
func floatArgs(name string, args starlark.Tuple, kwargs []starlark.Tuple, names []string, defaults []float64) ([]float64, error) {
	vals := make([]starlark.Value, len(names))
	pairs := make([]any, 0, 2*len(names))
	for i, n := range names {
		if !math.IsNaN(defaults[i]) {
			n += "?"
		}
		pairs = append(pairs, n, &vals[i])
	}
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	out := make([]float64, len(names))
	for i, v := range vals {
		if v == nil {
			out[i] = defaults[i]
			continue
		}
		f, err := toFloat(v)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

func randUniform(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, b starlark.Value
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "a", &a, "b", &b); err != nil {
		return nil, err
	}
	fa, errA := toFloat(a)
	fb, errB := toFloat(b)
	if errA != nil || errB != nil {
		return nil, pyrt.Errorf("TypeError", "unsupported operand type(s) for -: '%s' and '%s'", pyrt.TypeName(b), pyrt.TypeName(a))
	}
	return starlark.Float(fa + (fb-fa)*g.float()), nil
}

func randTriangular(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var low, high, mode starlark.Value = starlark.Float(0), starlark.Float(1), starlark.None
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "low?", &low, "high?", &high, "mode?", &mode); err != nil {
		return nil, err
	}
	u := g.float() // drawn first, as CPython, whatever the arguments
	lo, err1 := toFloat(low)
	hi, err2 := toFloat(high)
	if err1 != nil || err2 != nil {
		// CPython's error is its arithmetic's: (mode - low) with a mode,
		// else high - low, the two swapped when u > 0.5.
		if mode != starlark.None {
			if _, err := numBinary(syntax.MINUS, mode, low); err != nil {
				return nil, err
			}
		} else if u > 0.5 {
			low, high = high, low
		}
		if _, err := numBinary(syntax.MINUS, high, low); err != nil {
			return nil, err
		}
		if err1 != nil {
			return nil, err1
		}
		return nil, err2
	}
	c := 0.5
	if mode != starlark.None {
		m, err := toFloat(mode)
		if err != nil {
			if _, err := numBinary(syntax.MINUS, mode, low); err != nil {
				return nil, err // CPython's: mode - low
			}
			return nil, err
		}
		if hi == lo {
			return low, nil
		}
		c = (m - lo) / (hi - lo)
	}
	if u > c {
		u, c = 1-u, 1-c
		lo, hi = hi, lo
	}
	return starlark.Float(lo + (hi-lo)*math.Sqrt(u*c)), nil
}

func randExpovariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"lambd"}, []float64{math.NaN()})
	if err != nil {
		return nil, err
	}
	u := g.float()
	if f[0] == 0 {
		return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
	}
	return starlark.Float(-pyrt.Log(1-u) / f[0]), nil
}

func randGauss(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"mu", "sigma"}, []float64{0, 1})
	if err != nil {
		return nil, err
	}
	z, ok := g.gaussNext.(starlark.Float)
	g.gaussNext = starlark.None
	if !ok {
		x2pi := g.float() * 2 * math.Pi
		g2rad := math.Sqrt(-2 * pyrt.Log(1-g.float()))
		sin, cos := sinCos(x2pi)
		z = starlark.Float(cos * g2rad)
		g.gaussNext = starlark.Float(sin * g2rad)
	}
	return starlark.Float(f[0] + float64(z)*f[1]), nil
}

func randNormalvariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"mu", "sigma"}, []float64{0, 1})
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	magic := 4 * pyrt.Exp(-0.5) / math.Sqrt(2.0)
	for {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		u1 := g.float()
		u2 := 1 - g.float()
		z := magic * (u1 - 0.5) / u2
		if z*z/4 <= -pyrt.Log(u2) {
			return starlark.Float(f[0] + z*f[1]), nil
		}
	}
}

func randLognormvariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"mu", "sigma"}, []float64{math.NaN(), math.NaN()})
	if err != nil {
		return nil, err
	}
	kw := []starlark.Tuple{{starlark.String("mu"), starlark.Float(f[0])}, {starlark.String("sigma"), starlark.Float(f[1])}}
	z, err := randNormalvariate(thread, name, g, nil, kw)
	if err != nil {
		return nil, err
	}
	return starlark.Float(pyrt.Exp(float64(z.(starlark.Float)))), nil
}

func randParetovariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"alpha"}, []float64{math.NaN()})
	if err != nil {
		return nil, err
	}
	u := 1 - g.float()
	if f[0] == 0 {
		return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
	}
	return starlark.Float(pyrt.FloatPow(u, -1/f[0])), nil
}

func randWeibullvariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"alpha", "beta"}, []float64{math.NaN(), math.NaN()})
	if err != nil {
		return nil, err
	}
	u := 1 - g.float()
	if f[1] == 0 {
		return nil, pyrt.Errorf("ZeroDivisionError", "float division by zero")
	}
	return starlark.Float(f[0] * pyrt.FloatPow(-pyrt.Log(u), 1/f[1])), nil
}

// gammaVariate draws from the gamma distribution of shape alpha > 0 and
// scale beta > 0 as CPython does, so that a seeded generator gives
// CPython's values: for alpha > 1 R.C.H. Cheng's rejection method (1977),
// for alpha == 1 the exponential distribution, and below 1 the method GS
// of Ahrens and Dieter as Kennedy and Gentle give it.
func gammaVariate(b *interp.Budget, g *mt, alpha, beta float64) (float64, error) {
	if !(alpha > 0 && beta > 0) {
		return 0, pyrt.Errorf("ValueError", "gammavariate: alpha and beta must be > 0.0")
	}
	switch {
	case alpha > 1:
		ainv := math.Sqrt(2*alpha - 1)
		bbb := alpha - pyrt.Log(4)
		ccc := alpha + ainv
		sgMagic := 1 + pyrt.Log(4.5)
		for {
			if err := b.Charge(1); err != nil {
				return 0, err
			}
			u1 := g.float()
			if !(1e-7 < u1 && u1 < 0.9999999) {
				continue
			}
			u2 := 1 - g.float()
			v := pyrt.Log(u1/(1-u1)) / ainv
			x := alpha * pyrt.Exp(v)
			z := u1 * u1 * u2
			r := bbb + ccc*v - x
			if r+sgMagic-4.5*z >= 0 || r >= pyrt.Log(z) {
				return x * beta, nil
			}
		}
	case alpha == 1:
		return -pyrt.Log(1-g.float()) * beta, nil
	}
	for {
		if err := b.Charge(1); err != nil {
			return 0, err
		}
		u := g.float()
		bb := (math.E + alpha) / math.E
		p := bb * u
		var x float64
		if p <= 1 {
			x = pyrt.FloatPow(p, 1/alpha)
		} else {
			x = -pyrt.Log((bb - p) / alpha)
		}
		u1 := g.float()
		if p > 1 {
			if u1 <= pyrt.FloatPow(x, alpha-1) {
				return x * beta, nil
			}
		} else if u1 <= pyrt.Exp(-x) {
			return x * beta, nil
		}
	}
}

func randGammavariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"alpha", "beta"}, []float64{math.NaN(), math.NaN()})
	if err != nil {
		return nil, err
	}
	x, err := gammaVariate(interp.BudgetOf(thread), g, f[0], f[1])
	if err != nil {
		return nil, err
	}
	return starlark.Float(x), nil
}

// randBetavariate is betavariate(alpha, beta): y/(y + z) for y and z drawn
// from gamma(alpha, 1) and gamma(beta, 1), 0.0 when y is 0.
func randBetavariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"alpha", "beta"}, []float64{math.NaN(), math.NaN()})
	if err != nil {
		return nil, err
	}
	b := interp.BudgetOf(thread)
	y, err := gammaVariate(b, g, f[0], 1)
	if err != nil {
		return nil, err
	}
	if y == 0 {
		return starlark.Float(0), nil
	}
	z, err := gammaVariate(b, g, f[1], 1)
	if err != nil {
		return nil, err
	}
	return starlark.Float(y / (y + z)), nil
}

// pyFloatMod is Python's x % y of floats: the sign of y.
func pyFloatMod(x, y float64) float64 {
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

// randVonmisesvariate is vonmisesvariate(mu, kappa): the method of Best
// and Fisher (1979), drawing as CPython does.
func randVonmisesvariate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f, err := floatArgs(name, args, kwargs, []string{"mu", "kappa"}, []float64{math.NaN(), math.NaN()})
	if err != nil {
		return nil, err
	}
	mu, kappa := f[0], f[1]
	if kappa <= 1e-6 {
		return starlark.Float(2 * math.Pi * g.float()), nil
	}
	s := 0.5 / kappa
	r := s + math.Sqrt(1+s*s)
	b := interp.BudgetOf(thread)
	var z float64
	for {
		if err := b.Charge(1); err != nil {
			return nil, err
		}
		u1 := g.float()
		z = ddCos(math.Pi * u1)
		d := z / (r + z)
		u2 := g.float()
		if u2 < 1-d*d || u2 <= (1-d)*pyrt.Exp(d) {
			break
		}
	}
	q := 1 / r
	fz := (q + z) / (1 + q*z)
	var theta float64
	if g.float() > 0.5 {
		theta = pyFloatMod(mu+ddAcos(fz), 2*math.Pi)
	} else {
		theta = pyFloatMod(mu-ddAcos(fz), 2*math.Pi)
	}
	return starlark.Float(theta), nil
}

// randRandbytes is randbytes(n): getrandbits(n * 8) as n bytes, least
// significant first.
func randRandbytes(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n int
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "n", &n); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, pyrt.Errorf("ValueError", "number of bits must be non-negative")
	}
	// getrandbits(n * 8).to_bytes(n, 'little'), as CPython: the 32-bit
	// words least significant first, each little-endian, the last one
	// shifted down to the bytes still needed. Made once, its size
	// refused first, its work charged as it goes.
	b := interp.BudgetOf(thread)
	if err := b.Alloc(int64(n)); err != nil {
		return nil, err
	}
	out := make([]byte, n)
	for i := 0; i < n; i += 4 {
		if err := pace(b, i); err != nil {
			return nil, err
		}
		r := g.uint32()
		if rest := n - i; rest < 4 {
			r >>= 32 - 8*uint(rest)
		}
		var w [4]byte
		binary.LittleEndian.PutUint32(w[:], r)
		copy(out[i:], w[:])
	}
	return ownedBytes(out), nil
}

func randGetstate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs); err != nil {
		return nil, err
	}
	words := make(starlark.Tuple, mtN+1)
	for i, w := range g.state {
		words[i] = starlark.MakeUint64(uint64(w))
	}
	words[mtN] = starlark.MakeInt(g.index)
	return starlark.Tuple{starlark.MakeInt(3), words, g.gaussNext}, nil
}

func randSetstate(thread *starlark.Thread, name string, g *mt, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var state starlark.Tuple
	if err := unpackWith(argStyle{name: "Random." + name, self: true}, args, kwargs, "state", &state); err != nil {
		return nil, err
	}
	if len(state) != 3 {
		return nil, pyrt.Errorf("ValueError", "state must be the value getstate() returned")
	}
	if v, ok := state[0].(starlark.Int); !ok || v.String() != "3" && v.String() != "2" {
		return nil, pyrt.Errorf("ValueError", "state with version %s passed to Random.setstate() of version 3", state[0])
	}
	words, ok := state[1].(starlark.Tuple)
	if !ok || len(words) != mtN+1 {
		return nil, pyrt.Errorf("ValueError", "state vector is the wrong size")
	}
	var next mt
	for i := 0; i < mtN; i++ {
		var w uint32
		if err := starlark.AsInt(words[i], &w); err != nil {
			return nil, pyrt.Errorf("OverflowError", "Python int too large to convert to C unsigned long")
		}
		next.state[i] = w
	}
	if err := starlark.AsInt(words[mtN], &next.index); err != nil || next.index < 0 || next.index > mtN {
		return nil, pyrt.Errorf("ValueError", "invalid state")
	}
	switch state[2].(type) {
	case starlark.NoneType, starlark.Float:
		next.gaussNext = state[2]
	default:
		return nil, pyrt.Errorf("TypeError", "gauss_next must be a float or None")
	}
	*g = next
	return starlark.None, nil
}

// randomValue is a random.Random instance: a generator of its own.
type randomValue struct{ g *mt }

var _ starlark.HasAttrs = (*randomValue)(nil)

func (r *randomValue) String() string        { return "<random.Random object>" }
func (r *randomValue) Type() string          { return "Random" }
func (r *randomValue) Freeze()               {}
func (r *randomValue) Truth() starlark.Bool  { return true }
func (r *randomValue) Hash() (uint32, error) { return 0, nil }
func (r *randomValue) AttrNames() []string {
	names := make([]string, 0, len(randomMethods))
	for n := range randomMethods {
		names = append(names, n)
	}
	return names
}

func (r *randomValue) Attr(name string) (starlark.Value, error) {
	m, ok := randomMethods[name]
	if !ok {
		return nil, nil
	}
	return interp.NewBuiltin(name, func(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return m(thread, fn.Name(), r.g, args, kwargs)
	}).BindReceiver(r), nil
}

// newSystemRandom is SystemRandom(x=None): a generator seeded from the
// operating system's randomness, whatever x is (CPython's draws each
// number from it; the numbers are as unpredictable here).
func newSystemRandom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value = starlark.None
	if err := starlark.UnpackArgs("SystemRandom", args, kwargs, "x?", &x); err != nil {
		return nil, err
	}
	g := &mt{gaussNext: starlark.None}
	g.seedRandom()
	return &randomValue{g: g}, nil
}

func newRandom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value = starlark.None
	if err := starlark.UnpackArgs("Random", args, kwargs, "x?", &x); err != nil {
		return nil, err
	}
	g := &mt{gaussNext: starlark.None}
	if err := g.seed(x); err != nil {
		return nil, err
	}
	return &randomValue{g: g}, nil
}
