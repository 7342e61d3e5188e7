package file

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// read returns lines offset.. of a text file, exactly as stored (each
// with its line ending), at most limit lines and MaxReadOutput bytes,
// then a note with the call that reads the next page.
func (p *pack) read(ctx context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	offset, err := intArg(args, "offset", 1, 1)
	if err != nil {
		return nil, err
	}
	limit, err := intArg(args, "limit", 2000, 1)
	if err != nil {
		return nil, err
	}
	loc, err := p.locate(path, false)
	if err != nil {
		return nil, err
	}
	root, err := openRoot(loc)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, _, err := readRegular(ctx, p.guardFor(loc), root, loc.Rel, path, MaxReadFile, "file.read reads: use file.grep to find the lines you need")
	if err != nil {
		return nil, err
	}
	if isBinary(data) {
		return nil, fmt.Errorf("%s is a binary file (%s): file.read shows text only; file.info gives its size and type", path, formatBytes(int64(len(data))))
	}
	// Lines are counted and cut in the text as the program may see it:
	// a cut through a secret would show its first part.
	if data, err = p.visible(ctx, data); err != nil {
		return nil, err
	}
	return pageLines(data, path, offset, limit)
}

// pageLines cuts the page out of data.
func pageLines(data []byte, path string, offset, limit int) (string, error) {
	total := countLines(data)
	if total == 0 {
		return "", nil
	}
	if offset > total {
		return "", fmt.Errorf("%s has %s: offset must be between 1 and %d", path, plural(total, "line", "lines"), total)
	}
	var out strings.Builder
	rest := data
	line := 0
	for len(rest) > 0 && line < offset-1 { // skip to the first line wanted
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			rest = nil
			break
		}
		rest = rest[i+1:]
		line++
	}
	shown, full := 0, false
	for len(rest) > 0 && shown < limit {
		i := bytes.IndexByte(rest, '\n')
		var l []byte
		if i < 0 {
			l, rest = rest, nil
		} else {
			l, rest = rest[:i+1], rest[i+1:]
		}
		if len(l) > MaxLineLen {
			l = cutLine(l)
		}
		if shown > 0 && out.Len()+len(l) > MaxReadOutput {
			full = true // l is not shown: the next page starts with it
			break
		}
		out.Write(l)
		shown++
	}
	if len(rest) > 0 || full {
		next := offset + shown
		more := total - next + 1
		if s := out.String(); !strings.HasSuffix(s, "\n") {
			out.WriteByte('\n')
		}
		fmt.Fprintf(&out, "… (%s: file.read(path=%q, offset=%d))", plural(more, "more line", "more lines"), path, next)
	}
	return out.String(), nil
}

// countLines counts lines: a last line without a newline counts.
func countLines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// cutLine shortens a line longer than MaxLineLen, keeping its ending.
func cutLine(l []byte) []byte {
	end := ""
	body := l
	if bytes.HasSuffix(body, []byte("\r\n")) {
		body, end = body[:len(body)-2], "\r\n"
	} else if bytes.HasSuffix(body, []byte("\n")) {
		body, end = body[:len(body)-1], "\n"
	}
	cut := MaxLineLen
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	out := make([]byte, 0, cut+64)
	out = append(out, body[:cut]...)
	out = fmt.Appendf(out, "… (line cut: %d more bytes)%s", len(body)-cut, end)
	return out
}
