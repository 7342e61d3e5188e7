package config

import (
	"fmt"
	"strings"
	"time"
)

// Built-in defaults of SPEC §8.1 and §7.3. [Limits] and [Output] leave a
// field nil when the file does not set it; callers fall back to these.
const (
	DefaultMaxSteps     uint64   = 1_000_000_000
	DefaultTimeout               = 30 * time.Second
	DefaultMaxOutput    ByteSize = 1 << 20
	DefaultMaxToolCalls          = 1000
	DefaultMaxIOOps              = 100_000
	DefaultMaxParallel           = 16
	DefaultMaxMemory    ByteSize = 512 << 20
	DefaultMaxInline             = 20000
	DefaultMaxIntDigits          = 5000
	DefaultSessionIdle           = 30 * time.Minute
	DefaultMaxSessions           = 1000
	DefaultDrainTimeout          = 30 * time.Second
)

// Defaults of HTTP requests (serve.read_timeout, serve.idle_timeout,
// serve.max_body) and of the state sessions keep (serve.session_memory,
// serve.session_memory_total; SPEC §8.4).
const (
	DefaultReadTimeout                 = 30 * time.Second
	DefaultIdleTimeout                 = 2 * time.Minute
	DefaultMaxBody            ByteSize = 4 << 20
	DefaultSessionMemory      ByteSize = 256 << 20
	DefaultSessionMemoryTotal ByteSize = 1 << 30
)

// Config is a loaded onetool.yaml with its includes merged, ${NAME}
// references expanded and every path made absolute. Build one with [Load]
// or [Default]; the zero value is not meant to be used.
type Config struct {
	// Path is the file loaded; "" when only built-in defaults apply.
	Path string
	// Dir is Path's directory, the base of relative paths; "" means the
	// working directory.
	Dir string
	// Files lists every file read: Path first, then each include in the
	// order it was loaded. Useful to show or to watch for changes.
	Files []string

	// Version is the file's `version:`; 0 when not written. Only 1 exists.
	Version int
	// Packs holds per-pack settings by pack name (yaml "packs").
	Packs map[string]*Pack
	// Toolpacks lists directories of declarative toolpacks, absolute. A
	// `toolpacks/` directory beside the config file is appended when it
	// exists.
	Toolpacks []string
	// Servers are upstream MCP servers by name (yaml "servers").
	Servers map[string]*Server
	// Aliases maps a global name to a tool id ("pack.fn") or to another
	// alias. Only alias cycles are checked here; whether a target exists is
	// checked by the code that binds aliases.
	Aliases map[string]string
	// Snippets are `$name` templates (SPEC §5.2) by name.
	Snippets map[string]*Snippet
	// Projects maps a project name to an absolute directory (SPEC §5.3).
	Projects map[string]string
	// Limits are per-run budgets; unset fields are nil.
	Limits Limits
	// Output controls large results and statistics.
	Output Output
	// Serve configures `onetool serve`.
	Serve Serve
	// Security holds safety switches.
	Security Security
	// Isolation is "process" (worker processes), "none" (in-process) or
	// "" (not written: the server chooses, see isolate.Choose; SPEC §8.5).
	Isolation string
	// Store is where large results, the deterministic cache and rate
	// counters live (SPEC §7.4): "" or "memory" (in this process), or a
	// redis:// URL that every replica shares. yaml "store".
	Store string
	// Policies are what principals authenticated over HTTP may do, by
	// policy name (yaml "policies", SPEC §7.4).
	Policies map[string]*Policy
	// Secrets are the values of secrets.yaml; nil when there is none. They
	// are never printed: see [Secrets].
	Secrets *Secrets

	// masks maps a value's key path (keyPath.id) to the text shown in
	// place of a value that was built from a secret.
	masks map[string]string
	// scrub holds every value of secrets.yaml and the environment the file
	// used, which Problem's messages never show.
	scrub *Secrets
	// keys records where each dotted key ("aliases.ws") was written, for
	// problems found by code outside this package (see Problem).
	keys    map[string]pos
	workDir string
}

// Problem returns a problem at the place key (a dotted key such as
// "aliases.ws" or "snippets.pkg.body") was written, for checks that only
// the code using the configuration can make: alias targets that must be
// tools, snippet templates that must compile. It names the file and line
// like every load error.
func (c *Config) Problem(key, format string, args ...any) *Error {
	e := &Error{File: c.Path, Key: key, Msg: fmt.Sprintf(format, args...)}
	if at, ok := c.keys[key]; ok {
		e.File, e.Line, e.Column = at.File, at.Line, at.Column
	}
	return shownFrom(c.workDir, scrub(c.scrub, e))
}

// Where names where key is set, as problems do: "onetool.yaml:2:
// packs.file" (the key alone when no file sets it).
func (c *Config) Where(key string) string {
	return strings.TrimSuffix(c.Problem(key, "").Error(), ": ")
}

