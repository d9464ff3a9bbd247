package pibridge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/dialog"
	"github.com/askuser/askuser/internal/keyid"
)

// tick is how often a running countdown is redrawn.
const tick = time.Second

// customUI is the custom route inside Pi: the dialog component runs here,
// and the shim shows its frames through ctx.ui.custom and sends back keys
// and sizes.
type customUI struct {
	srv *server
}

// Render opens the component, feeds it keys until the user submits or
// dismisses, and closes the component however the call ends.
func (u *customUI) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	c, err := callFrom(s)
	if err != nil {
		return ask.Outcome{}, err
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
	cs := &customSession{srv: u.srv, s: s, m: m, v: view{srv: u.srv, call: c.id}, end: make(chan customEnd, 1)}
	c.setHandler(cs.handle)
	defer c.setHandler(nil)
	u.srv.send(openMsg{Type: typeOpen, Call: c.id, Display: string(display), ToggleKey: piKey(toggle)})
	// The title comes back after the close, which the shim may be
	// waiting for.
	defer u.startNotify(c.id, s.Notify, s.Request.Header, s.Countdown).Stop()
	defer u.srv.send(callMsg{Type: typeClose, Call: c.id})

	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			cs.stop()
			return ask.Outcome{}, context.Cause(ctx)
		case <-ticker.C:
			cs.tick()
		case e := <-cs.end:
			return e.outcome, e.err
		}
	}
}

// customEnd is how the user, or Pi, ended a component.
type customEnd struct {
	outcome ask.Outcome
	err     error
}

// customSession is one component on screen. Its methods are safe for
// concurrent use: keys come from the reading goroutine, ticks from the
// renderer's.
type customSession struct {
	srv *server
	s   *ask.Session
	end chan customEnd // buffered; written once

	mu    sync.Mutex
	m     *dialog.Model
	v     view
	ended bool
}

func (cs *customSession) finish(e customEnd) {
	cs.ended = true
	cs.end <- e
}

// stop makes the session ignore what still comes for it.
func (cs *customSession) stop() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.ended = true
}

func (cs *customSession) tick() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, counting := cs.s.Countdown.Remaining(); counting && !cs.ended {
		cs.v.draw(cs.m, false)
	}
}

// handle takes a key, a resize or a UI error from the shim.
func (cs *customSession) handle(msg inMsg) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.ended {
		return
	}
	switch msg.Type {
	case typeUIError:
		cs.finish(customEnd{err: fmt.Errorf("pi could not show the dialog: %s", msg.Message)})
	case typeResize:
		// The size was checked when the line was read.
		cs.v.width, cs.v.rows = msg.Width, msg.Rows
		cs.m.SetSize(msg.Width, msg.Rows)
		cs.v.draw(cs.m, true)
	case typeKey:
		k, ok := toKey(msg)
		if !ok {
			// A key the dialog cannot take changes nothing, and is
			// answered all the same: the shim waits for every key's frame.
			cs.v.draw(cs.m, true)
			return
		}
		eff := cs.m.Update(k)
		switch eff.Kind {
		case dialog.EffectSubmit:
			cs.finish(customEnd{outcome: ask.Outcome{Answers: eff.Answers}})
			return
		case dialog.EffectDismiss:
			cs.finish(customEnd{outcome: ask.Outcome{Dismissed: true}})
			return
		case dialog.EffectCancelCountdown:
			cs.s.Countdown.Cancel()
		}
		cs.v.draw(cs.m, true)
	}
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

func (v *view) draw(m *dialog.Model, force bool) {
	if v.width == 0 {
		return // no size yet: the shim sends one as soon as it renders
	}
	f := m.View(v.width, v.rows)
	if !force && v.sent && sameFrame(f, v.last) {
		return
	}
	msg := frameMsg{Type: typeFrame, Call: v.call, Lines: f.Lines}
	if v.sent {
		// The shim holds the last frame: only the lines that changed go.
		msg.Patch, msg.Length = true, len(f.Lines)
		msg.At, msg.Lines = changed(v.last.Lines, f.Lines)
	}
	v.last, v.sent = f, true
	if msg.Lines == nil {
		msg.Lines = []string{}
	}
	if f.Cursor != nil {
		msg.Cursor = &cursorPos{Row: f.Cursor.Row, Col: f.Cursor.Col}
	}
	_ = v.srv.out.sendFrame(&msg)
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
// name in keyid's canonical form. A name keyid does not know is dropped.
func toKey(m inMsg) (dialog.Key, bool) {
	if m.Text != "" {
		return dialog.Key{Text: m.Text}, true
	}
	name, err := keyid.Parse(m.Key)
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
