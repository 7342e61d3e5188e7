package toolpack

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/onetool-dev/onetool/internal/suggest"

	"github.com/onetool-dev/onetool/internal/yamltree"
)

// reader reads typed values out of the node tree of one file, reporting
// every problem with the file, the line and the field. Its helpers share
// one convention: they return ok=false for a null value (not set, nothing
// reported) and for a wrong one (reported); the caller only uses a value
// when ok is true.
type reader struct {
	file string
	errs *problems
}

func (r *reader) fail(n *node, at path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	r.errs.at(r.file, line, at, format, args...)
}

// fields walks the mapping n, whose valid keys are known, calling visit
// for each known key in written order and reporting unknown ones with a
// did-you-mean. It returns false when n is not a mapping.
func (r *reader) fields(n *node, at path, known []string, visit func(p pair, kp path)) bool {
	if n.Kind != yamltree.MappingNode {
		r.fail(n, at, "want a mapping, got %s", yamltree.Describe(n))
		return false
	}
	for _, p := range n.Pairs {
		kp := at.With(p.Key)
		if !slices.Contains(known, p.Key) {
			r.unknownKey(p, kp, known)
			continue
		}
		visit(p, kp)
	}
	return true
}

func (r *reader) unknownKey(p pair, kp path, valid []string) {
	if s := suggest.Closest(p.Key, valid); s != "" {
		r.errs.at(r.file, p.At.Line, kp, "unknown key; did you mean '%s'?", s)
		return
	}
	sorted := slices.Sorted(slices.Values(valid))
	r.errs.at(r.file, p.At.Line, kp, "unknown key; valid keys here: %s", strings.Join(sorted, ", "))
}

// required reports a key that a mapping lacks.
func (r *reader) required(n *node, at path, hint string) {
	r.fail(n, at, "required, but missing; %s", hint)
}

// str reads a string. Numbers and booleans are refused: a description of
// 42 or an id of true is a mistake, not a value to convert.
func (r *reader) str(n *node, at path) (string, bool) {
	if n.IsNull() {
		return "", false
	}
	if n.Kind != yamltree.ScalarNode || n.Tag != yamltree.TagStr {
		r.fail(n, at, "want a string, got %s", yamltree.Describe(n))
		return "", false
	}
	return n.Value, true
}

// nonEmpty reads a string that must have some text in it.
func (r *reader) nonEmpty(n *node, at path) (string, bool) {
	s, ok := r.str(n, at)
	if ok && strings.TrimSpace(s) == "" {
		r.fail(n, at, "must not be empty")
		return "", false
	}
	return s, ok
}

// word reads any scalar as its text as written, for values that are
// strings by nature but often written as numbers: command arguments
// (`[sleep, 10]`).
func (r *reader) word(n *node, at path, what string) (string, bool) {
	if n.IsNull() || n.Kind != yamltree.ScalarNode {
		r.fail(n, at, "want %s, got %s", what, yamltree.Describe(n))
		return "", false
	}
	return n.Value, true
}

func (r *reader) boolean(n *node, at path) (bool, bool) {
	if n.IsNull() {
		return false, false
	}
	if n.Kind == yamltree.ScalarNode && n.Tag == yamltree.TagBool {
		if b, ok := parseBool(n.Value); ok {
			return b, true
		}
	}
	r.fail(n, at, "want true or false, got %s", yamltree.Describe(n))
	return false, false
}

// parseBool reads the forms YAML writes a boolean in; yaml.v3 tags
// true/True/TRUE as booleans, and an explicit !!bool may also hold the
// YAML 1.1 words.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "y":
		return true, true
	case "false", "no", "off", "n":
		return false, true
	}
	return false, false
}

// durationSyntax is the hint shared by every unreadable duration.
const durationSyntax = `want a duration such as "10s", "1m30s" or a number of seconds`

// duration reads a positive duration: "10s", "1m30s", "250ms" (Go
// syntax) or a number of seconds (10, 1.5, "30").
func (r *reader) duration(n *node, at path) (time.Duration, bool) {
	if n.IsNull() {
		return 0, false
	}
	var d time.Duration
	ok := false
	if n.Kind == yamltree.ScalarNode {
		switch n.Tag {
		case yamltree.TagStr:
			d, ok = parseDuration(n.Value)
		case yamltree.TagInt, yamltree.TagFloat:
			d, ok = seconds(n.Number())
		}
	}
	if !ok {
		r.fail(n, at, "%s, got %s", durationSyntax, yamltree.Describe(n))
		return 0, false
	}
	if d <= 0 {
		r.fail(n, at, "must be more than 0, got %s", yamltree.Describe(n))
		return 0, false
	}
	return d, true
}

// parseDuration reads a duration written as a string: a number of seconds
// ("30", "1.5") or Go syntax ("30s", "1m30s", "250ms").
func parseDuration(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if d, ok := seconds(s); ok {
		return d, true
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// jsonNumberText matches a number as JSON writes it.
var jsonNumberText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)
})

// seconds reads a decimal number of seconds exactly (1.1 s is 1100 ms, not
// 1099.999999 ms). Negative numbers are returned for the caller to refuse;
// numbers too large for a time.Duration are not read.
func seconds(s string) (time.Duration, bool) {
	if !jsonNumberText().MatchString(s) {
		return 0, false
	}
	// Bounded before big.Rat sees the text: "1e-1000000000" would make it
	// build a number of a billion digits.
	if len(s) > 64 {
		return 0, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e < -30 || e > 30 {
			return 0, false
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err != nil || math.Abs(f) > math.MaxInt64/float64(time.Second) {
		return 0, false
	}
	rat, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	rat.Mul(rat, big.NewRat(int64(time.Second), 1))
	ns := new(big.Int).Quo(rat.Num(), rat.Denom())
	if !ns.IsInt64() {
		return 0, false
	}
	return time.Duration(ns.Int64()), true
}

// describeList renders names for messages: a, b, c.
func describeList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// quoted renders s for messages the way Go quotes strings.
func quoted(s string) string { return strconv.Quote(s) }

// didYouMean returns `; did you mean "x"?` for the closest candidate, or
// "". Values are quoted with double quotes; keys, as elsewhere in onetool,
// with single ones (see unknownKey).
func didYouMean(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return fmt.Sprintf("; did you mean %s?", quoted(s))
	}
	return ""
}
