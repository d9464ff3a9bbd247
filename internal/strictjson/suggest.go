package strictjson

import "strings"

// Suggest returns the member name of known that key, an unknown member
// name, most likely meant: one that differs only in case, or by at most
// two edits for names of four or more bytes. It returns "" when none is
// close.
func Suggest(key string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	if len(key) < 4 {
		return ""
	}
	lower := strings.ToLower(key)
	best, bestDist := "", 3
	for _, k := range known {
		if dist := editDistance(lower, strings.ToLower(k), bestDist); dist < bestDist {
			best, bestDist = k, dist
		}
	}
	return best
}

// editDistance returns the Levenshtein distance of a and b, or limit when
// it is at least limit.
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	var prev, cur [65]int
	for j := range len(b) + 1 {
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
		prev = cur
	}
	return min(prev[len(b)], limit)
}
