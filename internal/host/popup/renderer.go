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
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/tui"
)

// TokenFile is the name of the token file beside the socket.
const TokenFile = "token"

// maxSocketPath is the longest path a unix socket can be bound to: the
// size of sun_path less its NUL, 108 bytes on Linux and 104 elsewhere.
var maxSocketPath = map[bool]int{true: 107, false: 103}[runtime.GOOS == "linux"]

// Dialog is a questionnaire's dialog as the Renderer shows it: sized to a
// popup, shown on a popup's terminal until the user answers, dismisses or
// hides it, and shown again, on the next popup's terminal, as it was.
// *tui.Popup is the one in use.
type Dialog interface {
	// Fit returns the popup size, border included, that holds the
	// dialog, within maxW×maxH cells.
	Fit(maxW, maxH int) (w, h int)
	// Show draws the dialog on t until the user answers or dismisses it,
	// or hides it (tui.ErrHidden), or ctx is done (context.Cause(ctx)).
	Show(ctx context.Context, t tui.Terminal) (ask.Outcome[[]contract.Answer], error)
}

// Options configures a Renderer. A nil *Options means the defaults.
type Options struct {
	// Dialog makes the dialog of a session; nil means tui.NewPopup with
	// the default theme.
	Dialog func(s *ask.Session[*contract.Request]) (Dialog, error)
	// Warn is told of a failure that does not change a call's outcome,
	// such as a temporary key binding that could not be undone; nil
	// means such failures go unreported.
	Warn func(error)
	// Environ is the environment that tells which terminal the user
	// has, for the notifications; nil means the process's own.
	Environ []string
}

// Renderer is an ask.Renderer[*contract.Request, []contract.Answer]
// (and through RenderQuestions one of AskUserQuestion) that shows each
// questionnaire in popups started by its Launcher, running Command with
// the flag "--socket PATH" added. The dialog and its answers stay in the Renderer while popups
// come and go: the user's toggle key closes the popup, and the same key,
// bound for the while through the Launcher, opens a new one on the same
// dialog.
//
// It is safe for concurrent use, and shows one popup at a time: a
// terminal has room for one, and the core may settle a call (on a
// timeout or an abort) while its popup is still closing. A hidden dialog
// holds no popup, so a newer call opens its own at once, and the key
// brings back the newest hidden dialog first. A call that comes while a
// popup is shown waits for it, and the user is told at once (see Teller).
// A dialog shown after a newer call has begun, such as one the user hid
// and the client then forgot, first tells the user that the agent may no
// longer wait for its answer, and is answered only once the user says
// so. Make one with NewRenderer; the zero value is not usable.
type Renderer struct {
	launcher Launcher
	command  []string
	opts     Options
	screen   chan struct{} // holds a token while a popup is open or closing

	mu    sync.Mutex
	calls uint64     // the renders begun so far
	keys  []*binding // the bindings of hidden dialogs' key, oldest first
}

// binding is a hidden dialog's binding of its key, undone once the
// dialog is shown again or its call ends and no newer binding is left
// above it.
type binding struct {
	undo func() error
	gone bool
}

// Teller is a Launcher that can tell the user something at once, outside
// any popup: that a question waits while another's popup is shown.
type Teller interface {
	Tell(msg string) error
}

// NewRenderer returns a Renderer that starts command (the helper, such
// as []string{"/usr/bin/askuser", "popup"}) through l.
func NewRenderer(l Launcher, command []string, opts *Options) *Renderer {
	r := &Renderer{launcher: l, command: append([]string{}, command...), screen: make(chan struct{}, 1)}
	if opts != nil {
		r.opts = *opts
	}
	if r.opts.Dialog == nil {
		r.opts.Dialog = func(s *ask.Session[*contract.Request]) (Dialog, error) {
			return tui.NewPopup(ask.AskUser, s, nil)
		}
	}
	return r
}

// Render implements ask.Renderer[*contract.Request, []contract.Answer].
// It first waits, while ctx allows, until no other popup is open or
// closing. It returns when the user answers or
// dismisses the questionnaire, or when ctx is done, or when a popup
// closes without an outcome; it then closes the connection, the popup
// and any key binding made while the dialog was hidden, and removes the
// socket. When ctx is done before the popup is launched, Render returns
// context.Cause(ctx).
func (r *Renderer) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	return render(ctx, r, s, s.ToggleKey, notify.Subject{Header: s.Request.Header}, func(s *ask.Session[*contract.Request]) (shown[ask.Outcome[[]contract.Answer]], error) {
		return r.opts.Dialog(s)
	})
}

