//go:build unix

package popup

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// sendTerminal sends tty's descriptor over c, with the one byte it rides
// on.
func sendTerminal(c *net.UnixConn, tty *os.File) error {
	_, _, err := c.WriteMsgUnix([]byte{0}, syscall.UnixRights(int(tty.Fd())), nil)
	return err
}

// receiveTerminal reads the byte that carries the helper's terminal and
// returns the terminal. Any other descriptor sent with it is closed.
func receiveTerminal(c *net.UnixConn) (*os.File, error) {
	b, oob := make([]byte, 1), make([]byte, syscall.CmsgSpace(4*4))
	n, oobn, _, _, err := c.ReadMsgUnix(b, oob)
	if err != nil {
		return nil, fmt.Errorf("popup: receiving the terminal: %w", err)
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
		for _, m := range msgs {
			if got, err := syscall.ParseUnixRights(&m); err == nil {
				fds = append(fds, got...)
			}
		}
	}
	if n != 1 || b[0] != 0 || len(fds) != 1 {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		return nil, errNoTerminal
	}
	f := os.NewFile(uintptr(fds[0]), "popup terminal")
	if !term.IsTerminal(f.Fd()) {
		f.Close()
		return nil, errors.New("popup: what the popup sent is not a terminal")
	}
	return f, nil
}
