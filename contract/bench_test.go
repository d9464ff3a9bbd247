package contract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// maximalRequest builds the largest questionnaire in structure: five
// questions, five options on every choice question, and a simple-form of
// ten fields with five options on every choice field, every optional
// member present. Each text is textLen characters long, within every limit.
func maximalRequest(textLen int) []byte {
	text := func(prefix string, limit int) string {
		n := min(textLen, limit)
		return prefix + strings.Repeat("x", max(n-len(prefix), 0))
	}
	options := func(q string) []map[string]any {
		out := make([]map[string]any, MaxOptions)
		for i := range out {
			out[i] = map[string]any{
				"label":       text(fmt.Sprintf("%s-option-%d", q, i), MaxOptionLabelLen),
				"description": text("description", MaxDescriptionLen),
				"preview":     "# Preview\n\n" + text("preview", MaxPreviewLen),
			}
		}
		return out
	}
	label := func(opts []map[string]any, i int) string { return opts[i]["label"].(string) }
	var questions []map[string]any
	for i, kind := range []Kind{KindSingle, KindMulti, KindSingle, KindMulti} {
		id := fmt.Sprintf("question-%d", i)
		opts := options(id)
		questions = append(questions, map[string]any{
			"id": id, "title": text("title", MaxTitleLen), "prompt": text("prompt", MaxPromptLen),
			"kind": kind, "options": opts, "default": label(opts, 0),
		})
	}
	fields := make([]map[string]any, MaxFormFields)
	for i := range fields {
		name := fmt.Sprintf("field_%d", i)
		f := map[string]any{"name": name, "label": text("label", MaxFieldLabelLen), "required": i%2 == 0}
		switch i % 4 {
		case 0:
			f["kind"], f["default"] = KindBool, true
		case 1:
			opts := options(name)
			f["kind"], f["options"], f["default"] = KindSingle, opts, label(opts, 1)
		case 2:
			opts := options(name)
			f["kind"], f["options"], f["default"] = KindMulti, opts, []string{label(opts, 0), label(opts, 2)}
		case 3:
			f["kind"], f["default"] = KindInput, text("text default", MaxTextDefaultLen)
		}
		fields[i] = f
	}
	questions = append(questions, map[string]any{
		"id": "form", "title": text("title", MaxTitleLen), "prompt": text("prompt", MaxPromptLen),
		"kind": KindForm, "fields": fields,
	})
	data, err := json.Marshal(map[string]any{
		"header": text("header", MaxHeaderLen), "allowFreeText": false, "displayMode": "inline",
		"timeoutPerQuestionMs": 120000, "questions": questions,
	})
	if err != nil {
		panic(err)
	}
	return data
}

func TestMaximalRequestIsValid(t *testing.T) {
	for _, n := range []int{40, 400} {
		data := maximalRequest(n)
		if len(data) > MaxRequestBytes {
			t.Fatalf("maximalRequest(%d) is %d bytes, over the limit", n, len(data))
		}
		if _, _, err := Parse(data); err != nil {
			t.Fatalf("maximalRequest(%d): %v", n, err)
		}
	}
}

// BenchmarkParseMaximal validates the largest questionnaire in structure
// (5 questions, 5 options each, a form of 10 fields) with short texts:
// the work that grows with the number of members, not with their length.
// The budget is 20 µs.
func BenchmarkParseMaximal(b *testing.B) {
	benchmarkParse(b, maximalRequest(40))
}

// BenchmarkParseMaximalLong is the same questionnaire with every text 400
// characters long (previews included), near the 256 KiB request limit, to
// show how validation scales with bytes.
func BenchmarkParseMaximalLong(b *testing.B) {
	benchmarkParse(b, maximalRequest(400))
}

func benchmarkParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
