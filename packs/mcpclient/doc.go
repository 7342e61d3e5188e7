// Package mcpclient is onetool's client for upstream MCP servers: the
// servers configured under `servers:` whose tools onetool exposes as
// Starlark packs (SPEC §4.5).
//
// A [Manager] owns one [Server] per configured entry. [Manager.Start]
// connects every server in the background and returns at once, so that
// onetool's own MCP server can answer while slow upstreams (an `npx`
// download, a remote endpoint) are still starting. A caller that needs a
// server — [Server.Tools], [Server.Call] — waits for it at most the
// server's Timeout; a server that failed answers at once with an error
// wrapping [ErrNotConnected] and is retried, with exponential backoff, by
// a later call. A server process that dies is restarted by the next call.
//
// Life cycle of a server, as [Server.Status] reports it:
//
//	idle ──Start/first use──▶ connecting ──▶ connected ──process died──▶ exited
//	                              │   ▲                                    │
//	                              ▼   └──────────next call (backoff)───────┘
//	                            failed ──next call after backoff──▶ connecting
//
// and any state ──Manager.Close──▶ closed.
//
// Stdio servers run with a minimal environment (PATH and HOME plus the
// entry's env), in their own process group, with stderr kept in a small
// ring buffer for error messages; Close ends every process (stdin EOF,
// SIGTERM, SIGKILL) so that onetool never leaves one behind. HTTP servers
// use the streamable HTTP transport with the entry's headers.
//
// Results are converted to plain Go values that keep JSON key order
// (objects are *ordered.Map): see [Server.Call]. Tool names are matched
// exactly, then canonically (listItems = list-items = list_items): see
// [MatchTool] and [Canonical].
//
// Everything here is safe for concurrent use.
package mcpclient