// Pack is the `packs.<name>` section: settings every pack understands plus
// whatever else the pack reads from Settings.
type Pack struct {
	// Enabled turns the pack on or off; nil means on.
	Enabled *bool
	// AllowedDirs are extra roots for file access (SPEC §8.2), absolute.
	AllowedDirs []string
	// ReadOnly refuses writes; nil means the pack's default (file:
	// writable, db: read-only).
	ReadOnly *bool
	// Backups keeps a copy before overwrites and deletes; nil means on.
	Backups *bool
	// Settings holds every other key of the section, decoded to string,
	// int64, float64, bool, nil, []any and map[string]any. The pack
	// validates them; this package cannot know which keys it accepts.
	Settings map[string]any
}

// Server is an upstream MCP server (SPEC §4.5). Exactly one of Command
// (a stdio server) and URL (a streamable HTTP server) is set.
type Server struct {
	Command string            // stdio: program to run
	Args    []string          // stdio: its arguments
	Env     map[string]string // stdio: added to a minimal PATH+HOME environment
	Cwd     string            // stdio: working directory, absolute; "" = inherit

	URL     string            // HTTP: endpoint
	Headers map[string]string // HTTP: sent with every request

	Timeout     Duration // connect and call timeout; 0 = the caller's default
	Enabled     *bool    // nil means on
	ToolPrefix  string   // yaml "tool_prefix": tried when a tool name does not match
	Description string   // shown by ot.servers()
}

// IsEnabled reports whether the server should be started.
func (s *Server) IsEnabled() bool { return s != nil && (s.Enabled == nil || *s.Enabled) }

// Transport is "stdio" or "http".
func (s *Server) Transport() string {
	if s.URL != "" {
		return "http"
	}
	return "stdio"
}

// Snippet is a `$name` template (SPEC §5.2). Body is kept exactly as
// written: ${...} in it is not expanded, because it is template code.
type Snippet struct {
	Description string
	Params      []SnippetParam // in the order written in the file
	Body        string
}

// SnippetParam declares one snippet parameter. A parameter without a
// default is required.
type SnippetParam struct {
	Name        string
	Type        string // "string", "integer", "number" or "boolean"
	Description string
	// Default is string, int64, float64, bool or nil (an explicit null),
	// matching Type. Meaningful only when HasDefault is true.
	Default    any
	HasDefault bool
}

// Limits are per-run budgets (SPEC §8.1). A nil field was not set in the
// file; the caller applies the Default* constants.
type Limits struct {
	MaxSteps     *uint64   // yaml "max_steps"
	Timeout      *Duration // yaml "timeout"
	MaxOutput    *ByteSize // yaml "max_output": bytes of printed text
	MaxToolCalls *int      // yaml "max_tool_calls"
	MaxIOOps     *int      // yaml "max_io_ops": file operations of Python's own APIs (open, os, pathlib)
	MaxParallel  *int      // yaml "max_parallel"
	MaxMemory    *ByteSize // yaml "max_memory": heap growth per run
	MaxIntDigits *int      // yaml "max_int_digits": decimal digits of an integer
}

// Output controls what happens to results (SPEC §7.2, §7.3).
type Output struct {
	// MaxInline is the longest result returned inline, in characters; nil
	// means DefaultMaxInline.
	MaxInline *int
	// StatsFile is where run statistics are appended as JSON lines,
	// absolute; "" means not written.
	StatsFile string
}

// Serve configures `onetool serve` (SPEC §7.1, §8.4).
type Serve struct {
	SessionState bool // yaml "session_state": keep globals across runs of a session
	// SessionIdle ends an HTTP session after this long without a request;
	// nil means DefaultSessionIdle.
	SessionIdle *Duration // yaml "session_idle"
	// MaxSessions caps the HTTP sessions of one principal alive at once
	// (its longest idle is ended first); nil means DefaultMaxSessions.
	MaxSessions       *int   // yaml "max_sessions"
	StructuredContent bool   // yaml "structured_content": also return {"result": value}
	HTTP              string // yaml "http": listen address such as "127.0.0.1:8080"; "" = stdio
	Stateless         bool   // yaml "stateless": stateless streamable HTTP
	LogLevel          string // yaml "log_level": debug, info, warn or error; "" = default
	// DrainTimeout bounds how long SIGTERM (or the end of stdin) waits
	// for runs in flight before cancelling them; nil means
	// DefaultDrainTimeout.
	DrainTimeout *Duration // yaml "drain_timeout"
	// Auth turns on authentication over HTTP (yaml "auth", SPEC §7.4);
	// nil means every request is served, as before.
	Auth *Auth
	// RateLimit bounds the runs of each principal over HTTP (yaml
	// "rate_limit", SPEC §7.4); nil means no bound.
	RateLimit *RateLimit
	// SessionMemory bounds what the sessions of one principal keep
	// (session_state) together, SessionMemoryTotal what all sessions
	// keep (SPEC §8.4); nil means DefaultSessionMemory and
	// DefaultSessionMemoryTotal.
	SessionMemory      *ByteSize // yaml "session_memory"
	SessionMemoryTotal *ByteSize // yaml "session_memory_total"
	// ReadTimeout bounds how long an HTTP request takes to arrive,
	// IdleTimeout how long a kept-alive connection waits for its next,
	// MaxBody the size of a request body; nil means the defaults.
	ReadTimeout *Duration // yaml "read_timeout"
	IdleTimeout *Duration // yaml "idle_timeout"
	MaxBody     *ByteSize // yaml "max_body"
}

