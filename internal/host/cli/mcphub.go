package cli

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/mcpserver"
	"github.com/askuser/askuser/prefs"
)

// mcpHub returns how askuser mcp joins the user's hub under the
// preference pref, nil for off. Whether a hub runs is looked at when a
// client session asks its first question, so that a hub started after
// the server is still joined; a hub that cannot be reached is said once
// on stderr, which MCP clients keep in their logs, and nowhere else.
//
// When the config names a remote hub and no hub runs, the first session
// that asks starts one that relays there (see program.EnsureHub).
func mcpHub(env *Env, pref hubPref) *mcpserver.HubOptions {
	if pref.mode == prefs.HubOff {
		return nil
	}
	project, _ := os.Getwd()
	var warned sync.Once
	return &mcpserver.HubOptions{
		Dial: func(ctx context.Context) (*hub.Client, error) {
			if pref.remote != nil {
				_, err := program.EnsureHub(ctx, env.Getenv, pref.remote, func(s string) {
					warned.Do(func() { fmt.Fprintf(env.Stderr, "askuser mcp: %s\n", safetext.Line(s)) })
				})
				if err != nil {
					return nil, err
				}
			}
			return hub.Dial(ctx, &hub.DialOptions{Getenv: env.Getenv, Name: "askuser mcp",
				Log: func(s string) { fmt.Fprintf(env.Stderr, "askuser mcp: %s\n", safetext.Line(s)) }})
		},
		Running: func() bool { return pref.remote != nil || hub.Running(env.Getenv) },
		Project: project,
		Unreachable: func(err error, alone bool) {
			if alone {
				fmt.Fprintf(env.Stderr, "askuser mcp: the hub cannot be reached, and it is the only way this client can ask: a question already on it waits for it to come back, within its deadline, and a new one cannot be asked until it is back: %s\n", safetext.Line(err.Error()))
				return
			}
			fmt.Fprintf(env.Stderr, "askuser mcp: the hub cannot be reached, so the questions are asked without it: %s\n", safetext.Line(err.Error()))
		},
	}
}
