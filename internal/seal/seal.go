// Package seal encrypts content end to end to several recipients at
// once, and signs, as askuser's hub does across machines. It is built
// from the standard library alone: HPKE (RFC 9180, crypto/hpke) with the
// hybrid post-quantum KEM ML-KEM-768 with X25519 (X-Wing), HKDF-SHA256
// and AES-256-GCM, and Ed25519 signatures.
//
// Content is sealed under a random content key, with associated data
// the caller gives (what the content is about: a question's id, its
// tag); the content key is sealed to each recipient by an HPKE
// encapsulation of its own, under the same associated data. A box opens
// only with a recipient's private key and the very associated data it
// was sealed with. HPKE's base mode says nothing of who sealed a box:
// whoever must know signs it (Key.Sign), and the reader checks the
// signature against a key it trusts.
//
// The keys' text form (askuser-pub-…, askuser-seed-…) is package
// config's, which checks the recipients a config names without this
// package's cryptography.
//
// The package is one file, apart from the hub that uses it, so that its
// cryptography is read, reviewed and tested on its own: package hub
// seals and opens questions and answers with it, and internal/hubstore
// makes and reads the machine's key file.
package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hpke"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/config"
)

// Version is the format of the boxes Seal makes; Open refuses others.
const Version = 2

// info binds HPKE's keys to this use and format.
const info = "askuser seal v2"

// encSize is the size of an ML-KEM-768 with X25519 encapsulation.
const encSize = 1120

// kemSize is the size of its encapsulation (public) key.
const kemSize = 1216

func kem() hpke.KEM   { return hpke.MLKEM768X25519() }
func kdf() hpke.KDF   { return hpke.HKDFSHA256() }
func aead() hpke.AEAD { return hpke.AES256GCM() }

// Key is a private key, made from a 32-byte seed: an HPKE decapsulation
// key that opens what is sealed to it, and an Ed25519 key that signs.
// It is the person's, or a machine's.
type Key struct {
	seed []byte
	kem  hpke.PrivateKey
	sign ed25519.PrivateKey
	pub  string
}

// NewKey makes a new random key.
func NewKey() (*Key, error) {
	seed := make([]byte, config.SealPrivateSize)
	rand.Read(seed)
	return fromSeed(seed)
}

