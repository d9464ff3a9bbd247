// Package sealkey is the text form of the keys of package seal: a prefix
// and the key's 32 bytes in unpadded base64url. It holds no cryptography,
// so that checking a config's recipient keys costs the programs that only
// check them (the Pi package's dialog module) nothing.
package sealkey

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// The prefixes of a public and a private key.
const (
	Public  = "askuser-pub-"
	Private = "askuser-key-"
)

// Format writes the 32 bytes of a key after prefix.
func Format(prefix string, key []byte) string {
	return prefix + base64.RawURLEncoding.EncodeToString(key)
}

// Parse reads the 32 bytes of a key written with prefix; its error says
// what is wrong, naming the key what.
func Parse(s, prefix, what string) ([]byte, error) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return nil, fmt.Errorf("a %s starts with %s", what, prefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("a %s is %s and 43 characters of base64url", what, prefix)
	}
	return b, nil
}
