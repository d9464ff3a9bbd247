package mcpserver_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// BenchmarkColdStart measures from starting the binary to reading its
// answer to initialize. It also reports the CPU time each server process
// used in all, which a busy machine does not inflate as much.
func BenchmarkColdStart(b *testing.B) {
	var cpu time.Duration
	for b.Loop() {
		cmd := serverCommand(b)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		in.Write([]byte(initLine))
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.Contains(line, `"result"`) {
			b.Fatalf("initialize: %q %v", line, err)
		}
		b.StopTimer()
		in.Close()
		cmd.Wait()
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/start")
}

// BenchmarkToolCall measures one ask_user call answered at once by the
// client's form handler, over the real binary's standard input and output.
func BenchmarkToolCall(b *testing.B) {
	for _, v := range []string{"2025-11-25", "2026-07-28"} {
		b.Run(v, func(b *testing.B) {
			c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: accept(`{"q1":"SQLite"}`),
			})
			ctx := context.Background()
			cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: serverCommand(b)}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			for b.Loop() {
				r, err := call(ctx, cs, single)
				if err != nil {
					b.Fatal(err)
				}
				if r.IsError {
					b.Fatal(text(r))
				}
			}
		})
	}
}

// BenchmarkIdleMemory reports the resident memory of a server that has
// answered initialize and listed its tool, as RSS-KiB.
func BenchmarkIdleMemory(b *testing.B) {
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cmd := serverCommand(b)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	var kib float64
	for b.Loop() {
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		kib = rssKiB(b, cmd.Process.Pid)
	}
	b.ReportMetric(kib, "RSS-KiB")
}

func rssKiB(b *testing.B, pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Skipf("no /proc to read the memory from: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal("no VmRSS line")
	return 0
}
