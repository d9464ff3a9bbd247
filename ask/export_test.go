package ask

// The names the tests of package ask_test reach inside the package and
// its own tests. Those tests are apart because they import testkit,
// which imports packages built on this one.
var (
	OutcomeEvent = outcomeEvent
	Sequence     = sequence
	NewRequest   = request
)

// Recorder is recorder, an EventSink that keeps every event.
type Recorder = recorder

// Got is every event r kept.
func (r *recorder) Got() []Event { return r.got() }

// Ptr is ptr: a pointer to a copy of v.
func Ptr[T any](v T) *T { return ptr(v) }
