package objects_test

import (
	"encoding/json"
	"testing"

	"github.com/onetool-dev/onetool/interp"
)

// An instance crosses to JSON (a tool's argument, a run's value over MCP)
// as a dataclass's fields or, for any other class, its repr.
func TestInstancesToJSON(t *testing.T) {
	res, err := run(`
from dataclasses import dataclass, field

@dataclass
class Point:
    x: int
    tags: list = field(default_factory=list)

class Plain:
    def __repr__(self):
        return "Plain!"

return {"p": Point(1, ["a"]), "q": Plain(), "nested": [Point(2)]}
`, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := interp.ToGo(res.Value)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"p":{"x":1,"tags":["a"]},"q":"Plain!","nested":[{"x":2,"tags":[]}]}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
}
