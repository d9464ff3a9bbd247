// Package hub is the client side of askuser's hub: one queue, on NATS
// JetStream, where every question of one person waits until any of that
// person's surfaces answers it.
//
// A question is an entry of the questions bucket, keyed by its id, with
// its tag (agent, project, machine, contract, count, deadline) and the
// questionnaire; the entry's TTL ends a moment after the deadline, so an
// expired question leaves the store by itself. A question whose asker
// stopped the countdown loses its deadline and its TTL. An answer, or the note that the question
// was closed elsewhere, is created once under the same id in the answers
// bucket: the first create wins, atomically, and every later one is told
// who won.
//
// Dial finds the hub the local askuser processes share through its info
// file (Locate, ReadInfo). Join wraps a host's renderers so that each
// questionnaire is asked locally and on the hub at the same moment.
// Pending and Answer are what programs use to answer.
package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// The NATS names the hub uses. Every hub and client agrees on them.
const (
	// answeredSubject.<id> is published after an answer is stored, so
	// that the asker looks at once rather than at its next poll.
	answeredSubject = "askuser.answered"
)

// Info is what a running hub writes down for the local askuser processes,
// in a file only its user can read: where to connect and with what.
type Info struct {
	// URL is the hub's client address, nats://127.0.0.1:PORT.
	URL string `json:"url"`
	// Token authenticates a client.
	Token string `json:"token"`
	// Fingerprint is the SHA-256 (the hub's server names it) of the certificate
	// the hub's server presents over TLS, made at its start. A client
	// that reads it connects over TLS, sends the token only to a server
	// that presents that certificate, and refuses any other, as one
	// that listens on the port a stopped hub left. "" for a hub that
	// offers no TLS, as an older one.
	Fingerprint string `json:"fingerprint,omitempty"`
	// PID is the hub process.
	PID int `json:"pid"`
	// Started is when the hub became ready.
	Started time.Time `json:"started"`
	// Store is the directory of the hub's JetStream file store.
	Store string `json:"store"`
	// Page is the address of the hub's web page on this machine with its
	// access token, when the hub serves one. It is here, in a file only
	// its user reads, and not in the hub's log, which a service manager
	// may keep where others read it.
	Page string `json:"page,omitempty"`
	// Remote is the address of the remote hub the hub relays with, when
	// it relays questions there.
	Remote string `json:"remote,omitempty"`
	// IdleMs, when not 0, is how long the hub waits with no question
	// waiting and no askuser connected before it stops by itself, as a
	// hub askuser started for a remote hub does.
	IdleMs int64 `json:"idleMs,omitempty"`
}

// Paths are the files of one user's hub, all in one directory.
type Paths struct {
	// Dir holds the other three; only its user may enter it.
	Dir string
	// Info is the info file, readable by its user only.
	Info string
	// Lock is held by the running hub, so that a second one refuses.
	Lock string
	// Store is the JetStream file store.
	Store string
}

// Key is the path of this machine's key, in Dir, which opens the
// questions of other machines sealed to its public key, and signs what
// its relay stores on a remote hub (made by hubstore.MakeKey).
func (p Paths) Key() string { return filepath.Join(p.Dir, "key") }

// Locate returns the paths of the user's hub: in $XDG_STATE_HOME/askuser/hub,
// else ~/.local/state/askuser/hub (on Windows, %LocalAppData%\askuser\hub).
// getenv reads the environment; nil reads none, and then the home
// directory comes from the operating system.
func Locate(getenv func(string) string) (Paths, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	base := getenv("XDG_STATE_HOME")
	if base == "" {
		switch runtime.GOOS {
		case "windows":
			base = getenv("LocalAppData")
		default:
			home := getenv("HOME")
			if home == "" {
				h, err := os.UserHomeDir()
				if err != nil {
					return Paths{}, fmt.Errorf("locate the hub's directory: %w", err)
				}
				home = h
			}
			base = filepath.Join(home, ".local", "state")
		}
	}
	if base == "" || !filepath.IsAbs(base) {
		return Paths{}, fmt.Errorf("locate the hub's directory: no absolute state directory (set XDG_STATE_HOME or HOME)")
	}
	dir := filepath.Join(base, "askuser", "hub")
	return Paths{
		Dir:   dir,
		Info:  filepath.Join(dir, "hub.json"),
		Lock:  filepath.Join(dir, "hub.lock"),
		Store: filepath.Join(dir, "jetstream"),
	}, nil
}

// ErrNoHub is returned by ReadInfo, and wrapped by Dial, when no hub has
// written its info file: none runs for this user.
var ErrNoHub = errors.New("no hub runs for this user")

// Running reports whether the user's hub has written its info file, as a
// hub that runs has: a host asks it before joining, without dialing.
// getenv is as Locate's.
func Running(getenv func(string) string) bool {
	paths, err := Locate(getenv)
	if err != nil {
		return false
	}
	_, err = ReadInfo(paths.Info)
	return !errors.Is(err, ErrNoHub)
}

// maxInfoSize bounds the info file; a real one is about 200 bytes.
const maxInfoSize = 1 << 14

// ReadInfo reads the info file at path. A missing file is ErrNoHub. A
// file that others than its owner can read or write is refused: its token
// would be known to them.
func ReadInfo(path string) (Info, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, ErrNoHub
	}
	if err != nil {
		return Info{}, fmt.Errorf("read the hub's info file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, fmt.Errorf("read the hub's info file: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > maxInfoSize {
		return Info{}, fmt.Errorf("read the hub's info file %s: not a small regular file", path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return Info{}, fmt.Errorf("the hub's info file %s can be read by others (mode %v); remove it and restart the hub", path, st.Mode().Perm())
	}
	var info Info
	// Members this askuser does not know are passed over: askuser and
	// askuser-hub are installed apart, and an askuser older than its hub
	// still joins it on what both know.
	if err := json.NewDecoder(f).Decode(&info); err != nil {
		return Info{}, fmt.Errorf("read the hub's info file %s: %w", path, err)
	}
	if info.URL == "" || info.Token == "" {
		return Info{}, fmt.Errorf("read the hub's info file %s: no url or token", path)
	}
	return info, nil
}
