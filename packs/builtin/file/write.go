package file

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
)

// write creates or replaces a file atomically, or appends to it.
func (p *pack) write(ctx context.Context, args map[string]any) (any, error) {
	if err := p.modifying("write"); err != nil {
		return nil, err
	}
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	content, err := strArg(args, "content")
	if err != nil {
		return nil, err
	}
	appendMode, err := boolArg(args, "append", false)
	if err != nil {
		return nil, err
	}
	createDirs, err := boolArg(args, "create_dirs", true)
	if err != nil {
		return nil, err
	}
	if len(content) > MaxWrite {
		return nil, fmt.Errorf("content is %s, more than the %s file.write accepts: write it in parts with append=True", formatBytes(int64(len(content))), formatBytes(MaxWrite))
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
	if loc.Rel == "." {
		return nil, notRegular(path, fs.ModeDir)
	}
	if createDirs {
		if err := mkdirParents(root, loc.Rel, path); err != nil {
			return nil, err
		}
	} else if dir, err := lstat(root, filepath.Dir(loc.Rel), path); err != nil {
		return nil, err
	} else if dir == nil {
		return nil, fmt.Errorf("the directory of %s does not exist: pass create_dirs=True, or create it first", path)
	}
	st, err := lstat(root, loc.Rel, path)
	if err != nil {
		return nil, err
	}
	if st != nil && !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	data := []byte(content)
	var old []byte
	if appendMode && st != nil {
		old, st, err = readRegular(ctx, p.guardFor(loc), root, loc.Rel, path, MaxWrite, "file.write can append to")
		if err != nil {
			return nil, err
		}
		if len(old)+len(data) > MaxWrite {
			return nil, fmt.Errorf("%s would grow to %s, more than the %s file.write handles", path, formatBytes(int64(len(old)+len(data))), formatBytes(MaxWrite))
		}
		data = append(old, data...)
	}
	saved := ""
	if st != nil && !appendMode { // an append keeps the old content in the new file
		if saved, err = p.backup(ctx, root, loc.Root, loc.Rel, path, "write", backupLink); err != nil {
			return nil, err
		}
	}
	var perm fs.FileMode
	if st != nil {
		perm = st.Mode().Perm()
	}
	if _, err := atomicWrite(ctx, p.o.hooks, p.guardFor(loc), root, loc.Rel, path, bytes.NewReader(data), perm, st != nil); err != nil {
		return nil, err
	}
	switch {
	case st == nil:
		return fmt.Sprintf("created %s (%s)", path, formatBytes(int64(len(data)))), nil
	case appendMode:
		return fmt.Sprintf("appended %s to %s (now %s)", formatBytes(int64(len(content))), path, formatBytes(int64(len(data)))), nil
	}
	return fmt.Sprintf("wrote %s to %s%s", formatBytes(int64(len(data))), path, backupNote(saved)), nil
}

// edit replaces exact text in a file, or with dry_run shows what it
// would change.
func (p *pack) edit(ctx context.Context, args map[string]any) (any, error) {
	path, err := strArg(args, "path")
	if err != nil {
		return nil, err
	}
	old, err := strArg(args, "old")
	if err != nil {
		return nil, err
	}
	repl, err := strArg(args, "new")
	if err != nil {
		return nil, err
	}
	all, err := boolArg(args, "replace_all", false)
	if err != nil {
		return nil, err
	}
	count, err := intArg(args, "count", 0, 0)
	if err != nil {
		return nil, err
	}
	dryRun, err := boolArg(args, "dry_run", false)
	if err != nil {
		return nil, err
	}
	if !dryRun { // a dry run only reads: a read-only pack allows it
		if err := p.modifying("edit"); err != nil {
			return nil, err
		}
	}
	if old == "" {
		return nil, fmt.Errorf("'old' is empty: give the exact text to replace; to create or replace a whole file use file.write")
	}
	if old == repl {
		return nil, fmt.Errorf("'old' and 'new' are the same: nothing would change")
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
	data, st, err := readRegular(ctx, p.guardFor(loc), root, loc.Rel, path, MaxReadFile, "file.edit handles: use file.write to replace it")
	if err != nil {
		return nil, err
	}
	if isBinary(data) {
		return nil, fmt.Errorf("%s is a binary file: file.edit changes text files only", path)
	}
	// Whether 'old' is found, how often and where would reveal a secret
	// in the file a character at a time (a dry run too, which a read-only
	// pack allows): a file that holds one is not edited.
	if seen, err := p.visible(ctx, data); err != nil {
		return nil, err
	} else if !bytes.Equal(seen, data) {
		return nil, fmt.Errorf("%s holds the value of a configured secret (file.read shows it as [secret:NAME]): file.edit does not edit such a file, since whether its text matches would reveal the secret. Replace the whole file with file.write, or edit it outside onetool", path)
	}
	text := string(data)
	n := strings.Count(text, old)
	if n == 0 && strings.Contains(text, "\r\n") && !strings.Contains(old, "\r\n") && strings.Contains(old, "\n") {
		// The file has Windows line endings; the text given has not.
		crOld := strings.ReplaceAll(old, "\n", "\r\n")
		if c := strings.Count(text, crOld); c > 0 {
			old, repl, n = crOld, strings.ReplaceAll(repl, "\n", "\r\n"), c
		}
	}
	if n == 0 {
		return nil, notFound(text, old, path)
	}
	lines := matchLines(text, old, 10)
	switch {
	case count > 0 && n != count:
		return nil, fmt.Errorf("'old' text occurs %s in %s (%s), not %d as count=%d expects: nothing was changed; check the text with file.read, or pass count=%d to replace every one",
			times(n), path, linesAt(lines, n), count, count, n)
	case count == 0 && n > 1 && !all:
		return nil, fmt.Errorf("'old' text occurs %d times in %s (lines %s): include more surrounding lines to make it unique, pass count=%d to replace these %d, or replace_all=True to replace every one",
			n, path, lineList(lines, n), n, n)
	}
	out := strings.ReplaceAll(text, old, repl) // n == 1, or all of them are wanted
	if len(out) > MaxWrite {
		return nil, fmt.Errorf("%s would grow to %s, more than the %s the file pack writes", path, formatBytes(int64(len(out))), formatBytes(MaxWrite))
	}
	what := fmt.Sprintf("1 occurrence at line %d", lines[0])
	if n > 1 {
		what = fmt.Sprintf("%d occurrences (lines %s)", n, lineList(lines, n))
	}
	if dryRun {
		return fmt.Sprintf("dry run: would replace %s in %s; nothing was written\n%s", what, path, editDiff(text, old, repl, path)), nil
	}
	saved, err := p.backup(ctx, root, loc.Root, loc.Rel, path, "edit", backupLink)
	if err != nil {
		return nil, err
	}
	if _, err := atomicWrite(ctx, p.o.hooks, p.guardFor(loc), root, loc.Rel, path, strings.NewReader(out), st.Mode().Perm(), true); err != nil {
		return nil, err
	}
	return fmt.Sprintf("edited %s: replaced %s%s", path, what, backupNote(saved)), nil
}

// times writes "once", "2 times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return strconv.Itoa(n) + " times"
}

// linesAt writes "line 4" or "lines 4, 8".
func linesAt(lines []int, n int) string {
	if n == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	return "lines " + lineList(lines, n)
}

// notFound explains a missing 'old' text, pointing at the nearest thing
// there is: the first line of 'old' found alone, or the text found when
// spaces are ignored.
func notFound(text, old, path string) error {
	base := fmt.Sprintf("'old' text not found in %s: read the file first (file.read) and copy the exact text, spaces and line breaks included", path)
	first := strings.TrimSpace(strings.SplitN(old, "\n", 2)[0])
	if first != "" && strings.Contains(old, "\n") {
		if i := strings.Index(text, first); i >= 0 {
			line := strings.Count(text[:i], "\n") + 1
			return fmt.Errorf("%s; its first line is at line %d, but what follows differs", base, line)
		}
	}
	if squash(text) != "" && strings.Contains(squash(text), squash(old)) {
		return fmt.Errorf("%s; a text that differs only in spaces or indentation is there", base)
	}
	return fmt.Errorf("%s", base)
}

// squash drops all white space.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// matchLines returns the line numbers of the first max occurrences.
func matchLines(text, old string, max int) []int {
	var lines []int
	line, pos := 1, 0
	for len(lines) < max {
		i := strings.Index(text[pos:], old)
		if i < 0 {
			break
		}
		line += strings.Count(text[pos:pos+i], "\n")
		lines = append(lines, line)
		line += strings.Count(old, "\n")
		pos += i + len(old)
	}
	return lines
}

func lineList(lines []int, n int) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	out := strings.Join(s, ", ")
	if n > len(lines) {
		out += ", …"
	}
	return out
}
