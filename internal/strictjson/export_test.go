package strictjson

// RefCheck is what Check says of in by the reference reader refValue, for
// the fuzz target of package strictjson_test. Those tests are apart
// because they import testkit, which imports packages built on this one.
func RefCheck(in []byte, opts *CheckOptions) error {
	if err := checkUTF8(in); err != nil {
		return err
	}
	return refValue(&checker{skip: opts.Skip, max: opts.MaxDepth}, in, "", 0)
}

// FastCheck and CheckWalk are Check's two passes, for the fuzz target
// that holds them to each other.
var (
	FastCheck = fastCheck
	CheckWalk = checkWalk
)
