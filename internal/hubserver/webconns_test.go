//go:build linux

package hubserver_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/testkit"
)

// TestIdleConnections holds thousands of idle connections, from ten
// addresses, to the page of a hub process that has the file descriptors
// of a small machine (ulimit -n 1024), over HTTP and HTTPS: askuser
// pending and askuser answer still reach the hub's queue in the same
// process, the page still answers its owner, and the hub's log keeps to
// a few lines.
//
// The slow cases send the headers of a pairing request on each
// connection and none of its body, so that every one holds a request
// being served that never shows a credential: they, too, make way for
// the owner's.
func TestIdleConnections(t *testing.T) {
	for _, tc := range []struct {
		name string
		tls  bool
		slow bool
	}{{"http", false, false}, {"https", true, false}, {"http slow", false, true}, {"https slow", true, true}} {
		args := []string{"--web", "127.0.0.1:0"}
		if tc.tls {
			args = append(args, "--tls")
		}
		t.Run(tc.name, func(t *testing.T) { idleConnections(t, args, tc.tls, tc.slow) })
	}
}

func idleConnections(t *testing.T, args []string, useTLS, slow bool) {
	askuser, env, f, logs := webHubProcess(t, []string{"sh", "-c", `ulimit -n 1024 && exec "$@"`, "sh"}, args...)
	ask := exec.Command(askuser, "ask", "--no-config", "--timeout-per-question", "120000", questionFile(t, deployReq))
	var asked bytes.Buffer
	ask.Env, ask.Stdout, ask.SysProcAttr = env, &asked, &syscall.SysProcAttr{Setsid: true}
	if err := ask.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ask.Process.Kill()
		ask.Wait()
	})
	run := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command(askuser, args...)
		cmd.Env, cmd.Stdin = env, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	var id string
	for deadline := testkit.PatienceDeadline(t); id == ""; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the question did not reach the hub")
		}
		out, err := run("", "pending", "--json")
		if err != nil {
			t.Fatalf("askuser pending: %v\n%s", err, out)
		}
		var qs []struct{ ID string }
		if err := json.Unmarshal([]byte(out), &qs); err != nil {
			t.Fatalf("askuser pending --json printed %s", out)
		}
		if len(qs) > 0 {
			id = qs[0].ID
		}
	}
	lines := strings.Count(logs.String(), "\n")

	const n = 3000
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i%10))}, Timeout: 10 * time.Second}
		c, err := d.Dial("tcp", f.base[strings.Index(f.base, "//")+2:])
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		if slow {
			// A connection the hub closed already fails here, as it may.
			if useTLS {
				c = tls.Client(c, &tls.Config{InsecureSkipVerify: true})
				conns[len(conns)-1] = c
			}
			c.SetDeadline(time.Now().Add(5 * time.Second))
			host := f.base[strings.Index(f.base, "//")+2:]
			fmt.Fprintf(c, "POST /api/pair HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n", host, f.base)
		}
	}

	if st, body := f.do(t, "GET", "/api/device", "", nil); st != http.StatusOK {
		t.Errorf("the page answered its owner %d %q, amid %d idle connections", st, body, n)
	}
	if out, err := run("", "pending"); err != nil || !strings.Contains(out, id) {
		t.Errorf("askuser pending amid %d idle connections to the page: %v\n%s", n, err, out)
	}
	if out, err := run(deployAnswer, "answer", id, "-"); err != nil {
		t.Errorf("askuser answer amid %d idle connections to the page: %v\n%s", n, err, out)
	}
	if err := ask.Wait(); err != nil || !strings.Contains(asked.String(), `"prod"`) {
		t.Errorf("askuser ask: %v, printed %s", err, asked.String())
	}
	if more := strings.Count(logs.String(), "\n") - lines; more > 20 {
		t.Errorf("the hub logged %d lines for %d connections:\n%.3000s", more, n, logs)
	}
}
