package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/internal/hubstore"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// An answer entry is created once, so that the first answer wins on each
// hub (claim). A relayed question has two hubs, though, each with its
// own first answer: two machines that answer it at the same moment both
// win on their own hub, and only one answer is the one its asker takes.
// The relay then supersedes the other where it stands, replacing the
// entry with the note that the question was answered elsewhere, as it
// stores an answer from elsewhere (closedElsewhere), and naming in
// Superseded who gave the one that lost:
//
//   - On a machine whose answer to a question of another machine lost
//     on the remote hub, its relay supersedes it on its own hub.
//   - On the asking machine, whose hub the asker reads, an answer given
//     there wins for the asker; when another machine's won on the remote
//     hub at the same moment, its relay supersedes that one on the
//     remote hub, and the relay of the machine that gave it, told by its
//     watch of the remote hub, supersedes it on its own hub in turn.
//
// It is the one write to an answer entry besides its create, and it is
// checked by revision: it replaces exactly the entry it read, an answer
// or dismissal given here, never a closing note nor an entry that
// changed since. The bucket keeps one revision per key, so the loser's
// entry is gone and every reader (Question, Pending, a watch, the inbox
// and the web page through it) finds the winner's; a watch reports the
// question closed once more, with the new entry (WatchClosed).

// supersedeTries bounds the reads and writes of supersede when the entry
// keeps changing between them.
const supersedeTries = 3

// supersede replaces the answer or dismissal given on the hub of c to q,
// which lost, with the note that won is where the question was answered
// or closed. An entry that is a closing note already is left as it is,
// but for the note that loser's answer was given elsewhere, and so is an
// answer not given by loser, unless loser is "".
// It reports whether it replaced the entry.
func (c *Client) supersede(ctx context.Context, q *Question, won Answer, loser string) (bool, error) {
	for range supersedeTries {
		gctx, cancel := context.WithTimeout(ctx, requestTimeout)
		done, err := c.supersedeOnce(gctx, q, won, loser)
		cancel()
		var apiErr *jetstream.APIError
		if !errors.As(err, &apiErr) || (apiErr.ErrorCode != jetstream.JSErrCodeStreamWrongLastSequence && apiErr.ErrorCode != jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
			return done, err
		}
	}
	return false, fmt.Errorf("supersede the answer to %s: it kept changing", q.ID)
}

func (c *Client) supersedeOnce(ctx context.Context, q *Question, won Answer, loser string) (bool, error) {
	e, err := c.answers.Get(ctx, q.ID)
	if err != nil {
		return false, fmt.Errorf("read the answer to %s: %w", q.ID, err)
	}
	var mine Answer
	if err := c.read(q, e.Value(), &mine); err != nil {
		return false, fmt.Errorf("read the answer to %s: %w", q.ID, err)
	}
	note := closedElsewhere(q.ID, won)
	switch {
	case settles(mine.Status) && (loser == "" || mine.By == loser):
		note.Superseded = mine.By
	case loser != "" && mine.Status == StatusClosed && mine.By == loser:
		// The note that the one that lost was given elsewhere.
	default:
		return false, nil
	}
	data, err := c.store(q, note)
	if err != nil {
		return false, err
	}
	// kv.Update sets no TTL: the entry is put as the bucket's Update
	// puts it, with the expected revision, and the TTL its create had.
	m := &nats.Msg{Subject: "$KV." + hubstore.AnswersBucket + "." + q.ID, Data: data}
	_, err = c.js.PublishMsg(ctx, m, jetstream.WithExpectLastSequencePerSubject(e.Revision()), jetstream.WithMsgTTL(answerKeep(q.Tag.Deadline)))
	if err != nil {
		return false, err
	}
	_ = c.nc.Publish(answeredSubject+"."+q.ID, nil)
	return true, nil
}

// closedElsewhere is the note that closes a question on one hub of a
// relay when a, an answer or a closing note, ended it on the other.
func closedElsewhere(id string, a Answer) Answer {
	note := Answer{ID: id, Status: StatusClosed, By: a.By, Note: a.Status, At: time.Now().UTC()}
	if a.Status == StatusClosed {
		note.Note = a.Note
	}
	return note
}

// lostTo reports the answer that came first when err is a refusal
// because the question was answered or closed before.
func lostTo(err error) (Answer, bool) {
	var refusal *RefusedError
	if errors.As(err, &refusal) && refusal.Reason == RefusedAnswered && refusal.prior != nil {
		return *refusal.prior, true
	}
	return Answer{}, false
}
