package web

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// mdConverter turns cleaned HTML into Markdown. It is safe for
// concurrent use, and built on the first page fetched, not at start-up
// (issue 20: a server that never fetches a page does not pay for it).
var mdConverter = sync.OnceValue(func() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		strikethrough.NewStrikethroughPlugin(),
		table.NewTablePlugin(
			table.WithHeaderPromotion(true),
			table.WithSkipEmptyRows(true),
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
			table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal),
			table.WithSpanCellBehavior(table.SpanBehaviorMirror),
		),
	))
})

// render converts an HTML document to Markdown or plain text: page chrome
// dropped, the main content chosen, the title as the first line.
func render(ctx context.Context, src string, page *url.URL, format string) (string, error) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return "", fmt.Errorf("cannot parse the HTML of %s: %v", shownURL(page), err)
	}
	title := pageTitle(doc)
	baseURL := baseOf(doc, page)
	clean(doc)
	content := mainContent(doc)

	var out string
	if format == "text" {
		out = toText(content)
		if title != "" && !strings.HasPrefix(out, title) {
			out = strings.TrimSpace(title + "\n\n" + out)
		}
	} else {
		md, err := mdConverter().ConvertNode(content, converter.WithDomain(baseURL.String()), converter.WithContext(ctx))
		if err != nil {
			return "", fmt.Errorf("cannot convert the HTML of %s to Markdown: %v (try format=\"text\" or \"raw\")", shownURL(page), err)
		}
		// The converter separates adjacent lists with a comment line;
		// readers of the text do not need it.
		out = strings.TrimSpace(listEnd().ReplaceAllString(string(md), ""))
		if title != "" && !startsWithHeading(out, title) {
			out = strings.TrimSpace("# " + escapeHeading(title) + "\n\n" + out)
		}
	}
	if out == "" || out == "# "+escapeHeading(title) || out == title {
		note := "(the page has no readable text: it may be built by JavaScript; format=\"raw\" shows its HTML source)"
		if out == "" {
			return note, nil
		}
		return out + "\n\n" + note, nil
	}
	return out, nil
}

// startsWithHeading: the Markdown begins with a heading (any level) of
// the same words as title.
func startsWithHeading(md, title string) bool {
	line, _, _ := strings.Cut(md, "\n")
	if !strings.HasPrefix(line, "#") {
		return false
	}
	line = strings.TrimLeft(line, "#")
	return normWords(line) == normWords(title)
}

func normWords(s string) string {
	s = strings.NewReplacer(`\`, "", "*", "", "_", "").Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// escapeHeading keeps a title from being read as Markdown markup.
func escapeHeading(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`", "<", `\<`).Replace(s)
}

// pageTitle is the <title>, else og:title, whitespace collapsed.
func pageTitle(doc *html.Node) string {
	var title, og string
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		switch n.DataAtom {
		case atom.Title:
			if title == "" {
				title = collapse(textContent(n))
			}
			return false
		case atom.Meta:
			if p := attr(n, "property"); og == "" && (p == "og:title" || attr(n, "name") == "twitter:title") {
				og = collapse(attr(n, "content"))
			}
		case atom.Svg:
			return false // its <title> names the drawing
		case atom.Body:
			return title == "" // look for og:title or a stray <title> only when needed
		}
		return true
	})
	if title == "" {
		title = og
	}
	if len(title) > 300 {
		title = excerpt(title, 200)
	}
	return title
}

// baseOf is the URL relative links resolve against: <base href>, else the
// page's own (final, after redirects) URL.
func baseOf(doc *html.Node, page *url.URL) *url.URL {
	var href string
	walk(doc, func(n *html.Node) bool {
		if href != "" {
			return false
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Base {
			href = strings.TrimSpace(attr(n, "href"))
		}
		return true
	})
	if href != "" {
		if b, err := page.Parse(href); err == nil && (b.Scheme == "http" || b.Scheme == "https") {
			return b
		}
	}
	return page
}

// dropped are elements that are never content.
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Iframe: true,
	atom.Frame: true, atom.Frameset: true, atom.Object: true, atom.Embed: true,
	atom.Template: true, atom.Svg: true, atom.Canvas: true, atom.Nav: true,
	atom.Aside: true, atom.Button: true, atom.Select: true, atom.Input: true,
	atom.Textarea: true, atom.Dialog: true, atom.Link: true, atom.Meta: true,
	atom.Menu: true, atom.Audio: true, atom.Video: true, atom.Map: true,
}

