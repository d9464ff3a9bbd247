package hub

import (
	"context"
	"encoding/json"
	"net"
	"time"

	"github.com/askuser/askuser/internal/seal"
	"github.com/askuser/askuser/prefs"
)

// PublishForTest publishes a question of ask_user with request on the
// hub of c, sealed when c is a remote hub's, as a link does, and returns
// its id once the hub acknowledged it: the tests of package hub_test
// read it right after.
func PublishForTest(ctx context.Context, c *Client, request json.RawMessage, questions int) (string, error) {
	l := NewLink(&LinkOptions{Agent: "test"})
	h := l.side(ContractAskUser, "", "", request, questions, nil)
	h.q.Created = time.Now().UTC()
	if c.seal != nil {
		if err := c.seal.prepare(h.q); err != nil {
			return "", err
		}
	}
	return h.q.ID, c.publish(ctx, *h.q)
}

// AnsweredSubjectForTest starts the subject on which a hub tells that
// a question was answered: AnsweredSubjectForTest.<id>.
const AnsweredSubjectForTest = answeredSubject

// DialInfoFileForTest dials as a client of the info file at path does
// when it reconnects, given address, where the hub last listened.
func DialInfoFileForTest(path, address string) (net.Conn, error) {
	return DialInfoFilePinnedForTest(path, address, false)
}

// DialInfoFilePinnedForTest is DialInfoFileForTest for a client set up,
// with pin, to check the hub's certificate.
func DialInfoFilePinnedForTest(path, address string, pin bool) (net.Conn, error) {
	return (&infoFile{path: path, timeout: time.Second, pin: pin}).Dial("tcp", address)
}

// SetMirrorBoundsForTest sets how many questions of other machines a
// relay shows at once, and how long each waits at most, until the test
// ends. Every relay of the process reads them: a test that sets them
// does not run in parallel.
func SetMirrorBoundsForTest(t interface{ Cleanup(func()) }, most int, wait time.Duration) {
	oldMost, oldWait := maxMirrored, maxMirroredWait
	maxMirrored, maxMirroredWait = most, wait
	t.Cleanup(func() { maxMirrored, maxMirroredWait = oldMost, oldWait })
}

// SignedForTest is the message a machine signs for a stored question or
// answer with head and box.
func SignedForTest(head []byte, box *seal.Box) ([]byte, error) { return signed(head, box) }

// DialRemote is dialRemote, for the tests of clients of a remote hub.
func DialRemote(ctx context.Context, r prefs.Remote, key string, opts *DialOptions) (*Client, error) {
	return dialRemote(ctx, r, key, opts)
}

// CheckRequestForTest is checkRequest: how a relay checks a question of
// another machine's hub before it shows it here.
func CheckRequestForTest(q *Question) error { return checkRequest(q) }
