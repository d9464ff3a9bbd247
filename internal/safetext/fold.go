package safetext

// EqualFold reports whether s equals lower, a lowercase ASCII text, with
// ASCII letters compared without case. It is strings.EqualFold for ASCII
// letters only: Unicode folding would let the Kelvin sign stand for k.
func EqualFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