// RenderQuestions is Render for AskUserQuestion, whose dialog
// dialog.HideKey hides where the launcher can bring it back.
func (r *Renderer) RenderQuestions(ctx context.Context, s *ask.Session[*auq.Request]) (ask.Outcome[auq.Result], error) {
	return render(ctx, r, s, dialog.HideKey, notify.QuestionsSubject(s.Kind, s.Summary), func(s *ask.Session[*auq.Request]) (shown[ask.Outcome[auq.Result]], error) {
		return tui.NewPopup(ask.AskUserQuestion, s, nil)
	})
}

// shown is a dialog as the Renderer shows it in popups, whatever its
// outcome: Dialog, or a tui.Popup of another contract.
type shown[O any] interface {
	Fit(maxW, maxH int) (w, h int)
	Show(ctx context.Context, t tui.Terminal) (O, error)
}

// begin counts a render and returns its number.
func (r *Renderer) begin() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return r.calls
}

// overtaken reports whether a render began after render n.
func (r *Renderer) overtaken(n uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls > n
}

// bound records a hidden dialog's binding of its key, the newest.
func (r *Renderer) bound(undo func() error) *binding {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := &binding{undo: undo}
	r.keys = append(r.keys, b)
	return b
}

// unbind gives up b, and undoes the newest bindings that are given up:
// each gives the key back what it did before, which is the binding of the
// hidden dialog below it, or the user's own.
func (r *Renderer) unbind(b *binding) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b.gone = true
	for len(r.keys) > 0 && r.keys[len(r.keys)-1].gone {
		top := r.keys[len(r.keys)-1]
		r.keys = r.keys[:len(r.keys)-1]
		if err := top.undo(); err != nil && r.opts.Warn != nil {
			r.opts.Warn(err)
		}
	}
}

// waitingMsg tells the user that a question waits behind a shown popup,
// and that the shown one may be one the client forgot.
const waitingMsg = "askuser: a newer question is waiting behind this one, which the agent may no longer await"

// takeScreen waits, while ctx allows, until no popup is open or closing,
// and then holds the screen. When another popup is shown, the user is
// told at once that one more question waits.
func (r *Renderer) takeScreen(ctx context.Context, tell bool) error {
	select {
	case r.screen <- struct{}{}:
		return nil
	default:
	}
	if t, ok := r.launcher.(Teller); ok && tell {
		if err := t.Tell(waitingMsg); err != nil && r.opts.Warn != nil {
			r.opts.Warn(err)
		}
	}
	select {
	case r.screen <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// listen makes a private directory with a fresh token in TokenFile and
// a unix socket, sock, listening beside it. The caller removes dir and
// closes ln; on an error nothing is left.
func listen() (dir, sock, token string, ln net.Listener, err error) {
	dir, err = os.MkdirTemp("", "askuser-popup-")
	if err != nil {
		return "", "", "", nil, fmt.Errorf("popup: making the socket directory: %w", err)
	}
	fail := func(err error) (string, string, string, net.Listener, error) {
		os.RemoveAll(dir)
		return "", "", "", nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fail(fmt.Errorf("popup: %w", err))
	}
	if token, err = newToken(); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, TokenFile), []byte(token), 0o600); err != nil {
		return fail(fmt.Errorf("popup: writing the token: %w", err))
	}
	sock = filepath.Join(dir, "socket")
	if len(sock) > maxSocketPath {
		return fail(fmt.Errorf("popup: the socket path %s is %d bytes long, and a unix socket path can have at most %d; set TMPDIR to a shorter directory", sock, len(sock), maxSocketPath))
	}
	if ln, err = net.Listen("unix", sock); err != nil {
		return fail(fmt.Errorf("popup: listening: %w", err))
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return fail(fmt.Errorf("popup: %w", err))
	}
	return dir, sock, token, ln, nil
}

