package strictjson

import (
	"strings"
	"testing"
)

// BenchmarkPlainText checks a long plain string, the text of a preview.
func BenchmarkPlainText(b *testing.B) {
	s := []byte(strings.Repeat("plain text ", 60))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if plain, _ := plainText(s); !plain {
			b.Fatal("not plain")
		}
	}
}
