package pibridge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/native"
	"github.com/askuser/askuser/internal/safetext"
)

// nativeUI is the native route inside Pi: each dialog is a request to the
// shim, which opens ctx.ui.input or ctx.ui.select with the time left and
// an abort signal. It implements native.Inputter and native.Selector.
//
// Titles, placeholders and choices come from the model, and Pi draws them
// on its terminal as they are: they go out through safetext, so that no
// control sequence in them reaches the terminal.
type nativeUI struct {
	srv  *server
	call *call // the call whose dialogs these are
}

// nativeRoute is the native route: for each call, the line-dialog flow of
// package native with its dialogs sent to that call.
type nativeRoute struct {
	srv     *server
	selects bool             // the shim has ctx.ui.select
	checker *native.Renderer // for Check, which needs no call
}

var (
	_ ask.Renderer[*contract.Request, []contract.Answer] = nativeRoute{}
	_ ask.Checker[*contract.Request]                     = nativeRoute{}
)

func newNativeRoute(srv *server, selects bool) nativeRoute {
	return nativeRoute{srv: srv, selects: selects, checker: nativeFor(&nativeUI{srv: srv}, selects)}
}

func nativeFor(ui *nativeUI, selects bool) *native.Renderer {
	if selects {
		return native.New(ui, ui)
	}
	return native.New(ui, nil)
}

// Check implements ask.Checker.
func (r nativeRoute) Check(req *contract.Request) error { return r.checker.Check(req) }

// Render implements ask.Renderer[*contract.Request, []contract.Answer].
func (r nativeRoute) Render(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
	c, err := callFrom(s)
	if err != nil {
		return ask.Outcome[[]contract.Answer]{}, err
	}
	return nativeFor(&nativeUI{srv: r.srv, call: c}, r.selects).Render(ctx, s)
}

// Input asks for one line of text.
func (n *nativeUI) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	return n.ask(ctx, dialogMsg{Method: "input", Title: safetext.Text(title), Placeholder: safetext.Line(placeholder)})
}

// Select asks for one of choices and returns it as given, whatever Pi was
// shown of it.
func (n *nativeUI) Select(ctx context.Context, title string, choices []string) (string, bool, error) {
	if len(choices) == 0 {
		return "", false, errors.New("select with no choices")
	}
	shown := shownChoices(choices)
	v, ok, err := n.ask(ctx, dialogMsg{Method: "select", Title: safetext.Text(title), Options: shown})
	if err != nil || !ok {
		return "", ok, err
	}
	i := slices.Index(shown, v)
	if i < 0 {
		return "", false, fmt.Errorf("the selector of pi returned %q, which is not one of its choices", v)
	}
	return choices[i], true, nil
}

// shownChoices makes choices safe to draw. Distinct choices that come out
// the same (a control character and its visible stand-in) are numbered,
// so that the one picked can be told.
func shownChoices(choices []string) []string {
	shown := make([]string, len(choices))
	seen := make(map[string]bool, len(choices))
	dup := false
	for i, c := range choices {
		shown[i] = safetext.Line(c)
		dup = dup || seen[shown[i]]
		seen[shown[i]] = true
	}
	if dup {
		for i := range shown {
			shown[i] = strconv.Itoa(i+1) + ". " + shown[i]
		}
	}
	return shown
}

// ask sends one dialog request and waits for its reply or for ctx. When
// ctx ends first it tells the shim to close the dialog.
func (n *nativeUI) ask(ctx context.Context, d dialogMsg) (string, bool, error) {
	c := n.call
	if c == nil {
		return "", false, errors.New("pibridge: a dialog was asked for outside a bridge call")
	}
	if err := ctx.Err(); err != nil {
		return "", false, context.Cause(ctx)
	}
	ch := make(chan inMsg, 1)
	c.mu.Lock()
	c.nextReq++
	req := c.nextReq
	c.replies[req] = ch
	c.mu.Unlock()
	d.Type, d.Call, d.Req = typeDialog, c.id, req
	if dl, ok := ctx.Deadline(); ok {
		d.TimeoutMs = max(time.Until(dl).Milliseconds(), 1)
	}
	n.srv.send(d)
	select {
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.replies, req)
		c.mu.Unlock()
		n.srv.send(callMsg{Type: typeCancel, Call: c.id, Req: req})
		return "", false, context.Cause(ctx)
	case m := <-ch:
		switch {
		case m.Error != "":
			return "", false, fmt.Errorf("the %s dialog of pi failed: %s", d.Method, m.Error)
		case m.TimedOut:
			// Pi's own timer ran out; the core's deadline, which Pi's
			// timeout was taken from, settles the call.
			<-ctx.Done()
			return "", false, context.Cause(ctx)
		case m.Cancelled || m.Value == nil:
			return "", false, nil
		}
		return *m.Value, true, nil
	}
}
