// Package config finds, reads and checks onetool.yaml, the file that
// configures packs, upstream servers, aliases, snippets, projects, limits
// and serving (SPEC §9).
//
// The flow is [Find] (where is the file?), then [Load] (read it, follow its
// include: list, expand ${NAME} references from secrets.yaml and the
// environment, and decode it strictly), then [Config.Effective] for
// `onetool config check`. Load never stops at the first problem: it returns
// every *[Error] it finds, each naming a file, a line and a dotted key, so a
// user can fix a file in one pass:
//
//	onetool.yaml:12: limits.timout: unknown key; did you mean 'timeout'?
//
// Decoding walks the YAML node tree by hand instead of using reflection,
// because that is what makes precise messages possible ("want a list of
// strings, got a mapping") and lets every value remember the file it came
// from after includes are merged.
//
// The package knows nothing of packs or Starlark. It checks what can be
// checked from the file alone — shapes, types, units, names, alias cycles —
// and leaves the rest (do alias targets exist? do snippet templates
// compile? are a pack's own settings valid?) to the code that owns those
// things.
//
// Secret values are loaded into [Secrets], which refuses to print them:
// Effective shows [secret:NAME] in their place and [Secrets.Redact] scrubs
// them from any text.
package config
