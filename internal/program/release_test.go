package program

import (
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelease(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(Release()) {
		t.Fatalf("VERSION holds %q, not a semantic version", release)
	}
}

func TestGet(t *testing.T) {
	r := Release()
	platform := Get().Platform
	tests := []struct {
		name    string
		info    *debug.BuildInfo
		stamped string
		want    Info
	}{
		{"no build info", nil, "", Info{r + "-devel", "", platform}},
		{"release build", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0123456789ab", Info{r, "0123456789ab", platform}},
		{"go install of this release", &debug.BuildInfo{Main: debug.Module{Version: "v" + r}}, "", Info{r, "", platform}},
		{"checkout", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261203073000-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}},
		}, "", Info{r + "-devel", "0123456789ab+dirty", platform}},
		{"clean checkout", &debug.BuildInfo{
			Main:     debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}},
		}, "", Info{r + "-devel", "0123456789ab", platform}},
		{"another module version", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}}, "", Info{r + "-devel", "", platform}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, get(tt.info, tt.stamped)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestInfoString(t *testing.T) {
	got := Info{"0.1.0", "0123456789ab", "linux/amd64"}.String()
	if want := "askuser 0.1.0 (commit 0123456789ab) linux/amd64"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Info{"0.1.0-devel", "", "linux/arm64"}).String(); got != "askuser 0.1.0-devel linux/arm64" {
		t.Errorf("got %q", got)
	}
	if got := (Info{"0.1.0", "0123456789ab", "darwin/arm64"}).Line("askuser-hub"); got != "askuser-hub 0.1.0 (commit 0123456789ab) darwin/arm64" {
		t.Errorf("Line: got %q", got)
	}
}

func TestCheck(t *testing.T) {
	if err := Check(Release()); err != nil {
		t.Errorf("Check(%q) = %v", Release(), err)
	}
	err := Check("0.0.1")
	if err == nil || !strings.Contains(err.Error(), Release()) || !strings.Contains(err.Error(), "0.0.1") {
		t.Errorf("Check(0.0.1) = %v, want an error naming both releases", err)
	}
}

// The Pi package and the launcher are published at this release.
func TestPackagesAgree(t *testing.T) {
	for _, file := range []string{"../../pi/package.json", "../../npm/askuser/package.json", "../../npm/askuser-hub/package.json"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^  "version": "([^"]*)"`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no version", file)
		}
		if string(m[1]) != Release() {
			t.Errorf("%s is version %s, VERSION says %s", file, m[1], Release())
		}
	}
}
