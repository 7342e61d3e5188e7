package results

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// previewChars is the most characters a preview shows (fewer under a
// smaller output.max_inline); it ends at a line break when one is in its
// second half.
const previewChars = 2000

// Keep returns text as it is when it fits in maxInline characters (or
// maxInline <= 0), and otherwise stores it for owner and returns a
// preview that ends with the call that reads on, and the handle. A text
// whose last line is a compact JSON value (jsonValue: the run's value was
// no string) is stored laid out one member per line. A text too large to
// store is an error that matches ErrTooLarge.
func (s *Store) Keep(ctx context.Context, text string, jsonValue bool, maxInline int, owner string) (string, string, error) {
	if maxInline <= 0 || len(text) <= maxInline { // bytes ≥ characters: most texts stop here
		return text, "", nil
	}
	if utf8.RuneCountInString(text) <= maxInline {
		return text, "", nil
	}
	laid := false
	if jsonValue {
		text, laid = layoutJSON(text)
	}
	id, err := s.put(ctx, text, owner)
	if err != nil {
		return "", "", err
	}
	return preview(text, id, min(previewChars, maxInline), laid), id, nil
}

// preview is the start of text (at most limit characters) and how to
// read on: by lines when it ends at a line break, else by characters.
func preview(text, id string, limit int, laid bool) string {
	cut := advance([]byte(text[:min(len(text), limit*utf8.UTFMax)]), 0, limit)
	shown, next := text[:cut], ""
	if i := strings.LastIndexByte(text[:min(cut+1, len(text))], '\n'); i > cut/2 {
		shown = text[:i]
		next = fmt.Sprintf("offset=%d, limit=100", strings.Count(shown, "\n")+2)
	} else {
		next = "start=" + strconv.Itoa(utf8.RuneCountInString(shown))
	}
	lines := strings.Count(text, "\n") + 1
	how := ""
	if laid {
		how = ", the JSON laid out one member per line"
	}
	return fmt.Sprintf("%s\n… [%s, %s in all%s; the rest is stored as %q for %s]\n"+
		"Read on: ot.result(handle=%q, %s) · search: ot.result(handle=%q, search=\"regex\")",
		shown, plural(utf8.RuneCountInString(text), "character"), plural(lines, "line"), how, id, TTL, id, next, id)
}
