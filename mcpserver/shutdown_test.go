package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/mcpserver"
)

// ServeStdio returns only once the renderer of an aborted call has torn
// down, as a popup does when it closes and removes its socket.
// It waits at most RenderGrace.
func TestServeStdioWaitsForRenders(t *testing.T) {
	tests := []struct {
		name     string
		teardown time.Duration // -1: never, until the test ends
		want     bool          // torn down when ServeStdio returns
	}{
		{"teardown within the grace", 2 * time.Second, true},
		{"teardown that never ends", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { serveStdioWaits(t, tt.teardown, tt.want) })
	}
}

func serveStdioWaits(t *testing.T, teardown time.Duration, want bool) {
	synctest.Test(t, func(t *testing.T) {
		var tornDown atomic.Bool
		started, release := make(chan struct{}), make(chan struct{})
		defer close(release)
		r := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
			close(started)
			<-ctx.Done()
			if teardown < 0 {
				<-release
			} else {
				time.Sleep(teardown) // closing the popup, on the bubble's clock
			}
			tornDown.Store(true)
			return ask.Outcome[[]contract.Answer]{}, context.Cause(ctx)
		})
		begin := time.Now()
		srv := newServer(t, &mcpserver.Options{Custom: ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, r)})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		lines := make(chan string, 10)
		go func() {
			sc := bufio.NewScanner(outR)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		served := make(chan error, 1)
		go func() {
			served <- srv.ServeStdio(context.Background(), inR, outW)
			outW.Close()
		}()
		send := func(s string) {
			if _, err := io.WriteString(inW, s+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		<-lines
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"title":"t","kind":"bool"}]}}}`)
		<-started
		inW.Close()
		for range lines {
		}
		if err := <-served; err != nil {
			t.Fatal(err)
		}
		if got := tornDown.Load(); got != want {
			t.Errorf("torn down when ServeStdio returned: %v; want %v", got, want)
		}
		if took := time.Since(begin); took > mcpserver.ShutdownGrace+mcpserver.RenderGrace {
			t.Errorf("ServeStdio took %v to return", took)
		}
	})
}
