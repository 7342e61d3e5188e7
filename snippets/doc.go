// Package snippets expands `$name key=value` commands into Starlark code
// (SPEC §5.2).
//
// A snippet is a named, parameterised template configured by the operator:
//
//	snippets:
//	  pkg:
//	    description: Latest versions of npm packages
//	    params:
//	      packages: {type: string, description: comma-separated names}
//	      limit: {type: integer, default: 5}
//	    body: |
//	      [pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]
//
// An agent then sends `$pkg packages=react,vue limit=1`, and [Set.Expand]
// turns it into the Starlark code
//
//	[pkg.npm(name=n) for n in ["react", "vue"]][:1]
//
// which runs through the normal pipeline. Expansion is text generation only:
// nothing here executes Starlark.
//
// # Invocations
//
// Two forms are accepted (see [ParseInvocation]):
//
//	$pkg packages=react,vue limit=1        one line of key=value pairs
//
//	$pkg                                   the name alone, then one
//	packages: react, vue                   key: value pair per line
//	limit: 1
//
// Values are strings until the snippet's declared parameter types coerce them
// (integer, number, boolean); parameters without a default are required.
//
// # Templates
//
// Bodies are pongo2 templates (Django syntax: {{ x|filter:"arg" }},
// {% for %}, {% if %}) compiled once by [Compile]. Because the output is code,
// not HTML, autoescaping is off. Templates are sandboxed: they cannot read
// files, and tags that would ({% include %}, {% extends %}, {% import %},
// {% ssi %}) or that would make expansion unsafe ({% macro %} can recurse
// until the process dies; {% cycle %} and {% ifchanged %} keep state between
// expansions) are refused at Compile.
//
// Besides pongo2's built-in filters, four filters exist for code generation:
//
//	split   "a, b,,c"|split:","  → ["a", "b", "c"] (items trimmed, empty ones dropped; default separator ",")
//	trim    " x "|trim          → "x" (with an argument: the characters to cut)
//	tojson  value|tojson         → compact JSON, no HTML escaping
//	starlark value|starlark      → a Starlark literal: "text", 5, 1.5, True, None, [...], {...}
//
// Always pass user text through |starlark when it lands inside code: a plain
// {{ text }} is pasted verbatim, so a value like `"); fail("x` would end the
// string and inject code, while {{ text|starlark }} is always exactly one
// string literal.
//
// Rendering hints: booleans print as True/False and None as nothing; numbers
// (float) print with six decimals, as pongo2 does, so use |starlark for their
// exact value.
package snippets
