package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z'
	}
	return unicode.IsLower(r)
}

// splitWords appends to dst the lower-cased words of s: runs of letters
// and digits, split where the case changes as identifiers do
// ("postMessage" → post message, "getHTTPResponse" → get http response).
func splitWords(s string, dst []string) []string {
	return scan(s, dst, nil)
}

// scan splits s as splitWords does and, when joined is not nil, calls it
// for each pair of words written with one hyphen between them
// ("on-call"), whose concatenation is a word too.
func scan(s string, dst []string, joined func(a, b string)) []string {
	start := -1
	prevEnd := -1 // end of the previous word, for hyphenated pairs
	var prev rune
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := toLower(s[start:end])
		if joined != nil && prevEnd >= 0 && prevEnd+1 == start && s[prevEnd] == '-' && len(dst) > 0 {
			joined(dst[len(dst)-1], w)
		}
		dst = append(dst, w)
		prevEnd = end
		start = -1
	}
	for i, r := range s {
		if !isAlnum(r) {
			flush(i)
			prev = r
			continue
		}
		if start >= 0 && isUpper(r) {
			// camelCase: a capital after a lower-case letter; an acronym
			// ends before the capital that starts the next word.
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if isLower(prev) || (isUpper(prev) && isLower(next)) {
				flush(i)
				prevEnd = -1 // a case change is no hyphen
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	flush(len(s))
	return dst
}

func toLower(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return lowerSlow(w)
		}
	}
	return w
}

func lowerSlow(w string) string {
	rs := []rune(w)
	for i, r := range rs {
		rs[i] = unicode.ToLower(r)
	}
	return string(rs)
}

// stemmer stems words with the Snowball English stemmer, remembering the
// stems while an index is built. Once the index is built it is only read
// (queries stem their few words without remembering them), so an Index
// is safe for concurrent searches.
type stemmer struct {
	cache map[string]string
}

func newStemmer() *stemmer { return &stemmer{cache: make(map[string]string, 1024)} }

// stem is the stem of a lower-case word, remembering it (building only).
func (st *stemmer) add(w string) string {
	if s, ok := st.cache[w]; ok {
		return s
	}
	s := stemWord(w)
	st.cache[w] = s
	return s
}

// stem is the stem of a lower-case word, without remembering it.
func (st *stemmer) stem(w string) string {
	if s, ok := st.cache[w]; ok {
		return s
	}
	return stemWord(w)
}

func stemWord(w string) string {
	if len(w) <= 3 {
		return w
	}
	return english.Stem(w, true)
}

// terms appends the stems of the words of s to dst, with the
// concatenation of each hyphenated pair ("on-call" → on, call, oncall).
// Stop words are dropped.
func (st *stemmer) terms(s string, dst []string) []string {
	if s == "" {
		return dst
	}
	var words [16]string
	var compounds []string
	ws := scan(s, words[:0], func(a, b string) { compounds = append(compounds, a+b) })
	for _, w := range ws {
		if !stopWords[w] {
			dst = append(dst, st.add(w))
		}
	}
	for _, c := range compounds {
		dst = append(dst, st.add(c))
	}
	return dst
}

// stopWords carry no meaning for finding a tool.
var stopWords = toSet(`a an the and or of to in on at by for with from into onto as via per
is are was were be been being do does did have has had can could would should will shall may might must
i me my mine we us our you your it its this that these those there here
what which who whom whose how when where why
all any some each every other another
please want wanted need needed like just also then than so too very
up out about using use`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range splitWords(words, nil) {
		m[w] = true
	}
	return m
}

