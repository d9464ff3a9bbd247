//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// exitBudget is how soon after SIGINT or SIGTERM every command must have
// ended. askuser's own bound is its half-second grace; the budget is wider
// so that a busy machine's scheduling fails no correct build, and still
// catches a command that does not end.
const exitBudget = 5 * time.Second

// bin is askuser: this test binary, which TestMain makes run main when
// it is started by that name.
var bin string

func TestMain(m *testing.M) {
	testscript.Main(findBin{m}, map[string]func(){"askuser": main})
}

// gorace is the GORACE setting of askuser's environment. Under -race,
// askuser is this binary built with the race detector, which sleeps a
// second at exit (its atexit_sleep_ms) unless told not to: longer than
// the grace that the tests hold askuser to.
var gorace = "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")

// findBin finds askuser where testscript.Main put it, then runs the tests.
type findBin struct{ m *testing.M }

func (f findBin) Run() int {
	var err error
	if bin, err = exec.LookPath("askuser"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return f.m.Run()
}

// process is askuser running with a pipe as standard input that stays
// open and silent until the test writes to it.
type process struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     *os.File     // the write end of standard input
	lines  chan string  // standard output, line by line
	stderr bytes.Buffer // read it only once exit.done is closed
	exit   *exit
}

// exit is how a process ended: err is set once done is closed.
type exit struct {
	done chan struct{}
	err  error
}

func start(t *testing.T, args ...string) *process {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, in: w, lines: make(chan string, 100), exit: &exit{done: make(chan struct{})}}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdin = r
	p.cmd.Stderr = &p.stderr
	p.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), gorace}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.exit.err = p.cmd.Wait()
		close(p.exit.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		w.Close()
	})
	return p
}

// exchange writes one line and returns the next line askuser writes.
func (p *process) exchange(line string) string {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
	select {
	case l := <-p.lines:
		return l
	case <-time.After(testkit.Patience(p.t)):
		p.fatalf("no answer to %s", line)
		return ""
	}
}

// fatalf kills the process, waits for it to end and fails the test with
// the message and what the process wrote on stderr.
func (p *process) fatalf(format string, args ...any) {
	p.t.Helper()
	p.cmd.Process.Kill()
	<-p.exit.done
	p.t.Fatalf(format+"; stderr:\n%s", append(args, p.stderr.String())...)
}

// waitOpenedStdin waits until askuser has opened /dev/stdin: some
// descriptor besides 0 is the same pipe.
func (p *process) waitOpenedStdin() {
	p.t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid)
	stdin, err := os.Readlink(fds + "/0")
	if err != nil {
		p.t.Fatal(err)
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	limit := time.After(testkit.Patience(p.t))
	for {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if l, _ := os.Readlink(fds + "/" + e.Name()); e.Name() != "0" && l == stdin {
				return
			}
		}
		select {
		case <-tick.C:
		case <-limit:
			p.fatalf("askuser never opened /dev/stdin")
		}
	}
}

