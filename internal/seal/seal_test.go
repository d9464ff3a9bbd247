package seal

import (
	"bytes"
	"crypto/hpke"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	a, _ := NewKey()
	b, _ := NewKey()
	stranger, _ := NewKey()
	content := []byte("Ship it? yes / no")
	aad := []byte(`{"id":"abcdefghjkmn","tag":{"agent":"a"}}`)
	box, err := Seal([]string{a.Public(), b.Public()}, aad, content)
	if err != nil {
		t.Fatal(err)
	}
	tamper := func(f func(*Box)) *Box {
		c := &Box{Version: box.Version, To: map[string][]byte{}, Box: bytes.Clone(box.Box)}
		for k, v := range box.To {
			c.To[k] = bytes.Clone(v)
		}
		f(c)
		return c
	}
	fa := Fingerprint(a.Public())
	tests := []struct {
		name string
		box  *Box
		keys []*Key
		aad  []byte
		err  error // nil: opens
	}{
		{"first recipient", box, []*Key{a}, aad, nil},
		{"second recipient after a stranger", box, []*Key{stranger, b}, aad, nil},
		{"stranger", box, []*Key{stranger}, aad, ErrNotFor},
		{"no key", box, nil, aad, ErrNotFor},
		{"other associated data", box, []*Key{a}, []byte(`{"id":"bbbbbbbbbbbb","tag":{"agent":"a"}}`), ErrDamaged},
		{"no associated data", box, []*Key{a}, nil, ErrDamaged},
		{"content changed", tamper(func(c *Box) { c.Box[len(c.Box)-1] ^= 1 }), []*Key{a}, aad, ErrDamaged},
		{"encapsulation changed", tamper(func(c *Box) { c.To[fa][20] ^= 1 }), []*Key{a}, aad, ErrDamaged},
		{"sealed key changed", tamper(func(c *Box) { c.To[fa][encSize+3] ^= 1 }), []*Key{a}, aad, ErrDamaged},
		{"another recipient's sealed key", tamper(func(c *Box) { c.To[fa] = c.To[Fingerprint(b.Public())] }), []*Key{a}, aad, ErrDamaged},
		{"truncated", tamper(func(c *Box) { c.Box = c.Box[:5] }), []*Key{a}, aad, ErrDamaged},
		{"short", tamper(func(c *Box) { c.To[fa] = c.To[fa][:9] }), []*Key{a}, aad, ErrDamaged},
		{"older format", tamper(func(c *Box) { c.Version = 0 }), []*Key{a}, aad, ErrOldFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, by, err := tt.box.Open(tt.keys, tt.aad)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Open: err = %v, want %v", err, tt.err)
			}
			if err == nil && (!bytes.Equal(got, content) || by != tt.keys[len(tt.keys)-1]) {
				t.Fatalf("Open = %q by %v", got, by)
			}
		})
	}
	if bytes.Contains(box.Box, content) {
		t.Fatal("the box holds its content in the clear")
	}
	if !box.For(a) || !box.For(b) || box.For(stranger) {
		t.Fatalf("For: %v %v %v, want true true false", box.For(a), box.For(b), box.For(stranger))
	}
}

// TestOldBox refuses a box of the first format, X25519 alone, saying so.
func TestOldBox(t *testing.T) {
	var b Box
	old := `{"from":"askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM","to":{"askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM":"AAAA"},"box":"AAAA"}`
	if err := json.Unmarshal([]byte(old), &b); err != nil {
		t.Fatal(err)
	}
	k, _ := NewKey()
	_, _, err := b.Open([]*Key{k}, nil)
	if !errors.Is(err, ErrOldFormat) || !strings.Contains(err.Error(), "another format") {
		t.Fatalf("Open = %v, want ErrOldFormat", err)
	}
}

func TestSign(t *testing.T) {
	k, _ := NewKey()
	other, _ := NewKey()
	pub, err := ParsePublic(k.Public())
	if err != nil {
		t.Fatal(err)
	}
	sig := k.Sign([]byte("m"))
	if !pub.Verify([]byte("m"), sig) || !k.Verify([]byte("m"), sig) {
		t.Fatal("a signature does not verify")
	}
	for name, s := range map[string][]byte{"other message": k.Sign([]byte("n")), "other key": other.Sign([]byte("m")), "short": sig[:10]} {
		if pub.Verify([]byte("m"), s) || k.Verify([]byte("m"), s) {
			t.Errorf("%s: verifies", name)
		}
	}
}

func TestKeyText(t *testing.T) {
	k, _ := NewKey()
	back, err := ParseKey(k.Private())
	if err != nil || back.Public() != k.Public() {
		t.Fatalf("ParseKey(Private()) = %v, %v", back, err)
	}
	if _, err := ParsePublic(k.Public()); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "askuser-pub-", "askuser-pub-AAAA", k.Private(), strings.TrimPrefix(k.Public(), "askuser-"), k.Public() + "A"} {
		if _, err := ParsePublic(bad); err == nil {
			t.Errorf("ParsePublic(%q) took it", bad)
		}
	}
	if _, err := ParseKey(k.Public()); err == nil {
		t.Error("ParseKey took a public key")
	}
	tests := []struct{ key, want string }{
		{"askuser-pub-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM", "older format"},
		{"askuser-key-hR7gzBekqP73t3cHmlaEGxWokKTM2DRFRX4zUc9ZEOM", "older format"},
	}
	for _, tt := range tests {
		_, errPub := ParsePublic(tt.key)
		_, errKey := ParseKey(tt.key)
		err := errPub
		if strings.HasPrefix(tt.key, "askuser-key-") {
			err = errKey
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.key, err, tt.want)
		}
	}
}

