package stdlib

import (
	"testing"

	"github.com/onetool-dev/onetool/internal/pydiff"
	"github.com/onetool-dev/onetool/interp"
	"github.com/onetool-dev/onetool/interp/ordered"
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

// A UUID returned as a result is its str; a parse result of
// urllib.parse is an object of its fields.
func TestWebValuesConvert(t *testing.T) {
	for code, want := range map[string]string{
		"import uuid\nuuid.UUID(int=255)":                                     `"00000000-0000-0000-0000-0000000000ff"`,
		"import uuid\n{'id': uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')}":   `{"id":"886313e1-3b8a-5372-9b90-0c9aee199e5d"}`,
		"import urllib.parse\nurllib.parse.urlparse('https://h:1/p;x?q=1#f')": `{"scheme":"https","netloc":"h:1","path":"/p","params":"x","query":"q=1","fragment":"f"}`,
		"import urllib.parse\nurllib.parse.urldefrag('a#b')":                  `{"url":"a","fragment":"b"}`,
	} {
		res, err := run(code, interp.Options{})
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		g, err := interp.ToGo(res.Value)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		out, err := ordered.Encode(g)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != want {
			t.Errorf("%s:\n got %s\nwant %s", code, out, want)
		}
	}
}
