package safetext

// Exported for the external tests in fuzz_test.go.
var (
	FuzzLineCheck = fuzzLine
	FuzzSeeds     = fuzzSeeds
)
