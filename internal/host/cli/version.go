package cli

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/internal/program"
)

const versionUsage = `usage: askuser version

Print the release of askuser, the source commit it was built from (when
the build knows it) and the platform, as in:

    askuser 0.1.0 (commit 0123456789ab) linux/amd64

A build from a checkout that no release stamped says "-devel" after the
release number.
`

func runVersion(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("version", env, versionUsage, nil)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "version", "takes no arguments")
	}
	fmt.Fprintln(env.Stdout, program.Get())
	return 0
}
