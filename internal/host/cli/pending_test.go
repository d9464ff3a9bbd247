package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/testkit"
)

// TestPendingApproval lists an approval of each hostile command beside a
// question: the approval is marked as one, says who wants to do what and
// shows the command as text, within bounds; the question is listed as
// before.
func TestPendingApproval(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	question := *waitingQuestion(hub.ContractAskUserQuestion, shortAUQReq)
	question.ID, question.Tag.Agent, question.Tag.Project, question.Tag.Questions = "bbbbbbbbbbbb", "pi", "/srv/app", 2
	for _, hc := range testkit.HostileCommands {
		t.Run(hc.Name, func(t *testing.T) {
			a := testkit.ApprovalQuestion("aaaaaaaaaaaa", "claude-code", "/home/me/api", hc.Command, now)
			a.Tag.Machine = "box"
			var b strings.Builder
			writePending(&b, []hub.Question{*a, question}, now, "/home/me")
			out := b.String()
			lines := strings.Split(out, "\n")
			for _, want := range []string{
				"aaaaaaaaaaaa  claude-code  approval  /home/me/api on box  no deadline",
				"    claude-code in ~/api wants to run a command",
				"    answer: askuser answer aaaaaaaaaaaa approval=allow, or approval=deny approval.note=WHY",
				"bbbbbbbbbbbb  pi  AskUserQuestion, 2 questions  /srv/app  no deadline",
				"    Which database?",
			} {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("the listing has no line %q:\n%s", want, out)
				}
			}
			if lines[0] == "" || strings.Contains(lines[0], "question") {
				t.Errorf("the approval's first line %q counts questions", lines[0])
			}
			if !strings.Contains(out, hc.Shown) {
				t.Errorf("the listing does not show %q as text:\n%.2000s", hc.Shown, out)
			}
			if strings.ContainsAny(out, "\x1b\a\u202e\u202c") {
				t.Errorf("the command's controls reach the terminal:\n%q", out)
			}
			if len(lines) > maxWantedLines+10 || len(out) > (maxWantedLines+10)*(maxWantedWidth+10)*4 {
				t.Errorf("the listing has %d lines, %d bytes: the command is not cut", len(lines), len(out))
			}
		})
	}
}

// TestShortAnswerApproval answers an approval with askuser answer's
// short answers: what comes back reads as the decision given, a reason
// typed as markup included.
func TestShortAnswerApproval(t *testing.T) {
	req := &approval.Request{Agent: "codex", Tool: "Bash", Action: approval.ActionRun, Command: "make deploy", Always: []string{"always allow make"}}
	shown, err := approval.Show(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(shown)
	q := waitingQuestion(hub.ContractAskUserQuestion, string(data))
	q.Tag.Kind, q.Tag.Questions = hub.KindApproval, 1
	tests := []struct {
		args []string
		want approval.Decision
	}{
		{[]string{"approval=allow"}, approval.Decision{Allow: true}},
		{[]string{"approval=Allow once"}, approval.Decision{Allow: true}},
		{[]string{"approval=always1"}, approval.Decision{Allow: true, Always: 1}},
		{[]string{"approval=deny", "approval.note=<script>alert(1)</script> \"no\""}, approval.Decision{Reason: "<script>alert(1)</script> \"no\""}},
		{[]string{"approval.other=not now"}, approval.Decision{Reason: "not now"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			short, err := parseShortArgs(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			out, err := shortAnswer(q, short)
			if err != nil {
				t.Fatal(err)
			}
			var res auq.Result
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatal(err)
			}
			got, err := approval.Read(req, shown, res)
			if err != nil || got != tt.want {
				t.Errorf("the short answer reads as %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestOnlyAPersonAllows checks which answers askuser answer lets only a
// terminal give: an allow of an approval, and of a question it could
// not read first, which the hub may find is an approval when it reads
// it again.
func TestOnlyAPersonAllows(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	appr := testkit.ApprovalQuestion("aaaaaaaaaaaa", "claude-code", "/p", "make", now)
	plain := *appr
	plain.Tag.Kind = ""
	const (
		allow  = `{"cancelled":false,"answers":{"approval":{"kind":"single","optionId":"allow","label":"Allow once"}}}`
		always = `{"cancelled":false,"answers":{"approval":{"kind":"single","optionId":"always1","label":"Always allow"}}}`
		deny   = `{"cancelled":false,"answers":{"approval":{"kind":"single","optionId":"deny","label":"Deny"}}}`
		other  = `{"cancelled":false,"answers":{"approval":{"kind":"single","other":true,"label":"Other","text":"allow"}}}`
	)
	tests := []struct {
		name string
		q    *hub.Question
		data string
		want bool
	}{
		{"allow of an approval", appr, allow, true},
		{"always of an approval", appr, always, true},
		{"deny of an approval", appr, deny, false},
		{"other text allow", appr, other, false},
		{"allow of a question", &plain, allow, false},
		{"allow of a question not read", nil, allow, true},
		{"deny of a question not read", nil, deny, false},
		{"not JSON", appr, "approval=allow", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := onlyAPersonAllows(tt.q, []byte(tt.data)); got != tt.want {
				t.Errorf("onlyAPersonAllows = %v, want %v", got, tt.want)
			}
		})
	}
}
