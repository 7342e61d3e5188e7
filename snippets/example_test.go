package snippets_test

import (
	"fmt"

	"github.com/onetool-dev/onetool/snippets"
)

func Example() {
	set, err := snippets.Compile([]snippets.Snippet{{
		Name:        "pkg",
		Description: "Latest versions of npm packages",
		Params: []snippets.Param{
			{Name: "packages", Type: "string", Description: "comma-separated names"},
			{Name: "limit", Type: "integer", Default: 5, HasDefault: true},
		},
		Body: `[pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]`,
	}})
	if err != nil {
		panic(err)
	}

	code, _ := set.Expand("$pkg packages=react,vue limit=1")
	fmt.Println(code)

	code, _ = set.Expand("$pkg\npackages: react, vue, svelte")
	fmt.Println(code)

	_, err = set.Expand("$pgk packages=react")
	fmt.Println("Error:", err)

	_, err = set.Expand("$pkg limit=2")
	fmt.Println("Error:", err)

	help, _ := set.Help("$pkg")
	fmt.Println(help)
	// Output:
	// [pkg.npm(name=n) for n in ["react", "vue"]][:1]
	// [pkg.npm(name=n) for n in ["react", "vue", "svelte"]][:5]
	// Error: unknown snippet 'pgk'. Did you mean 'pkg'? Available: pkg
	// Error: snippet 'pkg' requires parameter 'packages'
	// $pkg packages=<string> [limit=5] — Latest versions of npm packages
	//   packages: string, required — comma-separated names
	//   limit: integer, default 5
	// Expands to:
	//   [pkg.npm(name=n) for n in {{ packages|split:","|starlark }}][:{{ limit }}]
}

// The starlark filter keeps user text inside its string literal.
func ExampleStarlarkLiteral() {
	lit, _ := snippets.StarlarkLiteral(`"); fail("pwned`)
	fmt.Println(lit)
	lit, _ = snippets.StarlarkLiteral(map[string]any{"tags": []string{"a", "b"}, "n": 2, "ok": true})
	fmt.Println(lit)
	// Output:
	// "\"); fail(\"pwned"
	// {"n": 2, "ok": True, "tags": ["a", "b"]}
}

func ExampleParseInvocation() {
	inv, _ := snippets.ParseInvocation(`$search q=hello world lang="en us" expr=a\=b`)
	for _, a := range inv.Args {
		fmt.Printf("%s=%q\n", a.Key, a.Value)
	}
	fmt.Println(inv)
	// Output:
	// q="hello world"
	// lang="en us"
	// expr="a=b"
	// $search q="hello world" lang="en us" expr="a=b"
}
