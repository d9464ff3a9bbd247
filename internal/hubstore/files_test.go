package hubstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/internal/seal"
)

// TestKeyFile makes a key once, reads it back, and refuses it once
// others may read it.
func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hub", "key")
	if _, err := ReadKey(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadKey of no file: %v", err)
	}
	pub, err := MakeKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seal.ParsePublic(pub); err != nil {
		t.Fatalf("MakeKey = %q: %v", pub, err)
	}
	again, err := MakeKey(path)
	if err != nil || again != pub {
		t.Fatalf("MakeKey again = %q, %v; want the same key %q", again, err, pub)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", st.Mode().Perm())
	}
	os.Chmod(path, 0o644)
	if _, err := ReadKey(path); err == nil {
		t.Fatal("a key others may read was taken")
	}
}

// TestReadCredentials reads each form of a credentials file, and
// refuses what is none of them, with the reason.
func TestReadCredentials(t *testing.T) {
	dir := t.TempDir()
	creds := "-----BEGIN NATS USER JWT-----\neyJ0\n------END NATS USER JWT------\n"
	tests := []struct {
		name, data string
		mode       os.FileMode
		want       Credentials // with Creds set to "path" for the file's own
		err        string
	}{
		{"creds file", creds, 0o600, Credentials{Creds: "path"}, ""},
		{"token", "s3cret\n", 0o600, Credentials{Token: "s3cret"}, ""},
		{"user and password", "alice:pa:ss\n", 0o600, Credentials{User: "alice", Password: "pa:ss"}, ""},
		{"empty", "\n", 0o600, Credentials{}, "must be a NATS .creds file"},
		{"two lines", "a\nb\n", 0o600, Credentials{}, "must be a NATS .creds file"},
		{"a seed alone", "SU" + strings.Repeat("A", 56), 0o600, Credentials{}, "hold an nkey seed alone"},
		{"readable by others", "s3cret\n", 0o644, Credentials{}, "can be read by others"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, string(rune('a'+i)))
			if err := os.WriteFile(path, []byte(tt.data), tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			got, err := ReadCredentials(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ReadCredentials: err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Creds == path {
				got.Creds = "path"
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("ReadCredentials (-want +got):\n%s", d)
			}
		})
	}
}

// TestWritePrivate replaces a file whole, readable by its owner only,
// and leaves no temporary file behind.
func TestWritePrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "info.json")
	for _, data := range []string{"first\n", "second\n"} {
		if err := WritePrivate(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := ReadPrivate(path, "the file")
		if err != nil || string(got) != data {
			t.Fatalf("ReadPrivate = %q, %v; want %q", got, err, data)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the one written", len(entries))
	}
}
