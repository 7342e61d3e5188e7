package yamltree

import (
	"strconv"
	"strings"
)

// Path names a value in a tree: its segments are mapping keys, and list
// indexes written "[3]".
type Path []string

// String is the dotted form used in messages: "servers.gh.args[1]".
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// With returns a new path one key deeper; it never shares p's array, so
// sibling paths cannot overwrite each other.
func (p Path) With(key string) Path {
	q := make(Path, len(p), len(p)+1)
	copy(q, p)
	return append(q, key)
}

// Index returns a new path one list element deeper.
func (p Path) Index(i int) Path { return p.With("[" + strconv.Itoa(i) + "]") }
