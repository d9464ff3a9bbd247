package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/prefs"
)

// hubCloseWait bounds how long askuser ask waits, after printing its
// result, for its question to be closed on the hub.
const hubCloseWait = 2 * time.Second

// hubPref is the hub preference of a terminal host: mode prefs.HubAuto
// or prefs.HubOff, and the remote hub the config file names, if any.
type hubPref struct {
	mode   string
	remote *prefs.Remote
}

// hubPreference is the hub preference of a terminal host: off when the
// flag or else the config file says so, else auto, with the config
// file's remote hub. A config file that cannot be read gives off: the
// host refuses every call with invalid_config anyway.
func hubPreference(flagValue string, opts *ask.HostOptions) hubPref {
	if flagValue == prefs.HubOff {
		return hubPref{mode: prefs.HubOff}
	}
	if opts.ConfigFile == "" {
		return hubPref{mode: prefs.HubAuto}
	}
	load := config.Load
	if opts.ConfigNamed {
		load = config.LoadNamed
	}
	p, err := load(opts.ConfigFile)
	if err != nil || flagValue == "" && p.Hub == prefs.HubOff {
		return hubPref{mode: prefs.HubOff}
	}
	return hubPref{mode: prefs.HubAuto, remote: p.HubRemote}
}

// joinHub joins caps to the user's hub when the preference allows and a
// hub runs: each questionnaire is then asked on the terminal and on the
// hub at once, or on the hub alone when there is no terminal. It returns
// the capabilities to use and a function that closes the link, to call
// once the result is printed. A hub that cannot be reached is said once
// on stderr and changes nothing else.
func joinHub(ctx context.Context, env *Env, name string, pref hubPref, caps ask.Capabilities) (ask.Capabilities, func()) {
	return joinHubAs(ctx, env, name, pref, caps, hubAs{})
}

// hubAs is how a host that asks for another program, such as a client's
// hook, tags its questions on the hub: zero members are those of
// askuser NAME.
type hubAs struct {
	// agent names the asking program; "" for askuser NAME.
	agent string
	// project is the project the questions are about; "" for the
	// working directory.
	project string
	// unanswered is the note a question gets when it ends here
	// unanswered (hub.LinkOptions.Unanswered).
	unanswered string
}

// joinHubAs is joinHub with the questions tagged as as says.
func joinHubAs(ctx context.Context, env *Env, name string, pref hubPref, caps ask.Capabilities, as hubAs) (ask.Capabilities, func()) {
	nothing := func() {}
	if as.agent == "" {
		as.agent = "askuser " + name
	}
	if pref.mode == prefs.HubOff {
		return caps, nothing
	}
	_, err := program.EnsureHub(ctx, env.Getenv, pref.remote, func(s string) {
		fmt.Fprintf(env.Stderr, "askuser %s: %s\n", name, safetext.Line(s))
	})
	if errors.Is(err, hub.ErrNoHub) {
		return caps, nothing
	}
	unreachable := func(err error) string {
		return fmt.Sprintf("askuser %s: the hub cannot be reached, so the question is asked here only: %s\n", name, safetext.Line(err.Error()))
	}
	if err != nil {
		fmt.Fprint(env.Stderr, unreachable(err))
		return caps, nothing
	}
	// What the hub has to say waits until the dialog has given the
	// terminal back and the result is printed: a line written to stderr
	// while the dialog draws would tear its screen.
	var mu sync.Mutex
	var notes []string
	note := func(s string) {
		mu.Lock()
		notes = append(notes, s)
		mu.Unlock()
	}
	link := hub.NewLink(&hub.LinkOptions{
		// Dialed through the info file, read again at each reconnection:
		// a hub that restarts listens elsewhere.
		Dial: func(ctx context.Context) (*hub.Client, error) {
			return hub.Dial(ctx, &hub.DialOptions{Getenv: env.Getenv, Name: "askuser " + name,
				Log: func(s string) { note(fmt.Sprintf("askuser %s: %s\n", name, safetext.Line(s))) }})
		},
		Agent:       as.agent,
		Project:     as.project,
		Unanswered:  as.unanswered,
		Local:       "the terminal of askuser " + name,
		Unreachable: func(err error) { note(unreachable(err)) },
		Answered: func(_ string, a hub.Answer) {
			note(fmt.Sprintf("askuser %s: %s through the hub (question %s), not on this terminal\n", name, safetext.Line(a.Where()), a.ID))
		},
	})
	closeLink := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hubCloseWait)
		defer cancel()
		link.Close(cctx)
		mu.Lock()
		defer mu.Unlock()
		for _, s := range notes {
			fmt.Fprint(env.Stderr, s)
		}
	}
	headless := !caps.CanRun(contract.RouteCustom) && !caps.CanRun(contract.RouteNative)
	if headless {
		// Without a terminal the hub is the only route: offer it only
		// when it answers.
		if err := link.Connect(ctx); err != nil {
			fmt.Fprint(env.Stderr, unreachable(err))
			return caps, nothing
		}
	}
	return link.Join(caps), closeLink
}
