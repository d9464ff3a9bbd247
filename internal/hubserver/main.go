package hubserver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/prefs"
)

const usage = `usage: askuser hub [--web [ADDR] [--tls | --cert FILE --key FILE] [--url URL]]
                  [--remote URL --credentials FILE --recipients KEY[,KEY…]] [--idle DURATION]
       askuser hub pair [--expires DURATION] [--name NAME]
       askuser hub devices
       askuser hub revoke ID
       askuser hub recipient
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
and may relay the questions of this machine, sealed, to a NATS server or
cluster that the person's other machines reach, and the questions there
sealed to this machine's key (askuser hub recipient) back here:
  {"remote": {"url": "tls://nats.example.net:4222",
   "credentials": "/home/me/.config/askuser/hub.creds",
   "recipients": ["askuser-pub-…"]}}
With "leaf": {"domain": "D"} in remote, its own server joins the cluster
as a leaf node instead: url is then the cluster's leaf node port (7422
unless set), D the cluster's JetStream domain, and credentials a .creds
file, user:password or a token. Only the relay's account, which has no
JetStream here, crosses the leaf node; this machine's questions are
still asked and answered while the cluster is out of reach.

--remote, --credentials and --recipients name the remote hub to relay
with in place of hub.json's remote, as its url, credentials and
recipients do; the hub does not start when it cannot use the
credentials file. With --idle the hub stops by itself once it has had, for
DURATION (such as 10m), no question waiting and no askuser connected.
askuser starts a hub with these when the agent's own config names a
remote hub ("hub": {"url": …, "credentials": …, "recipients": […]})
and no hub runs, so that nothing is left running after the agent.

With --web it also serves its web page, the waiting questions and
their forms for a browser, on ADDR (127.0.0.1:7373 unless given), and
logs the page's address; askuser hub status gives it with its access
token in the fragment (/#token=…), for this machine, or, behind --url,
the proxy's address, where this machine's browser pairs too.
Without TLS only a loopback address is served. --tls serves HTTPS with
the hub's own certificate (made once, kept in the hub's directory);
--cert and --key with yours. --url is the https address devices reach
the page at when a reverse proxy or a private network (tailscale serve)
puts TLS in front of a page on 127.0.0.1. A push with no link of its
own opens the question on that page.

askuser hub pair prints a link, with its QR code and the certificate's
fingerprint, that pairs one device with the running hub's page: it works
once, within DURATION (5m unless given, at most 1h). askuser hub devices
lists the paired devices; askuser hub revoke ID ends one at once.

askuser hub recipient prints this machine's public key (askuser-pub-…),
making its key in the hub's directory first if it is not there: list it
in the recipients of the agents' configs on other machines (hub.recipients)
and of the other machines' hubs (hub.json's remote), and their questions
are sealed to it: only this machine's hub, inbox and programs open them.

askuser-hub version prints the version, the commit and the platform, as
askuser version does.
`

// Main is the askuser-hub program without its process: it runs the hub
// until ctx is done and returns the exit status: 0 after a stop, 1 when
// a hub already runs for the user (said on stderr, naming it), 2 for bad
// arguments, 3 for any other failure. With the argument version it
// prints its version on stdout instead; pair, devices and revoke talk
// to the running hub, 1 when it refuses or none runs.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "askuser hub: "+format+"\n%s", append(a, usage)...)
		return 2
	}
	if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "help":
			fmt.Fprint(stderr, usage)
			return 0
		case "version":
			if len(args) == 1 {
				fmt.Fprintln(stdout, program.Get().Line("askuser-hub"))
				return 0
			}
			return bad("unexpected argument %q", args[0])
		case "pair", "devices", "revoke":
			return mainDevices(ctx, args, stdout, stderr, getenv, bad)
		case "recipient":
			if len(args) > 1 {
				return bad("recipient takes no arguments")
			}
			p, err := hub.Locate(getenv)
			if err == nil {
				var pub string
				if pub, err = hubstore.MakeKey(p.Key()); err == nil {
					fmt.Fprintln(stdout, pub)
					return 0
				}
			}
			fmt.Fprintf(stderr, "askuser hub: %v\n", err)
			return 3
		}
	}
	opts := Options{Getenv: getenv, Log: stderr}
	var remote prefs.Remote
	recipients := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		next := func() bool {
			if hasVal {
				return true
			}
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
				val = args[i]
				return true
			}
			return false
		}
		switch name {
		case "--web":
			opts.Web = DefaultAddr
			next()
			if val != "" {
				opts.Web = val
			}
		case "--tls":
			if hasVal {
				return bad("--tls takes no value")
			}
			opts.WebTLS = true
		case "--cert", "--key", "--url", "--remote", "--credentials", "--recipients":
			if !next() || val == "" {
				return bad("%s needs a value", name)
			}
			*map[string]*string{"--cert": &opts.WebCert, "--key": &opts.WebKey, "--url": &opts.WebURL,
				"--remote": &remote.URL, "--credentials": &remote.Credentials, "--recipients": &recipients}[name] = val
		case "--idle":
			next()
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return bad("--idle needs a duration more than 0, such as 10m")
			}
			opts.Idle = d
		default:
			return bad("unexpected argument %q", a)
		}
	}
	if remote.URL != "" || remote.Credentials != "" || recipients != "" {
		if recipients != "" {
			remote.Recipients = strings.Split(recipients, ",")
		}
		flags := map[string]string{"url": "--remote", "credentials": "--credentials", "recipients": "--recipients"}
		for _, p := range config.RemoteProblems(&remote) {
			m, _, _ := strings.Cut(p.Member, "[")
			return bad("%s: %s", flags[m], p.Message)
		}
		opts.Remote = &remote
	}
	if opts.Web == "" && (opts.WebTLS || opts.WebCert != "" || opts.WebKey != "" || opts.WebURL != "") {
		return bad("--tls, --cert, --key and --url are for the web page: add --web [ADDR]")
	}
	if opts.Web != "" {
		if err := checkWeb(&opts); err != nil {
			fmt.Fprintf(stderr, "askuser hub: %v\n", err)
			return 2
		}
	}
	err := Run(ctx, &opts)
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

