package cli

import (
	"fmt"
	"io"
	"sync"
)

// heldReports holds the reports that come while a dialog draws on the
// terminal that standard error may be, and writes them once it is done.
type heldReports struct {
	w    io.Writer
	name string

	mu      sync.Mutex
	holding bool
	held    []error
}

func newHeldReports(w io.Writer, name string) *heldReports {
	return &heldReports{w: w, name: name, holding: true}
}

func (r *heldReports) report(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.holding {
		r.held = append(r.held, err)
		return
	}
	fmt.Fprintf(r.w, "askuser %s: %v\n", r.name, err)
}

// release writes what was held, and from now on writes at once.
func (r *heldReports) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holding = false
	for _, err := range r.held {
		fmt.Fprintf(r.w, "askuser %s: %v\n", r.name, err)
	}
	r.held = nil
}
