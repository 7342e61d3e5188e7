package pyops

// The web pack's variants: what urllib.request and requests send, each
// counted as web.fetch (policy, the tool-call budget, stats, metrics,
// traces, the audit log). Both take the path web.fetch takes: the allowed
// hosts and the SSRF guard checked before the request, at every redirect
// and at connect time, packs.web.max_bytes, packs.web.timeout and the
// run's memory meter. Every HTTP status is a result, not an error: the
// module decides (urlopen raises HTTPError for 4xx/5xx, requests does
// not). An absent key is its zero value.
//
// args (both):
//
//	"method"  string    "GET" (empty), "HEAD", "OPTIONS" (WebGet); "POST", "PUT", "PATCH", "DELETE" (WebSend)
//	"url"     string    http:// or https://
//	"headers" [][2]any  [[name, value], …] in order; a name may repeat
//	"timeout" float64   seconds, below packs.web.timeout (0: the pack's)
//	"follow"  bool      follow redirects (false: a 3xx is the result, as allow_redirects=False)
//	content             the request body (PutContent, at the top level of args); WebSend only
//
// result:
//
//	"status"     int64
//	"reason"     string    "Not Found"
//	"url"        string    the final URL, after redirects
//	"headers"    [][2]any  [[name, value], …], names canonical ("Content-Type")
//	content                the body (PutContent, at the top level), secrets redacted
//	"history"    []any     [{"status": int64, "url": string}, …] the redirects followed, first to last
//	"elapsed_ms" int64
//
// Errors carry ErrHostRefused (a host the rules refuse, a redirect to
// one included), ErrTimeout, ErrConnect, ErrRedirects, ErrBadURL or
// ErrBodyTooLarge (never a cut body); ErrDenied when a policy refuses
// the call (WebSend under a read_only policy).
const (
	// WebGet is a request that changes nothing: GET, HEAD or OPTIONS.
	// ReadOnly and OpenWorld, as web.fetch.
	WebGet = "web.fetch@get"
	// WebSend is a request with a body or an effect: POST, PUT, PATCH or
	// DELETE. OpenWorld, not ReadOnly: a read_only policy refuses it.
	WebSend = "web.fetch@send"
)