// fromSeed makes the key of seed: each part from a key of its own,
// derived with HKDF-SHA256, so that neither use can serve the other.
func fromSeed(seed []byte) (*Key, error) {
	ks, err := hkdf.Key(sha256.New, seed, nil, "askuser seal key", 32)
	if err != nil {
		return nil, err
	}
	ss, err := hkdf.Key(sha256.New, seed, nil, "askuser sign key", ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	k, err := kem().NewPrivateKey(ks)
	if err != nil {
		return nil, err
	}
	sign := ed25519.NewKeyFromSeed(ss)
	pub := append(bytes.Clone(k.PublicKey().Bytes()), sign.Public().(ed25519.PublicKey)...)
	return &Key{seed: seed, kem: k, sign: sign, pub: config.FormatSealKey(config.SealPublic, pub)}, nil
}

// ParseKey reads a private key in the text form Private writes.
func ParseKey(s string) (*Key, error) {
	b, err := config.ParseSealKey(s, config.SealPrivate, "private key")
	if err != nil {
		return nil, err
	}
	return fromSeed(b)
}

// Private is the private key's text form, askuser-seed-…, to keep in a
// file only its owner reads.
func (k *Key) Private() string { return config.FormatSealKey(config.SealPrivate, k.seed) }

// Public is the public key's text form, askuser-pub-…, which others
// seal to and check signatures with.
func (k *Key) Public() string { return k.pub }

// Sign signs msg with the key.
func (k *Key) Sign(msg []byte) []byte { return ed25519.Sign(k.sign, msg) }

// Verify reports whether sig is the key's signature of msg, as its
// PublicKey's Verify does.
func (k *Key) Verify(msg, sig []byte) bool {
	return len(sig) == ed25519.SignatureSize && ed25519.Verify(k.sign.Public().(ed25519.PublicKey), msg, sig)
}

// PublicKey is a public key: what is sealed to it, and what checks its
// signatures.
type PublicKey struct {
	kem  hpke.PublicKey
	sign ed25519.PublicKey
}

// ParsePublic reads a public key in the text form Public writes; its
// error says what is wrong.
func ParsePublic(s string) (*PublicKey, error) {
	b, err := config.ParseSealKey(s, config.SealPublic, "public key")
	if err != nil {
		return nil, err
	}
	k, err := kem().NewPublicKey(b[:kemSize])
	if err != nil {
		return nil, fmt.Errorf("a public key: %w", err)
	}
	return &PublicKey{kem: k, sign: ed25519.PublicKey(b[kemSize:])}, nil
}

// Verify reports whether sig is the key's signature of msg.
func (p *PublicKey) Verify(msg, sig []byte) bool {
	return len(sig) == ed25519.SignatureSize && ed25519.Verify(p.sign, msg, sig)
}

// Fingerprint is a short text that tells a public key, given in text
// form, from others, for a person to compare: SHA256: and 16 characters.
// It names recipients in a Box.
func Fingerprint(pub string) string {
	sum := sha256.Sum256([]byte(pub))
	return "SHA256:" + base64.RawURLEncoding.EncodeToString(sum[:12])
}

// Box is sealed content as it is stored.
type Box struct {
	// Version is the format, Version; 0 for a box of the first format,
	// which had none.
	Version int `json:"v"`
	// To holds, by the Fingerprint of each recipient's public key, its
	// HPKE encapsulation followed by the content key sealed to it.
	To map[string][]byte `json:"to"`
	// Box is the nonce and the content sealed with the content key.
	Box []byte `json:"box"`
}

// ErrNotFor is the error of Open when none of the keys is a recipient.
var ErrNotFor = errors.New("sealed to other keys than this one's")

// ErrOldFormat is the error of Open for a box of another format than
// Version.
var ErrOldFormat = fmt.Errorf("sealed in another format than askuser's version %d, which it no longer opens: ask again with askuser of the same version on both machines", Version)

// ErrDamaged is the error of Open for a box changed on the way, or
// opened with other associated data than it was sealed with.
var ErrDamaged = errors.New("the sealed content was changed on the way, or belongs to something else than it is given with")

// Seal seals content to each of the recipients, given as public keys in
// text form, bound to aad: Open needs the same.
func Seal(to []string, aad, content []byte) (*Box, error) {
	ck := make([]byte, 32)
	rand.Read(ck)
	sealed, err := gcmSeal(ck, content, aad)
	if err != nil {
		return nil, err
	}
	b := &Box{Version: Version, To: make(map[string][]byte, len(to)), Box: sealed}
	for _, r := range to {
		pub, err := ParsePublic(r)
		if err != nil {
			return nil, fmt.Errorf("seal to %s: %w", r, err)
		}
		enc, s, err := hpke.NewSender(pub.kem, kdf(), aead(), []byte(info))
		if err != nil {
			return nil, fmt.Errorf("seal to %s: %w", Fingerprint(r), err)
		}
		wrapped, err := s.Seal(aad, ck)
		if err != nil {
			return nil, err
		}
		b.To[Fingerprint(r)] = append(enc, wrapped...)
	}
	return b, nil
}

// For reports whether b is sealed to k, without opening it.
func (b *Box) For(k *Key) bool {
	_, ok := b.To[Fingerprint(k.Public())]
	return ok
}

// Open opens b, sealed with aad, with the first of keys it was sealed
// to, and returns the content and the key that opened it.
func (b *Box) Open(keys []*Key, aad []byte) ([]byte, *Key, error) {
	if b.Version != Version {
		return nil, nil, ErrOldFormat
	}
	for _, k := range keys {
		wrapped, ok := b.To[Fingerprint(k.Public())]
		if !ok {
			continue
		}
		if len(wrapped) < encSize {
			return nil, nil, ErrDamaged
		}
		r, err := hpke.NewRecipient(wrapped[:encSize], k.kem, kdf(), aead(), []byte(info))
		if err != nil {
			return nil, nil, ErrDamaged
		}
		ck, err := r.Open(aad, wrapped[encSize:])
		if err != nil {
			return nil, nil, ErrDamaged
		}
		out, err := gcmOpen(ck, b.Box, aad)
		if err != nil {
			return nil, nil, ErrDamaged
		}
		return out, k, nil
	}
	return nil, nil, ErrNotFor
}

func gcm(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// gcmSeal seals plain with key and aad under a random nonce, which it
// puts first.
func gcmSeal(key, plain, aad []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plain)+a.Overhead())
	rand.Read(nonce)
	return a.Seal(nonce, nonce, plain, aad), nil
}

func gcmOpen(key, sealed, aad []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < a.NonceSize() {
		return nil, ErrDamaged
	}
	return a.Open(nil, sealed[:a.NonceSize()], sealed[a.NonceSize():], aad)
}
