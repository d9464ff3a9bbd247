// The bound every fuzz target of askuser runs its inputs under, and the
// number texts every fuzz target that reads JSON numbers starts from.
//
// Go's fuzzer has no per-input time limit: an input that makes a decoder
// spin stalls the run instead of being reported. FuzzBound turns such an
// input into a crash of the fuzz worker, which the fuzzer reports, and
// keeps, as a failing input. It takes the test through FuzzTest, not
// testing.TB, so that this package does not import testing and no binary
// links testing's flags and code; a binary that does not call these
// functions does not hold them.

package testkit

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// FuzzTest is what FuzzBound needs of a test: *testing.T and *testing.F
// satisfy it.
type FuzzTest interface {
	Helper()
	Name() string
}

// FuzzLimit is how long one fuzz input may take. The decoders answer an input
// in microseconds, so one that takes this long hangs.
const FuzzLimit = 10 * time.Second

// fuzzLimit and onFuzzTimeout are variables so that the package's tests can watch
// the watchdog fire without waiting FuzzLimit or crashing.
var (
	fuzzLimit     = FuzzLimit
	onFuzzTimeout = crashFuzz
)

// FuzzBound calls f on the calling goroutine, so that f may call t.Fatal. If f
// has not returned within FuzzLimit, FuzzBound panics on another goroutine with a
// message naming t, the input in, and FuzzLimit, followed by the stacks of
// every goroutine: a panic there cannot be recovered and ends the fuzz
// worker, which the fuzzer reports with the input. FuzzBound reads in only
// then, so f must not modify it.
func FuzzBound(t FuzzTest, in any, f func()) {
	t.Helper()
	name := t.Name()
	timer := time.AfterFunc(fuzzLimit, func() {
		onFuzzTimeout(fmt.Sprintf("%s: the input %s took longer than %v", name, fuzzInput(in), fuzzLimit))
	})
	defer timer.Stop()
	f()
}

// fuzzInput quotes a text input and spells any other in Go syntax, so that
// the message shows control bytes and types.
func fuzzInput(in any) string {
	switch in := in.(type) {
	case string, []byte:
		return fmt.Sprintf("%q", in)
	default:
		return fmt.Sprintf("%#v", in)
	}
}

// crash panics with msg and the stacks of every goroutine, which show
// where the input hangs.
func crashFuzz(msg string) {
	buf := make([]byte, 1<<20)
	panic(msg + "\n\n" + string(buf[:runtime.Stack(buf, true)]))
}

// FuzzNumbers returns JSON number texts, valid and not, that have broken
// decoders: exponents at and past the int64 limits, values past float64
// range and below its smallest denormal, negative zero, integers past
// 2^53, 2^63 and 2^64, more digits than any float holds, and the
// near-numbers JSON forbids. Each call returns a new slice.
func FuzzNumbers() []string {
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
