package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

const versionUsage = `usage: askuser version

Print the version of askuser: the module version it was built as, or
"devel" with the source revision for a build from a checkout.
`

func runVersion(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet("version", env, versionUsage, nil)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(env, "version", "takes no arguments")
	}
	fmt.Fprintf(env.Stdout, "askuser %s\n", version())
	return 0
}

// version is the module version from the build info, or "devel" with the
// VCS revision (and "+dirty" for modified sources) when there is none.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	return fmt.Sprintf("devel (%.12s%s)", rev, dirty)
}
