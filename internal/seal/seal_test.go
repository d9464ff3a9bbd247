package seal

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	from, _ := NewKey()
	a, _ := NewKey()
	b, _ := NewKey()
	stranger, _ := NewKey()
	content := []byte("Ship it? yes / no")
	box, err := Seal(from, []string{a.Public(), b.Public()}, content)
	if err != nil {
		t.Fatal(err)
	}
	tamper := func(f func(*Box)) *Box {
		c := &Box{From: box.From, To: map[string][]byte{}, Box: bytes.Clone(box.Box)}
		for k, v := range box.To {
			c.To[k] = bytes.Clone(v)
		}
		f(c)
		return c
	}
	tests := []struct {
		name string
		box  *Box
		keys []*Key
		err  error // nil: opens
	}{
		{"first recipient", box, []*Key{a}, nil},
		{"second recipient after a stranger", box, []*Key{stranger, b}, nil},
		{"stranger", box, []*Key{stranger}, ErrNotFor},
		{"no key", box, nil, ErrNotFor},
		{"content changed", tamper(func(c *Box) { c.Box[len(c.Box)-1] ^= 1 }), []*Key{a}, errDamaged},
		{"wrapped key changed", tamper(func(c *Box) { c.To[a.Public()][20] ^= 1 }), []*Key{a}, errDamaged},
		{"another sender claimed", tamper(func(c *Box) { c.From = stranger.Public() }), []*Key{a}, errDamaged},
		{"sender not a key", tamper(func(c *Box) { c.From = "x" }), []*Key{a}, errDamaged},
		{"truncated", tamper(func(c *Box) { c.Box = c.Box[:5] }), []*Key{a}, errDamaged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, by, err := tt.box.Open(tt.keys)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Open: err = %v, want %v", err, tt.err)
			}
			if err == nil && (!bytes.Equal(got, content) || by != tt.keys[len(tt.keys)-1].Public()) {
				t.Fatalf("Open = %q by %s", got, by)
			}
		})
	}
	if bytes.Contains(box.Box, content) {
		t.Fatal("the box holds its content in the clear")
	}
}

func TestKeyText(t *testing.T) {
	k, _ := NewKey()
	back, err := ParseKey(k.Private())
	if err != nil || back.Public() != k.Public() {
		t.Fatalf("ParseKey(String()) = %v, %v", back, err)
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
}

// FuzzOpen opens boxes of any shape: never a panic, and nothing opens
// but what was sealed.
func FuzzOpen(f *testing.F) {
	from, _ := NewKey()
	to, _ := NewKey()
	box, _ := Seal(from, []string{to.Public()}, []byte("x"))
	f.Add(box.From, box.To[to.Public()], box.Box)
	f.Add("", []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, from string, wrapped, content []byte) {
		b := &Box{From: from, To: map[string][]byte{to.Public(): wrapped}, Box: content}
		got, _, err := b.Open([]*Key{to})
		if err == nil && !bytes.Equal(got, []byte("x")) {
			t.Fatalf("opened %q", got)
		}
	})
}
