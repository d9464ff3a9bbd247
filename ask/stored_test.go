package ask

import (
	"strings"
	"testing"
)

// TestLookup finds each contract of askuser by the name a hub question's
// tag gives it, and no other.
func TestLookup(t *testing.T) {
	tests := []struct {
		tool    string
		request string
		want    int // questions; -1 for a contract askuser does not know
	}{
		{ToolAskUser, `{"questions":[{"title":"Which database?","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}`, 1},
		{ToolAskUserQuestion, `{"questions":[{"id":"db","question":"Which database?","header":"Database","options":[{"id":"pg","label":"Postgres","description":"p"},{"id":"lite","label":"SQLite","description":"s"}]}]}`, 1},
		{"approval", `{}`, -1},
		{"", `{}`, -1},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			c, ok := Lookup(tt.tool)
			if ok != (tt.want >= 0) {
				t.Fatalf("Lookup(%q) found %v", tt.tool, ok)
			}
			if !ok {
				return
			}
			if c.Tool() != tt.tool {
				t.Errorf("Lookup(%q).Tool() = %q", tt.tool, c.Tool())
			}
			if n, err := c.Questions([]byte(tt.request)); n != tt.want || err != nil {
				t.Errorf("Questions = %d, %v; want %d", n, err, tt.want)
			}
			if _, err := c.Questions([]byte(`{}`)); err == nil {
				t.Error("Questions took a request without questions")
			}
			if _, err := c.CheckAnswer([]byte(`{}`), []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "does not parse") {
				t.Errorf("CheckAnswer of a request that does not parse: %v", err)
			}
		})
	}
}

// TestKinds holds every kind a View shows to a contract the hub knows,
// with what a surface needs of it, and CheckKind to them.
func TestKinds(t *testing.T) {
	for name, k := range Kinds() {
		if _, ok := Lookup(k.ShownAs); !ok {
			t.Errorf("kind %q is shown as %q, which Lookup does not know", name, k.ShownAs)
		}
		if k.Waits == "" || k.Hint == "" || k.OnlyAPerson == nil {
			t.Errorf("kind %q lacks what a surface needs: %+v", name, k)
		}
		if err := CheckKind(name, k.ShownAs); err != nil {
			t.Errorf("CheckKind(%q, %q) = %v", name, k.ShownAs, err)
		}
		if err := CheckKind(name, ToolAskUser); err == nil && k.ShownAs != ToolAskUser {
			t.Errorf("CheckKind(%q, %q) took a kind on a contract it is not shown as", name, ToolAskUser)
		}
	}
	if _, ok := LookupKind(KindQuestion); ok {
		t.Error("LookupKind found the kind of a question")
	}
	if err := CheckKind(KindQuestion, "anything"); err != nil {
		t.Errorf("CheckKind of a question = %v", err)
	}
	if err := CheckKind("launch", ToolAskUserQuestion); err == nil {
		t.Error("CheckKind took an unknown kind")
	}
	allow := []byte(`{"cancelled":false,"answers":{"approval":{"kind":"single","optionId":"allow","label":"Allow once"}}}`)
	if !approvalKind.OnlyAPerson(allow) || approvalKind.OnlyAPerson([]byte(`{"answers":{}}`)) || approvalKind.OnlyAPerson([]byte(`nope`)) {
		t.Error("an approval's OnlyAPerson does not tell an allow")
	}
}
