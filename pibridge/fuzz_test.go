package pibridge

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/askuser/askuser/internal/version"
	"runtime"
	"strings"
	"testing"
	"time"
)

// inputBound is how long one fuzz input may run: the bridge answers a
// line in microseconds, so an input that takes this long hangs.
const inputBound = 10 * time.Second

// bounded runs f and fails the test when it has not returned within d,
// printing every goroutine so that the hang can be seen.
func bounded(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		buf := make([]byte, 1<<20)
		t.Fatalf("the input did not finish within %v:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
}

var fuzzHello = `{"type":"hello","version":1,"release":"` + version.Release() + `","mode":"tui","hasUI":true,"ui":{"custom":true,"input":true,"select":true},"configFile":false,"options":{"timeoutPerQuestionMs":0}}`

const fuzzSentinel = `{"type":"fuzz-sentinel"}`

// FuzzServe feeds lines to a greeted bridge. It must never panic or
// hang, must end at the end of its input, must write only JSON objects,
// must answer every line that is not a message with an error line, and
// must still answer the line after the input.
func FuzzServe(f *testing.F) {
	f.Add(`{"type":"ask","call":"c1","params":` + deploy + "}\n" + `{"type":"resize","call":"c1","width":40,"rows":10}` + "\n" + `{"type":"key","call":"c1","key":"down"}`)
	for _, h := range hostileLines {
		if len(h.line) <= 64<<10 {
			f.Add(h.line)
		}
	}
	f.Add(nested(100_000))
	f.Add(strings.Repeat("x", MaxLine+1))
	f.Fuzz(func(t *testing.T, in string) {
		var bad int
		for line := range strings.SplitSeq(in, "\n") {
			if len(line) > MaxLine {
				bad++
			} else if _, err := decode([]byte(line)); err != nil {
				bad++
			}
		}
		var out lockedBuffer
		bounded(t, inputBound, func() {
			stdin := fuzzHello + "\n" + in + "\n" + fuzzSentinel + "\n"
			if err := Serve(context.Background(), strings.NewReader(stdin), &out); err != nil {
				t.Errorf("Serve = %v; want nil at the end of its input", err)
			}
		})
		errs, sentinel := 0, false
		for line := range bytes.Lines([]byte(out.String())) {
			var m struct{ Type, Message string }
			if err := json.Unmarshal(line, &m); err != nil || m.Type == "" {
				t.Fatalf("the bridge wrote %q, not a message", line)
			}
			if m.Type == typeError {
				errs++
				sentinel = sentinel || strings.Contains(m.Message, `"fuzz-sentinel"`)
			}
		}
		if errs < bad+1 || !sentinel {
			t.Errorf("%d error lines for %d bad lines and the sentinel (answered: %v)", errs, bad, sentinel)
		}
	})
}