// render is Render for the dialog of any contract: once the socket is
// ready, newDialog makes the dialog of s with hideKey as its toggle key,
// or "" where the launcher cannot bring a hidden dialog back (the dialog
// then does not offer to hide), and the user is told that the
// questionnaire of subject waits. A dialog the user
// dismisses before it is shown, on being told that a newer call came, is
// dismissed.
func render[Req, Ans any](ctx context.Context, r *Renderer, s *ask.Session[Req], hideKey string, subject notify.Subject, newDialog func(*ask.Session[Req]) (shown[ask.Outcome[Ans]], error)) (ask.Outcome[Ans], error) {
	var none ask.Outcome[Ans]
	n := r.begin()
	if err := r.takeScreen(ctx, true); err != nil {
		return none, err
	}
	held := true
	release := func() {
		if held {
			<-r.screen
			held = false
		}
	}
	defer func() { release() }()
	// A call settled before its turn launches nothing.
	if ctx.Err() != nil {
		return none, context.Cause(ctx)
	}
	dir, sock, token, ln, err := listen()
	if err != nil {
		return none, err
	}
	defer os.RemoveAll(dir)
	defer ln.Close()

	if hideKey != "" && r.launcher.Hideable(hideKey) != nil {
		hideKey = ""
	}
	sess := *s
	sess.ToggleKey = hideKey
	dlg, err := newDialog(&sess)
	if err != nil {
		return none, err
	}
	defer r.notifyOpen(s.Notify, subject, s.Countdown)()
	argv := append(append([]string{}, r.command...), "--socket", sock)
	win, err := r.launcher.Launch(ctx, argv, dlg.Fit)
	if err != nil {
		return none, err
	}
	defer win.Close()

	helpers, accepting, stopAccepting := accept(ln, token)
	defer stopAccepting()

	var key *binding // set while the dialog is hidden
	restore := func() {
		if key != nil {
			r.unbind(key)
			key = nil
		}
	}
	defer restore()
	warned := false
	for round := 0; ; round++ {
		var winDone <-chan struct{}
		if round == 0 {
			winDone = win.Done()
		}
		var h *helper
		select {
		case h = <-helpers:
		case <-winDone:
			// The popup is gone; a helper that connected before it went
			// still says more than a popup closing at once.
			ln.Close()
			select {
			case h = <-helpers:
			case <-accepting:
				return none, r.why(ctx, win, false, nil)
			}
		case <-ctx.Done():
			return none, context.Cause(ctx)
		}
		if !held {
			// Brought back by its key: the popup is open, but a newer
			// call's may still be closing.
			if err := r.takeScreen(ctx, false); err != nil {
				h.close()
				return none, err
			}
			held = true
		}
		// Shown again: the key is the user's again, or the next hidden
		// dialog's.
		restore()
		var shownDlg shown[ask.Outcome[Ans]] = dlg
		if !warned && r.overtaken(n) {
			warned = true
			shownDlg = &overtaken[ask.Outcome[Ans]]{dlg: dlg, dismissed: ask.Outcome[Ans]{Dismissed: true}}
		}
		out, err := show(ctx, h, shownDlg)
		h.close()
		if errors.Is(err, tui.ErrHidden) {
			if round == 0 {
				win.Close()
			}
			undo, err := r.launcher.Hide(argv, dlg.Fit, hideKey)
			if err != nil {
				return none, fmt.Errorf("the user hid the dialog, and it cannot be brought back: %w", err)
			}
			key = r.bound(undo)
			// Hidden, the dialog leaves the screen to other calls.
			release()
			continue
		}
		if err != nil && round == 0 {
			return none, r.why(ctx, win, true, err)
		}
		return out, err
	}
}

// accept serves ln on a goroutine of its own, passing each helper that
// proves token on helpers; accepting is closed once it stops, and stop
// stops it and waits for that.
func accept(ln net.Listener, token string) (helpers chan *helper, accepting chan struct{}, stop func()) {
	helpers = make(chan *helper)
	accepting, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(accepting)
		serve(ln, token, helpers, quit)
	}()
	return helpers, accepting, func() {
		close(quit)
		ln.Close()
		<-accepting
	}
}

// errPopupClosed reports a popup that closed without an outcome.
var errPopupClosed = errors.New("the popup closed without an answer")

