package pibridge

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/program"
)

// BenchmarkKeyFrame is one key in and one frame out through Serve, over
// in-process pipes: decoding, the dialog, encoding and the writes, without
// the cost of a process boundary.
func BenchmarkKeyFrame(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go Serve(context.Background(), inR, outW)
	defer inW.Close()
	lines := make(chan string, 64)
	go func() {
		out := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- line
		}
	}()
	write := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	readUntil := func(typ string) {
		for line := range lines {
			if strings.Contains(line, `"type":"`+typ+`"`) {
				return
			}
		}
		b.Fatal("the bridge stopped")
	}
	write(`{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"tui","hasUI":true,"ui":{"custom":true},"configFile":false,"options":{"timeoutPerQuestionMs":600000}}`)
	readUntil("ready")
	write(`{"type":"ask","call":"c1","params":{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"},{"label":"canary"}]}]}}`)
	readUntil("open")
	write(`{"type":"resize","call":"c1","width":100,"rows":28}`)
	readUntil("frame")
	// Stop the countdown, so that no clock frame comes between a key and
	// its frame.
	write(`{"type":"key","call":"c1","key":"alt+q"}`)
	readUntil("frame")
	keys := []string{`{"type":"key","call":"c1","key":"down"}`, `{"type":"key","call":"c1","key":"up"}`}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		write(keys[i%2])
		readUntil("frame")
	}
}
