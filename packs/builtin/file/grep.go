package file

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxGrepRead bounds the bytes one grep reads over all files.
const MaxGrepRead = 256 << 20

// maxShownLine bounds how much of a long line grep shows: a window
// around the match, with "…" where the line goes on.
const maxShownLine = 400

// MaxGrepOutput bounds the text of one grep result (bytes); matches past
// it are counted in the last note, as past limit.
const MaxGrepOutput = 256 << 10

// grepper is one grep call's state.
type grepper struct {
	ctx       context.Context
	g         *guard // onetool's own files are neither walked nor read
	re        *regexp.Regexp
	context   int
	limit     int
	filesOnly bool
	visible   func(context.Context, []byte) ([]byte, error) // the text as a program may see it

	out     []any
	size    int // bytes in out
	shown   int // matches (or files) shown
	more    int // matches (or files) not shown
	read    int64
	stopped bool // MaxGrepRead or MaxScan reached
}

func (p *pack) grep(ctx context.Context, args map[string]any) (any, error) {
	pattern, err := strArg(args, "pattern")
	if err != nil {
		return nil, err
	}
	dir, err := optStr(args, "path", ".")
	if err != nil {
		return nil, err
	}
	include, err := compileGlobs(args, "include")
	if err != nil {
		return nil, err
	}
	exclude, err := compileGlobs(args, "exclude")
	if err != nil {
		return nil, err
	}
	useIgnore, err := boolArg(args, "gitignore", true)
	if err != nil {
		return nil, err
	}
	ignoreCase, err := boolArg(args, "ignore_case", false)
	if err != nil {
		return nil, err
	}
	literal, err := boolArg(args, "literal", false)
	if err != nil {
		return nil, err
	}
	filesOnly, err := boolArg(args, "files_only", false)
	if err != nil {
		return nil, err
	}
	around, err := intArg(args, "context", 0, 0)
	if err != nil {
		return nil, err
	}
	limit, err := limitArg(args, 200)
	if err != nil {
		return nil, err
	}
	if pattern == "" {
		return nil, fmt.Errorf("'pattern' is empty: give a regular expression or, with literal=True, a text to find")
	}
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v: grep uses Go (RE2) syntax, without lookaround or backreferences; pass literal=True to search for the text as it is", pattern, unwrapRegexp(err))
	}
	loc, root, st, err := p.dirTarget(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	s := &grepper{ctx: ctx, g: p.guardFor(loc), re: re, context: min(around, 10), limit: limit, filesOnly: filesOnly, visible: p.visible}
	switch {
	case st.Mode().IsRegular():
		if err := s.file(root, filepath.ToSlash(loc.Rel), dir, true); err != nil {
			return nil, err
		}
	case st.IsDir():
		prefix := prefixFor(dir)
		start := filepath.ToSlash(loc.Rel)
		var ig *ignorer
		if useIgnore {
			ig = newIgnorer(ctx, s.g, root, start)
		}
		mentions := func(name string) bool { return include.mentions(name) }
		enter := func(rel, sub string) bool {
			if s.stopped || skipped(rel, mentions) || exclude.any(sub, true) {
				return false
			}
			if include != nil && !include.mayMatchUnder(sub) {
				return false
			}
			if ig != nil {
				ig.enter(rel)
			}
			return true
		}
		capped, err := walk(ctx, s.g, root, start, enter, ig.filter(), func(rel, sub string, d fs.DirEntry) error {
			if s.stopped {
				return fs.SkipAll
			}
			if !d.Type().IsRegular() {
				return nil // links are not followed; pipes and devices never opened
			}
			if include != nil && !include.any(sub, false) || exclude.any(sub, false) {
				return nil
			}
			return s.file(root, rel, prefix+sub, false)
		})
		if err != nil {
			return nil, walkErr(err, dir)
		}
		s.stopped = s.stopped || capped
	default:
		return nil, notRegular(dir, st.Mode())
	}
	one, many := "match", "matches"
	if filesOnly {
		one, many = "file", "files"
	}
	if s.more > 0 {
		hint := "narrow the pattern, path, include= or exclude=, or raise limit"
		if s.size >= MaxGrepOutput {
			hint = fmt.Sprintf("the result is full (%s): narrow the pattern, path, include= or exclude=, or pass files_only=True", formatBytes(MaxGrepOutput))
		}
		s.out = append(s.out, moreNote(s.more, s.stopped, one, many, hint))
	} else if s.stopped {
		s.out = append(s.out, "… the search stopped early (too much to read): narrow path, include= or exclude=")
	}
	if s.out == nil {
		s.out = []any{}
	}
	return s.out, nil
}

func unwrapRegexp(err error) string {
	msg := err.Error()
	return strings.TrimPrefix(msg, "error parsing regexp: ")
}

