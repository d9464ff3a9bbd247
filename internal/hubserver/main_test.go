package hubserver_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"
	qrcode "github.com/piglig/go-qr"

	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/program"
)

// The arguments Main takes without starting a hub: help, version, and
// anything else refused.
func TestMainArguments(t *testing.T) {
	tests := []struct {
		args              []string
		code              int
		stdout, stderrHas string
	}{
		{[]string{"--help"}, 0, "", "usage: askuser hub"},
		{[]string{"version"}, 0, program.Get().Line("askuser-hub") + "\n", ""},
		{[]string{"version", "extra"}, 2, "", `unexpected argument "version"`},
		{[]string{"start"}, 2, "", `unexpected argument "start"`},
		{[]string{"--web", "0.0.0.0:7373"}, 2, "", "may not listen on 0.0.0.0:7373: only a loopback address"},
		{[]string{"--web=192.168.1.5:80"}, 2, "", "may not listen on 192.168.1.5:80"},
		{[]string{"--web", "127.0.0.1:1", "more"}, 2, "", `unexpected argument "more"`},
		{[]string{"--tls"}, 2, "", "are for the web page: add --web"},
		{[]string{"--web", "--tls=yes"}, 2, "", "--tls takes no value"},
		{[]string{"--web", "0.0.0.0:7373", "--cert", "c.pem"}, 2, "", "give both the certificate and its key"},
		{[]string{"--web", "--url", "http://laptop.example/"}, 2, "", "give the https address devices reach it at"},
		{[]string{"--web", "--url"}, 2, "", "--url needs a value"},
		{[]string{"pair", "--expires", "2h"}, 2, "", "at most 1h0m0s"},
		{[]string{"pair", "--expires", "soon"}, 2, "", "invalid value"},
		{[]string{"pair", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"devices", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"revoke"}, 2, "", "revoke takes one device ID"},
		{[]string{"recipient", "extra"}, 2, "", "recipient takes no arguments"},
		{[]string{"--remote", "nats://a:1"}, 2, "", "--credentials: is required"},
		{[]string{"--remote", "http://a:1", "--credentials", "/c", "--recipients", pub}, 2, "", `--remote: must be nats://HOST:PORT or tls://HOST:PORT`},
		{[]string{"--remote", "nats://a:1", "--credentials", "c", "--recipients", pub}, 2, "", `--credentials: must be an absolute path, got "c"`},
		{[]string{"--remote", "nats://a:1", "--credentials", "/c", "--recipients", pub + ",x"}, 2, "", `--recipients: a public key starts with askuser-pub-; got "x"`},
		{[]string{"--recipients"}, 2, "", "--recipients needs a value"},
		{[]string{"--idle", "0s"}, 2, "", "--idle needs a duration more than 0"},
		{[]string{"--idle=soon"}, 2, "", "--idle needs a duration more than 0"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := hubserver.Main(context.Background(), tt.args, &stdout, &stderr, func(string) string { return "" })
			if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("Main(%q) = %d, stdout %q, stderr %q; want %d, stdout %q, stderr with %q", tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderrHas)
			}
		})
	}
}

// askuser hub recipient makes this machine's key once and prints the
// same public key each time.
func TestRecipient(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	var first string
	for range 2 {
		var stdout, stderr bytes.Buffer
		if code := hubserver.Main(context.Background(), []string{"recipient"}, &stdout, &stderr, getenv); code != 0 {
			t.Fatalf("askuser hub recipient = %d: %s", code, stderr.String())
		}
		got := strings.TrimSpace(stdout.String())
		if !strings.HasPrefix(got, "askuser-pub-") || first != "" && got != first {
			t.Fatalf("askuser hub recipient printed %q, before %q", got, first)
		}
		first = got
	}
	var stdout, stderr bytes.Buffer
	relative := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return "state"
		}
		return ""
	}
	if code := hubserver.Main(context.Background(), []string{"recipient"}, &stdout, &stderr, relative); code != 3 || !strings.Contains(stderr.String(), "no absolute state directory") {
		t.Fatalf("askuser hub recipient with a relative state directory = %d: %s", code, stderr.String())
	}
}

