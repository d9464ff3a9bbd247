package native

import (
	"testing"

	"github.com/askuser/askuser/auq"
)

// FuzzParseLineReply checks that any reply is either refused with a reason
// or read as choices the question has, each once, and one for a
// single-select question.
func FuzzParseLineReply(f *testing.F) {
	for _, s := range []string{"1", "1,3", "2 2", "-", "", " ", "Mongo", "0", "-1", "+2", "1,,3", "99999999999999999999", "3 | x"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, reply string, multi bool) {
		q := &auq.Question{ID: "q", Question: "Q?", Header: "H", MultiSelect: multi, Options: []auq.Option{
			{ID: "a", Label: "A", Description: "d"}, {ID: "b", Label: "B", Description: "d"}}}
		c, why := parseLineReply(q, reply)
		if why != "" {
			return
		}
		if !multi && !c.skip && len(c.chosen) != 1 {
			t.Fatalf("%q: a single-select reply chose %v", reply, c.chosen)
		}
		seen := map[int]bool{}
		for _, k := range c.chosen {
			if k < 0 || k > len(q.Options) || seen[k] {
				t.Fatalf("%q: chose %v", reply, c.chosen)
			}
			seen[k] = true
		}
		if c.otherChosen != seen[len(q.Options)] {
			t.Fatalf("%q: otherChosen %v with %v", reply, c.otherChosen, c.chosen)
		}
		if c.other != "" && checkText(c.other, auq.MaxOtherTextLen) != "" {
			t.Fatalf("%q: Other text %q is not one the contract takes", reply, c.other)
		}
	})
}
