package web

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// kind is what a response's media type says about its content.
type kind int

const (
	kindUnknown kind = iota // no type: sniff the content
	kindHTML
	kindText
	kindBinary
)

// textTypes are application/* types that are text.
var textTypes = map[string]bool{
	"application/json":                  true,
	"application/xml":                   true,
	"application/javascript":            true,
	"application/x-javascript":          true,
	"application/ecmascript":            true,
	"application/yaml":                  true,
	"application/x-yaml":                true,
	"application/toml":                  true,
	"application/x-toml":                true,
	"application/sql":                   true,
	"application/graphql":               true,
	"application/x-ndjson":              true,
	"application/jsonl":                 true,
	"application/x-sh":                  true,
	"application/x-shellscript":         true,
	"application/x-tex":                 true,
	"application/x-latex":               true,
	"application/x-www-form-urlencoded": true,
	"application/csv":                   true,
	"application/x-csv":                 true,
	"application/x-subrip":              true,
	"application/x-python":              true,
	"application/x-ruby":                true,
	"application/x-perl":                true,
	"application/x-httpd-php":           true,
	"application/rss":                   true,
	"application/mbox":                  true,
	"message/rfc822":                    true,
}

// classify sorts a media type (lower case, without parameters).
func classify(mt string) kind {
	mt = strings.ToLower(strings.TrimSpace(mt))
	switch {
	case mt == "":
		return kindUnknown
	case mt == "text/html" || mt == "application/xhtml+xml":
		return kindHTML
	case strings.HasPrefix(mt, "text/"):
		return kindText
	case textTypes[mt], strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+yaml"):
		return kindText
	}
	return kindBinary
}

var xmlEncoding = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)
})

// decode turns a body into valid UTF-8: by its byte order mark, its
// declared charset, an XML declaration or (HTML) a <meta> charset; else
// UTF-8 when it is valid UTF-8, else Windows-1252.
func decode(body []byte, mt, label string, isHTML bool) string {
	name := ""
	switch {
	case bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")):
		name = "utf-8"
	case bytes.HasPrefix(body, []byte("\xFE\xFF")):
		name = "utf-16be"
	case bytes.HasPrefix(body, []byte("\xFF\xFE")):
		name = "utf-16le"
	case label != "":
		if _, n := charset.Lookup(label); n != "" {
			name = n
		}
	}
	if name == "" {
		head := body[:min(len(body), 1024)]
		if m := xmlEncoding().FindSubmatch(head); m != nil {
			if _, n := charset.Lookup(string(m[1])); n != "" {
				name = n
			}
		}
	}
	if name == "" {
		switch {
		case utf8.Valid(body):
			name = "utf-8"
		case isHTML:
			_, name, _ = charset.DetermineEncoding(body, "text/html")
		default:
			name = "windows-1252"
		}
	}
	var s string
	if name == "utf-8" {
		s = string(body)
	} else if enc, _ := charset.Lookup(name); enc != nil {
		out, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			s = string(body)
		} else {
			s = string(out)
		}
	} else {
		s = string(body)
	}
	s = strings.TrimPrefix(s, "\uFEFF")
	return strings.ToValidUTF8(s, "\uFFFD")
}

// looksBinary: text does not hold NUL bytes.
func looksBinary(s string) bool {
	return strings.IndexByte(s[:min(len(s), 8192)], 0) >= 0
}
