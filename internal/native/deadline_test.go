package native

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

// silent is a host dialog that never answers and ends only with its
// context, the way Pi's dialogs do when their timeout or signal fires.
type silent struct{}

func (silent) Input(ctx context.Context, _, _ string) (string, bool, error) {
	<-ctx.Done()
	return "", false, ctx.Err()
}

func (silent) Select(ctx context.Context, _ string, _ []string) (string, bool, error) {
	<-ctx.Done()
	return "", false, ctx.Err()
}

// The dialog's context carries a copy of the core's deadline, and both
// expire at the same instant. Whichever the scheduler runs first, the call
// must end as a timeout, never as a failed dialog.
func TestDeadlineInTheDialogIsATimeout(t *testing.T) {
	req := `{"allowFreeText":false,"questions":[{"title":"Deploy where?","options":[{"label":"dev"},{"label":"prod"}]}]}`
	timeout := int64(1000)
	for range 200 {
		synctest.Test(t, func(t *testing.T) {
			d := silent{}
			host := ask.NewHost(ask.Bind(ask.Capabilities{}, contract.RouteNative, ask.AskUser, New(d, d)), &ask.HostOptions{Options: prefs.Prefs{TimeoutPerQuestionMs: &timeout}})
			start := time.Now()
			res := ask.AskJSON(context.Background(), ask.NewAsker(host, nil), ask.AskUser, []byte(req), nil)
			want := contract.Result{Status: contract.StatusTimeout, Route: contract.RouteNative, Answers: []contract.Answer{}}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Fatalf("result (-want +got):\n%s", diff)
			}
			if got := time.Since(start); got != time.Second {
				t.Errorf("the call took %v, want the 1s deadline", got)
			}
		})
	}
}