// file searches one file (rel is relative to root, slash-separated);
// alone says it is the only one, so that a file that cannot be searched
// is an error rather than skipped.
func (s *grepper) file(root *os.Root, rel, name string, alone bool) error {
	if err := s.ctx.Err(); err != nil {
		return stopped(s.ctx)
	}
	// Opened through the os.Root, without blocking, and checked: a file
	// swapped for a link that leads outside, or for a pipe, is not read.
	f, st, err := openRegular(s.g, root, filepath.FromSlash(rel), name)
	if err != nil {
		if alone {
			return err
		}
		return nil
	}
	defer f.Close()
	if st.Size() > MaxGrepFile {
		if alone {
			return fmt.Errorf("%s is %s, more than the %s grep searches: read it in pages with file.read", name, formatBytes(st.Size()), formatBytes(MaxGrepFile))
		}
		return nil
	}
	if s.read+st.Size() > MaxGrepRead {
		s.stopped = true
		return nil
	}
	var buf bytes.Buffer
	if _, err := copyCtx(s.ctx, &buf, io.LimitReader(f, MaxGrepFile)); err != nil {
		if s.ctx.Err() != nil {
			return stopped(s.ctx)
		}
		if alone {
			return fsErr(err, name)
		}
		return nil
	}
	data := buf.Bytes()
	s.read += int64(len(data))
	if isBinary(data) {
		if alone {
			return fmt.Errorf("%s is a binary file: grep searches text files", name)
		}
		return nil
	}
	// The pattern runs over the text as the program may see it, secrets
	// hidden: were it to run over the file as stored, whether it matches
	// would reveal a secret a character at a time, although every line
	// shown is redacted.
	if data, err = s.visible(s.ctx, data); err != nil {
		if s.ctx.Err() != nil {
			return stopped(s.ctx)
		}
		return err
	}
	s.lines(data, name)
	return nil
}

// lines searches data, adding what it shows to s.out.
func (s *grepper) lines(data []byte, name string) {
	lineNo, lastShown, after := 0, 0, 0
	for pos := 0; pos < len(data); {
		lineNo++
		if lineNo%4096 == 0 && s.ctx.Err() != nil {
			return
		}
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(data)
		}
		line := bytes.TrimSuffix(data[pos:end], []byte{'\r'})
		if m := s.re.FindIndex(line); m != nil {
			if s.filesOnly {
				if s.shown < s.limit && s.size < MaxGrepOutput {
					s.add(name)
					s.shown++
				} else {
					s.more++
				}
				return
			}
			if s.shown >= s.limit || s.size >= MaxGrepOutput {
				s.more++
				after = 0
				pos = next
				continue
			}
			if s.context > 0 {
				from := max(lastShown+1, lineNo-s.context)
				if lastShown > 0 && from > lastShown+1 {
					s.add("--")
				}
				s.before(data, pos, lineNo, from, name)
			}
			s.add(name + ":" + strconv.Itoa(lineNo) + ": " + shorten(line, m[0]))
			s.shown++
			lastShown, after = lineNo, s.context
		} else if after > 0 && s.size < MaxGrepOutput {
			s.add(name + ":" + strconv.Itoa(lineNo) + "- " + shorten(line, 0))
			lastShown = lineNo
			after--
		}
		pos = next
	}
}

// before adds the context lines from..lineNo-1, which end just before pos.
func (s *grepper) before(data []byte, pos, lineNo, from int, name string) {
	var lines []string
	p := pos
	for n := lineNo - 1; n >= from && p > 0; n-- {
		start := bytes.LastIndexByte(data[:p-1], '\n') + 1
		line := bytes.TrimSuffix(data[start:p-1], []byte{'\r'})
		lines = append(lines, name+":"+strconv.Itoa(n)+"- "+shorten(line, 0))
		p = start
	}
	for i := len(lines) - 1; i >= 0; i-- {
		s.add(lines[i])
	}
}

// add appends one line of the result.
func (s *grepper) add(line string) {
	s.out = append(s.out, line)
	s.size += len(line) + 4
}

// shorten shows at most maxShownLine bytes of a line, around at.
func shorten(line []byte, at int) string {
	return shortenTo(line, at, maxShownLine)
}

// shortenTo shows at most size bytes of a line: a window that starts a
// quarter of size before at (earlier when at is near the end, so that
// the window stays full), with "…" where the line goes on. It never cuts
// a UTF-8 sequence.
func shortenTo(line []byte, at, size int) string {
	if len(line) <= size {
		return string(line)
	}
	start := max(0, min(at-size/4, len(line)-size))
	for start > 0 && start < len(line) && !utf8.RuneStart(line[start]) {
		start--
	}
	end := min(len(line), start+size)
	for end < len(line) && end > start && !utf8.RuneStart(line[end]) {
		end--
	}
	out := string(line[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(line) {
		out += "…"
	}
	return out
}
