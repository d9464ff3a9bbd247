// Package sealkey is the text form of the keys of package seal: a prefix
// and the key's bytes in unpadded base64url. It holds no cryptography,
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
	Private = "askuser-seed-"
)

// The sizes of the keys the prefixes name: a public key is an ML-KEM-768
// with X25519 encapsulation key (1216 bytes) and an Ed25519 key (32
// bytes); a private key is the 32-byte seed both are made from.
const (
	PublicSize  = 1216 + 32
	PrivateSize = 32
)

// oldPrivate and oldPublicSize tell a key of the format before
// post-quantum sealing and signatures, X25519 alone, which is refused.
const (
	oldPrivate    = "askuser-key-"
	oldPublicSize = 32
)

// Format writes the bytes of a key after prefix.
func Format(prefix string, key []byte) string {
	return prefix + base64.RawURLEncoding.EncodeToString(key)
}

// Parse reads a key written with prefix, Public or Private; its error
// says what is wrong, naming the key what, and tells a key of an older
// format of askuser's.
func Parse(s, prefix, what string) ([]byte, error) {
	size := PublicSize
	if prefix == Private {
		size = PrivateSize
	}
	if prefix == Private && strings.HasPrefix(s, oldPrivate) {
		return nil, fmt.Errorf("the %s is of an older format (X25519 alone), which askuser no longer reads: remove it, and a new one is made", what)
	}
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return nil, fmt.Errorf("a %s starts with %s", what, prefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err == nil && len(b) == oldPublicSize && prefix == Public {
		return nil, fmt.Errorf("the %s %s… is of an older format (X25519 alone), which askuser no longer seals to: print the new one with askuser hub recipient on its machine", what, s[:min(len(s), 20)])
	}
	if err != nil || len(b) != size {
		return nil, fmt.Errorf("a %s is %s and %d characters of base64url", what, prefix, base64.RawURLEncoding.EncodedLen(size))
	}
	return b, nil
}
