package hub_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/hub"
)

// An offered question answered on the hub while its asker holds no call
// gives that answer to the asker's Settle, whatever the asker's own
// answer was; one the asker settles first is closed on the hub, and an
// answer there after it is refused, saying how it ended.
func TestOffer(t *testing.T) {
	info := startHub(t)
	c := dial(t, info)
	l := hub.NewLink(&hub.LinkOptions{
		Dial:  func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Info: &info}) },
		Local: "the form of the client",
	})
	defer l.Close(context.Background())
	deadline := time.Now().Add(time.Minute)

	tests := []struct {
		name    string
		hub     string // the label answered on the hub first, or ""
		settle  string
		wantWon bool
	}{
		{"answered on the hub", "prod", "answered", true},
		{"dismissed on the hub", "-", "answered", true},
		{"answered by the asker", "", "answered", false},
		{"timed out at the asker", "", "timed out", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := l.Offer(hub.ContractAskUser, json.RawMessage(askUserReq), 1, &deadline)
			q := waitPending(t, c)
			if q.ID != o.ID() || q.Tag.Contract != hub.ContractAskUser || q.Tag.Deadline == nil {
				t.Fatalf("waiting: %+v, want the offer %s with its deadline", q, o.ID())
			}
			switch tt.hub {
			case "":
			case "-":
				if _, err := c.Dismiss(context.Background(), q.ID, "the test"); err != nil {
					t.Fatal(err)
				}
			default:
				if _, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, tt.hub), "the test"); err != nil {
					t.Fatal(err)
				}
			}
			a, won := o.Settle(tt.settle)
			if won != tt.wantWon {
				t.Fatalf("Settle: won %v (%+v), want %v", won, a, tt.wantWon)
			}
			if won {
				out, err := hub.Outcome(ask.AskUser, a)
				if err != nil {
					t.Fatal(err)
				}
				if tt.hub == "-" && !out.Dismissed || tt.hub != "-" && (len(out.Answer) != 1 || out.Answer[0].Selections[0] != tt.hub) {
					t.Errorf("the hub's answer as an outcome: %+v", out)
				}
				return
			}
			_, err := c.Answer(context.Background(), q.ID, askUserAnswer(t, "prod"), "the test")
			var re *hub.RefusedError
			where := tt.settle + " (the form of the client"
			if tt.settle == "answered" {
				where = "answered in the form of the client"
			}
			if !errors.As(err, &re) || re.Reason != hub.RefusedAnswered || !strings.Contains(re.Message, where) {
				t.Errorf("an answer on the hub after Settle: %v", err)
			}
			if again, won := o.Settle(tt.settle); won {
				t.Errorf("a second Settle reported %+v", again)
			}
		})
	}
}
