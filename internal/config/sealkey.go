package config

// This file is the text form of the keys of package seal: a prefix and
// the key's bytes in unpadded base64url. It is here, with no
// cryptography, rather than in package seal, so that checking a config's
// recipient keys (RemoteProblems) costs the programs that only check
// them, such as the Pi package's dialog module, nothing: package seal
// reads and writes its keys with it.

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// The prefixes of a public and a private key of package seal.
const (
	SealPublic  = "askuser-pub-"
	SealPrivate = "askuser-seed-"
)

// The sizes of the keys the prefixes name: a public key is an ML-KEM-768
// with X25519 encapsulation key (1216 bytes) and an Ed25519 key (32
// bytes); a private key is the 32-byte seed both are made from.
const (
	SealPublicSize  = 1216 + 32
	SealPrivateSize = 32
)

// oldPrivate and oldPublicSize tell a key of the format before
// post-quantum sealing and signatures, X25519 alone, which is refused.
const (
	oldPrivate    = "askuser-key-"
	oldPublicSize = 32
)

// FormatSealKey writes the bytes of a key after prefix.
func FormatSealKey(prefix string, key []byte) string {
	return prefix + base64.RawURLEncoding.EncodeToString(key)
}

// ParseSealKey reads a key written with prefix, SealPublic or
// SealPrivate; its error
// says what is wrong, naming the key what, and tells a key of an older
// format of askuser's.
func ParseSealKey(s, prefix, what string) ([]byte, error) {
	size := SealPublicSize
	if prefix == SealPrivate {
		size = SealPrivateSize
	}
	if prefix == SealPrivate && strings.HasPrefix(s, oldPrivate) {
		return nil, fmt.Errorf("the %s is of an older format (X25519 alone), which askuser no longer reads: remove it, and a new one is made", what)
	}
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return nil, fmt.Errorf("a %s starts with %s", what, prefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err == nil && len(b) == oldPublicSize && prefix == SealPublic {
		return nil, fmt.Errorf("the %s %s… is of an older format (X25519 alone), which askuser no longer seals to: print the new one with askuser hub recipient on its machine", what, s[:min(len(s), 20)])
	}
	if err != nil || len(b) != size {
		return nil, fmt.Errorf("a %s is %s and %d characters of base64url", what, prefix, base64.RawURLEncoding.EncodedLen(size))
	}
	return b, nil
}
