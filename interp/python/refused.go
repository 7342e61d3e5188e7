package python

import "fmt"

// refusal names a construct of Python that the front end refuses, with a
// syntax error and a hint saying what to write instead. Every refusal
// comes from this catalog, so that Refusals (and the docs checked against
// it) list exactly what a program meets.
type refusal int

const (
	refusedRelativeImport refusal = iota
	refusedStarImport
	refusalCount
)

// Refusal describes one construct onetool refuses.
type Refusal struct {
	// Construct is what a program writes, as documentation shows it.
	Construct string
	// Example is a short program that has the construct.
	Example string
	// Message is the syntax error's text for Example.
	Message string
	// Hint is the hint line that follows it, for Example.
	Hint string
}

// about returns the catalog entry of r; module is the module a star
// import names (the message and hint quote it).
func (r refusal) about(module string) Refusal {
	switch r {
	case refusedRelativeImport:
		return Refusal{"`from . import x`", "from . import x\n",
			"relative imports are not supported",
			"a program is one file: import the modules onetool has by name"}
	case refusedStarImport:
		return Refusal{"`from m import *`", "from " + module + " import *\n",
			fmt.Sprintf("from %s import * is not supported", module),
			fmt.Sprintf("import the names you use: from %s import a, b", module)}
	}
	panic(fmt.Sprintf("python: refusal %d has no entry", int(r)))
}

// Refusals lists every construct of Python the front end refuses, in
// the order documentation shows them (a star import as from m import *). Each Example, run, fails with its
// Message and Hint.
func Refusals() []Refusal {
	out := make([]Refusal, 0, refusalCount)
	for r := refusal(0); r < refusalCount; r++ {
		out = append(out, r.about("m"))
	}
	return out
}
