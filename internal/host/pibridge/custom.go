package pibridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/dialog"
	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/notify"
)

// tick is how often a running countdown is redrawn.
const tick = time.Second

// tryDelay is how long after a frame the frames of the likely next keys
// are drawn: Pi shows the frame first, also where the child shares its
// one CPU.
const tryDelay = time.Millisecond

// maxTries is the most keys a try message may name in each of its lists.
const maxTries = 64

// customUI is the custom route inside Pi: the dialog component runs here,
// and the shim shows its frames through ctx.ui.custom and sends back keys
// and sizes.
type customUI struct {
	srv *server
}

// Render opens the component, feeds it keys until the user submits or
// dismisses, and closes the component however the call ends.
func (u *customUI) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	c, err := callFrom(s)
	if err != nil {
		return ask.Outcome[[]contract.Answer]{}, err
	}
	overlay := s.Display != contract.DisplayInline
	toggle := ""
	if overlay {
		toggle = s.ToggleKey
	}
	m := dialog.New(s.Request, &dialog.Options{
		Theme:     u.srv.theme,
		Countdown: s.Countdown,
		ToggleKey: toggle,
		Overlay:   overlay,
		Title:     "ask_user",
	})
	display := contract.DisplayOverlay
	if !overlay {
		display = contract.DisplayInline
	}
	// Keys are handled on the goroutine that reads them: a hand-off to
	// this one would add a scheduler wake-up to every key's round trip.
	cs := &customSession{component: newComponent[ask.Outcome[[]contract.Answer]](u.srv, c.id, s.Countdown, m), srv: u.srv, s: s}
	c.setHandler(cs.handle)
	defer c.setHandler(nil)
	u.srv.send(openMsg{Type: typeOpen, Call: c.id, Display: string(display), ToggleKey: piKey(toggle),
		Mirror: u.srv.mirrorSpec(pimirror.DialogAskUser, s.Request, s.Countdown, toggle, overlay, "ask_user")})
	// The title comes back after the close, which the shim may be
	// waiting for.
	defer notify.Attach(u.srv.notifyTo(c.id), s.Notify, notify.Subject{Header: s.Request.Header}, s.Countdown)()
	defer u.srv.send(callMsg{Type: typeClose, Call: c.id})

	return cs.serve(ctx)
}

// mirrorSpec describes a dialog for the shim's copy of it (package
// pimirror): the same request, theme and options as the dialog here. It
// is nil when the hello did not ask for it, or when the request cannot
// be encoded, which its types make impossible; the shim then draws only
// the frames sent to it.
func (srv *server) mirrorSpec(kind string, req any, cd *ask.Countdown, toggle string, overlay bool, title string) *pimirror.Spec {
	if !srv.mirror {
		return nil
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil
	}
	spec := &pimirror.Spec{Dialog: kind, Request: raw, Theme: srv.roles, ToggleKey: toggle, Overlay: overlay, Title: title}
	if d, ok := cd.Deadline(); ok {
		spec.Deadline = d.UnixMicro()
	}
	return spec
}

// ending is how the user, or Pi, ended a component: the outcome O of
// its dialog, or an error.
type ending[O any] struct {
	outcome O
	err     error
}

// component is the state of one component on screen that both dialogs'
// sessions share: the model M, the frames sent of it, and how it ended.
// Its methods are safe for concurrent use: keys come from the reading
// goroutine, ticks from the renderer's.
type component[O any, M pimirror.Dialog] struct {
	countdown *ask.Countdown
	end       chan ending[O] // buffered; written once

	mu    sync.Mutex
	m     M
	v     view
	ended bool
	// counted is whether the countdown ran at the last tick: the tick
	// after it stopped elsewhere (a surface of the hub) draws once more,
	// so that Pi shows no timeout rather than the last time left.
	counted bool
	// tries are the keys whose frames the shim wants ahead, as the last
	// try message gave them: typing while a text input has the cursor,
	// keys otherwise. gen counts the frames sent and the try messages: a
	// run of tries that sees it change stops, its frames stale.
	tries struct{ keys, typing []tryKey }
	gen   uint64
}

// tryKey is one key of a try message: as the shim named it, and as the
// dialog takes it.
type tryKey struct {
	name, text string
	key        dialog.Key
}

func newComponent[O any, M pimirror.Dialog](srv *server, call string, cd *ask.Countdown, m M) component[O, M] {
	_, counting := cd.Remaining()
	return component[O, M]{countdown: cd, end: make(chan ending[O], 1), m: m, v: view{srv: srv, call: call}, counted: counting}
}

// finish ends the component; it runs under mu.
func (c *component[O, M]) finish(e ending[O]) {
	c.ended = true
	c.end <- e
}

// stop makes the session ignore what still comes for it.
func (c *component[O, M]) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
}

