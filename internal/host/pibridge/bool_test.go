package pibridge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCustomRouteBoolArrows answers a yes/no in Pi's custom component
// with the arrows a person reads in the hints: Down reaches False, Up
// goes back to True.
func TestCustomRouteBoolArrows(t *testing.T) {
	const migrate = `{"questions":[{"title":"Run the migrations?","kind":"bool"}]}`
	tests := []struct {
		keys []string
		want bool
	}{
		{[]string{"down", "enter"}, false},
		{[]string{"down", "up", "enter"}, true},
		{[]string{"right", "enter"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, " "), func(t *testing.T) {
			c := ready(t, hello("tui", true, tuiUI, nil))
			sendAsk(c, "c1", migrate, "")
			c.until("open")
			c.sendMsg(map[string]any{"type": "resize", "call": "c1", "width": 60, "rows": 12})
			c.until("frame")
			for _, k := range tt.keys {
				c.sendMsg(map[string]any{"type": "key", "call": "c1", "key": k})
			}
			res := result(t, c.until("result"))
			got := res["answers"].([]any)[0].(map[string]any)["value"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
		})
	}
}
