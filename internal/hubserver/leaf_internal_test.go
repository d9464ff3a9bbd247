package hubserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/prefs"
)

// TestLeafRemote turns each form of credentials file a leaf node
// accepts into the server's leaf node remote, and refuses the others,
// saying why.
func TestLeafRemote(t *testing.T) {
	creds := "-----BEGIN NATS USER JWT-----\neyJ0\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\nSUAM\n------END USER NKEY SEED------\n"
	tests := []struct {
		name, url, file string
		mode            os.FileMode
		want            string // the remote's URLs, with their users, and TLS; or the error
		ok              bool
	}{
		{"creds", "nats://a:7422", creds, 0o600, "nats://a:7422 creds", true},
		{"user and password", "tls://a:7422, nats://b:7422", "me:p@ss\n", 0o600, "tls://me:p%40ss@a:7422 nats://me:p%40ss@b:7422 tls", true},
		{"token", "nats://a:7422", "s3cret\n", 0o600, "nats://s3cret@a:7422", true},
		{"two lines", "nats://a:7422", "me\npass\n", 0o600, "must be a NATS .creds file, or a token or user:password on one line", false},
		{"empty", "nats://a:7422", "\n", 0o600, "must be a NATS .creds file", false},
		{"seed", "nats://a:7422", "SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY\n", 0o600, "hold an nkey seed alone", false},
		{"others read it", "nats://a:7422", "s3cret\n", 0o644, "can be read by others", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hub.creds")
			if err := os.WriteFile(path, []byte(tt.file), tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tt.mode)
			lo, err := leafRemote(prefs.Remote{URL: tt.url, Credentials: path})
			if !tt.ok {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v; want it to say %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range lo.URLs {
				got = append(got, u.String())
			}
			if lo.Credentials == path {
				got = append(got, "creds")
			}
			if lo.TLS {
				got = append(got, "tls")
			}
			if g := strings.Join(got, " "); g != tt.want || lo.LocalAccount != remoteAccount {
				t.Errorf("remote = %s, account %s; want %s, %s", g, lo.LocalAccount, tt.want, remoteAccount)
			}
		})
	}
}
