//go:build !unix

package cli

import "os"

// notifyResize delivers nothing: only unix terminals signal a resize.
func notifyResize() (<-chan os.Signal, func()) { return nil, func() {} }
