//go:build !unix

// Package proc says whether a process has ended, for the programs that
// find a process by the id a file left behind.
package proc

// Gone reports whether process pid has ended; where there is no cheap
// way to ask, never.
func Gone(int) bool { return false }