// droppedRoles are ARIA landmark roles of page chrome.
var droppedRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "search": true,
	"complementary": true, "menubar": true, "toolbar": true, "menu": true, "dialog": true, "alertdialog": true,
}

var listEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^<!--THE END-->\n*`) })

var hiddenStyle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*(;|$)`)
})

// clean removes page chrome and hidden elements from doc.
func clean(doc *html.Node) {
	var visit func(n *html.Node, inContent bool)
	visit = func(n *html.Node, inContent bool) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.CommentNode {
				n.RemoveChild(c)
			} else if c.Type == html.ElementNode {
				if isChrome(c, inContent) {
					n.RemoveChild(c)
				} else {
					visit(c, inContent || c.DataAtom == atom.Article || c.DataAtom == atom.Main || attr(c, "role") == "main")
				}
			}
			c = next
		}
	}
	visit(doc, false)
}

// isChrome: n is navigation, a banner, a form, hidden, or otherwise not
// part of what the page says. inContent: n is inside <article> or <main>,
// where <header> and <footer> belong to the text.
func isChrome(n *html.Node, inContent bool) bool {
	if dropped[n.DataAtom] {
		return true
	}
	switch n.DataAtom {
	case atom.Header, atom.Footer:
		if !inContent {
			return true
		}
	case atom.Form:
		// Some sites wrap the whole page in a form: keep one that holds
		// real text.
		return !holdsText(n)
	case atom.Img:
		src := strings.TrimSpace(attr(n, "src"))
		return src == "" || strings.HasPrefix(strings.ToLower(src), "data:")
	case atom.Head, atom.Title:
		return false
	}
	if droppedRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))] {
		return true
	}
	if hasAttr(n, "hidden") || attr(n, "aria-hidden") == "true" {
		return true
	}
	if st := attr(n, "style"); st != "" && hiddenStyle().MatchString(st) {
		return true
	}
	return false
}