// devicesUsage is the usage of askuser hub pair, devices and revoke,
// each its own.
var devicesUsage = map[string]string{
	"pair": `usage: askuser hub pair [--expires DURATION] [--name NAME]

Print a link, with its QR code and the fingerprint of the page's
certificate, that pairs one device with the running hub's page, which
it serves over HTTPS (askuser hub --web ADDR --tls, or --url). The link
works once, within DURATION. The QR code is drawn in the terminal's
colours only when the output is a terminal.
`,
	"devices": `usage: askuser hub devices

List the devices paired with the running hub's page: each one's ID,
name, and when it was paired, last seen or revoked.
`,
	"revoke": `usage: askuser hub revoke ID

End the device ID, as askuser hub devices lists it: the hub refuses
it from now on.
`,
}

// mainDevices runs askuser hub pair, devices and revoke.
func mainDevices(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string, bad func(string, ...any) int) int {
	if len(args) == 2 && (args[1] == "-h" || args[1] == "--help" || args[1] == "-help") {
		fmt.Fprint(stderr, devicesUsage[args[0]])
		if args[0] == "pair" {
			fmt.Fprint(stderr, "\nflags:\n")
			pairFlags(new(controlRequest), stderr).PrintDefaults()
		}
		return 0
	}
	var req controlRequest
	subject := subjectDevices
	switch args[0] {
	case "pair":
		subject = subjectPair
		fs := pairFlags(&req, io.Discard)
		if err := fs.Parse(args[1:]); err != nil {
			usage, _, _ := strings.Cut(devicesUsage["pair"], "\n")
			fmt.Fprintf(stderr, "askuser hub pair: %v\n%s\n", err, usage)
			return 2
		}
		if fs.NArg() > 0 {
			return bad("unexpected argument %q", fs.Arg(0))
		}
		if req.TTL <= 0 || req.TTL > MaxPairing {
			return bad("pair: --expires must be more than 0 and at most %v, not %v", MaxPairing, req.TTL)
		}
	case "devices":
		if len(args) > 1 {
			return bad("unexpected argument %q", args[1])
		}
	case "revoke":
		if len(args) != 2 {
			return bad("revoke takes one device ID, as askuser hub devices lists them")
		}
		subject, req.ID = subjectRevoke, args[1]
	}
	rep, err := control(ctx, getenv, subject, req)
	if err != nil {
		fmt.Fprintf(stderr, "askuser hub %s: %v\n", args[0], err)
		return 1
	}
	switch {
	case rep.Pairing != nil:
		printPairing(stdout, rep.Pairing, isTerminal(stdout))
	case rep.Device != nil:
		fmt.Fprintf(stdout, "the device %s is revoked: the hub refuses it from now on\n", rep.Device.ID)
	default:
		printDevices(stdout, rep.Devices)
	}
	return 0
}

// pairFlags is the flag set of askuser hub pair, filling req, writing
// its errors and defaults to out.
func pairFlags(req *controlRequest, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("askuser hub pair", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.DurationVar(&req.TTL, "expires", DefaultPairing, fmt.Sprintf("how long the link works, at most %v", MaxPairing))
	fs.StringVar(&req.Name, "name", "", "the device's name, as askuser hub devices lists it")
	return fs
}

// isTerminal reports whether w is a terminal, where colours may be
// written.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}