// The thesaurus: groups of words agents use for the same thing. A query
// word matches the other words of its groups, at a discount: the words of
// a "same" group are near-equivalents (ticket and issue, meeting and
// event), those of a "related" group only often mean the same (list and
// get, create and add). Only the common verbs of tool names and the nouns
// of everyday services are here: a thesaurus of the domain, not of a test
// set.
var sameGroups = [][]string{
	{"delete", "remove", "erase", "destroy"},
	{"update", "edit", "modify", "change", "alter"},
	{"cancel", "abort", "halt"},
	{"retry", "rerun", "restart"},
	{"mute", "silence", "snooze", "suppress"},
	{"reply", "respond", "answer"},
	{"react", "reaction"},
	{"email", "mail", "inbox"},
	{"ticket", "issue"},
	{"meeting", "event", "appointment"},
	{"user", "person", "people", "someone", "colleague", "coworker", "teammate", "employee"},
	{"folder", "directory"},
	{"customer", "client", "buyer", "payer"},
	{"repository", "repo", "codebase"},
	{"channel", "conversation"},
	{"label", "tag"},
	{"version", "revision"},
	{"coupon", "discount", "promo"},
	{"oncall", "pager"},
	{"incident", "outage"},
	{"lead", "prospect"},
	{"deal", "opportunity"},
	{"company", "organization", "org"},
	{"info", "information", "details", "metadata"},
	{"link", "url"},
	{"status", "state"},
	{"environment", "production", "staging", "prod"},
	{"storage", "drive"},
	{"backup", "dump", "snapshot"},
	{"restore", "recover", "undelete"},
	{"rollback", "revert"},
	{"column", "field"},
	{"free", "available", "availability"},
	{"error", "failure", "fail", "failed", "exception", "crash"},
	{"unpaid", "outstanding", "due"},
}

var relatedGroups = [][]string{
	{"list", "get", "show", "fetch", "find", "search", "retrieve", "read", "view", "lookup", "see", "display", "query", "browse", "check"},
	{"create", "add", "new", "make", "open", "insert", "write", "declare", "compose", "start", "initiate", "register", "schedule", "book"},
	{"delete", "drop", "trash", "discard", "purge", "cancel"},
	{"update", "set", "rename", "adjust", "reschedule", "upgrade", "downgrade", "move"},
	{"send", "post", "deliver", "publish", "share"},
	{"cancel", "stop", "kill", "terminate", "end"},
	{"run", "execute", "trigger", "launch", "kick", "start"},
	{"retry", "rebuild", "resume"},
	{"approve", "accept", "confirm"},
	{"deploy", "ship", "rollout", "promote"},
	{"download", "export", "save"},
	{"upload", "attach", "put"},
	{"count", "many", "number", "total", "tally"},
	{"invite", "attendee", "guest"},
	{"message", "chat", "post"},
	{"ticket", "bug", "task"},
	{"meeting", "call", "invitation"},
	{"user", "member", "account"},
	{"file", "document", "doc", "object"},
	{"storage", "cloud", "file"},
	{"pay", "payment", "charge", "purchase", "checkout"},
	{"build", "pipeline", "job", "ci"},
	{"version", "history"},
	{"comment", "note", "remark"},
	{"alert", "alarm"},
	{"deal", "sale"},
	{"company", "account"},
	{"unpaid", "open"},
	{"slow", "latency", "performance"},
}

// synonyms maps the stem of a word to the stems of the other words of its
// groups and what a match of each counts. It is built once, only read.
var synonyms = buildSynonyms(map[float64][][]string{sameRate: sameGroups, relatedRate: relatedGroups})

const (
	sameRate    = 0.8
	relatedRate = 0.4
)

type synonym struct {
	stem string
	rate float64
}

func buildSynonyms(tiers map[float64][][]string) map[string][]synonym {
	m := map[string][]synonym{}
	add := func(w, o string, rate float64) {
		for i, s := range m[w] {
			if s.stem == o {
				m[w][i].rate = max(s.rate, rate)
				return
			}
		}
		m[w] = append(m[w], synonym{o, rate})
	}
	for rate, groups := range tiers {
		for _, g := range groups {
			for _, w := range g {
				sw := stemWord(w)
				for _, o := range g {
					if so := stemWord(o); so != sw {
						add(sw, so, rate)
					}
				}
			}
		}
	}
	// The same order every time (maps have none): best first, then by stem.
	for _, syns := range m {
		slices.SortFunc(syns, func(a, b synonym) int {
			if a.rate != b.rate {
				return cmp.Compare(b.rate, a.rate)
			}
			return strings.Compare(a.stem, b.stem)
		})
	}
	return m
}

// abbreviations are short forms agents write for what tools spell out.
var abbreviations = map[string]string{
	"pr": "pull request", "prs": "pull requests", "mr": "merge request",
	"repo": "repository", "repos": "repositories",
	"dm": "direct message", "dms": "direct messages",
	"db": "database", "msg": "message", "msgs": "messages",
	"cfg": "config", "env": "environment", "envs": "environments",
	"perms": "permissions", "org": "organization", "orgs": "organizations",
	"rsvp": "respond", "ooo": "out of office", "eod": "end of day",
}
