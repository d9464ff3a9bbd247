package popup

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/tui"
	"github.com/google/go-cmp/cmp"
)

const goodToken = "0123456789abcdef"

func nested(n int) string {
	return strings.Repeat("[", n) + strings.Repeat("]", n)
}

// hostileHellos are first lines a stranger or a broken helper may send,
// with what readHello must say about each.
var hostileHellos = []struct {
	name, in, want string
}{
	{"wrong token", `{"token":"guess"}` + "\n", "the hello has the wrong token"},
	{"empty token", `{"token":""}` + "\n", "the hello has the wrong token"},
	{"no token", `{}` + "\n", "the hello has the wrong token"},
	{"nothing", ``, "reading the hello: EOF"},
	{"truncated", `{"token":"` + goodToken, "reading the hello: unexpected EOF"},
	{"good token, no newline", `{"token":"` + goodToken + `"}`, "reading the hello: unexpected EOF"},
	{"malformed", `{"token":}` + "\n", "bad message: invalid character '}'"},
	{"10 MB line", `{"token":"` + strings.Repeat("x", 10<<20) + `"}` + "\n", "a line on the socket is line longer than 1048576 bytes"},
	{"10 MB line, no newline", strings.Repeat("x", 10<<20), "line longer than 1048576 bytes"},
	{"100,000 nested brackets", nested(100_000) + "\n", "exceeded max depth"},
	{"nested in a member", `{"token":"` + goodToken + `","x":` + nested(100_000) + "}\n", "exceeded max depth"},
	{"NUL in the token", "{\"token\":\"" + goodToken + "\x00\"}\n", `invalid character '\x00' in string literal`},
	{"NUL after the object", "{\"token\":\"" + goodToken + "\"}\x00\n", "data after the object"},
	{"invalid UTF-8", "{\"token\":\"" + goodToken + "\xff\"}\n", "not valid UTF-8 at byte 26"},
	{"lone surrogate", `{"token":"` + goodToken + `\ud800"}` + "\n", `"token": an unpaired surrogate escape`},
	{"duplicate token, good last", `{"token":"guess","token":"` + goodToken + `"}` + "\n", `duplicate key "token"`},
	{"duplicate token, good first", `{"token":"` + goodToken + `","token":"guess"}` + "\n", `duplicate key "token"`},
	{"unknown member", `{"token":"` + goodToken + `","admin":true}` + "\n", `unknown field "admin"`},
	{"token a huge number", `{"token":1e9223372036854775807}` + "\n", "cannot unmarshal number into Go struct field Hello.token of type string"},
	{"token a tiny number", `{"token":1.5e-9223372036854775808}` + "\n", "cannot unmarshal number"},
	{"token -0", `{"token":-0}` + "\n", "cannot unmarshal number into Go struct field Hello.token of type string"},
	{"two objects", `{"token":"` + goodToken + `"} {}` + "\n", "data after the object"},
	{"an array", `["` + goodToken + `"]` + "\n", "cannot unmarshal array"},
	{"env not allowed", `{"token":"` + goodToken + `","env":["LD_PRELOAD=/x.so"]}` + "\n", `names "LD_PRELOAD", which is not one of`},
	{"env not a list", `{"token":"` + goodToken + `","env":"TERM=x"}` + "\n", "cannot unmarshal string"},
}

func TestReadHello(t *testing.T) {
	if _, err := readHello(strings.NewReader(`{"token":"`+goodToken+`"}`+"\n"), goodToken); err != nil {
		t.Fatalf("a good hello: %v", err)
	}
	for _, tt := range hostileHellos {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := readHello(strings.NewReader(tt.in), goodToken)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("readHello = %v; want an error saying %q", err, tt.want)
			}
			// The line is never held whole: a few times the line limit.
			if got := after.TotalAlloc - before.TotalAlloc; got > 8*MaxLine {
				t.Errorf("readHello allocated %d bytes; want at most %d", got, 8*MaxLine)
			}
		})
	}
}

// Strangers sending hostile hellos are turned away one after another,
// and the helper that comes after them still gets the dialog.
func TestRendererSurvivesHostileHellos(t *testing.T) {
	s := session(t)
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		for _, h := range hostileHellos {
			c, err := net.Dial("unix", sock)
			if err != nil {
				t.Error(err)
				return
			}
			go func() {
				// The renderer may stop reading early; the end of the
				// stream ends a line without a newline.
				io.WriteString(c, h.in)
				c.(*net.UnixConn).CloseWrite()
			}()
			if n, _ := c.Read(make([]byte, 1)); n != 0 {
				t.Errorf("%s: the renderer answered a stranger", h.name)
			}
			c.Close()
		}
		// A good hello with no terminal after it is turned away too.
		if c, err := net.Dial("unix", sock); err == nil {
			tok, _ := os.ReadFile(filepath.Join(filepath.Dir(sock), TokenFile))
			strictjson.WriteLine(c, Hello{Token: string(tok)})
			io.WriteString(c, "x")
			c.(*net.UnixConn).CloseWrite()
			io.Copy(io.Discard, c)
			c.Close()
		}
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})}}
	out, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ask.Outcome[[]contract.Answer]{Dismissed: true}, out); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
}

