package popup

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/askuser/askuser/internal/strictjson"
)

// Conn is the helper's end of the socket. Its methods are safe for
// concurrent use.
type Conn struct {
	c    *net.UnixConn
	gone chan struct{}
	mu   sync.Mutex // serializes writes
}

// Dial connects to the Renderer listening on sock, presents the token
// stored beside it and env (entries of TermEnv), and hands over tty, the
// terminal the Renderer is to draw on. It returns once the terminal has
// been sent; the helper should then leave tty alone until Gone.
func Dial(ctx context.Context, sock string, tty *os.File, env []string) (*Conn, error) {
	token, err := os.ReadFile(filepath.Join(filepath.Dir(sock), TokenFile))
	if err != nil {
		return nil, fmt.Errorf("popup: reading the token: %w", err)
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return nil, fmt.Errorf("popup: connecting: %w", err)
	}
	c := nc.(*net.UnixConn)
	if err := strictjson.WriteLine(c, Hello{Token: string(token), Env: env}); err != nil {
		c.Close()
		return nil, fmt.Errorf("popup: connecting: %w", err)
	}
	lr := newLineReader(c)
	line, err := lr.next()
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("popup: waiting for the server: %w", err)
	}
	var ready Ready
	if err := decodeStrict(line, &ready); err != nil {
		c.Close()
		return nil, err
	}
	if ready.Type != "ready" {
		c.Close()
		return nil, fmt.Errorf("popup: the server sent %q, not ready", ready.Type)
	}
	if err := sendTerminal(c, tty); err != nil {
		c.Close()
		return nil, fmt.Errorf("popup: handing over the terminal: %w", err)
	}
	conn := &Conn{c: c, gone: make(chan struct{})}
	go func() {
		// The Renderer sends nothing more: any byte or the end of the
		// stream means it is done with this popup.
		lr.next()
		close(conn.gone)
	}()
	return conn, nil
}

// Gone is closed when the Renderer has closed the connection: the
// Renderer is done with the terminal, and the helper should exit.
func (c *Conn) Gone() <-chan struct{} { return c.gone }

// Resized tells the Renderer that the terminal's size changed.
func (c *Conn) Resized() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strictjson.WriteLine(c.c, Report{Type: ReportResize})
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// errNoTerminal is a helper that sent no usable terminal.
var errNoTerminal = errors.New("popup: the popup sent no terminal")
