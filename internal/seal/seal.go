// Package seal encrypts content end to end to several recipients at
// once, as askuser's hub does across machines: X25519 between the
// sealing key and each recipient's, HKDF-SHA256 and AES-256-GCM. These
// are the primitives the TLS of every askuser binary carries already,
// so sealing costs the binary almost nothing.
//
// Content is sealed under a random content key; the content key is
// wrapped for each recipient under a key both sides derive from their
// X25519 shared secret. Only the holder of a recipient's private key, or
// of the sealing key, can open it, and a box that opens was sealed by
// the key it names in From: a recipient knows who sealed it.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/sealkey"
)

// info binds derived keys to this use.
const info = "askuser seal v1"

// Key is a private key: the person's, a device's, or one made for one
// question.
type Key struct{ priv *ecdh.PrivateKey }

// NewKey makes a new random key.
func NewKey() (*Key, error) {
	k, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return &Key{k}, nil
}

// ParseKey reads a private key in the text form Private writes.
func ParseKey(s string) (*Key, error) {
	b, err := sealkey.Parse(s, sealkey.Private, "private key")
	if err != nil {
		return nil, err
	}
	k, err := ecdh.X25519().NewPrivateKey(b)
	if err != nil {
		return nil, err
	}
	return &Key{k}, nil
}

// Private is the private key's text form, askuser-key-…, to keep in a
// file only its owner reads.
func (k *Key) Private() string { return sealkey.Format(sealkey.Private, k.priv.Bytes()) }

// Public is the public key's text form, askuser-pub-…, which others
// seal to.
func (k *Key) Public() string { return sealkey.Format(sealkey.Public, k.priv.PublicKey().Bytes()) }

// ParsePublic reads a public key in the text form Public writes; its
// error says what is wrong.
func ParsePublic(s string) (*ecdh.PublicKey, error) {
	b, err := sealkey.Parse(s, sealkey.Public, "public key")
	if err != nil {
		return nil, err
	}
	return ecdh.X25519().NewPublicKey(b)
}

// Box is sealed content as it is stored.
type Box struct {
	// From is the public key of the sealing side.
	From string `json:"from"`
	// To holds, by recipient public key, the content key wrapped for it.
	To map[string][]byte `json:"to"`
	// Box is the nonce and the content sealed with the content key.
	Box []byte `json:"box"`
}

// ErrNotFor is the error of Open when none of the keys is a recipient.
var ErrNotFor = errors.New("sealed to other keys than this one's")

// errDamaged is the error of Open for a box changed on the way.
var errDamaged = errors.New("the sealed content was changed or damaged on the way")

// Seal seals content from the key from to each of the recipients, given
// as public keys in text form.
func Seal(from *Key, to []string, content []byte) (*Box, error) {
	ck := make([]byte, 32)
	rand.Read(ck)
	sealed, err := gcmSeal(ck, content)
	if err != nil {
		return nil, err
	}
	b := &Box{From: from.Public(), To: make(map[string][]byte, len(to)), Box: sealed}
	for _, r := range to {
		kek, err := wrapKey(from, r, b.From, r)
		if err != nil {
			return nil, fmt.Errorf("seal to %s: %w", r, err)
		}
		if b.To[r], err = gcmSeal(kek, ck); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Open opens b with the first of keys it was sealed to, and returns the
// content and the public key that opened it.
func (b *Box) Open(keys []*Key) ([]byte, string, error) {
	for _, k := range keys {
		pub := k.Public()
		wrapped, ok := b.To[pub]
		if !ok {
			continue
		}
		kek, err := wrapKey(k, b.From, b.From, pub)
		if err != nil {
			return nil, "", errDamaged
		}
		ck, err := gcmOpen(kek, wrapped)
		if err != nil {
			return nil, "", errDamaged
		}
		out, err := gcmOpen(ck, b.Box)
		if err != nil {
			return nil, "", errDamaged
		}
		return out, pub, nil
	}
	return nil, "", ErrNotFor
}

// wrapKey derives the key that wraps content keys sealed from the
// public key from to the public key to: mine is this side's private key,
// theirs the other side's public key.
func wrapKey(mine *Key, theirs, from, to string) ([]byte, error) {
	pub, err := ParsePublic(theirs)
	if err != nil {
		return nil, err
	}
	shared, err := mine.priv.ECDH(pub)
	if err != nil {
		return nil, err
	}
	return hkdf.Key(sha256.New, shared, []byte(from+to), info, 32)
}

func gcm(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// gcmSeal seals plain with key under a random nonce, which it puts
// first.
func gcmSeal(key, plain []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plain)+a.Overhead())
	rand.Read(nonce)
	return a.Seal(nonce, nonce, plain, nil), nil
}

func gcmOpen(key, sealed []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < a.NonceSize() {
		return nil, errDamaged
	}
	return a.Open(nil, sealed[:a.NonceSize()], sealed[a.NonceSize():], nil)
}