// A bad report ends the call with an error saying what is wrong, leaves
// no socket directory behind, and the next popup works.
func TestRendererBadReport(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"malformed", `{"type":"resize",`, "popup: bad message: unexpected EOF"},
		{"unknown type", `{"type":"what"}`, `unknown report type "what"`},
		{"10 MB", `{"type":"` + strings.Repeat("x", 10<<20) + `"}`, "line longer than 1048576 bytes"},
		{"nested", `{"type":"resize","x":` + nested(100_000) + `}`, "exceeded max depth"},
		{"NUL", "{\"type\":\"resize\x00\"}", `invalid character '\x00'`},
		{"invalid UTF-8", "{\"type\":\"\xc3\"}", "not valid UTF-8 at byte 9"},
		{"lone surrogate", `{"type":"\udc00"}`, `"type": an unpaired surrogate escape`},
		{"duplicate type", `{"type":"resize","type":"resize"}`, `duplicate key "type"`},
	}
	var report string // set before each Render, read by its helper
	r := NewRenderer(launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		conn := helperConn(t, ctx, sock, nil)
		if conn == nil {
			return
		}
		defer conn.Close()
		if report != "" {
			go io.WriteString(conn.c, report+"\n")
		}
		<-conn.Gone()
	}), nil, &Options{Dialog: func(*ask.Session[*contract.Request]) (Dialog, error) {
		shows := []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){waitShow}
		if report == "" {
			shows[0] = answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})
		}
		return &fakeDialog{shows: shows}, nil
	}})
	for _, tt := range tests {
		report = tt.line
		_, err := r.Render(context.Background(), session(t))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Render = %.300v; want an error saying %q", tt.name, err, tt.want)
		}
		if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "askuser-popup-*")); len(left) > 0 {
			t.Errorf("%s: left behind %v", tt.name, left)
		}
	}
	report = ""
	if out, err := r.Render(context.Background(), session(t)); err != nil || !out.Dismissed {
		t.Errorf("after the bad reports: %v, %v; want dismissed", out, err)
	}
}

// A temporary directory too long for a socket path is reported as such,
// and leaves nothing behind.
func TestRendererLongTempDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", dir)
	launches := 0
	l := launcherFunc(func(context.Context, string, *fakeWindow) { launches++ })
	_, err := NewRenderer(l, nil, nil).Render(context.Background(), session(t))
	if err == nil || !strings.Contains(err.Error(), "set TMPDIR to a shorter directory") || launches != 0 {
		t.Errorf("Render = %v after %d launches; want the path named too long, and none", err, launches)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left behind %v", left)
	}
}

// A helper that goes away in the middle of a report ends the call with
// an error, and the next popup works.
func TestRendererHelperGoesMidReport(t *testing.T) {
	var truncate bool // set before each Render, read by its helper
	r := NewRenderer(launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		conn := helperConn(t, ctx, sock, nil)
		if conn == nil {
			return
		}
		defer conn.Close()
		if truncate {
			io.WriteString(conn.c, `{"type":"res`)
			return
		}
		<-conn.Gone()
	}), nil, &Options{Dialog: func(*ask.Session[*contract.Request]) (Dialog, error) {
		shows := []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){waitShow}
		if !truncate {
			shows[0] = answerShow(ask.Outcome[[]contract.Answer]{Dismissed: true})
		}
		return &fakeDialog{shows: shows}, nil
	}})
	truncate = true
	if _, err := r.Render(context.Background(), session(t)); err == nil || !strings.Contains(err.Error(), "the popup closed without an answer") {
		t.Errorf("Render = %v; want the popup closed without an answer", err)
	}
	truncate = false
	if out, err := r.Render(context.Background(), session(t)); err != nil || !out.Dismissed {
		t.Errorf("the next popup: %v, %v; want dismissed", out, err)
	}
}

// Connections that say nothing, made before the helper's, do not delay
// the dialog: they are still waiting for their hello when it shows.
func TestRendererSilentConnections(t *testing.T) {
	s := session(t)
	var silent []net.Conn
	l := launcherFunc(func(ctx context.Context, sock string, w *fakeWindow) {
		for range 3 {
			c, err := net.Dial("unix", sock)
			if err != nil {
				t.Error(err)
				return
			}
			silent = append(silent, c)
		}
		if conn := helperConn(t, ctx, sock, nil); conn != nil {
			defer conn.Close()
			<-conn.Gone()
		}
	})
	var waiting []bool
	d := &fakeDialog{shows: []func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error){
		func(context.Context, tui.Terminal) (ask.Outcome[[]contract.Answer], error) {
			// Each silent connection is still open: a read waits rather
			// than find it closed.
			for _, c := range silent {
				c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
				_, err := c.Read(make([]byte, 1))
				waiting = append(waiting, errors.Is(err, os.ErrDeadlineExceeded))
			}
			return ask.Outcome[[]contract.Answer]{Dismissed: true}, nil
		},
	}}
	began := time.Now()
	out, err := NewRenderer(l, nil, withDialog(d)).Render(context.Background(), s)
	took := time.Since(began)
	for _, c := range silent {
		c.Close()
	}
	if err != nil || !out.Dismissed {
		t.Fatalf("Render = %+v, %v; want dismissed", out, err)
	}
	// Render ends the handshakes still under way as it returns.
	if took >= handshakeWait {
		t.Errorf("Render took %s, as long as a handshake may (%s)", took, handshakeWait)
	}
	if diff := cmp.Diff([]bool{true, true, true}, waiting); diff != "" {
		t.Errorf("silent connections waiting when the dialog showed (-want +got):\n%s", diff)
	}
}
