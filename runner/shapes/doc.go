// Package shapes learns the shape of the results of tools that declare
// none (no output schema, no Returns), so that a tool's stub line can show
// what it gives back — `-> list[{id: int, name?: str}]` rather than
// `-> any` — and ot.help can say the type was seen rather than declared.
//
// A shape holds key names and types only, never a value:
//
//   - a record is `{key: type}`, a key some results lack marked `key?`;
//   - a dict whose keys are data is `dict[str, T]`, never its keys: one
//     with more than 48 keys, or whose keys mostly look like values
//     (numbers, dates, emails, UUIDs and hashes, hosts, paths, sentences,
//     tokens, non-ASCII), or whose values are four or more records alike,
//     or whose keys, merged over results, are many and more than three
//     times those of any one result (ids that differ between calls);
//   - a key that looks like a value, or that the configuration's secret
//     redaction changes (or already replaced), is left out (`...`);
//   - lists by their elements' merged shape; unions of at most three
//     types (else `any`), int with float as float;
//   - bounded: four containers deep, 256 fields in all, 120 characters
//     rendered (depth given up first, then trailing keys).
//
// The shape is that of what a program receives: an MCP text part holding
// JSON was already decoded by mcpclient, so its shape is the JSON's; any
// other text is `str` — a string is never parsed (it is a value, and
// parsing costs).
//
// Looking is cheap and bounded: at most 1,024 values of one result (eight
// elements of a list, eight values of a dict keyed by data), every call
// while a shape is young or changing, one call in sixteen once it has
// settled; the store is written by a goroutine of the Learner's own,
// never on a tool call's time.
//
// What one process learns is merged into what the store holds (read,
// merge, write) when it changes and at most once a minute otherwise, so
// replicas that share a Redis store share what they learned, and it
// survives a restart; entries live DefaultTTL after their last write.
// Merging is a join (union of keys and types): two replicas' knowledge
// applied in either order, or twice, gives the same shape, so an update
// lost to a concurrent writer is only late — the loser writes it again at
// its next sync. What the store holds is checked like a result when read.
package shapes
