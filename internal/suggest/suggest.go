// Package suggest finds the closest known name to a misspelled one, for the
// "did you mean" part of error messages.
package suggest

import "strings"

// Closest returns the candidate nearest to name, or "" when none is close
// enough to be a plausible typo. Matching ignores case; a candidate that
// starts with name, or one containing the other, wins over mere edit distance, because
// models more often truncate a name than mistype it.
func Closest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	lname := strings.ToLower(name)
	best, bestScore := "", -1
	for _, c := range candidates {
		if c == name {
			continue
		}
		lc := strings.ToLower(c)
		var score int
		switch {
		case lc == lname:
			score = 0
		case (min(len(lname), len(lc)) >= 2 || len(lc)-len(lname) == 1 || len(lname)-len(lc) == 1) &&
			(strings.HasPrefix(lc, lname) || strings.HasPrefix(lname, lc)):
			// One letter is a prefix of too much to be a truncation,
			// unless only one letter is missing ('x' may be 'xs', not
			// 'xml').
			score = 1
		default:
			d := distance(lname, lc)
			if d > maxDistance(len(lname), len(lc)) || min(len(lname), len(lc)) < 2 {
				contains := (len(lname) >= 3 && strings.Contains(lc, lname)) ||
					(len(lc) >= 3 && strings.Contains(lname, lc))
				if !contains {
					continue
				}
				d = maxDistance(len(lname), len(lc))
			}
			score = 1 + d
		}
		if bestScore < 0 || score < bestScore || (score == bestScore && c < best) {
			best, bestScore = c, score
		}
	}
	return best
}

// maxDistance is the largest edit distance still treated as a typo: about a
// third of the longer name, at least one edit.
func maxDistance(a, b int) int {
	n := max(a, b) / 3
	return max(n, 1)
}

// distance is the optimal-string-alignment edit distance (Levenshtein with
// adjacent transpositions), so "raed" is one edit from "read".
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
