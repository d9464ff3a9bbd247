package auq

// The names the tests of package auq_test reach inside the package's
// own tests. Those tests are apart because they import testkit, which
// imports packages built on this one.
var (
	Base    = base
	Encode  = encode
	Maximal = maximal
	Text    = text
)

// Ptr is ptr: a pointer to a copy of v.
func Ptr[T any](v T) *T { return ptr(v) }
