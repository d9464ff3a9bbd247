package hubserver_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/program"
)

// The arguments Main takes without starting a hub: help, version, and
// anything else refused.
func TestMainArguments(t *testing.T) {
	tests := []struct {
		args              []string
		code              int
		stdout, stderrHas string
	}{
		{[]string{"--help"}, 0, "", "usage: askuser hub"},
		{[]string{"version"}, 0, program.Get().Line("askuser-hub") + "\n", ""},
		{[]string{"version", "extra"}, 2, "", `unexpected argument "version"`},
		{[]string{"start"}, 2, "", `unexpected argument "start"`},
		{[]string{"--web", "0.0.0.0:7373"}, 2, "", "may not listen on 0.0.0.0:7373: only a loopback address"},
		{[]string{"--web=192.168.1.5:80"}, 2, "", "may not listen on 192.168.1.5:80"},
		{[]string{"--web", "127.0.0.1:1", "more"}, 2, "", `unexpected argument "more"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := hubserver.Main(context.Background(), tt.args, &stdout, &stderr, func(string) string { return "" })
			if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("Main(%q) = %d, stdout %q, stderr %q; want %d, stdout %q, stderr with %q", tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderrHas)
			}
		})
	}
}