// RateLimit is `serve.rate_limit`: how many runs one principal may start
// per minute and have in flight at once. Zero leaves that bound off.
type RateLimit struct {
	RunsPerMinute int // yaml "runs_per_minute"
	Concurrent    int // yaml "concurrent"
}

// Auth is `serve.auth`: who may call the HTTP server. Static tokens are
// one way in, OAuth access tokens another; both may be set.
type Auth struct {
	// Tokens are static bearer tokens, in the order written (yaml "tokens").
	Tokens []Token
	// OAuth makes onetool an OAuth 2.1 resource server (yaml "oauth");
	// nil: only static tokens are accepted.
	OAuth *OAuth
	// MetricsToken, when set, is the bearer token GET /metrics needs
	// (yaml "metrics_token"); "" leaves /metrics open.
	MetricsToken string
	// AuditLog is where one JSON line per authenticated run is appended,
	// absolute (yaml "audit_log"); "" means not written.
	AuditLog string
	// AuditArguments adds each tool call's arguments, secrets redacted,
	// to the audit log (yaml "audit_arguments"); off by default.
	AuditArguments bool
}

// OAuth is `serve.auth.oauth`: JWT access tokens of one issuer, checked
// against its published keys.
type OAuth struct {
	// Issuer is the authorization server's issuer URL (yaml "issuer"):
	// https, or http on a loopback host.
	Issuer string
	// Audience is this server's public URL as tokens name it in aud
	// (yaml "audience"); its scheme and host are where clients find the
	// protected resource metadata.
	Audience string
	// Scopes must all be granted by a token (yaml "scopes").
	Scopes []string
	// PolicyClaim is the claim that names a token's policy (yaml
	// "policy_claim"); "" means none is read.
	PolicyClaim string
	// DefaultPolicy applies to a token without PolicyClaim (yaml
	// "default_policy"); "" means such a token is refused.
	DefaultPolicy string
}

// Token is one static bearer token of serve.auth.tokens: who presents it
// (Name, used in logs and stats), the secret itself and the policy that
// applies to its runs.
type Token struct {
	Name   string // yaml "name"
	Token  string // yaml "token": a secret; never printed
	Policy string // yaml "policy": a key of policies
}

// Policy is one entry of `policies:`: which tools a principal may call
// and under which budgets.
type Policy struct {
	// Allow are glob patterns over tool ids ("*", "ot.*", "file.read*");
	// a tool is callable when one matches. Empty allows nothing.
	Allow []string // yaml "allow"
	// ReadOnly refuses every tool not annotated read-only.
	ReadOnly bool // yaml "read_only"
	// Limits replace the run's budgets field by field for this policy's
	// runs; unset fields keep the run's.
	Limits Limits // yaml "limits"
	// Isolation is "process" when the policy's runs must run in worker
	// processes (SPEC §8.5), "" otherwise.
	Isolation string // yaml "isolation"
}

// Security holds safety switches.
type Security struct {
	// ConfirmDestructive asks before tools annotated destructive run.
	ConfirmDestructive bool // yaml "confirm_destructive"
	// Environ names the environment variables a program may read through
	// os.environ and os.getenv (yaml "environ"); none by default. A
	// variable whose value is a configured secret is never shown.
	Environ []string
}

// Default returns the configuration used when no file exists: everything
// unset, maps empty and non-nil.
func Default() *Config {
	return &Config{
		Packs:    map[string]*Pack{},
		Servers:  map[string]*Server{},
		Aliases:  map[string]string{},
		Snippets: map[string]*Snippet{},
		Projects: map[string]string{},
		Policies: map[string]*Policy{},
		masks:    map[string]string{},
	}
}

// PackEnabled reports whether the pack called name is on. Packs are on
// unless `packs.<name>.enabled: false` (or `packs.<name>: false`) says
// otherwise.
func (c *Config) PackEnabled(name string) bool {
	if c == nil {
		return true
	}
	p := c.Packs[name]
	return p == nil || p.Enabled == nil || *p.Enabled
}
