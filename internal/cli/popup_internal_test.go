package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/config"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/popup"
	"github.com/google/go-cmp/cmp"
)

// The popup tells the server when the user stops the countdown, and says
// on stderr when it cannot.
func TestCountdownWatch(t *testing.T) {
	tests := []struct {
		name       string
		reportErr  error
		wantStderr string
	}{
		{"reported", nil, ""},
		{"report fails", errors.New("broken pipe"), "askuser popup: telling the server the countdown stopped: broken pipe\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				reported := make(chan popup.Report, 1)
				var stderr strings.Builder
				inner := ask.RendererFunc(func(ctx context.Context, s *ask.Session) (ask.Outcome, error) {
					if !s.Countdown.Cancel() {
						t.Error("no countdown to cancel")
					}
					<-reported // the watch has tried to tell the server
					return ask.Outcome{Dismissed: true}, nil
				})
				w := countdownWatch{r: inner, stderr: &stderr, report: func(r popup.Report) error {
					reported <- r
					return tt.reportErr
				}}
				per := int64(60_000)
				opts := &ask.HostOptions{Options: config.Prefs{Mode: contract.RouteCustom, TimeoutPerQuestionMs: &per}}
				req, _, err := contract.Parse([]byte(`{"questions":[{"title":"t","kind":"bool"}]}`))
				if err != nil {
					t.Fatal(err)
				}
				res := ask.NewAsker(ask.NewHost(ask.Capabilities{Custom: w}, opts), nil).Ask(context.Background(), req, nil)
				if res.Status != contract.StatusAborted {
					t.Errorf("status %s; want aborted", res.Status)
				}
				synctest.Wait() // the watch has written what it had to
				if diff := cmp.Diff(tt.wantStderr, stderr.String()); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			})
		})
	}
}
