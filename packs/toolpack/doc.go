// Package toolpack loads declarative tool definitions (YAML or JSON files,
// SPEC §4.1) into *packs.Tool values, and runs the `command` kind of them.
//
// A toolpack file describes one tool, or a list of them:
//
//	id: text.slugify
//	description: Turn a title into a URL slug.
//	deterministic: true
//	input_schema:  {type: object, properties: {title: {type: string}}, required: [title]}
//	output_schema: {type: object, properties: {slug: {type: string}}, required: [slug]}
//	execution: {kind: starlark, module: "slugify.star:slugify"}
//
// The execution block says where the tool runs: a Starlark function in a
// file beside the toolpack (kind starlark), a Go handler compiled into the
// binary (go), a subprocess speaking JSON on stdin and stdout (command),
// or a tool of an upstream MCP server (mcp). This package runs commands
// itself; for the other kinds the embedding program supplies the means
// through [Executors], so that the package depends on neither the Starlark
// interpreter nor the MCP client.
//
// Loading is strict and complete: unknown keys (with a did-you-mean), wrong
// types, bad module formats, missing files and programs, schemas that do
// not compile and duplicate ids are all found at load time, and all of
// them are reported at once, each as a *[ToolpackValidationError] naming
// the file, the line and the field:
//
//	toolpacks/slugify.yaml:7: execution.module: want "file.star:function", got "slugify.star"
//
// The format is read from the YAML node tree rather than decoded into Go
// structs by reflection: that is what gives every message a line and a
// dotted field, and what keeps the key order of schemas (the order of
// `properties` is the order of the tool's parameters).
package toolpack
