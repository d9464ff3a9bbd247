// Package hubstore is what package hub's client and the hub's server
// (internal/hubserver) both know of a hub's store, and nothing its
// programs need: the names and bounds of its buckets, the files it keeps
// private, and the relay between a hub and a remote hub.
//
// The relay and the remote hub's client are package hub's own code,
// since they work on its Client's insides; package hub hands them to the
// server through DialRemote and Relay here, so that neither is part of
// its public API.
package hubstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/askuser/askuser/prefs"
	"github.com/nats-io/nats.go/jetstream"
)

// The NATS names the hub uses. Every hub and client agrees on them.
const (
	// QuestionsBucket holds the waiting questions, keyed by id.
	QuestionsBucket = "askuser_questions"
	// AnswersBucket holds one answer or closing note per question id.
	AnswersBucket = "askuser_answers"
	// StoreSubject is where a hub answers, with its hub.StoreState,
	// whether its store takes writes. A hub from before it, and a
	// remote NATS server, have no one there.
	StoreSubject = "askuser.hub.store"
)

// BucketBytes bounds each of the hub's buckets (MaxBytes): a store that
// reaches it refuses new entries with an error that names the limit,
// rather than filling the disk. A question is at most a message of 1 MiB.
const BucketBytes = 256 << 20

// markerTTL is how long a bucket keeps the marker of a key that expired.
const markerTTL = time.Minute

// Buckets opens the hub's two buckets, creating them with one replica
// when they do not exist yet, as on the NATS server of one machine that
// no hub has used before. A remote hub's client makes them with more on
// a cluster (see OpenBuckets).
func Buckets(ctx context.Context, js jetstream.JetStream) (questions, answers jetstream.KeyValue, err error) {
	questions, answers, _, err = OpenBuckets(ctx, js, js.CreateKeyValue)
	return questions, answers, err
}

// OpenBuckets is Buckets, making the buckets it does not find with
// create; it reports the names of those it made.
func OpenBuckets(ctx context.Context, js jetstream.JetStream, create func(context.Context, jetstream.KeyValueConfig) (jetstream.KeyValue, error)) (questions, answers jetstream.KeyValue, made []string, err error) {
	open := func(name, what string) (jetstream.KeyValue, error) {
		kv, err := js.KeyValue(ctx, name)
		if !errors.Is(err, jetstream.ErrBucketNotFound) {
			return kv, err
		}
		kv, err = create(ctx, jetstream.KeyValueConfig{
			Bucket:         name,
			Description:    what,
			History:        1,
			Storage:        jetstream.FileStorage,
			LimitMarkerTTL: markerTTL,
			MaxBytes:       BucketBytes,
		})
		if errors.Is(err, jetstream.ErrBucketExists) {
			return js.KeyValue(ctx, name)
		}
		if err == nil {
			made = append(made, name)
		}
		return kv, err
	}
	if questions, err = open(QuestionsBucket, "askuser: the questions that wait"); err != nil {
		return nil, nil, nil, err
	}
	if answers, err = open(AnswersBucket, "askuser: one answer or closing note per question"); err != nil {
		return nil, nil, nil, err
	}
	return questions, answers, made, nil
}

// CertFingerprint is the fingerprint hub.Info.Fingerprint holds of the
// certificate der: its SHA-256, in hex.
func CertFingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}

// Conn is a connection to a hub that package hub made: a *hub.Client,
// which DialRemote and Relay take and give without showing its type.
type Conn interface {
	// Close closes the connection.
	Close()
}

// DialOptions are the options of DialRemote.
type DialOptions struct {
	// Name names the connection on the server.
	Name string
	// Log is told the buckets the client made, the machines new to this
	// hub and the questions it does not show, with why; nil discards.
	Log func(string)
}

// DialRemote connects to the remote hub r as a client of its server, with
// key, the path of this machine's key (see MakeKey), which signs what
// the client stores there and opens the questions sealed to it. Every
// question published through it is sealed to r's recipients. A server
// that has no buckets of the hub yet gets them with r.Replicas replicas.
//
// Its reads are consistent: a question or an answer is read through the
// leader of its bucket's stream, so that a read right after a write, by
// this client or any other, finds what was written.
//
// Package hub sets it when it is linked in.
var DialRemote func(ctx context.Context, r prefs.Remote, key string, opts *DialOptions) (Conn, error)

// Relay relays questions and answers between the hub of this machine,
// local (a client of package hub's Dial), and a remote hub, remote (see
// DialRemote), until ctx is done or either connection fails for good.
// Every question asked on this machine is published on the remote hub,
// sealed, for the person's other machines, and each question the remote
// hub holds is shown here; an answer given on either side is carried to
// the other, the first one stored winning. log receives a line for each
// failure and each superseded answer; nil discards them.
//
// Package hub sets it when it is linked in.
var Relay func(ctx context.Context, local, remote Conn, log func(string)) error
