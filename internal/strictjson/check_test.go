package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, in string
		opts     *CheckOptions
		want     string
	}{
		{"plain", `{"a":"b","c":[1,{"d":"\u00e9\ud83d\ude00"}]}`, nil, ""},
		{"escaped backslash before u", `{"a":"\\ud800"}`, nil, ""},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", nil, "not valid UTF-8 at byte 6"},
		{"invalid UTF-8 in a skipped member", "{\"p\":\"\xff\"}", &CheckOptions{Skip: []string{"p"}}, "not valid UTF-8 at byte 6"},
		{"truncated UTF-8 sequence", "{\"a\":\"\xe6\x97\"}", nil, "not valid UTF-8 at byte 6"},
		{"lone high surrogate", `{"a":"x\ud800"}`, nil, `"a": an unpaired surrogate escape at byte 2 of the string`},
		{"high surrogate then text", `{"a":"\ud800x\udc00"}`, nil, `"a": an unpaired surrogate escape at byte 1`},
		{"lone low surrogate", `{"a":["\udfff"]}`, nil, `"a[0]": an unpaired surrogate escape at byte 1`},
		{"two highs", `{"a":"\ud800\ud800\udc00"}`, nil, `"a": an unpaired surrogate escape at byte 1`},
		{"surrogate in a skipped member", `{"p":"\ud800"}`, &CheckOptions{Skip: []string{"p"}}, ""},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, nil, `message: duplicate key "a"`},
		{"duplicate nested key", `{"a":{"b":1,"b":1}}`, nil, `"a": duplicate key "b"`},
		{"duplicate in an array", `{"a":[{},{"b":1,"b":2}]}`, nil, `"a[1]": duplicate key "b"`},
		{"escaped duplicate", `{"a":1,"\u0061":2}`, nil, `message: duplicate key "a"`},
		{"duplicate in a skipped member", `{"p":{"b":1,"b":2}}`, &CheckOptions{Skip: []string{"p"}}, ""},
		{"skip is top-level only", `{"x":{"p":{"b":1,"b":2}}}`, &CheckOptions{Skip: []string{"p"}}, `"x.p": duplicate key "b"`},
		{"space before a skipped value", `{"p": {"b":1},"a":1}`, &CheckOptions{Skip: []string{"p"}}, ""},
		{"white space around a skipped value", "{\"p\" :\t\r\n[1, {\"b\":1}] \n,\"a\":1}", &CheckOptions{Skip: []string{"p"}}, ""},
		{"space before a skipped scalar", `{"p": "x","a":1}`, &CheckOptions{Skip: []string{"p"}}, ""},
		{"duplicate after a spaced skipped value", `{"type":"abort","p": {"b":1},"type":"ask"}`, &CheckOptions{Skip: []string{"p"}}, `message: duplicate key "type"`},
		{"at the depth limit", `{"a":[[1]]}`, &CheckOptions{MaxDepth: 3}, ""},
		{"past the depth limit", `{"a":[[[1]]]}`, &CheckOptions{MaxDepth: 3}, `"a[0][0]": nested deeper than 3 levels`},
		{"deep by default", strings.Repeat("[", 65) + strings.Repeat("]", 65), nil, "nested deeper than 64 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := Check([]byte(tt.in), tt.opts); err != nil {
				got = err.Error()
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("Check(%s) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
	if diff := cmp.Diff(-1, unpairedSurrogate([]byte(`"\u12"`))); diff != "" {
		t.Errorf("a short escape (-want +got):\n%s", diff)
	}
}

// refValue is Check's walk written plainly on encoding/json's decoder:
// slower, and the reference FuzzCheck holds the scanner to.
func refValue(c *checker, raw json.RawMessage, path string, depth int) error {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
		return nil
	case raw[0] == '"':
		if i := unpairedSurrogate(raw); i >= 0 {
			return fmt.Errorf("%s: an unpaired surrogate escape at byte %d of the string; send text as UTF-8", where(path), i)
		}
		return nil
	case raw[0] != '{' && raw[0] != '[':
		return nil
	case depth >= c.max:
		return fmt.Errorf("%s: nested deeper than %d levels", where(path), c.max)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := 0; dec.More(); i++ {
		sub := path + "[" + strconv.Itoa(i) + "]"
		if raw[0] == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			if seen[key] {
				return fmt.Errorf("%s: duplicate key %q", where(path), key)
			}
			seen[key] = true
			sub = key
			if path != "" {
				sub = path + "." + key
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if depth == 0 && raw[0] == '{' && slices.Contains(c.skip, sub) {
			continue
		}
		if err := refValue(c, v, sub, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func TestMembers(t *testing.T) {
	known := []string{"id", "method", "params"}
	tests := []struct {
		name, in string
		want     map[string]string
		err      string
	}{
		{"members", `{"id":1,"method":"ping","params":{"a":[1, 2]}}`, map[string]string{"id": "1", "method": `"ping"`, "params": `{"a":[1, 2]}`}, ""},
		{"white space", " {\n\t\"id\" : 7 ,\r\n\"method\":\"x\" } ", map[string]string{"id": "7", "method": `"x"`}, ""},
		{"empty", `{ }`, map[string]string{}, ""},
		{"escaped name", `{"\u0069d":1}`, map[string]string{"id": "1"}, ""},
		{"unknown", `{"id":1,"ID":2}`, nil, `has the unknown key "ID"`},
		{"twice", `{"id":1,"method":"a","id":2}`, nil, `has the key "id" twice`},
		{"twice escaped", `{"id":1,"i\u0064":2}`, nil, `has the key "id" twice`},
		{"not UTF-8", "{\"\xff\xfe\":1}", nil, `has the unknown key "\ufffd\ufffd"`},
		{"not an object", `[1]`, nil, "is not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Members([]byte(tt.in), known...)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Members(%q) = %v; want the error %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Members(%q): %v", tt.in, err)
			}
			got := map[string]string{}
			for k, v := range m {
				got[k] = string(v)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Members(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestStringProblem(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, ""},
		{`"\ud83d\ude00 \n \\u d800"`, ""},
		{"\"a\xffb\"", "is not valid UTF-8"},
		{`"\ud800"`, "holds an unpaired surrogate escape"},
		{`"\udc00"`, "holds an unpaired surrogate escape"},
		{`"\ud800\u0041"`, "holds an unpaired surrogate escape"},
		{`"\ud800\\ud800"`, "holds an unpaired surrogate escape"},
	}
	for _, tt := range tests {
		if got := StringProblem([]byte(tt.in)); got != tt.want {
			t.Errorf("StringProblem(%s) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"[{"`, 0},
		{`{}`, 1},
		{`[[], {"a": [1]}]`, 3},
		{`{"a": "]\"}", "b": [[]]}`, 3},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), 1001},
	}
	for _, tt := range tests {
		if got := Depth([]byte(tt.in)); got != tt.want {
			t.Errorf("Depth(%.40s) = %d; want %d", tt.in, got, tt.want)
		}
	}
}

// hookLine builds a line such as Check reads from a client's hook: the
// tool call's context and its input, four questions of four options, each
// with a description and a preview.
func hookLine(b testing.TB) []byte {
	type option struct {
		Label       string `json:"label"`
		Description string `json:"description"`
		Preview     string `json:"preview"`
	}
	type question struct {
		Question    string   `json:"question"`
		Header      string   `json:"header"`
		MultiSelect bool     `json:"multiSelect"`
		Options     []option `json:"options"`
	}
	var qs []question
	for i := range 4 {
		q := question{Question: fmt.Sprintf("Which layout for part %d — the café's menu?", i), Header: "Layout"}
		for j := range 4 {
			q.Options = append(q.Options, option{
				Label:       fmt.Sprintf("Option %d", j),
				Description: strings.Repeat("A short description of the choice. ", 3),
				Preview:     "# Preview\n\n" + strings.Repeat("| a | b |\n", 40),
			})
		}
		qs = append(qs, q)
	}
	line, err := json.Marshal(map[string]any{
		"session_id":      "3f1c2a9e-0b7d-4c55-9e0a-7d6b1f2e8c41",
		"transcript_path": "/home/user/.claude/projects/p/3f1c2a9e.jsonl",
		"cwd":             "/home/user/src/project",
		"hook_event_name": "PreToolUse",
		"tool_name":       "AskUserQuestion",
		"tool_input":      map[string]any{"questions": qs},
	})
	if err != nil {
		b.Fatal(err)
	}
	return line
}

// BenchmarkCheck checks a hook's line of about 13 KB, valid and clean,
// the common case.
func BenchmarkCheck(b *testing.B) {
	line := hookLine(b)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(line, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCheckManyNames finds a name given twice in objects short and long,
// on either side of the count at which both passes stop looking for it
// one name at a time (fastNames).
func TestCheckManyNames(t *testing.T) {
	object := func(n, again int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"outer":{`)
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		if again >= 0 {
			fmt.Fprintf(&b, `"k%d":"again",`, again)
		}
		b.WriteString(`"last":true}}`)
		return b.Bytes()
	}
	for _, n := range []int{1, fastNames - 1, fastNames, fastNames + 1, 3 * fastNames, 20000} {
		for _, again := range []int{-1, 0, n / 2, n - 1} {
			err := Check(object(n, again), nil)
			switch {
			case again < 0 && err != nil:
				t.Errorf("%d names: %v", n, err)
			case again >= 0 && (err == nil || err.Error() != fmt.Sprintf(`"outer": duplicate key "k%d"`, again)):
				t.Errorf("%d names, k%d again: %v", n, again, err)
			}
		}
	}
}

// BenchmarkCheckManyNames is Check on an object of 20000 names.
func BenchmarkCheckManyNames(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := range 20000 {
		fmt.Fprintf(&buf, `"k%d":%d,`, i, i)
	}
	buf.WriteString(`"last":true}`)
	line := buf.Bytes()
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(line, nil); err != nil {
			b.Fatal(err)
		}
	}
}
