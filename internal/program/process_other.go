//go:build !unix

package program

// ProcessGone reports whether process pid has ended; where there is no cheap
// way to ask, never.
func ProcessGone(int) bool { return false }
