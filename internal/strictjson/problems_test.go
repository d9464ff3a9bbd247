package strictjson

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPath(t *testing.T) {
	tests := []struct {
		q, f, o int
		prop    string
		want    string
	}{
		{-1, -1, -1, "", ""},
		{-1, -1, -1, "header", "header"},
		{2, -1, -1, "", "questions[2]"},
		{0, 1, -1, "name", "questions[0].fields[1].name"},
		{0, 1, 3, "label", "questions[0].fields[1].options[3].label"},
		{4, -1, 0, "id", "questions[4].options[0].id"},
		{-1, -1, -1, "metadata.tags", "metadata.tags"},
		{1, -1, -1, "[0]", "questions[1][0]"},
	}
	for _, tt := range tests {
		if got := Path(tt.q, tt.f, tt.o, tt.prop); got != tt.want {
			t.Errorf("Path(%d, %d, %d, %q) = %q, want %q", tt.q, tt.f, tt.o, tt.prop, got, tt.want)
		}
	}
}

func TestOrdered(t *testing.T) {
	var none List
	if ps := Ordered[Problem](none); ps != nil {
		t.Errorf("empty list: Ordered = %v, want nil", ps)
	}

	var l List
	l.Add(1, -1, 0, "label", "b")
	l.Add(0, 2, -1, "name", "c")
	l.Add(-1, -1, -1, "header", "d")
	l.Add(0, -1, -1, "title", "e")
	l.Add(1, -1, 0, "label", "f")
	want := []Problem{
		{Path: "header", Message: "d"},
		{Path: "questions[0].title", Message: "e"},
		{Path: "questions[0].fields[2].name", Message: "c"},
		{Path: "questions[1].options[0].label", Message: "b"},
		{Path: "questions[1].options[0].label", Message: "f"},
	}
	ps := Ordered[Problem](l)
	if diff := cmp.Diff(want, ps); diff != "" {
		t.Errorf("Ordered mismatch (-want +got):\n%s", diff)
	}
	if got, want := Join(ps), "header: d; questions[0].title: e; questions[0].fields[2].name: c; questions[1].options[0].label: b; questions[1].options[0].label: f"; got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
}

func TestOrderedCapped(t *testing.T) {
	var l List
	for i := range MaxProblems + 7 {
		l.Add(i, -1, -1, "title", strconv.Itoa(i))
	}
	ps := Ordered[Problem](l)
	if len(ps) != MaxProblems+1 {
		t.Fatalf("got %d problems, want %d", len(ps), MaxProblems+1)
	}
	if diff := cmp.Diff(Problem{Message: "and 7 more problems"}, ps[MaxProblems]); diff != "" {
		t.Errorf("last problem mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Problem{Path: "questions[49].title", Message: "49"}, ps[MaxProblems-1]); diff != "" {
		t.Errorf("last listed problem mismatch (-want +got):\n%s", diff)
	}
}

func TestRequiredText(t *testing.T) {
	var l List
	oks := []bool{
		l.Required(0, -1, -1, "title", "", 5, "say what", false),
		l.Required(0, -1, -1, "title", " ", 5, "say what", false),
		l.Required(0, -1, -1, "title", "toolong", 5, "say what", false),
		l.Required(0, -1, -1, "title", "fine", 5, "say what", false),
		l.Text(0, -1, 1, "label", "a\xff", 5, true),
		l.Text(0, -1, 1, "label", "", 5, true),
	}
	if diff := cmp.Diff([]bool{false, false, false, true, false, true}, oks); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	want := []Problem{
		{Path: "questions[0].title", Message: "is required: say what"},
		{Path: "questions[0].title", Message: "must not be blank: say what"},
		{Path: "questions[0].title", Message: "is 7 characters long; the limit is 5"},
		{Path: "questions[0].options[1].label", Message: "is not valid UTF-8"},
	}
	if diff := cmp.Diff(want, Ordered[Problem](l)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

// own is a contract's problem type, laid out as Problem.
type own struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// TestOrderedJoinOwn gives Ordered and Join a contract's own problem
// type.
func TestOrderedJoinOwn(t *testing.T) {
	tests := []struct {
		name string
		add  []Problem
		want []own
		join string
	}{
		{"none", nil, nil, ""},
		{"one whole", []Problem{{Message: "m"}}, []own{{Message: "m"}}, "m"},
		{"two", []Problem{{Path: "b", Message: "y"}, {Path: "a", Message: "x"}},
			[]own{{Path: "b", Message: "y"}, {Path: "a", Message: "x"}}, "b: y; a: x"},
	}
	for _, tt := range tests {
		var l List
		for _, p := range tt.add {
			l.Add(-1, -1, -1, p.Path, p.Message)
		}
		got := Ordered[own](l)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Ordered (-want +got):\n%s", tt.name, diff)
		}
		if j := Join(got); j != tt.join {
			t.Errorf("%s: Join = %q, want %q", tt.name, j, tt.join)
		}
	}
}
