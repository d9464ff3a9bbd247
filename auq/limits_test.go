package auq

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// text is n characters, each two bytes long in UTF-8, so that a limit
// counted in bytes would fail at the limit.
func text(n int) string { return strings.Repeat("é", n) }

func TestLimits(t *testing.T) {
	tests := []struct {
		path  string
		limit int
		set   func(r *Request, s string)
	}{
		{"questions[0].id", MaxIDLen, func(r *Request, s string) { r.Questions[0].ID = s }},
		{"questions[0].question", MaxQuestionLen, func(r *Request, s string) { r.Questions[0].Question = s[len("é"):] + "?" }},
		{"questions[0].header", MaxHeaderLen, func(r *Request, s string) { r.Questions[0].Header = s }},
		{"questions[0].options[1].id", MaxIDLen, func(r *Request, s string) { r.Questions[0].Options[1].ID = s }},
		{"questions[0].options[1].label", MaxLabelLen, func(r *Request, s string) { r.Questions[0].Options[1].Label = s }},
		{"questions[0].options[1].description", MaxDescriptionLen, func(r *Request, s string) { r.Questions[0].Options[1].Description = s }},
		{"questions[0].options[1].preview", MaxPreviewLen, func(r *Request, s string) { r.Questions[0].Options[1].Preview = s }},
		{"metadata.source", MaxSourceLen, func(r *Request, s string) { r.Metadata.Source = &s }},
		{"metadata.flowId", MaxFlowIDLen, func(r *Request, s string) { r.Metadata.FlowID = &s }},
		{"metadata.tags[0]", MaxTagLen, func(r *Request, s string) { r.Metadata.Tags[0] = s }},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			at := base()
			tt.set(at, text(tt.limit))
			if err := Validate(at); err != nil {
				t.Errorf("Validate at the limit: %v", err)
			}
			if _, err := Parse(encode(t, at)); err != nil {
				t.Errorf("Parse at the limit: %v", err)
			}
			past := base()
			tt.set(past, text(tt.limit+1))
			want := []Problem{{Path: tt.path, Message: "is " + strconv.Itoa(tt.limit+1) + " characters long; the limit is " + strconv.Itoa(tt.limit)}}
			if diff := cmp.Diff(want, Problems(Validate(past))); diff != "" {
				t.Errorf("Validate past the limit (-want +got):\n%s", diff)
			}
			_, err := Parse(encode(t, past))
			if diff := cmp.Diff(want, Problems(err)); diff != "" {
				t.Errorf("Parse past the limit (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTagCount(t *testing.T) {
	r := base()
	r.Metadata.Tags = make([]string, MaxTags)
	if err := Validate(r); err != nil {
		t.Errorf("Validate with %d tags: %v", MaxTags, err)
	}
}

func TestRequestSize(t *testing.T) {
	// Too many questions with long previews: the size is what is
	// reported, since nothing else is checked in so large a request.
	r := maximal(strings.Repeat("😀", MaxPreviewLen))
	r.Questions = append(r.Questions, r.Questions...)
	r.Questions = append(r.Questions, r.Questions...)
	data := encode(t, r)
	if len(data) <= MaxRequestBytes {
		t.Fatalf("the request is %d bytes, not over the limit", len(data))
	}
	want := []Problem{{Message: "the request is " + strconv.Itoa(len(data)) + " bytes long, over the 262144-byte limit (256 KiB): shorten the previews and descriptions or ask fewer questions"}}
	if diff := cmp.Diff(want, Problems(Validate(r))); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
	want = []Problem{{Message: "the request is over the 262144-byte limit (256 KiB): shorten the previews and descriptions or ask fewer questions"}}
	_, err := Parse(data)
	if diff := cmp.Diff(want, Problems(err)); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
	// Exactly at the limit, white space included, is fine.
	ok := encode(t, maximal(strings.Repeat("x", MaxPreviewLen)))
	ok = append(ok, strings.Repeat(" ", MaxRequestBytes-len(ok))...)
	if _, err := Parse(ok); err != nil {
		t.Errorf("Parse of %d bytes: %v", len(ok), err)
	}
}

// maximal returns the largest request in structure: MaxQuestions
// single-select questions of MaxOptions options, each with the given
// preview, every other text at its bound and every member present.
func maximal(preview string) *Request {
	pad := func(prefix string, n int) string { return prefix + strings.Repeat("x", n-len(prefix)) }
	r := &Request{Metadata: &Metadata{Source: ptr(pad("source", MaxSourceLen)), FlowID: ptr(pad("flow", MaxFlowIDLen))}}
	for t := range MaxTags {
		r.Metadata.Tags = append(r.Metadata.Tags, pad("tag"+strconv.Itoa(t), MaxTagLen))
	}
	for i := range MaxQuestions {
		q := Question{
			ID:       pad("question"+strconv.Itoa(i), MaxIDLen),
			Question: pad("question", MaxQuestionLen-1) + "?",
			Header:   pad("h"+strconv.Itoa(i), MaxHeaderLen),
			Required: ptr(i%2 == 0),
		}
		for k := range MaxOptions {
			q.Options = append(q.Options, Option{
				ID:          pad("option"+strconv.Itoa(k), MaxIDLen),
				Label:       pad("label"+strconv.Itoa(k), MaxLabelLen),
				Description: pad("description", MaxDescriptionLen),
				Preview:     preview,
				Recommended: k == 1,
			})
		}
		r.Questions = append(r.Questions, q)
	}
	return r
}
