package hubserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/askuser/askuser/internal/hubweb"
	"github.com/askuser/askuser/internal/program"
)

const usage = `usage: askuser hub [--web [ADDR]]
       askuser-hub version

Run the hub in the foreground: an embedded NATS server with JetStream on
127.0.0.1, its store and info file in $XDG_STATE_HOME/askuser/hub (else
~/.local/state/askuser/hub). Local askuser processes find it there and
publish their questions to it. SIGTERM stops it with nothing lost.

Its own config file, $XDG_CONFIG_HOME/askuser/hub.json (else
~/.config/askuser/hub.json), read once at the start, may push the
questions nobody answers in time to a phone through ntfy:
  {"push": {"delayMs": 30000, "ntfy": {"server": "https://ntfy.sh",
   "topic": "…", "token": "…", "link": "https://…/"}}}

With --web it also serves its web page, the waiting questions and
their forms for a browser, on ADDR (127.0.0.1:7373 unless given), and
prints the page's address with its access token. Only a loopback
address is served.

askuser-hub version prints the version, the commit and the platform, as
askuser version does.
`

// Main is the askuser-hub program without its process: it runs the hub
// until ctx is done and returns the exit status: 0 after a stop, 1 when
// a hub already runs for the user (said on stderr, naming it), 2 for bad
// arguments, 3 for any other failure. With the argument version it
// prints its version on stdout instead.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	web := ""
	if len(args) > 0 {
		switch {
		case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
			fmt.Fprint(stderr, usage)
			return 0
		case args[0] == "version" && len(args) == 1:
			fmt.Fprintln(stdout, program.Get().Line("askuser-hub"))
			return 0
		case args[0] == "--web" && len(args) <= 2:
			web = hubweb.DefaultAddr
			if len(args) == 2 {
				web = args[1]
			}
		case strings.HasPrefix(args[0], "--web=") && len(args) == 1:
			web = strings.TrimPrefix(args[0], "--web=")
		default:
			bad := args[0]
			if strings.HasPrefix(bad, "--web") {
				bad = args[len(args)-1]
			}
			fmt.Fprintf(stderr, "askuser hub: unexpected argument %q\n%s", bad, usage)
			return 2
		}
		if err := hubweb.CheckAddr(web); err != nil {
			fmt.Fprintf(stderr, "askuser hub: %v\n", err)
			return 2
		}
	}
	err := Run(ctx, &Options{Getenv: getenv, Log: stderr, Web: web})
	var running *RunningError
	switch {
	case errors.As(err, &running):
		fmt.Fprintf(stderr, "askuser hub: %v\n", err)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "askuser hub: %v\n", err)
		return 3
	}
	return 0
}
