package program

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// askuser hub finds askuser-hub beside askuser, in the npm platform
// package beside askuser's, or on PATH, in that order; when it is
// nowhere, the error says how to get it.
func TestFindHubBinary(t *testing.T) {
	const onPath = "/usr/local/bin/askuser-hub"
	tests := []struct {
		name         string
		goos, goarch string
		files        []string // made under the temp directory; a trailing / makes a directory
		self         string   // under the temp directory
		path         bool     // askuser-hub is on PATH
		want         string   // under the temp directory, or onPath
		wantErr      string
	}{
		{"beside askuser", "linux", "amd64", []string{"a/askuser-hub"}, "a/askuser", true, "a/askuser-hub", ""},
		{"beside askuser on Windows", "windows", "arm64", []string{"a/askuser-hub.exe"}, "a/askuser.exe", false, "a/askuser-hub.exe", ""},
		{"npm packages side by side", "linux", "amd64",
			[]string{"nm/@askuser/askuser-hub-linux-x64/bin/askuser-hub"}, "nm/@askuser/askuser-linux-x64/bin/askuser", true,
			"nm/@askuser/askuser-hub-linux-x64/bin/askuser-hub", ""},
		{"npm packages side by side on Windows", "windows", "amd64",
			[]string{"nm/@askuser/askuser-hub-win32-x64/bin/askuser-hub.exe"}, "nm/@askuser/askuser-win32-x64/bin/askuser.exe", false,
			"nm/@askuser/askuser-hub-win32-x64/bin/askuser-hub.exe", ""},
		{"another platform's hub package is not this one's", "linux", "arm64",
			[]string{"nm/@askuser/askuser-hub-linux-x64/bin/askuser-hub"}, "nm/@askuser/askuser-linux-arm64/bin/askuser", true, onPath, ""},
		{"on PATH, the launcher of a global npm install", "darwin", "arm64", nil, "a/askuser", true, onPath, ""},
		{"a directory is not the program", "linux", "amd64", []string{"a/askuser-hub/"}, "a/askuser", true, onPath, ""},
		{"nowhere", "linux", "amd64", nil, "a/askuser", false, "",
			"the askuser-hub program, which runs the hub, is neither beside askuser nor on PATH; get it with npm i -g @askuser/askuser-hub, from the release archive (askuser_" + Release() + "_linux_amd64, which holds it beside askuser), or from a checkout with go install ./cmd/askuser-hub"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				name := filepath.Join(dir, filepath.FromSlash(f))
				if strings.HasSuffix(f, "/") {
					if err := os.MkdirAll(name, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			lookPath := func(name string) (string, error) {
				if name != HubBinary {
					t.Errorf("looked up %q on PATH", name)
				}
				if tt.path {
					return onPath, nil
				}
				return "", errors.New("not found")
			}
			got, err := FindHubBinary(filepath.Join(dir, filepath.FromSlash(tt.self)), tt.goos, tt.goarch, lookPath)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("FindHubBinary = %q, %v; want the error %q", got, err, tt.wantErr)
				}
				return
			}
			want := tt.want
			if want != onPath {
				want = filepath.Join(dir, filepath.FromSlash(want))
			}
			if err != nil || got != want {
				t.Errorf("FindHubBinary = %q, %v; want %q", got, err, want)
			}
		})
	}
}
