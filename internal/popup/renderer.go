package popup

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/jsonline"
)

// TokenFile is the name of the token file beside the socket.
const TokenFile = "token"

// maxSocketPath is the longest path a unix socket can be bound to: the
// size of sun_path less its NUL, 108 bytes on Linux and 104 elsewhere.
var maxSocketPath = map[bool]int{true: 107, false: 103}[runtime.GOOS == "linux"]

// Renderer is an ask.Renderer that shows each questionnaire in a popup
// started by its Launcher, running Command with the flag "--socket PATH"
// added. It is safe for concurrent use, but shows one popup at a time: a
// terminal has room for one, and the core may settle a call (on a timeout
// or an abort) while its popup is still closing. Make one with
// NewRenderer; the zero value is not usable.
type Renderer struct {
	launcher Launcher
	command  []string
	busy     chan struct{} // holds a token while a popup is open or closing
}

// NewRenderer returns a Renderer that starts command (the helper, such
// as []string{"/usr/bin/askuser", "popup"}) through l.
func NewRenderer(l Launcher, command []string) *Renderer {
	return &Renderer{launcher: l, command: append([]string{}, command...), busy: make(chan struct{}, 1)}
}

// Render implements ask.Renderer. It first waits, while ctx allows, until
// the popup of any earlier Render has closed. It returns when the helper
// reports the outcome, or when ctx is done; then, or when the popup closes
// without an outcome, it closes the connection and the popup and removes
// the socket before returning. When ctx is done before the popup is
// launched, Render returns context.Cause(ctx).
func (r *Renderer) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	select {
	case r.busy <- struct{}{}:
	case <-ctx.Done():
		return ask.Outcome{}, context.Cause(ctx)
	}
	defer func() { <-r.busy }()
	// A call settled before its turn launches nothing.
	if ctx.Err() != nil {
		return ask.Outcome{}, context.Cause(ctx)
	}
	dir, err := os.MkdirTemp("", "askuser-popup-")
	if err != nil {
		return ask.Outcome{}, fmt.Errorf("popup: making the socket directory: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o700); err != nil {
		return ask.Outcome{}, fmt.Errorf("popup: %w", err)
	}
	token, err := newToken()
	if err != nil {
		return ask.Outcome{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, TokenFile), []byte(token), 0o600); err != nil {
		return ask.Outcome{}, fmt.Errorf("popup: writing the token: %w", err)
	}
	sock := filepath.Join(dir, "socket")
	if len(sock) > maxSocketPath {
		return ask.Outcome{}, fmt.Errorf("popup: the socket path %s is %d bytes long, and a unix socket path can have at most %d; set TMPDIR to a shorter directory", sock, len(sock), maxSocketPath)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return ask.Outcome{}, fmt.Errorf("popup: listening: %w", err)
	}
	defer ln.Close()
	if err := os.Chmod(sock, 0o600); err != nil {
		return ask.Outcome{}, fmt.Errorf("popup: %w", err)
	}

	argv := append(append([]string{}, r.command...), "--socket", sock)
	win, err := r.launcher.Launch(ctx, argv)
	if err != nil {
		return ask.Outcome{}, err
	}
	defer win.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-win.Done():
			cancel()
		case <-ctx.Done():
		}
		ln.Close()
	}()
	conn, err := accept(ln, token)
	if err != nil {
		return ask.Outcome{}, r.why(ctx, win, false, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	out, err := serve(conn, s)
	if err != nil {
		return ask.Outcome{}, r.why(ctx, win, true, err)
	}
	return out, nil
}

// ErrPopupBusy reports a popup that closed before its helper connected.
// tmux display-popup does that, and succeeds, when the terminal already
// shows a popup (another program's, or one being closed by force).
var ErrPopupBusy = errors.New("the popup closed before it could show the questions; another popup is probably open on the terminal")

// why explains a failed popup: a closed window says more than the socket
// error it caused. connected says whether the helper had connected. A
// lost connection means the helper has ended, so why waits a moment for
// its popup to close.
func (r *Renderer) why(ctx context.Context, win Window, connected bool, err error) error {
	if errors.As(err, new(connLost)) {
		t := time.NewTimer(closeGrace)
		defer t.Stop()
		select {
		case <-win.Done():
		case <-ctx.Done():
		case <-t.C:
		}
	}
	select {
	case <-win.Done():
		if werr := win.Err(); werr != nil {
			return fmt.Errorf("the popup could not be shown: %w", werr)
		}
		if !connected {
			return ErrPopupBusy
		}
		return errors.New("the popup closed without an answer")
	default:
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// accept takes connections until one presents the token.
func accept(ln net.Listener, token string) (net.Conn, error) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return nil, fmt.Errorf("popup: waiting for the popup: %w", err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if err := readHello(c, token); err != nil {
			c.Close()
			continue
		}
		c.SetReadDeadline(time.Time{})
		return c, nil
	}
}

// readHello reads the first line of a connection and checks that it is
// a Hello carrying token. It reads at most MaxLine bytes of it.
func readHello(r io.Reader, token string) error {
	line, err := newLineReader(r).next()
	if err != nil {
		return fmt.Errorf("popup: reading the hello: %w", err)
	}
	var h Hello
	if err := decodeStrict(line, &h); err != nil {
		return err
	}
	if subtle.ConstantTimeCompare([]byte(h.Token), []byte(token)) != 1 {
		return errors.New("popup: the hello has the wrong token")
	}
	return nil
}

// serve sends the job and waits for the outcome.
func serve(c net.Conn, s *ask.Session) (ask.Outcome, error) {
	job := Job{Request: s.Request, Display: s.Display, ToggleKey: s.ToggleKey}
	if left, ok := s.Countdown.Remaining(); ok {
		job.RemainingMs = max(left.Milliseconds(), 1)
	}
	if err := jsonline.Write(c, job); err != nil {
		return ask.Outcome{}, connLost{fmt.Errorf("popup: sending the questionnaire: %w", err)}
	}
	lr := newLineReader(c)
	for {
		line, err := lr.next()
		if err != nil {
			return ask.Outcome{}, connLost{fmt.Errorf("popup: reading from the popup: %w", err)}
		}
		rep, err := DecodeReport(line)
		if err != nil {
			return ask.Outcome{}, err
		}
		switch rep.Type {
		case ReportCountdownCancelled:
			s.Countdown.Cancel()
		case ReportOutcome:
			return ask.Outcome{Dismissed: rep.Dismissed, Answers: rep.Answers}, nil
		case ReportError:
			return ask.Outcome{}, errors.New(rep.Message)
		}
	}
}

// connLost is an error of the connection to the helper itself, as when
// the helper ends.
type connLost struct{ err error }

func (e connLost) Error() string { return e.err.Error() }
func (e connLost) Unwrap() error { return e.err }

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("popup: making a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
