package pibridge

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/internal/program"
)

// signalWriter collects what the bridge writes and signals each line that
// holds want.
type signalWriter struct {
	mu   sync.Mutex
	want []byte
	seen chan struct{}
	n    int
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += len(p)
	if w.want != nil && bytes.Contains(p, w.want) {
		w.want = nil
		close(w.seen)
	}
	return len(p), nil
}

func (w *signalWriter) expect(s string) chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.want, w.seen = []byte(s), make(chan struct{})
	return w.seen
}

// BenchmarkKeyHandle is the work of one key on the bridge's side with no
// pipe and no other goroutine: decoding the line, the dialog, encoding the
// frame and writing it.
func BenchmarkKeyHandle(b *testing.B) {
	benchKeys(b, "",
		`{"questions":[{"title":"Deploy where?","options":[{"label":"staging"},{"label":"prod"},{"label":"canary"}]}]}`,
		`{"type":"resize","call":"c1","width":100,"rows":28}`, `{"type":"key","call":"c1","key":"alt+q"}`)
}

// BenchmarkQuestionKeyHandle is BenchmarkKeyHandle for AskUserQuestion:
// eight questions with previews at 200×60, a key moving the focus.
func BenchmarkQuestionKeyHandle(b *testing.B) {
	var qs []string
	for i := range 8 {
		var opts []string
		for j := range 4 {
			opts = append(opts, fmt.Sprintf(`{"id":"o%d","label":"Option %d","description":"What option %d does, in a few words","preview":"line one of the preview\nline two, a little longer than the first\nline three"}`, j, j, j))
		}
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Which option for part %d?","header":"Part %d","options":[%s]}`, i, i, i, strings.Join(opts, ",")))
	}
	benchKeys(b, `,"tool":"AskUserQuestion"`, `{"questions":[`+strings.Join(qs, ",")+`]}`,
		`{"type":"resize","call":"c1","width":200,"rows":60}`)
}

// benchKeys starts a call of params on a bridge whose hello has extra
// members, sends it the setup lines, and measures down and up keys.
func benchKeys(b *testing.B, extra, params string, setup ...string) {
	ctx, cancel := context.WithCancelCause(context.Background())
	w := &signalWriter{}
	s := newServer(w)
	defer s.stop(cancel)
	line := func(l string) {
		s.lineMu.Lock()
		defer s.lineMu.Unlock()
		if err := s.handle(ctx, []byte(l), nil); err != nil {
			b.Fatal(err)
		}
	}
	line(`{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"tui","hasUI":true,"ui":{"custom":true},"configFile":false,"options":{"timeoutPerQuestionMs":600000}` + extra + `}`)
	open := w.expect(`"type":"open"`)
	line(`{"type":"ask","call":"c1","params":` + params + `}`)
	<-open
	for _, l := range setup {
		line(l)
	}
	keys := [][]byte{[]byte(`{"type":"key","call":"c1","key":"down"}`), []byte(`{"type":"key","call":"c1","key":"up"}`)}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.lineMu.Lock()
		err := s.handle(ctx, keys[i%2], nil)
		s.lineMu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}