// show shows dlg on h's terminal until it returns, reading h's reports
// meanwhile. A helper that goes away or sends a bad report ends it.
func show[O any](parent context.Context, h *helper, dlg shown[O]) (O, error) {
	var none O
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	resize := make(chan struct{}, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			line, err := h.lr.next()
			if tl := new(strictjson.LineTooLongError); errors.As(err, &tl) {
				cancel(err)
				return
			}
			if err != nil {
				cancel(connLost{err})
				return
			}
			if _, err := DecodeReport(line); err != nil {
				cancel(err)
				return
			}
			select {
			case resize <- struct{}{}:
			default:
			}
		}
	}()
	out, err := dlg.Show(ctx, tui.Terminal{File: h.tty, Environ: h.env, Resize: resize})
	// Why the round ended, before closing the connection ends the reader.
	cause := context.Cause(ctx)
	// The end of the stream tells the helper to exit, which closes its
	// popup; its own end of the connection says it has, so that the next
	// popup does not open while this one still closes.
	h.c.CloseWrite()
	t := time.NewTimer(closeGrace)
	select {
	case <-read:
	case <-t.C:
	}
	t.Stop()
	h.c.Close()
	<-read
	if err != nil && parent.Err() == nil && cause != nil {
		if errors.As(cause, new(connLost)) {
			return none, errPopupClosed
		}
		return none, cause
	}
	return out, err
}

// ErrPopupBusy reports a popup that closed before its helper connected.
// tmux display-popup does that, and succeeds, when the terminal already
// shows a popup (another program's, or one being closed by force).
var ErrPopupBusy = errors.New("the popup closed before it could show the questions; another popup is probably open on the terminal")

// why explains a failed first popup: a closed window says more than the
// error it caused. connected says whether the helper had connected. After
// a lost connection the helper has ended, so why waits a moment for its
// popup to close.
func (r *Renderer) why(ctx context.Context, win Window, connected bool, err error) error {
	if errors.Is(err, errPopupClosed) {
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
		if err != nil {
			return err
		}
		return errPopupClosed
	default:
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}

// helper is a connected helper: its connection, the terminal it handed
// over, and its terminal's environment.
type helper struct {
	c   *net.UnixConn
	lr  *lineReader
	tty *os.File
	env []string
}

func (h *helper) close() {
	h.c.Close()
	h.tty.Close()
}

// handshakeWait bounds a connection's handshake: the helper runs on the
// same machine and says its hello at once.
const handshakeWait = 5 * time.Second

// serve takes connections until ln is closed, and sends each that
// presents the token and a terminal to helpers, until stop is closed.
// Each connection has its handshake in a goroutine of its own, so that
// one that says nothing holds up no other. serve returns once ln is
// closed and every handshake has ended; closing stop ends those under
// way.
func serve(ln net.Listener, token string, helpers chan<- *helper, stop <-chan struct{}) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		wg.Go(func() {
			shaken, watched := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(watched)
				select {
				case <-stop:
					c.Close()
				case <-shaken:
				}
			}()
			h, err := handshake(c.(*net.UnixConn), token)
			close(shaken)
			<-watched
			if err != nil {
				c.Close()
				return
			}
			select {
			case helpers <- h:
			case <-stop:
				h.close()
			}
		})
	}
}

// handshake reads a Hello, answers it, and receives the terminal.
func handshake(c *net.UnixConn, token string) (*helper, error) {
	c.SetReadDeadline(time.Now().Add(handshakeWait))
	hello, err := readHello(c, token)
	if err != nil {
		return nil, err
	}
	if err := strictjson.WriteLine(c, Ready{Type: "ready"}); err != nil {
		return nil, err
	}
	tty, err := receiveTerminal(c)
	if err != nil {
		return nil, err
	}
	c.SetReadDeadline(time.Time{})
	return &helper{c: c, lr: newLineReader(c), tty: tty, env: hello.Env}, nil
}

// readHello reads the first line of a connection and checks that it is
// a Hello carrying token. It reads at most MaxLine bytes of it.
func readHello(r io.Reader, token string) (Hello, error) {
	line, err := newLineReader(r).next()
	if err != nil {
		return Hello{}, fmt.Errorf("popup: reading the hello: %w", err)
	}
	var h Hello
	if err := decodeStrict(line, &h); err != nil {
		return Hello{}, err
	}
	if subtle.ConstantTimeCompare([]byte(h.Token), []byte(token)) != 1 {
		return Hello{}, errors.New("popup: the hello has the wrong token")
	}
	if err := checkEnv(h.Env); err != nil {
		return Hello{}, err
	}
	return h, nil
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
