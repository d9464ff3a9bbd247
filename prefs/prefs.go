// Package prefs holds the types of askuser's user preferences: what a
// program fills in to configure a host (Prefs, with its Notify and Remote)
// and what a host resolved (Effective, with its NotifyPrefs), and the
// values their string fields take.
//
// The types are plain data. A host reads the user's config file, checks
// every source by the same strict rules and combines them knob by knob
// when it is created; ask.NewHost takes a program's Prefs and
// ask.Host.Preferences returns the Effective result.
package prefs

import "github.com/askuser/askuser/contract"

// Prefs is one source of preferences: the user's config file, or the
// options a program gives a host. The zero value sets nothing.
type Prefs struct {
	// Mode forces a route; "" leaves it to the probe.
	Mode contract.Route
	// DisplayMode is the custom dialog's presentation; "" is unset.
	DisplayMode contract.DisplayMode
	// ToggleKey is the overlay show/hide chord, such as "alt+o"; nil is
	// unset, and a pointer to "" disables the toggle, as do "off",
	// "none" and "disabled". A host checks it, refusing the keys the
	// questionnaire needs, and writes it in canonical form.
	ToggleKey *string
	// TimeoutPerQuestionMs is the per-question timeout; nil is unset and 0
	// means no deadline.
	TimeoutPerQuestionMs *int64
	// Notify is how the user is told that a question is waiting.
	Notify Notify
	// Tool is the one tool the Pi package registers, ToolAskUser or
	// ToolAskUserQuestion; "" is unset. Only the Pi host reads it: the
	// other hosts choose their contract explicitly, with --tool, and
	// refuse preferences that set it.
	Tool string
	// Hub says whether questions are published to the user's hub:
	// HubAuto when one runs, HubOff never; "" is unset.
	Hub string
	// HubRemote, set only with Hub HubAuto, is the remote hub the
	// preferences name (hub as an object in the config file): the
	// questions go there through this machine's hub, which askuser
	// starts when none runs.
	HubRemote *Remote
}

// The values of Prefs.Hub and Effective.Hub: HubAuto publishes questions
// to the user's hub when one runs, HubOff never does.
const (
	HubAuto = "auto"
	HubOff  = "off"
)

// The tools the Pi package can register, as Prefs.Tool names them.
const (
	ToolAskUser         = "ask_user"
	ToolAskUserQuestion = "AskUserQuestion"
)

// Notify is one source's preferences for telling the user that a
// question is waiting, the Notify field of Prefs. The zero value sets
// nothing.
type Notify struct {
	// Bell rings the terminal bell when a questionnaire opens; nil is
	// unset.
	Bell *bool
	// Title shows in the window title that a question is waiting, and
	// restores the previous title afterwards; nil is unset.
	Title *bool
	// Desktop is DesktopOn, DesktopOff, DesktopOSC9, DesktopOSC777,
	// DesktopOSC99, or "" for unset.
	Desktop string
	// Command is a program and its arguments, run on every route when a
	// questionnaire opens. nil is unset; an empty, non-nil slice (null
	// in the config file) means no command, overriding another source.
	Command []string
}

// The desktop notification settings of Notify.Desktop and
// NotifyPrefs.Desktop. The config file writes true and false for
// DesktopOn and DesktopOff; DesktopAuto is the default and is never
// written.
const (
	// DesktopAuto sends a desktop notification only where the terminal
	// is known to show one, in the protocol it understands.
	DesktopAuto = "auto"
	// DesktopOn sends one always: in the terminal's own protocol when it
	// is known, else OSC 9.
	DesktopOn = "on"
	// DesktopOff sends none.
	DesktopOff = "off"
	// DesktopOSC9, DesktopOSC777 and DesktopOSC99 send one always, in
	// that protocol: OSC 9 (iTerm2 and others), OSC 777 notify (foot,
	// Ghostty, WezTerm, rxvt) or kitty's OSC 99.
	DesktopOSC9   = "osc9"
	DesktopOSC777 = "osc777"
	DesktopOSC99  = "osc99"
)

// NotifyPrefs are the resolved notify preferences, as Effective.Notify
// and a renderer's session carry them. By default the bell and the title
// are on, Desktop is DesktopAuto and no command runs.
type NotifyPrefs struct {
	Bell, Title bool
	// Desktop is DesktopAuto, DesktopOn, DesktopOff, DesktopOSC9,
	// DesktopOSC777 or DesktopOSC99.
	Desktop string
	// Command is the program and its arguments, or nil for none.
	Command []string
}

// Effective is the resolved preferences of one host, fixed when the host
// is created: the config file and the program's options combined knob by
// knob, an option that is set winning over the file, which wins over the
// built-in default. The zero value is not meaningful.
type Effective struct {
	// Mode is the configured route, or "" to probe the host.
	Mode contract.Route
	// DisplayMode is the display mode the user configured (through
	// a program's options or the file), or "" when they set none and the
	// request decides.
	DisplayMode contract.DisplayMode
	// TimeoutPerQuestionMs is the per-question timeout the user configured
	// when TimeoutSet is true. 0 means no deadline.
	TimeoutPerQuestionMs int64
	// TimeoutSet reports whether the user configured a timeout.
	TimeoutSet bool
	// ToggleKey is the overlay show/hide chord in canonical form
	// (modifiers in the order ctrl, alt, shift, then the lowercase key,
	// as in "ctrl+alt+o"), "" when the user disabled it, "alt+o" when
	// they set nothing.
	ToggleKey string
	// Notify is how the user is told that a question is waiting.
	Notify NotifyPrefs
	// Tool is the tool the user chose for the Pi package, "" when they
	// chose none.
	Tool string
	// Hub is HubOff when the user opted out of the hub; "" or HubAuto
	// publish questions to a hub when one runs.
	Hub string
	// HubRemote is the remote hub the user named, nil for none: with
	// it, askuser starts a hub that relays there when none runs.
	HubRemote *Remote
}

// Remote names a remote hub: the NATS server or cluster that a person's
// machines share, the credentials file to reach it with, and the public
// keys its questions are sealed to. The agent's config (its hub object)
// and the hub's own (hub.json's remote) both name one.
//
// An agent whose config names one publishes its questions, sealed to
// the recipients, through this machine's hub, which relays them there;
// when no hub runs, askuser starts one, which stops by itself after
// IdleMs with nothing to do.
type Remote struct {
	// URL is the server's address, nats:// or tls://, or several,
	// comma-separated, of one cluster.
	URL string
	// Credentials is the absolute path of a NATS .creds file, or of a
	// file holding a token or user:password on one line, readable by
	// its owner only.
	Credentials string
	// Recipients are the public keys (askuser-pub-…) every question is
	// sealed to: the person's hub key, and any paired device's.
	Recipients []string
	// Replicas is how many replicas the hub's buckets are made with on
	// a server that has none yet, 1 to 5 (a NATS cluster's limit for a
	// stream); 0 means as many as the servers of the cluster, up to
	// three, and one on a server in no cluster. Buckets found are used
	// as they are. Only hub.json sets it.
	Replicas int
	// IdleMs is how long a hub that askuser starts for the remote runs
	// with no question waiting and no askuser connected before it
	// stops, in milliseconds, at most a week; 0 means ten minutes. Only
	// the agent's config sets it.
	IdleMs int64
}