// askuser hub pair, devices and revoke say why when the running hub
// cannot pair: none runs, it serves no page, or its page is not HTTPS.
func TestPairRefused(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] }
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := hubserver.Main(context.Background(), args, &stdout, &stderr, getenv)
		return code, stdout.String() + stderr.String()
	}
	if code, out := run("pair"); code != 1 || !strings.Contains(out, "no hub runs for this user") {
		t.Errorf("pair with no hub = %d %q", code, out)
	}
	for _, tt := range []struct{ web, msg string }{
		{"", "the hub runs without its web page"},
		{"127.0.0.1:0", "the page has no address for other devices"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: getenv, Web: tt.web})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if code, out := run("pair"); code != 1 || !strings.Contains(out, tt.msg) {
			t.Errorf("pair, the page on %q = %d %q, want 1 and %q", tt.web, code, out, tt.msg)
		}
		if tt.web != "" {
			if code, out := run("devices"); code != 0 || !strings.Contains(out, "no device is paired") {
				t.Errorf("devices = %d %q", code, out)
			}
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// The page's access token is the run's own: a hub started again on the
// same directory hands out another, and refuses the one before, which a
// tab left open sends to whatever listens on the port after the hub.
func TestPageTokenPerRun(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] }
	var tokens []string
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		info, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: getenv, Web: "127.0.0.1:0"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		at, token, ok := strings.Cut(info.Page, "#token=")
		if !ok {
			stop()
			t.Fatalf("the page's address %q has no token", info.Page)
		}
		tokens = append(tokens, token)
		for i, tok := range tokens {
			want := http.StatusUnauthorized
			if i == len(tokens)-1 {
				want = http.StatusOK
			}
			req, _ := http.NewRequest("GET", at+"api/device", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
			if err != nil {
				stop()
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("run %d: the token of run %d gets %d, want %d", len(tokens), i+1, res.StatusCode, want)
			}
			if want != http.StatusOK && !strings.Contains(string(body), "open the address askuser hub status prints") {
				t.Errorf("run %d: the token of run %d is refused with %q; want it to say where the page's address is", len(tokens), i+1, body)
			}
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// The help of askuser hub pair, devices and revoke is their own, on
// standard error with status 0, not the hub's whole usage after an
// error; a bad flag of pair is followed by pair's usage alone.
func TestDevicesHelp(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"pair", "--help"}, 0, "usage: askuser hub pair [--expires DURATION] [--name NAME]\n"},
		{[]string{"pair", "-h"}, 0, "usage: askuser hub pair [--expires DURATION] [--name NAME]\n"},
		{[]string{"devices", "--help"}, 0, "usage: askuser hub devices\n"},
		{[]string{"revoke", "--help"}, 0, "usage: askuser hub revoke ID\n"},
		{[]string{"pair", "--expires", "soon"}, 2, "askuser hub pair: invalid value \"soon\" for flag -expires: parse error\nusage: askuser hub pair [--expires DURATION] [--name NAME]\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := hubserver.Main(context.Background(), tt.args, &stdout, &stderr, func(string) string { return "" })
			if code != tt.code || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), tt.want) {
				t.Errorf("Main(%q) = %d, stdout %q, stderr %q; want %d, nothing on stdout, stderr starting %q", tt.args, code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
			if strings.Contains(stderr.String(), "help requested") || strings.Contains(stderr.String(), "--remote") {
				t.Errorf("Main(%q) printed more than its own usage:\n%s", tt.args, stderr.String())
			}
		})
	}
}

// askuser hub pair draws its QR code without an escape when its output
// is a file, dark modules as blocks, the code of the link it prints; on
// a terminal it draws it in colours of its own.
func TestPairOutput(t *testing.T) {
	state := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": state}[k] }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, stop, err := hubserver.Start(ctx, &hubserver.Options{Getenv: getenv, Web: "127.0.0.1:0", WebTLS: true, WebURL: "https://laptop.example:8443/"})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	file, err := os.Create(filepath.Join(t.TempDir(), "pair.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := hubserver.Main(ctx, []string{"pair"}, file, &stderr, getenv); code != 0 {
		t.Fatalf("pair to a file = %d: %s", code, stderr.String())
	}
	file.Close()
	out, err := os.ReadFile(file.Name())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsRune(out, 0x1b) {
		t.Errorf("pair wrote escapes to a file:\n%q", out)
	}
	link := regexp.MustCompile(`https://laptop\.example:8443/pair#code=[0-9a-f]+`).Find(out)
	if link == nil {
		t.Fatalf("pair printed no link:\n%s", out)
	}
	qr, err := qrcode.EncodeText(string(link), qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(qrText(qr), drawnQR(string(out))); d != "" {
		t.Errorf("the QR code in the file is not the link's (-want +got):\n%s", d)
	}

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal to test the colours with: %v", err)
	}
	defer ptmx.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptmx); got <- b }()
	code := hubserver.Main(ctx, []string{"pair"}, tty, &stderr, getenv)
	tty.Close()
	term := <-got
	if code != 0 || !bytes.Contains(term, []byte("\x1b[97;40m")) {
		t.Errorf("pair to a terminal = %d, without its colours:\n%q", code, term)
	}
}

// qrText is qr's dark modules, a line of "#" and "." for each row, with
// the quiet zone of four modules.
func qrText(qr *qrcode.QrCode) []string {
	n := qr.Size()
	var rows []string
	for y := -4; y < n+4; y++ {
		var b strings.Builder
		for x := -4; x < n+4; x++ {
			if x >= 0 && y >= 0 && x < n && y < n && qr.Module(x, y) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		rows = append(rows, b.String())
	}
	return rows
}

// drawnQR reads the QR code drawn in out without colours back into the
// rows qrText makes: every line of half blocks is two rows.
func drawnQR(out string) []string {
	var rows []string
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || strings.Trim(line, " █▀▄") != "" {
			continue
		}
		var top, bottom strings.Builder
		for _, r := range line {
			t, b := byte('.'), byte('.')
			switch r {
			case '█':
				t, b = '#', '#'
			case '▀':
				t = '#'
			case '▄':
				b = '#'
			}
			top.WriteByte(t)
			bottom.WriteByte(b)
		}
		rows = append(rows, top.String(), bottom.String())
	}
	if n := len(rows); n > 0 && n == len(rows[0])+1 && strings.Trim(rows[n-1], ".") == "" {
		// An odd count of rows leaves the last line's lower half blank.
		rows = rows[:n-1]
	}
	return rows
}
