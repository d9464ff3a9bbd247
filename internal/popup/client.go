package popup

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/jsonline"
)

// Conn is the helper's end of the socket. Its methods are safe for
// concurrent use.
type Conn struct {
	c    net.Conn
	gone chan struct{}
	mu   sync.Mutex // serializes writes
}

// Dial connects to the Renderer listening on sock, presents the token
// stored beside it, and returns the connection and the job, whose
// questionnaire has been checked and normalized again.
func Dial(ctx context.Context, sock string) (*Conn, Job, error) {
	token, err := os.ReadFile(filepath.Join(filepath.Dir(sock), TokenFile))
	if err != nil {
		return nil, Job{}, fmt.Errorf("popup: reading the token: %w", err)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return nil, Job{}, fmt.Errorf("popup: connecting: %w", err)
	}
	if err := jsonline.Write(c, Hello{Token: string(token)}); err != nil {
		c.Close()
		return nil, Job{}, fmt.Errorf("popup: connecting: %w", err)
	}
	lr := newLineReader(c)
	line, err := lr.next()
	if err != nil {
		c.Close()
		return nil, Job{}, fmt.Errorf("popup: reading the questionnaire: %w", err)
	}
	job, err := DecodeJob(line)
	if err != nil {
		c.Close()
		return nil, Job{}, err
	}
	conn := &Conn{c: c, gone: make(chan struct{})}
	go func() {
		// The Renderer sends nothing after the job: any byte or the end
		// of the stream means it is done with this popup.
		lr.next()
		close(conn.gone)
	}()
	return conn, job, nil
}

// DecodeJob decodes a Job line and checks its questionnaire.
func DecodeJob(line []byte) (Job, error) {
	var job Job
	if err := decodeStrict(line, &job); err != nil {
		return Job{}, err
	}
	if job.Request == nil {
		return Job{}, errors.New("popup: the job has no questionnaire")
	}
	req, _, err := contract.Normalize(job.Request)
	if err != nil {
		return Job{}, fmt.Errorf("popup: the questionnaire is invalid: %w", err)
	}
	job.Request = req
	switch job.Display {
	case contract.DisplayOverlay, contract.DisplayInline:
	default:
		return Job{}, fmt.Errorf("popup: unknown display mode %q", job.Display)
	}
	if job.RemainingMs < 0 {
		return Job{}, errors.New("popup: negative time left")
	}
	return job, nil
}

// Gone is closed when the Renderer has closed the connection: the call
// is over and the helper should stop.
func (c *Conn) Gone() <-chan struct{} { return c.gone }

// Report sends r to the Renderer.
func (c *Conn) Report(r Report) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return jsonline.Write(c.c, r)
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }
