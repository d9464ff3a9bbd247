package contract

// The names the tests of package contract_test reach inside the
// package's own tests. Those tests are apart because they import
// testkit, which imports packages built on this one.
var (
	ValueEqual     = valueEqual
	MaximalRequest = maximalRequest
)

// Ptr is ptr: a pointer to a copy of v.
func Ptr[T any](v T) *T { return ptr(v) }

// ValidInputs are the requests of validCases, which Parse accepts.
func ValidInputs() []string {
	var in []string
	for _, c := range validCases {
		in = append(in, c.in)
	}
	return in
}
