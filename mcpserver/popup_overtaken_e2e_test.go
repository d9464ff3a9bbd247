package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
)

const fruitQuestion = `{"questions":[{"title":"Pick a fruit","options":[{"label":"apple"},{"label":"pear"}]}]}`

// A client that forgets a call without cancelling it, as Continue does
// when its user interrupts one, leaves that call's hidden dialog behind.
// The next call's popup opens at once all the same; the old dialog, when
// the user brings it back, first says that the agent asked a newer
// question and may no longer wait for this answer, and is answered, or
// dismissed, only once the user has said which.
func TestPopupOvertaken(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	const notice = "The agent asked a newer question after this one."
	tests := []struct {
		name string
		key  string // at the notice
		want contract.Result
	}{
		{"answered anyway", "Enter", contract.Result{Status: contract.StatusAnswered, Route: contract.RouteCustom, Answers: []contract.Answer{
			{Index: 0, ID: "q1", Title: "Pick a colour", Kind: contract.KindSingle, Selections: []string{"red"}},
		}}},
		{"dismissed", "Escape", contract.Result{Status: contract.StatusAborted, Route: contract.RouteCustom, CancelledReason: contract.CancelUser, Answers: []contract.Answer{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startTmuxServer(t)
			o := attachOuter(c)
			cs := c.serverInTmux()
			old := callAsync(context.Background(), cs, popupQuestion)
			o.waitText("Pick a colour", "esc dismiss")
			o.keys("M-o")
			o.waitFor("the dialog hidden", func(s string) bool { return !strings.Contains(s, "Pick a colour") })
			o.until("M-o bound to the popup", func() bool { return strings.Contains(binding(c, "M-o"), "--socket") })

			// The client has forgotten the first call and makes another.
			newer := callAsync(context.Background(), cs, fruitQuestion)
			o.waitText("Pick a fruit", "apple")
			o.keys("Enter")
			if res := waitResult(t, newer); res.Status != contract.StatusAnswered || res.Answers[0].Selections[0] != "apple" {
				t.Errorf("the newer call's result %+v, want apple", res)
			}
			o.waitFor("the newer popup gone", func(s string) bool { return !strings.Contains(s, "Pick a fruit") })

			// The key still brings the first dialog back, with the notice
			// before its questions.
			o.until("M-o bound to the first popup", func() bool { return strings.Contains(binding(c, "M-o"), "--socket") })
			o.keys("M-o")
			s := o.waitText(notice, "Enter  answer it anyway", "Esc    dismiss it")
			if strings.Contains(s, "Pick a colour") {
				t.Errorf("the questions show with the notice:\n%s", s)
			}
			o.keys(tt.key)
			if tt.key == "Enter" {
				o.waitText("Pick a colour", "esc dismiss")
				o.keys("Enter")
			}
			if diff := cmp.Diff(tt.want, waitResult(t, old)); diff != "" {
				t.Errorf("the first call's result (-want +got):\n%s", diff)
			}
			o.waitFor("the popup gone", func(s string) bool { return !strings.Contains(s, "Pick a colour") && !strings.Contains(s, notice) })
			c.noSocketDir()
			o.until("no askuser popup process left", func() bool { return len(popupProcesses(t)) == 0 })
		})
	}
}

// A call that comes while another's popup is shown waits for it, and the
// user is told at once; it opens as soon as the shown one is answered,
// and, being the newest, without the notice.
func TestPopupWaitingIsTold(t *testing.T) {
	if testing.Short() {
		t.Skip("the popup test runs a real tmux; skipped in -short mode")
	}
	c := startTmuxServer(t)
	o := attachOuter(c)
	cs := c.serverInTmux()
	first := callAsync(context.Background(), cs, popupQuestion)
	o.waitText("Pick a colour", "esc dismiss")
	second := callAsync(context.Background(), cs, fruitQuestion)
	o.waitText("Pick a colour", "askuser: a newer question is waiting behind this one")
	o.keys("Enter")
	if res := waitResult(t, first); res.Status != contract.StatusAnswered {
		t.Errorf("the first call's result %+v", res)
	}
	s := o.waitText("Pick a fruit", "apple")
	if strings.Contains(s, "newer question") {
		t.Errorf("the newest call's popup has the notice:\n%s", s)
	}
	o.keys("Enter")
	if res := waitResult(t, second); res.Status != contract.StatusAnswered {
		t.Errorf("the second call's result %+v", res)
	}
	c.noSocketDir()
}
