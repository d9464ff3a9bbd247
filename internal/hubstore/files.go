package hubstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/askuser/askuser/internal/seal"
)

// maxPrivateSize bounds the private files: a key is under 100 bytes, a
// credentials file a few kilobytes.
const maxPrivateSize = 1 << 14

// Credentials are what a credentials file (prefs.Remote.Credentials)
// holds: the path of a NATS .creds file, a user and password, or a
// token.
type Credentials struct {
	// Creds is the path of the file when it is a NATS .creds file (a
	// user JWT and its nkey seed).
	Creds string
	// User and Password, from a file holding user:password on one line.
	User, Password string
	// Token, from a file holding one line without a colon.
	Token string
}

// ReadCredentials reads the credentials file at path, which only its
// owner may read: a NATS .creds file, or a token or user:password on one
// line.
func ReadCredentials(path string) (Credentials, error) {
	data, err := ReadPrivate(path, "the hub's credentials")
	if err != nil {
		return Credentials{}, err
	}
	s := strings.TrimSpace(string(data))
	switch {
	case strings.Contains(s, "-----BEGIN NATS USER JWT-----"):
		return Credentials{Creds: path}, nil
	case s == "" || strings.ContainsAny(s, "\n\r"):
		return Credentials{}, fmt.Errorf("the hub's credentials %s: must be a NATS .creds file, or a token or user:password on one line", path)
	case len(s) == 58 && strings.HasPrefix(s, "SU"):
		// Sent as a token, a seed would be given away to the server.
		return Credentials{}, fmt.Errorf("the hub's credentials %s: hold an nkey seed alone; give a NATS .creds file, which holds the user's JWT with its seed, or a token or user:password", path)
	}
	if user, pass, ok := strings.Cut(s, ":"); ok {
		return Credentials{User: user, Password: pass}, nil
	}
	return Credentials{Token: s}, nil
}

// MakeKey makes the person's key at path, readable by its owner only,
// unless a key is there already, and returns its public recipient key
// (askuser-pub-…), which agents on other machines seal their questions
// to.
func MakeKey(path string) (string, error) {
	if k, err := ReadKey(path); err == nil {
		return k.Public(), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	k, err := seal.NewKey()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	_, err = f.WriteString(k.Private() + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("make the hub's key: %w", err)
	}
	return k.Public(), nil
}

// ReadKey reads the person's key at path. A missing file is an error
// wrapping os.ErrNotExist; a file others may read is refused.
func ReadKey(path string) (*seal.Key, error) {
	data, err := ReadPrivate(path, "the hub's key")
	if err != nil {
		return nil, err
	}
	k, err := seal.ParseKey(strings.TrimSpace(string(data)))
	if err != nil {
		return nil, fmt.Errorf("the hub's key %s: %w", path, err)
	}
	return k, nil
}

// ReadPrivate reads a small file that only its owner may read, what
// names it in errors.
func ReadPrivate(path, what string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !st.Mode().IsRegular() || st.Size() > maxPrivateSize {
		return nil, fmt.Errorf("%s %s: not a small regular file", what, path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s %s can be read by others (mode %v): chmod 600 %s", what, path, st.Mode().Perm(), path)
	}
	return os.ReadFile(path)
}

// WritePrivate writes data to path, readable and writable by its owner
// only, in place of what was there, whole or not at all.
func WritePrivate(path string, data []byte) error {
	name := filepath.Base(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+strings.TrimSuffix(name, filepath.Ext(name))+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
