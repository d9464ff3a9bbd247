package auq

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodedSlicesHaveNoRoom checks that the options and required flags
// Parse cuts from shared blocks stay each question's own: appending to
// one question's options, or setting its flag, leaves the next
// question as it was.
func TestDecodedSlicesHaveNoRoom(t *testing.T) {
	req := base()
	req.Questions[0].Required = ptr(true)
	got, err := Parse(encode(t, req))
	if err != nil {
		t.Fatal(err)
	}
	want := base()
	want.Questions[0].Required = ptr(true)
	q0, q1 := &got.Questions[0], &got.Questions[1]
	if cap(q0.Options) != len(q0.Options) {
		t.Errorf("questions[0].options has room for %d more", cap(q0.Options)-len(q0.Options))
	}
	q0.Options = append(q0.Options, Option{ID: "extra", Label: "Extra", Description: "d"})
	*q0.Required = false
	if diff := cmp.Diff(want.Questions[1], *q1); diff != "" {
		t.Errorf("questions[1] changed (-want +got):\n%s", diff)
	}
}
