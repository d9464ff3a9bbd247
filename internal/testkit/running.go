package testkit

import "github.com/askuser/askuser/internal/program"

// Running reports whether process pid runs: it exists and is not a
// zombie (see program.ProcessGone). A process that belongs to another
// user counts as running; where there is no cheap way to ask, every
// process does.
func Running(pid int) bool { return !program.ProcessGone(pid) }