func holdsText(n *html.Node) bool {
	found := false
	walk(n, func(c *html.Node) bool {
		if found {
			return false
		}
		if c.Type == html.ElementNode {
			switch c.DataAtom {
			case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Table, atom.Article, atom.Main, atom.Pre:
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// mainContent is the one <main> (or role="main") element when there is
// exactly one and it has text, else <body>, else the document.
func mainContent(doc *html.Node) *html.Node {
	var mains []*html.Node
	var body *html.Node
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode {
			return true
		}
		if n.DataAtom == atom.Body && body == nil {
			body = n
		}
		if n.DataAtom == atom.Main || attr(n, "role") == "main" {
			mains = append(mains, n)
			return false
		}
		return true
	})
	if len(mains) == 1 && strings.TrimSpace(textContent(mains[0])) != "" {
		return detach(mains[0])
	}
	if body != nil {
		return body
	}
	return doc
}

// detach puts n, alone, in a new document's body, so the converter sees
// a whole document.
func detach(n *html.Node) *html.Node {
	doc, _ := html.Parse(strings.NewReader("<html><head></head><body></body></html>"))
	var body *html.Node
	walk(doc, func(c *html.Node) bool {
		if c.Type == html.ElementNode && c.DataAtom == atom.Body {
			body = c
			return false
		}
		return true
	})
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
	body.AppendChild(n)
	return doc
}

// walk visits n and its descendants in document order; fn returning false
// skips the children of the node it was given.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

func textContent(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		return true
	})
	return b.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// ---- plain text ----

// textWriter builds readable plain text: whitespace collapsed, blocks on
// their own lines, at most one blank line in a row.
type textWriter struct {
	b       strings.Builder
	newline int  // line breaks wanted before the next text (0–2)
	space   bool // a space wanted before the next text on the line
	start   bool // nothing written yet
	prefix  string
	cells   int // depth of table cells being written
}

func toText(n *html.Node) string {
	w := &textWriter{start: true}
	w.node(n, &listState{})
	s := w.b.String()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	s = strings.Join(lines, "\n")
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return strings.TrimSpace(s)
}

// listState numbers the items of the list being written.
type listState struct {
	ordered bool
	next    int
	depth   int
}

func (w *textWriter) br(n int) {
	if w.start {
		return
	}
	w.newline = max(w.newline, n)
	w.space = false
}

func (w *textWriter) write(s string) {
	if s == "" {
		return
	}
	if w.newline > 0 {
		w.b.WriteString(strings.Repeat("\n", w.newline))
		w.newline = 0
		w.space = false
	} else if w.space {
		w.b.WriteByte(' ')
		w.space = false
	}
	if w.prefix != "" {
		w.b.WriteString(w.prefix)
		w.prefix = ""
	}
	w.b.WriteString(s)
	w.start = false
}

// text writes a text node's words, whitespace collapsed.
func (w *textWriter) text(s string) {
	if s == "" {
		return
	}
	lead := isSpace(s[0])
	trail := isSpace(s[len(s)-1])
	words := strings.Fields(s)
	if len(words) == 0 {
		if !w.start && w.newline == 0 {
			w.space = true
		}
		return
	}
	if lead && !w.start && w.newline == 0 {
		w.space = true
	}
	w.write(strings.Join(words, " "))
	w.space = trail
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' }

// pre writes preformatted text as it is.
func (w *textWriter) pre(s string) {
	s = strings.TrimPrefix(s, "\n")
	s = strings.TrimRight(s, "\n ")
	if s == "" {
		return
	}
	w.write(s)
}

func (w *textWriter) node(n *html.Node, list *listState) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.DocumentNode:
		w.children(n, list)
		return
	case html.ElementNode:
	default:
		return
	}
	switch n.DataAtom {
	case atom.Head, atom.Script, atom.Style, atom.Title, atom.Template:
		return
	case atom.Br:
		if w.start {
			return
		}
		if w.cells > 0 { // a table row stays on one line
			w.space = true
			return
		}
		w.b.WriteString(strings.Repeat("\n", max(w.newline, 1)))
		w.newline = 0
		w.space = false
		return
	case atom.Hr:
		w.br(2)
		return
	case atom.Img:
		return
	case atom.Pre:
		w.br(2)
		w.pre(textContent(n))
		w.br(2)
		return
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote,
		atom.Table, atom.Figure, atom.Dl, atom.Address, atom.Details, atom.Fieldset:
		w.br(2)
		w.children(n, list)
		w.br(2)
		return
	case atom.Ul, atom.Ol:
		inner := &listState{ordered: n.DataAtom == atom.Ol, next: 1, depth: list.depth + 1}
		if s, err := strconv.Atoi(attr(n, "start")); err == nil && inner.ordered {
			inner.next = s
		}
		if list.depth == 0 {
			w.br(2)
		} else {
			w.br(1)
		}
		w.children(n, inner)
		if list.depth == 0 {
			w.br(2)
		} else {
			w.br(1)
		}
		return
	case atom.Li:
		w.br(1)
		indent := strings.Repeat("  ", max(list.depth-1, 0))
		if list.ordered {
			w.prefix = fmt.Sprintf("%s%d. ", indent, list.next)
			list.next++
		} else {
			w.prefix = indent + "- "
		}
		w.children(n, list)
		w.prefix = ""
		w.br(1)
		return
	case atom.Tr:
		w.br(1)
		first := true
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
				if !first {
					w.write("|")
					w.space = true
				}
				first = false
				w.cells++
				w.children(c, list)
				w.cells--
				w.space = true
				continue
			}
			w.node(c, list)
		}
		w.br(1)
		return
	case atom.Td, atom.Th, atom.Caption:
		w.children(n, list)
		w.space = true
		return
	}
	if isBlock(n.DataAtom) {
		w.br(1)
		w.children(n, list)
		w.br(1)
		return
	}
	w.children(n, list)
}

func (w *textWriter) children(n *html.Node, list *listState) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c, list)
	}
}

func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Div, atom.Section, atom.Article, atom.Main, atom.Header, atom.Footer,
		atom.Body, atom.Html, atom.Dt, atom.Dd, atom.Figcaption, atom.Summary, atom.Hgroup,
		atom.Center, atom.Form, atom.Thead, atom.Tbody, atom.Tfoot, atom.Legend, atom.Search:
		return true
	}
	return false
}
