package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitRenderer is the native route: the questionnaire as one flat
// elicitation form. On a modern session the server has already read the
// client's answer to the form, and the verdict travels in the call's data;
// on an older one the renderer sends the form and waits for the answer,
// and sends another form for what an accepted one left out (see judge).
type elicitRenderer struct {
	session *mcp.ServerSession
	modern  bool
}

// callData is what one tools/call hands the renderers of its session, as
// the ask.Call's Data.
type callData struct {
	progress *progress // the call's progress notifications; nil for none
	verdict  *verdict  // what the client's answer to a form sent as InputRequests means, if any
	// questions is verdict for AskUserQuestion.
	questions *qverdict
}

// dataOf returns the callData of s, or an empty one for a call that has
// none.
func dataOf(s *ask.Session) *callData {
	if d, ok := s.Call.Data.(*callData); ok && d != nil {
		return d
	}
	return &callData{}
}

// Render implements ask.Renderer. The forms of one call share its
// deadline and its progress.
func (r *elicitRenderer) Render(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
	d := dataOf(s)
	if d.verdict != nil {
		d.record(d.verdict.action)
		return d.verdict.outcome, d.verdict.err
	}
	if r.modern {
		return ask.Outcome{}, errNoResponse
	}
	rd := round{n: 1}
	for {
		left, _ := s.Countdown.Remaining()
		form, err := rd.form(s.Request, left)
		if err != nil {
			return ask.Outcome{}, err
		}
		sent := time.Now()
		res, err := r.session.Elicit(ctx, form)
		if err != nil {
			return ask.Outcome{}, fmt.Errorf("the elicitation request failed: %w", err)
		}
		v := judge(s.Request, rd, res, time.Since(sent))
		d.record(v.action)
		if v.next == nil {
			return v.outcome, v.err
		}
		rd = *v.next
	}
}

// record tells the call's progress the client's answer to a form.
func (d *callData) record(action string) {
	if d.progress != nil {
		d.progress.setAction(action)
	}
}
