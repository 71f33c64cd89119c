// Package textdist finds the word a user probably meant: the edit distance
// behind every "did you mean" of the experiment reader and the importers.
// Its functions are pure and safe for concurrent use.
package textdist

// maxLen bounds the words compared, so that a hostile input cannot make a
// suggestion cost more than 65 x 65 steps.
const maxLen = 64

// Distance is the Levenshtein distance between a and b, counted in bytes;
// words longer than 64 bytes are "far" (maxLen+1) from everything.
func Distance(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return maxLen + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Nearest returns the candidate closest to s within the given number of
// edits (the first of equals, in the candidates' order), or "" if none is.
func Nearest(s string, candidates []string, within int) string {
	best, bestD := "", within+1
	for _, c := range candidates {
		if d := Distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
