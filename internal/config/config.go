// Package config reads and checks askuser's user preferences: the route
// mode, the display mode, the overlay toggle key, the per-question
// timeout, how the user is told of a question, the hub (or a remote hub)
// and, for the Pi package, its tool. It also combines them with
// programmatic options and a request's own values, in the contract's order
// of precedence. The preferences are the public types of package prefs:
// Parse and ParseOptions return a prefs.Prefs in normal form (its
// ToggleKey in the canonical form of ParseKey); one built in Go must pass
// CheckPrefs before Resolve, which returns a prefs.Effective.
//
// Key chords have one canonical form, written by ParseKey, so that keys
// from a terminal, from Pi and from the config file compare equal; the
// keys the questionnaire claims for itself are listed by Reserved and
// Conflicting, and CheckToggle keeps the overlay toggle clear of them.
//
// The config file is JSON with at most these keys:
//
//	{
//	  "mode": "custom",              // or "native"; omitted: probe the host
//	  "displayMode": "overlay",      // or "inline"
//	  "overlayToggleKey": "alt+o",   // a chord, or null, "off", "none", "disabled"
//	  "timeoutPerQuestionMs": 60000, // whole milliseconds; 0: no deadline
//	  "notify": {
//	    "bell": true,                 // ring the terminal bell on opening
//	    "desktop": true,              // or false, "osc9", "osc777", "osc99";
//	                                  // omitted: where the terminal shows it
//	    "title": true,                // "question waiting" in the title
//	    "command": ["prog", "arg"]    // run on opening; null: none
//	  },
//	  "tool": "ask_user",            // or "AskUserQuestion": the Pi package's tool
//	  "hub": "auto"                  // or "off": publish questions to a running hub;
//	                                 // or a remote hub, through this machine's hub:
//	                                 // {"url": "tls://nats.example.net:4222",
//	                                 //  "credentials": "/abs/path/agent.creds",
//	                                 //  "recipients": ["askuser-pub-…"],
//	                                 //  "idleMs": 600000}
//	}
//
// A hub object names the NATS server or cluster that the person's hub
// relays with (see prefs.Remote): its address, a credentials file (an absolute
// path: the secret stays in that file) and the public keys questions are
// sealed to. When no hub runs on this machine, askuser starts one in the
// background that relays to that remote and stops by itself after idleMs
// (ten minutes unless given) with nothing to do.
//
// Validation is strict: every problem is reported, none is ignored,
// coerced or replaced by a default. A host reads its file once, when it is
// created (Load), and resolves the preferences once (Resolve).
//
// The package does no I/O beyond Load and holds no mutable state.
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// MaxTimeoutPerQuestionMs is the largest per-question timeout a config
// accepts: 2⁵³−1, the largest integer a JSON number carries exactly to
// every reader. The total deadline is clamped further by the core.
const MaxTimeoutPerQuestionMs = strictjson.MaxSafeInteger

// MaxFileSize is the size limit of a config file. A real one is a few
// lines; anything larger is a mistake, such as a wrong path.
const MaxFileSize = 64 << 10

// OptionsSource is the source name that ParseOptions reports.
const OptionsSource = "options"

// Error is the error for an invalid config file or invalid options: it
// names the source and lists every problem, each with the key it concerns
// (Path, "" for the whole source) and the reason.
type Error struct {
	// File is the config file's path, or OptionsSource for programmatic
	// options.
	File string
	// Problems lists what is wrong, in document order. It is never empty.
	Problems []contract.Problem
	// Err is the underlying I/O error when the file could not be read.
	Err error
}

// Error reports the source and each problem:
// "/home/u/.pi/agent/ask-user.json: invalid config: mode: must be ...".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": invalid config: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Path != "" {
			b.WriteString(p.Path)
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// Unwrap returns the underlying I/O error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Code is the result code of every config error: invalid_config.
func (e *Error) Code() contract.ErrorCode { return contract.ErrInvalidConfig }

// PiPath is the config file of the Pi host: ask-user.json in Pi's agent
// directory (getAgentDir(): $PI_CODING_AGENT_DIR, or ~/.pi/agent).
func PiPath(agentDir string) string {
	return filepath.Join(agentDir, "ask-user.json")
}

// StandalonePath is the config file of the terminal and MCP hosts:
// askuser/config.json in os.UserConfigDir() ($XDG_CONFIG_HOME or
// ~/.config on Linux). It fails when no config directory is known.
func StandalonePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("locate the askuser config file: %w", err)
	}
	return filepath.Join(dir, "askuser", "config.json"), nil
}

// Load reads the config file at path once and parses it with Parse.
//
// A missing file means no preferences: zero Prefs and no error. Anything
// else that stops the file being read (a directory or another non-regular
// file, a symbolic link to nothing, no permission, a file over
// MaxFileSize) is an *Error naming the file, never a silent default.
func Load(path string) (prefs.Prefs, error) {
	return load(path, false)
}

// LoadNamed is Load for a file the user named, as with --config: a
// missing file is an *Error, not an empty set of preferences.
func LoadNamed(path string) (prefs.Prefs, error) {
	return load(path, true)
}

func load(path string, named bool) (prefs.Prefs, error) {
	if path == "" {
		return prefs.Prefs{}, &Error{File: `""`, Problems: []contract.Problem{{Message: "no config file path given"}}}
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return prefs.Prefs{}, fileError(path, "is a symbolic link to a file that does not exist", err)
		}
		if named {
			return prefs.Prefs{}, fileError(path, "does not exist; name an existing config file, or leave the option out to use the default one", err)
		}
		return prefs.Prefs{}, nil
	}
	if err != nil {
		return prefs.Prefs{}, fileError(path, "cannot read the file: "+reason(err), err)
	}
	if fi.IsDir() {
		return prefs.Prefs{}, fileError(path, "is a directory; the config must be a JSON file", nil)
	}
	if !fi.Mode().IsRegular() {
		return prefs.Prefs{}, fileError(path, "is not a regular file", nil)
	}
	f, err := os.Open(path)
	if err != nil {
		return prefs.Prefs{}, fileError(path, "cannot read the file: "+reason(err), err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return prefs.Prefs{}, fileError(path, "cannot read the file: "+reason(err), err)
	}
	if len(data) > MaxFileSize {
		return prefs.Prefs{}, fileError(path, fmt.Sprintf("is larger than %d KiB; a config file holds a few settings", MaxFileSize>>10), nil)
	}
	return Parse(path, data)
}

func fileError(path, msg string, err error) *Error {
	return &Error{File: path, Problems: []contract.Problem{{Message: msg}}, Err: err}
}

// reason drops the path from a *fs.PathError, which Error already names.
func reason(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
