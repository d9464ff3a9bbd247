package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
)

// TestNotifyCommandOnElicitation runs the user's notify command on the
// native route, elicitation, at every protocol version: once a call,
// with the header and counts and no question text, also where the
// questionnaire goes out as InputRequests and comes back in a retry.
func TestNotifyCommandOnElicitation(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skipf("no /bin/sh to run the notify command with: %v", err)
	}
	const args = `{"header":"Stack","questions":[{"title":"Database","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}`
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "log")
			script := `echo "$ASKUSER_HOST $ASKUSER_ROUTE $ASKUSER_TOOL $ASKUSER_QUESTIONS $ASKUSER_HEADER $(cat)" >> "$0"`
			srv := newServer(t, &mcpserver.Options{Host: ask.HostOptions{Options: prefs.Prefs{
				Notify: prefs.Notify{Command: []string{"/bin/sh", "-c", script, out}}}}})
			cs := connect(t, srv, v, accept(`{"q1":"SQLite"}`), nil)
			for n := 1; n <= 2; n++ {
				r, err := call(context.Background(), cs, args)
				if err != nil {
					t.Fatal(err)
				}
				if got := result(t, r); got.Status != contract.StatusAnswered {
					t.Fatalf("result %+v", got)
				}
				lines := waitLines(t, out, n)
				if len(lines) != n {
					t.Fatalf("after %d calls the command ran %d times:\n%s", n, len(lines), strings.Join(lines, "\n"))
				}
				for _, l := range lines {
					if !strings.HasPrefix(l, "mcp native ask_user 1 Stack {") || strings.Contains(l, "Database") || strings.Contains(l, "SQLite") {
						t.Errorf("the command saw %q", l)
					}
				}
			}
		})
	}
}

// waitLines waits until the file at path has at least n lines.
func waitLines(t *testing.T, path string, n int) []string {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		data, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(data) > 0 && len(lines) >= n {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notify command wrote %q, want %d lines", data, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
