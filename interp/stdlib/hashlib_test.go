package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialHashLib checks the hashlib module against CPython
// (testdata/hashlib_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialHashLib -update).
func TestDifferentialHashLib(t *testing.T) {
	pydiff.Check(t, "testdata/hashlib_cases.txt", *update, eval)
}

// Hashing more than the budget allows ends with the budget, partway
// through a huge input or over many updates.
func TestHashLibBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import hashlib\nhashlib.sha256(b'x' * (15 << 20)).hexdigest()",
		"import hashlib\nh = hashlib.md5()\nd = b'y' * (1 << 20)\nfor i in range(10 ** 6):\n    h.update(d)",
		"import hashlib\nd = b'z' * (1 << 20)\nfor i in range(10 ** 6):\n    hashlib.new('sha1', d)",
		"import hashlib\nhashlib.pbkdf2_hmac('sha256', b'pw', b'salt', 10 ** 9)",
		"import hashlib\nhashlib.blake2b(b'x' * (15 << 20)).hexdigest()",
		"import hashlib\nhashlib.shake_128(b'x').hexdigest(1 << 29)",
	)
}
