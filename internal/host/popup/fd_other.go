//go:build !unix

package popup

import (
	"errors"
	"net"
	"os"
)

// errNoPassing: only unix systems pass descriptors over a socket, and
// only they have tmux.
var errNoPassing = errors.New("popup: this system cannot hand a terminal to another process")

func sendTerminal(*net.UnixConn, *os.File) error { return errNoPassing }

func receiveTerminal(*net.UnixConn) (*os.File, error) { return nil, errNoPassing }
