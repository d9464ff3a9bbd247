package auq

import (
	"encoding/json"
	"strings"
	"testing"
)

// The budget for validating a maximal request, in Parse and Validate
// alike, is 20 µs: see the benchmarks below.

func maximalJSON(b testing.TB) []byte {
	data, err := json.Marshal(maximal(strings.Repeat("x", MaxPreviewLen)))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseMaximal parses the largest request: 8 questions of 4
// options, each with a preview, every text at its bound.
func BenchmarkParseMaximal(b *testing.B) {
	data := maximalJSON(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateMaximal validates the same request built in Go.
func BenchmarkValidateMaximal(b *testing.B) {
	r := maximal(strings.Repeat("x", MaxPreviewLen))
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(r); err != nil {
			b.Fatal(err)
		}
	}
}