func (c *component[O, M]) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, counting := c.countdown.Remaining()
	if (counting || c.counted) && !c.ended && c.v.draw(c.m, false) {
		c.tryAhead()
	}
	c.counted = counting
}

// handle takes a key, a resize or a UI error from the shim. key applies a
// key to the model and reports whether it ended the dialog, with its
// outcome; drawn, when not nil, runs after every frame sent.
func (c *component[O, M]) handle(msg inMsg, key func(dialog.Key) (O, bool), drawn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return
	}
	switch msg.Type {
	case typeUIError:
		c.finish(ending[O]{err: fmt.Errorf("pi could not show the dialog: %s", msg.Message)})
		return
	case typeResize:
		// The size was checked when the line was read.
		c.v.width, c.v.rows = msg.Width, msg.Rows
		c.m.SetSize(msg.Width, msg.Rows)
	case typeKey:
		// A key the dialog cannot take changes nothing, and is answered
		// all the same: the shim waits for every key's frame.
		if k, ok := toKey(msg); ok {
			if out, done := key(k); done {
				c.finish(ending[O]{outcome: out})
				return
			}
		}
	case typeTry:
		c.tries.keys, c.tries.typing = tryKeys(msg.Keys), tryKeys(msg.Typing)
		c.tryAhead()
		return
	default:
		return
	}
	c.v.draw(c.m, true)
	if drawn != nil && c.v.sent {
		drawn()
	}
	c.tryAhead()
}

// tryAhead starts a run of tries for the frame sent last, which draws
// the frames of the keys the shim asked for on copies of the dialog and
// sends them, so that the shim shows a key's frame the moment it comes;
// the key still comes here, and its own frame follows. Every call makes
// the runs before it stale. It runs under mu.
func (c *component[O, M]) tryAhead() {
	c.gen++
	if c.ended || !c.v.sent || len(c.tries.keys)+len(c.tries.typing) == 0 {
		return
	}
	gen := c.gen
	time.AfterFunc(tryDelay, func() { c.runTries(gen) })
}

// runTries is the run of tries tryAhead starts for the frame of gen. It
// holds mu for one key at a time, so that a key that comes meanwhile
// waits for one try at most, and stops once gen is stale.
func (c *component[O, M]) runTries(gen uint64) {
	var frames []triedFrame
	for i := 0; ; i++ {
		c.mu.Lock()
		if c.gen != gen || c.ended {
			c.mu.Unlock()
			return
		}
		keys := c.tries.keys
		if c.v.last.Cursor != nil {
			keys = c.tries.typing
		}
		if i >= len(keys) {
			// Under mu, as frames are sent: these come after the frame
			// they patch, and before the next.
			_ = c.v.srv.out.send(triesMsg{Type: typeTries, Call: c.v.call, Frames: frames})
			c.mu.Unlock()
			return
		}
		k := keys[i]
		if f, ok := pimirror.TryOn(c.m, k.key, c.v.width, c.v.rows); ok {
			at, lines := changed(c.v.last.Lines, f.Lines)
			if lines == nil {
				lines = []string{}
			}
			frames = append(frames, triedFrame{Key: k.name, Text: k.text, At: at, Length: len(f.Lines), Lines: lines, Cursor: cursorOf(f)})
		}
		c.mu.Unlock()
	}
}

// checkTries refuses a try message whose lists are too long or name
// what is not a key, before it reaches a component.
func checkTries(m inMsg) error {
	for _, list := range [...]struct {
		name string
		keys []tryMsgKey
	}{{"keys", m.Keys}, {"typing", m.Typing}} {
		if len(list.keys) > maxTries {
			return fmt.Errorf("try: %s has %d keys; at most %d may be tried", list.name, len(list.keys), maxTries)
		}
		for i, k := range list.keys {
			if (k.Key == "") == (k.Text == "") {
				return fmt.Errorf("try: %s[%d] must have a key or a text, not both or neither", list.name, i)
			}
			if _, ok := toKey(inMsg{Key: k.Key, Text: k.Text}); !ok {
				return fmt.Errorf("try: %s[%d]: %q is not a key", list.name, i, k.Key)
			}
		}
	}
	return nil
}

// tryKeys turns a try message's list, which checkTries passed, into keys.
func tryKeys(list []tryMsgKey) []tryKey {
	keys := make([]tryKey, 0, len(list))
	for _, k := range list {
		if key, ok := toKey(inMsg{Key: k.Key, Text: k.Text}); ok {
			keys = append(keys, tryKey{name: k.Key, text: k.Text, key: key})
		}
	}
	return keys
}

// serve waits until the component ends, redrawing its countdown every
// tick; when ctx ends first it stops the component.
func (c *component[O, M]) serve(ctx context.Context) (O, error) {
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			c.stop()
			var zero O
			return zero, context.Cause(ctx)
		case <-ticker.C:
			c.tick()
		case e := <-c.end:
			return e.outcome, e.err
		}
	}
}

