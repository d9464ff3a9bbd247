//go:build jsonv2proto

// A prototype of Check's common case on the JSON v2 token layer
// (github.com/go-json-experiment/json/jsontext), built with
// -tags jsonv2proto, to measure it against Check's own walk.

package strictjson

import (
	"bytes"
	"io"
	"sync"
)

// checkers keeps jsontext's decoders, whose set-up allocates, for reuse.
var checkers = sync.Pool{New: func() any { return new(pooled) }}

// fastCheck reports whether jsontext, refusing duplicate names, text
// that is not UTF-8 and unpaired surrogates, reads data as one JSON
// value nested no deeper than max. When it does, Check accepts data too;
// when it does not, Check's own walk gives the verdict and the message
// (a skipped member may hold what jsontext refuses).
func fastCheck(data []byte, max int) bool {
	p := checkers.Get().(*pooled)
	defer func() {
		p.buf = bytes.Buffer{}
		checkers.Put(p)
	}()
	p.buf = *bytes.NewBuffer(data)
	p.dec.Reset(&p.buf)
	for {
		tok, err := p.dec.ReadToken()
		if err != nil {
			return false
		}
		if k := tok.Kind(); (k == '{' || k == '[') && p.dec.StackDepth() > max {
			return false
		}
		if p.dec.StackDepth() == 0 {
			break
		}
	}
	_, err := p.dec.ReadToken()
	return err == io.EOF
}
