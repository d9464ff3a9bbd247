package pibridge

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/program"
	"github.com/askuser/askuser/internal/testkit"
)

var fuzzHello = `{"type":"hello","version":1,"release":"` + program.Release() + `","mode":"tui","hasUI":true,"ui":{"custom":true,"input":true,"select":true},"configFile":false,"options":{"timeoutPerQuestionMs":0}}`

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
	for _, n := range testkit.FuzzNumbers() {
		f.Add(strings.Join([]string{
			`{"type":"ask","call":"c1","params":{"questions":[{"title":"a","kind":"bool","default":` + n + `}],"timeoutPerQuestionMs":` + n + `}}`,
			`{"type":"ask","call":"c2","params":{"questions":[{"title":"a","kind":"bool"}],"timeoutPerQuestionMs":` + n + `}}`,
			`{"type":"resize","call":"c2","width":` + n + `,"rows":10}`,
			`{"type":"resize","call":"c2","width":40,"rows":` + n + `}`,
			`{"type":"reply","call":"c2","req":` + n + `}`,
			`{"type":"hello","version":` + n + `}`,
		}, "\n"))
	}
	f.Fuzz(func(t *testing.T, in string) { fuzzServe(t, fuzzHello, in) })
}

// FuzzServeQuestions is FuzzServe for a bridge that serves
// AskUserQuestion.
func FuzzServeQuestions(f *testing.F) {
	f.Add(`{"type":"ask","call":"c1","params":` + framework + "}\n" + `{"type":"resize","call":"c1","width":40,"rows":10}` + "\n" +
		`{"type":"key","call":"c1","text":"n"}` + "\n" + `{"type":"key","call":"c1","text":"x\u001b[2J"}` + "\n" + `{"type":"key","call":"c1","key":"enter"}` + "\n" + `{"type":"key","call":"c1","key":"enter"}`)
	f.Add(`{"type":"ask","call":"c1","params":{"questions":[]}}` + "\n" + `{"type":"explain","call":"x1","params":{},"result":{"cancelled":true,"error":{"code":"internal","message":"m"}},"blocked":true}`)
	f.Add(`{"type":"ask","call":"c1","params":` + framework + `,"aborted":true}` + "\n" + `{"type":"explain","call":"x1","result":{"cancelled":true}}`)
	for _, n := range testkit.FuzzNumbers() {
		f.Add(`{"type":"ask","call":"c1","params":{"questions":[{"id":"q","question":"Q?","header":"H","multiSelect":` + n + `,"options":[{"id":"a","label":"A","description":"d"},{"id":"b","label":"B","description":"d"}]}]}}` + "\n" +
			`{"type":"resize","call":"c1","width":` + n + `,"rows":10}`)
	}
	hello := strings.TrimSuffix(fuzzHello, "}") + `,"tool":"AskUserQuestion"}`
	f.Fuzz(func(t *testing.T, in string) { fuzzServe(t, hello, in) })
}

// fuzzServe runs the checks of FuzzServe on in, after hello.
func fuzzServe(t *testing.T, hello, in string) {
	testkit.FuzzBound(t, in, func() {
		var bad int
		for line := range strings.SplitSeq(in, "\n") {
			if len(line) > MaxLine {
				bad++
			} else if _, err := decode([]byte(line)); err != nil {
				bad++
			}
		}
		var out testkit.Buffer
		stdin := hello + "\n" + in + "\n" + fuzzSentinel + "\n"
		if err := Serve(context.Background(), strings.NewReader(stdin), &out); err != nil {
			t.Errorf("Serve = %v; want nil at the end of its input", err)
		}
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