// vector is a test vector of HPKE's base mode, from RFC 9180 (Appendix
// A, as the Go project's crypto/hpke tests hold it) and from
// draft-ietf-hpke-pq for the KEM Seal uses.
type vector struct {
	KEM  uint16 `json:"kem_id"`
	KDF  uint16 `json:"kdf_id"`
	AEAD uint16 `json:"aead_id"`
	Info string `json:"info"`
	IkmR string `json:"ikmR"`
	SkRm string `json:"skRm"`
	PkRm string `json:"pkRm"`
	Enc  string `json:"enc"`
	// AccExports is the SHAKE128 of 1000 exports of random contexts and
	// lengths, drawn from SHAKE128 (see the crypto/hpke tests).
	AccExports  string `json:"exports_accumulated"`
	Encryptions []struct {
		Aad string `json:"aad"`
		Ct  string `json:"ct"`
		Pt  string `json:"pt"`
	} `json:"encryptions"`
	Exports []struct {
		Context string `json:"exporter_context"`
		L       int    `json:"L"`
		Value   string `json:"exported_value"`
	} `json:"exports"`
}

// TestVectors holds crypto/hpke, as Seal and Open use it, to the
// published vectors: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256,
// AES-128-GCM of RFC 9180 A.1.1, and ML-KEM-768 with X25519, the KEM of
// Seal. Each recipient key is derived from its vector's input, and the
// recipient's context, set up from the vector's encapsulation, must open
// its ciphertexts and export its secrets.
func TestVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors map[string]vector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) != 2 {
		t.Fatalf("%d vectors, want 2", len(vectors))
	}
	for name, v := range vectors {
		t.Run(name, func(t *testing.T) {
			kem, err := hpke.NewKEM(v.KEM)
			if err != nil {
				t.Fatal(err)
			}
			kdf, err := hpke.NewKDF(v.KDF)
			if err != nil {
				t.Fatal(err)
			}
			aead, err := hpke.NewAEAD(v.AEAD)
			if err != nil {
				t.Fatal(err)
			}
			sk, err := kem.DeriveKeyPair(unhex(t, v.IkmR))
			if err != nil {
				t.Fatal(err)
			}
			if got := sk.PublicKey().Bytes(); !bytes.Equal(got, unhex(t, v.PkRm)) {
				t.Fatalf("derived public key %x, want %s", got, v.PkRm)
			}
			sk, err = kem.NewPrivateKey(unhex(t, v.SkRm))
			if err != nil {
				t.Fatal(err)
			}
			r, err := hpke.NewRecipient(unhex(t, v.Enc), sk, kdf, aead, unhex(t, v.Info))
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range v.Encryptions {
				pt, err := r.Open(unhex(t, e.Aad), unhex(t, e.Ct))
				if err != nil || !bytes.Equal(pt, unhex(t, e.Pt)) {
					t.Fatalf("encryption %d: Open = %x, %v; want %s", i, pt, err, e.Pt)
				}
			}
			for i, e := range v.Exports {
				got, err := r.Export(string(unhex(t, e.Context)), e.L)
				if err != nil || hex.EncodeToString(got) != e.Value {
					t.Fatalf("export %d = %x, %v; want %s", i, got, err, e.Value)
				}
			}
			if v.AccExports != "" {
				source, sink := sha3.NewSHAKE128(), sha3.NewSHAKE128()
				for l := range 1000 {
					context := string(draw(t, source))
					value, err := r.Export(context, l)
					if err != nil {
						t.Fatal(err)
					}
					sink.Write(value)
				}
				got := make([]byte, 16)
				sink.Read(got)
				if hex.EncodeToString(got) != v.AccExports {
					t.Fatalf("accumulated exports %x, want %s", got, v.AccExports)
				}
			}
			if len(v.Encryptions)+len(v.Exports) == 0 && v.AccExports == "" {
				t.Fatal("the vector checks nothing")
			}
		})
	}
}

// draw reads a length byte and that many bytes from r.
func draw(t *testing.T, r *sha3.SHAKE) []byte {
	l := make([]byte, 1)
	r.Read(l)
	b := make([]byte, int(l[0]))
	r.Read(b)
	return b
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzOpen opens boxes of any shape: never a panic, and nothing opens
// but what was sealed.
func FuzzOpen(f *testing.F) {
	to, _ := NewKey()
	box, _ := Seal([]string{to.Public()}, []byte("a"), []byte("x"))
	fp := Fingerprint(to.Public())
	f.Add(2, box.To[fp], box.Box, []byte("a"))
	f.Add(0, []byte{}, []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, version int, wrapped, content, aad []byte) {
		b := &Box{Version: version, To: map[string][]byte{fp: wrapped}, Box: content}
		got, _, err := b.Open([]*Key{to}, aad)
		if err == nil && !bytes.Equal(got, []byte("x")) {
			t.Fatalf("opened %q", got)
		}
	})
}

// BenchmarkSealOpen measures sealing a 4 KiB question to two recipients
// and opening it with one.
func BenchmarkSealOpen(b *testing.B) {
	a, _ := NewKey()
	c, _ := NewKey()
	content := bytes.Repeat([]byte("x"), 4096)
	aad := []byte("head")
	for b.Loop() {
		box, err := Seal([]string{a.Public(), c.Public()}, aad, content)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := box.Open([]*Key{c}, aad); err != nil {
			b.Fatal(err)
		}
	}
}
