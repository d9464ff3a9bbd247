// Package fuzzbound bounds the time one fuzz input may take and holds the
// number texts every fuzz target that reads JSON numbers starts from.
//
// Go's fuzzer has no per-input time limit: an input that makes a decoder
// spin stalls the run instead of being reported. Run turns such an input
// into a crash of the fuzz worker, which the fuzzer reports, and keeps,
// as a failing input.
//
// The package stands alone, small as it is, because it imports testing:
// only test files may import it, so that testing's flags and code are never
// linked into a binary. It is shared by the fuzz targets of several
// packages, and folding it into any of them would put testing in that
// package's build.
package fuzzbound

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Limit is how long one fuzz input may take. The decoders answer an input
// in microseconds, so one that takes this long hangs.
const Limit = 10 * time.Second

// limit and onTimeout are variables so that the package's tests can watch
// the watchdog fire without waiting Limit or crashing.
var (
	limit     = Limit
	onTimeout = crash
)

// Run calls f on the calling goroutine, so that f may call t.Fatal. If f
// has not returned within Limit, Run panics on another goroutine with a
// message naming t, the input in, and Limit, followed by the stacks of
// every goroutine: a panic there cannot be recovered and ends the fuzz
// worker, which the fuzzer reports with the input. Run reads in only
// then, so f must not modify it.
func Run(t testing.TB, in any, f func()) {
	t.Helper()
	name := t.Name()
	timer := time.AfterFunc(limit, func() {
		onTimeout(fmt.Sprintf("%s: the input %s took longer than %v", name, format(in), limit))
	})
	defer timer.Stop()
	f()
}

// format quotes a text input and spells any other in Go syntax, so that
// the message shows control bytes and types.
func format(in any) string {
	switch in := in.(type) {
	case string, []byte:
		return fmt.Sprintf("%q", in)
	default:
		return fmt.Sprintf("%#v", in)
	}
}

// crash panics with msg and the stacks of every goroutine, which show
// where the input hangs.
func crash(msg string) {
	buf := make([]byte, 1<<20)
	panic(msg + "\n\n" + string(buf[:runtime.Stack(buf, true)]))
}

// Numbers returns JSON number texts, valid and not, that have broken
// decoders: exponents at and past the int64 limits, values past float64
// range and below its smallest denormal, negative zero, integers past
// 2^53, 2^63 and 2^64, more digits than any float holds, and the
// near-numbers JSON forbids. Each call returns a new slice.
func Numbers() []string {
	return []string{
		"1.5e-9223372036854775808",
		"1e9223372036854775807",
		"1e-9223372036854775809",
		"-1e999999999",
		"1e+400",
		"4e-400",
		"-0",
		"-0.0",
		"1.0",
		"1E3",
		"0.1e1",
		"1" + strings.Repeat("0", 399),
		"60000.000000000000000000001",
		"9007199254740993",
		"9223372036854775808",
		"-9223372036854775809",
		"18446744073709551616",
		"2147483648",
		"1e",
		"1e+",
		".5",
		"01",
		"+1",
		"NaN",
		"Infinity",
	}
}