// signalled sends sigs and returns the exit status and how long after the
// first signal the process ended.
func signalled(t *testing.T, proc *os.Process, e *exit, sigs ...os.Signal) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	for _, s := range sigs {
		if err := proc.Signal(s); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-e.done:
	case <-time.After(testkit.Patience(t)):
		t.Fatalf("askuser still runs %v after %v", time.Since(start).Round(time.Second), sigs)
	}
	took := time.Since(start)
	err := e.err
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, took
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode(), took
	}
	t.Fatalf("askuser did not exit by itself: %v", err)
	return 0, 0
}

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`

var bridgeHello = `{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"print","hasUI":false,"ui":{"custom":false,"input":false,"select":false},"configFile":false}`

// TestSignals sends SIGINT and SIGTERM to commands that watch their
// context (idle servers, which end as usual) and to one that cannot (a
// read from a pipe nobody writes, which is cut off), and checks that each
// ends within exitBudget with the status the signal calls for.
func TestSignals(t *testing.T) {
	// ready brings a command to where the signal is to find it.
	type ready func(p *process)
	readingStdin := func(p *process) { p.waitOpenedStdin() }
	greeted := func(line, answer string) ready {
		return func(p *process) {
			if got := p.exchange(line); !strings.Contains(got, answer) {
				p.fatalf("answer to %s = %q; want it to hold %q", line, got, answer)
			}
		}
	}
	tests := []struct {
		name    string
		args    []string
		ready   ready
		signals []os.Signal
		want    int
		forced  bool // the process is cut off, and says so on stderr
	}{
		{"validate blocked in a read, SIGTERM", []string{"validate", "/dev/stdin"}, readingStdin, []os.Signal{syscall.SIGTERM}, 143, true},
		{"validate blocked in a read, SIGINT", []string{"validate", "/dev/stdin"}, readingStdin, []os.Signal{syscall.SIGINT}, 130, true},
		// Two signals sent this close may reach the program in either
		// order, so the status is either one's (want -1); ending well
		// before the grace shows that the second signal, not the grace,
		// ended it.
		{"validate blocked in a read, SIGINT then SIGTERM", []string{"validate", "/dev/stdin"}, readingStdin, []os.Signal{syscall.SIGINT, syscall.SIGTERM}, -1, true},
		{"mcp idle, SIGTERM", []string{"mcp", "--no-config"}, greeted(mcpInitialize, `"protocolVersion"`), []os.Signal{syscall.SIGTERM}, 0, false},
		{"mcp idle, SIGINT", []string{"mcp", "--no-config"}, greeted(mcpInitialize, `"protocolVersion"`), []os.Signal{syscall.SIGINT}, 0, false},
		{"bridge idle, SIGTERM", []string{"bridge"}, greeted(bridgeHello, `"type":"ready"`), []os.Signal{syscall.SIGTERM}, 0, false},
		{"bridge idle, SIGINT", []string{"bridge"}, greeted(bridgeHello, `"type":"ready"`), []os.Signal{syscall.SIGINT}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, tt.args...)
			tt.ready(p)
			code, took := signalled(t, p.cmd.Process, p.exit, tt.signals...)
			t.Logf("ended %v after %v", took, tt.signals[0])
			switch {
			case tt.want == -1:
				if code != 130 && code != 143 {
					t.Errorf("exit status %d; want 130 or 143; stderr:\n%s", code, p.stderr.String())
				}
				if took >= grace {
					t.Errorf("ended %v after the first signal: the grace of %v ended it, not the second signal", took, grace)
				}
			case code != tt.want:
				t.Errorf("exit status %d; want %d; stderr:\n%s", code, tt.want, p.stderr.String())
			}
			if took > exitBudget {
				t.Errorf("ended %v after the signal; want within %v", took, exitBudget)
			}
			said := strings.Contains(p.stderr.String(), "exiting without waiting")
			if said != tt.forced {
				t.Errorf("stderr tells of a forced exit: %v; want %v; stderr:\n%s", said, tt.forced, p.stderr.String())
			}
		})
	}
}

// TestSignalDuringDialog sends SIGTERM to `askuser demo` while its dialog
// (or its line prompts) hold the terminal, and checks that the call ends
// as aborted within exitBudget and leaves the terminal as it found it.
func TestSignalDuringDialog(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		shows string // on the terminal once the questionnaire is up
		raw   bool   // the terminal is in raw mode then
	}{
		{"custom dialog", []string{"demo", "--no-config"}, "Which editor do you use most?", true},
		{"native line prompts", []string{"demo", "--no-config", "--mode", "native"}, "left]: ", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ptm, tty, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer ptm.Close()
			defer tty.Close()
			if err := pty.Setsize(ptm, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
				t.Fatal(err)
			}
			before := termios(t, tty)

			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, tt.args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, &stderr
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "TERM=xterm-256color", gorace}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			e := &exit{done: make(chan struct{})}
			go func() {
				e.err = cmd.Wait()
				close(e.done)
			}()
			defer func() {
				cmd.Process.Kill()
				<-e.done
			}()
			if !waitScreen(t, ptm, tt.shows) {
				cmd.Process.Kill()
				<-e.done
				t.Fatalf("the terminal never showed %q; stderr:\n%s", tt.shows, stderr.String())
			}
			if up := termios(t, tty); (up.Lflag&syscall.ICANON == 0) != tt.raw {
				t.Fatalf("terminal lflag %#x while the questionnaire is up; want raw mode %v", up.Lflag, tt.raw)
			}

			code, took := signalled(t, cmd.Process, e, syscall.SIGTERM)
			t.Logf("ended %v after SIGTERM", took)
			if code != 1 {
				t.Errorf("exit status %d; want 1 (aborted); stderr:\n%s", code, stderr.String())
			}
			if took > exitBudget {
				t.Errorf("ended %v after the signal; want within %v", took, exitBudget)
			}
			if !strings.Contains(stdout.String(), `"status":"aborted"`) {
				t.Errorf("standard output = %q; want an aborted result", stdout.String())
			}
			after := termios(t, tty)
			if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
				t.Errorf("terminal modes after SIGTERM: lflag %#x iflag %#x oflag %#x; want as before: lflag %#x iflag %#x oflag %#x",
					after.Lflag, after.Iflag, after.Oflag, before.Lflag, before.Iflag, before.Oflag)
			}
		})
	}
}

// waitScreen reads the terminal's output from ptm, in the background
// until ptm is closed, and waits until it shows want. It reports false if
// that does not happen within the test kit's patience.
func waitScreen(t *testing.T, ptm *os.File, want string) bool {
	var (
		mu     sync.Mutex
		screen bytes.Buffer
	)
	grew := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			select {
			case grew <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	limit := time.After(testkit.Patience(t))
	for {
		mu.Lock()
		up := strings.Contains(screen.String(), want)
		mu.Unlock()
		if up {
			return true
		}
		select {
		case <-grew:
		case <-limit:
			return false
		}
	}
}

// termios returns the modes of the terminal f.
func termios(t *testing.T, f *os.File) syscall.Termios {
	t.Helper()
	var tio syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); errno != 0 {
		t.Fatalf("reading the terminal modes: %v", errno)
	}
	return tio
}
