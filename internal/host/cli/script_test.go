package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes the test binary serve as askuser inside the scripts:
// "askuser" runs exactly as cmd/askuser does; "askuser-detached" first
// leaves the controlling terminal (a new session), so that the scripts see
// no terminal even when go test runs in one.
func TestMain(m *testing.M) {
	testscript.Main(cleanupM{m}, map[string]func(){
		"askuser": func() { os.Exit(runMain()) },
		"askuser-hub": func() {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := hubserver.Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
			stop()
			os.Exit(code)
		},
		// askuser-at-terminal runs askuser with a terminal (a pty) as its
		// standard input, as a person runs it: only there may askuser
		// answer allow an approval.
		"askuser-at-terminal": func() {
			ptm, tty, err := pty.Open()
			if err != nil {
				fmt.Fprintln(os.Stderr, "askuser-at-terminal: pty:", err)
				os.Exit(99)
			}
			defer ptm.Close()
			os.Stdin = tty
			code := runMain()
			tty.Close()
			ptm.Close()
			os.Exit(code)
		},
		"askuser-detached": func() {
			if _, err := syscall.Setsid(); err != nil {
				fmt.Fprintln(os.Stderr, "askuser-detached: setsid:", err)
				os.Exit(99)
			}
			os.Exit(runMain())
		},
	})
}

// cleanupM runs the tests, then removes the binaries they built.
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	// No test reaches a hub of the person running them: a test that
	// wants one starts its own and names its state directory.
	os.Setenv("XDG_STATE_HOME", filepath.Join(os.TempDir(), "askuser-tests-have-no-hub"))
	// The parallel tests and scripts mostly wait on the processes they
	// start (hubs, askuser, ptys), so four run at a time, not one a CPU,
	// unless -test.parallel says otherwise.
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	code := c.m.Run()
	testkit.RemoveBuilds()
	return code
}

// runMain is cmd/askuser's main without os.Exit.
func runMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
}

// fill writes this source's release where a script's files say
// @RELEASE@, as the Pi package puts its own in the hello, and the
// script's work directory where they say @WORK@, for absolute paths.
func fill(env *testscript.Env) error {
	env.Setenv("RELEASE", program.Release())
	return filepath.WalkDir(env.WorkDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(b, []byte("@RELEASE@")) && !bytes.Contains(b, []byte("@WORK@")) {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("@RELEASE@"), []byte(program.Release()))
		return os.WriteFile(path, bytes.ReplaceAll(b, []byte("@WORK@"), []byte(env.WorkDir)), 0o644)
	})
}

// scriptPatience is how long the scripts' own commands wait for a state
// (testkit.Patience of TestScripts): they have no testing.T of their own.
var scriptPatience time.Duration

func TestScripts(t *testing.T) {
	scriptPatience = testkit.Patience(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		// The scripts' work directories live in the test's own, which
		// the test removes: testscript's own root would stay behind.
		WorkdirRoot:         t.TempDir(),
		RequireExplicitExec: true,
		Setup:               fill,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// hubpending N waits until N questions wait on the hub of the
			// script's XDG_STATE_HOME and sets ID to the newest one's id,
			// and HUBPID to the hub's process.
			"hubpending": hubPending,
			// hubgone waits until the hub of the script's XDG_STATE_HOME
			// has stopped by itself: its info file gone, its process,
			// HUBPID, ended.
			"hubgone": hubGone,
			// hubkill kills the hub of process HUBPID at once, as an
			// out-of-memory killer would, and waits until it has ended.
			"hubkill": hubKill,
			// hubdismiss dismisses the question $ID on the hub, as the
			// inbox and the page do.
			"hubdismiss": hubDismiss,
			// hubimpostor, after hubkill, listens on the port the killed
			// hub left with a NATS server of its own, which holds a
			// forged dismissal of question ID, until the script ends,
			// and waits until it has been dialed twice since.
			"hubimpostor": hubImpostor,
			// exits CODE PROG [ARGS...] runs PROG and checks its exit status.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits CODE PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exits: bad CODE %q", args[0])
				}
				err = ts.Exec(args[1], args[2:]...)
				got := 0
				var ee *exec.ExitError
				switch {
				case errors.As(err, &ee):
					got = ee.ExitCode()
				case err != nil:
					ts.Fatalf("exits: %v", err)
				}
				if got != want {
					ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
				}
			},
		},
	})
}

