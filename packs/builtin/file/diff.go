package file

import (
	"fmt"
	"strconv"
	"strings"
)

// Bounds of the excerpt a dry-run edit shows.
const (
	maxDiffHunks = 20  // changed places shown
	maxDiffLines = 200 // '-' and '+' lines shown
	maxDiffLine  = 200 // bytes of one shown line, around the change
)

// editDiff shows what replacing every occurrence of old in text with repl
// changes, as a unified diff without context lines: one hunk per changed
// place (occurrences on the same lines share one), headed by
// "@@ -line,count +line,count @@" in the numbering of the file before
// and after. Long lines are cut around the change; past maxDiffHunks
// places or maxDiffLines lines a last line counts what is not shown.
func editDiff(text, old, repl, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s (after the edit)\n", name, name)
	lineNo := 1  // line number at pos, before the edit
	lastPos := 0 // where lineNo was counted to
	delta := 0   // lines added (or, negative, removed) by the hunks so far
	hunks, shownLines, hidden := 0, 0, 0
	for pos := 0; pos < len(text); {
		i := strings.Index(text[pos:], old)
		if i < 0 {
			break
		}
		start := pos + i
		// The hunk: from the start of the line of this occurrence to the
		// end of the line where the last occurrence touching it ends.
		ls := strings.LastIndexByte(text[:start], '\n') + 1
		var newSeg strings.Builder
		newSeg.WriteString(text[ls:start])
		end := start
		for {
			end += len(old)
			newSeg.WriteString(repl)
			le := lineEnd(text, end)
			j := strings.Index(text[end:], old)
			if j < 0 || end+j >= le {
				newSeg.WriteString(text[end:le])
				end = le
				break
			}
			newSeg.WriteString(text[end : end+j]) // another occurrence on the same line
			end += j
		}
		pos = end
		lineNo += strings.Count(text[lastPos:ls], "\n")
		lastPos = ls
		oldLines := splitShown(text[ls:end])
		newLines := splitShown(newSeg.String())
		if hunks >= maxDiffHunks || shownLines >= maxDiffLines {
			hidden++
		} else {
			hunks++
			fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(lineNo, len(oldLines)), hunkRange(lineNo+delta, len(newLines)))
			for k, l := range oldLines {
				b.WriteString("-" + cutAround(l, changeAt(l, newLines, k)) + "\n")
			}
			for k, l := range newLines {
				b.WriteString("+" + cutAround(l, changeAt(l, oldLines, k)) + "\n")
			}
			shownLines += len(oldLines) + len(newLines)
		}
		delta += len(newLines) - len(oldLines)
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "… %s not shown\n", plural(hidden, "more changed place", "more changed places"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// lineEnd returns the end of the line that holds the byte before end,
// past its '\n': an occurrence that ends with a line break ends its line.
func lineEnd(text string, end int) int {
	if end > 0 && text[end-1] == '\n' {
		return end
	}
	if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		return end + i + 1
	}
	return len(text)
}

// splitShown splits a hunk's text into lines without their endings.
func splitShown(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// hunkRange writes a unified diff range: "4" for one line, "4,3" for
// three, "3,0" (the line before) for none.
func hunkRange(start, n int) string {
	switch n {
	case 1:
		return strconv.Itoa(start)
	case 0:
		return strconv.Itoa(start-1) + ",0"
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// changeAt returns where line l starts to differ from line k of other,
// so that a cut long line shows the change.
func changeAt(l string, other []string, k int) int {
	if k >= len(other) {
		return 0
	}
	o := other[k]
	i := 0
	for i < len(l) && i < len(o) && l[i] == o[i] {
		i++
	}
	return i
}

// cutAround shortens a line to about maxDiffLine bytes around at.
func cutAround(l string, at int) string {
	if len(l) <= maxDiffLine {
		return l
	}
	return shortenTo([]byte(l), at, maxDiffLine)
}
