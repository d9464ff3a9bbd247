package notify

import (
	"io"
	"os"

	"github.com/askuser/askuser/prefs"
)

// Output is what differs from one host to another in the terminal
// notifications of a questionnaire: which terminal they are for, and how
// a sequence reaches it. The zero value sends nothing.
type Output struct {
	// Environ is the environment (NAME=value entries) the terminal is
	// detected from; nil is the process's own.
	Environ []string
	// Write writes one sequence whole to the terminal. It is called as
	// Start calls its write: never two at once, and it must not block
	// long.
	Write func(seq string)
	// Open, when set, is called instead of using Write, as the
	// notifications start and only when they send anything at all: it
	// opens the terminal, which is written to directly and closed once
	// the notifications end.
	Open func() (io.WriteCloser, error)
	// Report is told when Open fails; the call goes on without
	// notifications. nil drops the error.
	Report func(error)
}

// Attach starts the notifications of a questionnaire of subject s
// whose deadline d reports, as the user's preferences p ask, on
// out's terminal, and returns what ends them, to call once the
// questionnaire is over: the reminder is cancelled and the title
// restored. Every host's custom route attaches its notifications here,
// once per questionnaire, giving only its Output. Nothing is written,
// and Open is not called, when p sends nothing on that terminal. Write
// errors are ignored, as a notification cannot change the call's
// outcome.
func Attach(out Output, p prefs.NotifyPrefs, s Subject, d Deadline) (stop func()) {
	environ := out.Environ
	if environ == nil {
		environ = os.Environ()
	}
	n := New(p, Detect(environ), s)
	if n.Off() || out.Write == nil && out.Open == nil {
		return func() {}
	}
	write := out.Write
	var closer io.Closer
	if out.Open != nil {
		w, err := out.Open()
		if err != nil {
			if out.Report != nil {
				out.Report(err)
			}
			return func() {}
		}
		write = func(seq string) { _, _ = io.WriteString(w, seq) }
		closer = w
	}
	session := Start(n, d, write)
	return func() {
		session.Stop()
		if closer != nil {
			closer.Close()
		}
	}
}
