package ask

import "github.com/askuser/askuser/internal/config"

// Effective is the preferences a Host resolved when it was created, as
// Host.Preferences returns them: the config file and the programmatic
// options combined knob by knob. The zero value is not meaningful.
type Effective = config.Effective

// Notify is one source's preferences for telling the user that a question
// is waiting, the Notify field of Prefs. The zero value sets nothing.
type Notify = config.Notify

// NotifyPrefs are the resolved notify preferences, as Effective.Notify,
// Session.Notify and QuestionSession.Notify carry them.
type NotifyPrefs = config.NotifyPrefs

// The desktop notification settings of Notify.Desktop and
// NotifyPrefs.Desktop: DesktopAuto sends one only where the terminal is
// known to show it, DesktopOn always, DesktopOff never, and DesktopOSC9,
// DesktopOSC777 and DesktopOSC99 always, in that protocol.
const (
	DesktopAuto   = config.DesktopAuto
	DesktopOn     = config.DesktopOn
	DesktopOff    = config.DesktopOff
	DesktopOSC9   = config.DesktopOSC9
	DesktopOSC777 = config.DesktopOSC777
	DesktopOSC99  = config.DesktopOSC99
)

// The values of Prefs.Hub: HubAuto publishes questions to the user's hub
// when one runs, HubOff never does.
const (
	HubAuto = config.HubAuto
	HubOff  = config.HubOff
)
