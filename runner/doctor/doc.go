// Package doctor checks a configuration against the machine it is to run
// on, before anything uses it: `onetool doctor`.
//
// `onetool config check` reads the file alone (shapes, types, names,
// aliases, snippet templates). What it cannot see fails only at first
// use, in the middle of a model's program: a project directory that does
// not exist, a database file that is missing or that onetool's own files
// hold (a path inside .onetool/), a database that cannot be opened
// read-only, a server command that is not on PATH, an upstream server
// that never answers MCP initialize, a ${NAME} that no secret and no
// variable of the environment defines. [Run] looks for all of them at
// once and reports every one it finds, each at the file and line of the
// key in the configuration, in the form of the loader's errors:
//
//	onetool.yaml:7: projects.api: /srv/api does not exist; create it, or fix the path
//
// A check never writes: databases are opened read-only (a SQLite file
// with mode=ro and query_only, through the db pack itself), nothing is
// created, and the upstream servers are the ones the runner starts
// anyway, asked only for initialize and their tool list through the MCP
// client (packs/mcpclient). The slow checks (servers, databases) run in
// parallel, each bounded by its own timeout (servers.<name>.timeout,
// packs.db.timeout).
//
// An unset ${NAME} does not stop the other checks: the configuration is
// read again with a stand-in value for each unset variable, and what is
// found at a key that holds one is left out, since it says nothing about
// the real value (see load).
package doctor
