package hub

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAdmitCountsShownQuestions checks that the count of questions of
// other machines a hub shows is of those admit let through: questions
// still being checked (claimed, and perhaps to be refused) take no place,
// and a place comes back once its question is shown no more.
func TestAdmitCountsShownQuestions(t *testing.T) {
	SetMirrorBoundsForTest(t, 2, maxMirroredWait)
	r := &relay{forwarded: map[string]bool{}, mirrored: map[string]bool{}}
	question := func(id string) *Question {
		return &Question{ID: id, Tag: Tag{Agent: "bot", Contract: ContractAskUser, Questions: 1},
			Request: json.RawMessage(`{"questions":[{"title":"Deploy where?","options":[{"label":"a"},{"label":"b"}]}]}`)}
	}
	// Claimed by other mirrors, and still being checked.
	for _, id := range []string{"checking1", "checking2", "checking3"} {
		if !r.claim(r.mirrored, id) {
			t.Fatalf("%s could not be claimed", id)
		}
	}
	for _, id := range []string{"first", "second"} {
		if err := r.admit(question(id)); err != nil {
			t.Fatalf("%s, with %d questions shown: %v", id, r.shown, err)
		}
	}
	err := r.admit(question("third"))
	if err == nil || !strings.Contains(err.Error(), "2 questions of other machines wait here already") {
		t.Fatalf("a third beyond the count of 2: %v", err)
	}
	r.unshow()
	if err := r.admit(question("third")); err != nil {
		t.Fatalf("the third, once one is shown no more: %v", err)
	}
}
