// Package python is onetool's Python front end (SPEC §2.7): it reads the
// programs models write (package pyast parses them) and lowers them to
// the Starlark syntax trees that package interp compiles, with every
// position the user's own. What Starlark has no form for (try, with,
// classes, match, Python's operators where Starlark's differ or would run
// unbounded) becomes a call of a predeclared helper; package lowered
// names those helpers and the values the trees pass them, and package
// pyrt, the runtime, provides them. The front end never imports the
// runtime: a tree is only text until it runs.
//
// Parse is the interp.Parser to use; ParseWithCells lowers a session's
// input, whose names live on between inputs. Refusals lists what the
// front end refuses, with the hint each refusal gives.
package python