func hubPending(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hubpending N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("hubpending: bad N %q", args[0])
	}
	ctx := context.Background()
	deadline := time.Now().Add(scriptPatience)
	var c *hub.Client
	for c == nil {
		c, err = hub.Dial(ctx, &hub.DialOptions{Getenv: ts.Getenv})
		if err != nil {
			if time.Now().After(deadline) {
				ts.Fatalf("hubpending: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	defer c.Close()
	paths, err := hub.Locate(ts.Getenv)
	ts.Check(err)
	info, err := hub.ReadInfo(paths.Info)
	ts.Check(err)
	ts.Setenv("HUBPID", strconv.Itoa(info.PID))
	for {
		qs, err := c.Pending(ctx)
		ts.Check(err)
		if len(qs) == want {
			if want > 0 {
				ts.Setenv("ID", qs[0].ID)
			}
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("hubpending: %d questions wait, want %d", len(qs), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hubGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: hubgone")
	}
	paths, err := hub.Locate(ts.Getenv)
	ts.Check(err)
	pid, err := strconv.Atoi(ts.Getenv("HUBPID"))
	if err != nil {
		ts.Fatalf("hubgone: no HUBPID: run hubpending first")
	}
	for deadline := time.Now().Add(scriptPatience); ; time.Sleep(20 * time.Millisecond) {
		_, err := hub.ReadInfo(paths.Info)
		if errors.Is(err, hub.ErrNoHub) && !testkit.Running(pid) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("hubgone: the hub of process %d still runs", pid)
		}
	}
}

// hubKill sends the hub of HUBPID a SIGKILL, or with the argument TERM
// a SIGTERM, and waits until its process is gone.
func hubDismiss(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: hubdismiss")
	}
	ctx, cancel := context.WithTimeout(context.Background(), scriptPatience)
	defer cancel()
	c, err := hub.Dial(ctx, &hub.DialOptions{Getenv: ts.Getenv})
	ts.Check(err)
	defer c.Close()
	_, err = c.Dismiss(ctx, ts.Getenv("ID"), "a script")
	ts.Check(err)
}

func hubKill(ts *testscript.TestScript, neg bool, args []string) {
	pid, err := strconv.Atoi(ts.Getenv("HUBPID"))
	sig := syscall.SIGKILL
	if len(args) == 1 && args[0] == "TERM" {
		sig, args = syscall.SIGTERM, nil
	}
	if neg || len(args) != 0 || err != nil {
		ts.Fatalf("usage: hubkill [TERM], after hubpending")
	}
	ts.Check(syscall.Kill(pid, sig))
	for deadline := time.Now().Add(scriptPatience); testkit.Running(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			ts.Fatalf("hubkill: process %d still runs", pid)
		}
	}
}

func hubImpostor(ts *testscript.TestScript, neg bool, args []string) {
	id := ts.Getenv("ID")
	if neg || len(args) != 0 || id == "" {
		ts.Fatalf("usage: hubimpostor, after hubpending and hubkill")
	}
	paths, err := hub.Locate(ts.Getenv)
	ts.Check(err)
	info, err := hub.ReadInfo(paths.Info)
	ts.Check(err)
	u, err := url.Parse(info.URL)
	ts.Check(err)
	port, err := strconv.Atoi(u.Port())
	ts.Check(err)
	dir := ts.MkAbs("impostor")
	ts.Check(os.MkdirAll(dir, 0o700))
	fake, err := testkit.NewImpostor(port, dir, nil)
	ts.Check(err)
	ts.Defer(fake.Close)
	forged, err := json.Marshal(hub.Answer{ID: id, Status: hub.StatusDismissed, By: "alice on her phone", At: time.Now().UTC()})
	ts.Check(err)
	ts.Check(fake.Forge(hubstore.AnswersBucket, id, forged, "askuser.answered."+id))
	seen := fake.Connections()
	for deadline := time.Now().Add(scriptPatience); fake.Connections() < seen+2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			ts.Fatalf("hubimpostor: the impostor on port %d was not dialed twice more: an asker that took it for the hub stays connected", port)
		}
	}
}
