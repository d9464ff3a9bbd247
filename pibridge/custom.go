package pibridge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/dialog"
	"github.com/askuser/askuser/keyid"
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
	c, err := callFrom(ctx)
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
	u.srv.send(openMsg{Type: typeOpen, Call: c.id, Display: string(display), ToggleKey: piKey(toggle)})
	defer u.srv.send(callMsg{Type: typeClose, Call: c.id})

	v := view{srv: u.srv, call: c.id}
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ask.Outcome{}, context.Cause(ctx)
		case <-ticker.C:
			if _, counting := s.Countdown.Remaining(); counting {
				v.draw(m, false)
			}
		case msg := <-c.ui:
			switch msg.Type {
			case typeUIError:
				return ask.Outcome{}, fmt.Errorf("pi could not show the dialog: %s", msg.Message)
			case typeResize:
				if msg.Width < 1 || msg.Rows < 0 {
					u.srv.protocolError(fmt.Sprintf("resize: bad size %dx%d", msg.Width, msg.Rows))
					continue
				}
				v.width, v.rows = msg.Width, msg.Rows
				v.draw(m, true)
			case typeKey:
				k, ok := toKey(msg)
				if !ok {
					continue
				}
				eff := m.Update(k)
				switch eff.Kind {
				case dialog.EffectSubmit:
					return ask.Outcome{Answers: eff.Answers}, nil
				case dialog.EffectDismiss:
					return ask.Outcome{Dismissed: true}, nil
				case dialog.EffectCancelCountdown:
					s.Countdown.Cancel()
				}
				v.draw(m, true)
			}
		}
	}
}

// view sends frames for one component, skipping a frame equal to the last.
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
	v.last, v.sent = f, true
	msg := frameMsg{Type: typeFrame, Call: v.call, Lines: f.Lines}
	if msg.Lines == nil {
		msg.Lines = []string{}
	}
	if f.Cursor != nil {
		msg.Cursor = &cursorPos{Row: f.Cursor.Row, Col: f.Cursor.Col}
	}
	v.srv.send(msg)
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
