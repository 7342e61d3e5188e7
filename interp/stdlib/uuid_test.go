package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
)

// TestDifferentialUUID checks the uuid module against CPython
// (testdata/uuid_cases.txt; regenerate the answers with
// go test ./interp/stdlib -run DifferentialUUID -update). uuid4's
// cases print only what does not depend on its randomness.
func TestDifferentialUUID(t *testing.T) {
	pydiff.Check(t, "testdata/uuid_cases.txt", *update, eval)
}

// Parsing a huge text, naming with a huge name, or making UUIDs without
// end, ends with the budget.
func TestUUIDBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import uuid\nuuid.UUID('0' * (20 << 20))",
		"import uuid\nn = 'x' * (1 << 20)\nfor i in range(10 ** 6):\n    uuid.uuid5(uuid.NAMESPACE_DNS, n)",
		"import uuid\nwhile True:\n    uuid.uuid4()",
	)
}