// customSession is one ask_user component on screen.
type customSession struct {
	component[ask.Outcome[[]contract.Answer], *dialog.Model]
	srv *server
	s   *ask.Session[*contract.Request]
}

// handle takes a key, a resize or a UI error from the shim.
func (cs *customSession) handle(msg inMsg) { cs.component.handle(msg, cs.key, nil) }

// key applies k to the dialog and reports whether it ended it.
func (cs *customSession) key(k dialog.Key) (ask.Outcome[[]contract.Answer], bool) {
	return ended(cs.s, cs.m.Update(k))
}

// ended passes the milestones of eff, a key's effect on the dialog of
// session s, on to s, and reports whether it ended the dialog, with the
// outcome. A key that cancels the countdown cancels s's.
func ended[Req, A any](s *ask.Session[Req], eff dialog.Effect[A]) (ask.Outcome[A], bool) {
	for _, ms := range eff.Milestones {
		s.Progress(ms)
	}
	switch eff.Kind {
	case dialog.EffectSubmit:
		return ask.Outcome[A]{Answer: eff.Answer}, true
	case dialog.EffectDismiss:
		return ask.Outcome[A]{Dismissed: true}, true
	case dialog.EffectCancelCountdown:
		s.Countdown.Cancel()
	}
	return ask.Outcome[A]{}, false
}

// view sends frames for one component: the first whole, then only what
// changed, skipping a tick's frame equal to the last.
type view struct {
	srv         *server
	call        string
	width, rows int
	last        dialog.Frame
	sent        bool
}

// draw sends m's frame, unless force is false and it is the frame sent
// last; it reports whether it sent one.
func (v *view) draw(m pimirror.Dialog, force bool) bool {
	if v.width == 0 {
		return false // no size yet: the shim sends one as soon as it renders
	}
	f := m.View(v.width, v.rows)
	if !force && v.sent && sameFrame(f, v.last) {
		return false
	}
	msg := frameMsg{Type: typeFrame, Call: v.call, Lines: f.Lines, Tick: !force}
	if v.sent {
		// The shim holds the last frame: only the lines that changed go.
		msg.Patch, msg.Length = true, len(f.Lines)
		msg.At, msg.Lines = changed(v.last.Lines, f.Lines)
	}
	v.last, v.sent = f, true
	if msg.Lines == nil {
		msg.Lines = []string{}
	}
	msg.Cursor = cursorOf(f)
	_ = v.srv.out.sendFrame(&msg)
	return true
}

// cursorOf is f's cursor as a frame message carries it.
func cursorOf(f dialog.Frame) *pimirror.Cursor {
	if f.Cursor == nil {
		return nil
	}
	return &pimirror.Cursor{Row: f.Cursor.Row, Col: f.Cursor.Col}
}

// changed returns the lines of next that differ from last, as the index
// of the first and the lines from there to the last that differs (or to
// the end when next is longer). They are none, at 0, when next is last.
func changed(last, next []string) (at int, lines []string) {
	n := min(len(last), len(next))
	for at < n && last[at] == next[at] {
		at++
	}
	if at == len(next) {
		return 0, nil // the same lines, or fewer: nothing to send but the length
	}
	end := len(next)
	if len(next) == len(last) {
		for end > at && last[end-1] == next[end-1] {
			end--
		}
	}
	return at, next[at:end]
}

func sameFrame(a, b dialog.Frame) bool {
	if (a.Cursor == nil) != (b.Cursor == nil) || (a.Cursor != nil && *a.Cursor != *b.Cursor) {
		return false
	}
	return slices.Equal(a.Lines, b.Lines)
}

// toKey turns a key message into a dialog key: text as it is, a Pi key
// name in the canonical form of config.ParseKey. A name config.ParseKey does not know is dropped.
func toKey(m inMsg) (dialog.Key, bool) {
	if m.Text != "" {
		return dialog.Key{Text: m.Text}, true
	}
	name, err := config.ParseKey(m.Key)
	if err != nil {
		return dialog.Key{}, false
	}
	return dialog.Key{Name: name}, true
}

// piKey writes a canonical chord in Pi's KeyId spelling, which the shim
// matches raw input against.
func piKey(canonical string) string {
	if canonical == "" {
		return ""
	}
	mods, base := "", canonical
	if i := strings.LastIndex(canonical, "+"); i > 0 && i < len(canonical)-1 {
		mods, base = canonical[:i+1], canonical[i+1:]
	}
	switch base {
	case "esc":
		base = "escape"
	case "pgup":
		base = "pageUp"
	case "pgdown":
		base = "pageDown"
	case "begin":
		base = "clear"
	}
	return mods + base
}
