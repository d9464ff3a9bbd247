package hubserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

// DevicesFile is the name of the file, in the hub's directory, that
// keeps the paired devices: their names and the hashes of their tokens,
// never a token.
const DevicesFile = "web-devices.json"

// DefaultPairing is how long a pairing link works unless said otherwise;
// MaxPairing is the longest it may.
const (
	DefaultPairing = 5 * time.Minute
	MaxPairing     = time.Hour
)

// seenEvery is how often a device's last sight is written down.
const seenEvery = time.Minute

// Device is a browser paired with the hub.
type Device struct {
	ID        string    `json:"id"`
	Name      string    `json:"name,omitempty"`
	UserAgent string    `json:"userAgent,omitempty"`
	Paired    time.Time `json:"paired"`
	LastSeen  time.Time `json:"lastSeen"`
	// Revoked, when set, is when the device was revoked: it is refused
	// since.
	Revoked *time.Time `json:"revoked,omitempty"`
	// Hash is the SHA-256 of the device's token, in hex.
	Hash string `json:"hash"`
}

// Pairing is a pairing link the hub made.
type Pairing struct {
	Link    string    `json:"link"`
	Expires time.Time `json:"expires"`
	// Fingerprint is the SHA-256 fingerprint of the certificate the page
	// serves, when it serves HTTPS itself.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// code is a pairing code the hub made, by the hash of the code.
type code struct {
	name    string
	expires time.Time
	used    time.Time
}

// devices are the paired devices and the pairing codes, kept in path
// ("" for memory only).
type devices struct {
	path string

	mu     sync.Mutex
	list   []*Device
	byHash map[string]*Device
	codes  map[string]*code
	saved  map[string]time.Time // id → LastSeen as written
}

func loadDevices(path string) (*devices, error) {
	d := &devices{path: path, byHash: map[string]*Device{}, codes: map[string]*code{}, saved: map[string]time.Time{}}
	if path == "" {
		return d, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the paired devices: %w", err)
	}
	if err := json.Unmarshal(b, &d.list); err != nil {
		return nil, fmt.Errorf("read the paired devices, %s: %w", path, err)
	}
	for _, dev := range d.list {
		d.byHash[dev.Hash] = dev
		d.saved[dev.ID] = dev.LastSeen
	}
	return d, nil
}

// save writes the devices down; d.mu is held.
func (d *devices) save() error {
	if d.path == "" {
		return nil
	}
	b, err := json.MarshalIndent(d.list, "", "  ")
	if err != nil {
		return err
	}
	tmp := d.path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write the paired devices: %w", err)
	}
	if err := os.Rename(tmp, d.path); err != nil {
		return fmt.Errorf("write the paired devices: %w", err)
	}
	for _, dev := range d.list {
		d.saved[dev.ID] = dev.LastSeen
	}
	return nil
}

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// newCode makes a pairing code that works once, until ttl has passed.
func (d *devices) newCode(ttl time.Duration, name string, now time.Time) string {
	c := newWebToken()
	d.mu.Lock()
	defer d.mu.Unlock()
	for h, old := range d.codes {
		if now.Sub(old.expires) > MaxPairing {
			delete(d.codes, h)
		}
	}
	d.codes[hashToken(c)] = &code{name: cleanName(name), expires: now.Add(ttl)}
	return c
}

// PairError is why a pairing attempt was refused.
type PairError struct {
	Status  int
	Message string
}

func (e *PairError) Error() string { return e.Message }

// pair exchanges the code for a new device's token. Attempts are not
// limited: a code holds 256 random bits, which no number of guesses
// finds, and a limit shared by every client (behind a reverse proxy all
// are 127.0.0.1) would let bogus attempts lock the owner's code out.
func (d *devices) pair(c, userAgent string, now time.Time) (*Device, string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.codes[hashToken(c)]
	switch {
	case p == nil:
		return nil, "", &PairError{401, "this pairing link is not one the hub made, or the hub restarted since: get a new one with askuser hub pair"}
	case !p.used.IsZero():
		return nil, "", &PairError{410, fmt.Sprintf("this pairing link was used already, at %s: a link pairs one device, once; get a new one with askuser hub pair", p.used.Format(time.TimeOnly))}
	case !now.Before(p.expires):
		return nil, "", &PairError{410, fmt.Sprintf("this pairing link expired at %s: get a new one with askuser hub pair", p.expires.Format(time.TimeOnly))}
	}
	p.used = now
	token := newWebToken()
	dev := &Device{ID: newWebToken()[:8], Name: p.name, UserAgent: cleanName(userAgent), Paired: now.UTC(), LastSeen: now.UTC(), Hash: hashToken(token)}
	d.list = append(d.list, dev)
	d.byHash[dev.Hash] = dev
	if err := d.save(); err != nil {
		d.list = d.list[:len(d.list)-1]
		delete(d.byHash, dev.Hash)
		return nil, "", &PairError{500, err.Error()}
	}
	return dev, token, nil
}

// device returns the device whose token is t, marked as seen now, or
// why it is refused.
func (d *devices) device(t string, now time.Time) (Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dev := d.byHash[hashToken(t)]
	switch {
	case dev == nil:
		return Device{}, errors.New("this browser is not paired with the hub, or holds the access token of a hub that has stopped: on the hub's machine, open the address askuser hub status prints; pair another device with the link askuser hub pair prints")
	case dev.Revoked != nil:
		return Device{}, fmt.Errorf("this device (%s) was revoked at %s: pair it again with askuser hub pair", dev.ID, dev.Revoked.Local().Format(time.DateTime))
	}
	dev.LastSeen = now.UTC()
	if now.Sub(d.saved[dev.ID]) > seenEvery {
		d.save()
	}
	return *dev, nil
}

// by names the device id for the asker and its model, when it answers
// or dismisses: by its paired name, within hub.MaxByLen, else its ID.
func (d *devices) by(id string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	name := id
	for _, dev := range d.list {
		if dev.ID == id && dev.Name != "" {
			name = dev.Name
			if len(name) > 80 {
				name = strings.ToValidUTF8(name[:80], "") + "…"
			}
		}
	}
	return "the device “" + name + "” paired with the hub"
}

// all returns the devices, paired first first.
func (d *devices) all() []Device {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Device, 0, len(d.list))
	for _, dev := range d.list {
		out = append(out, *dev)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Paired.Before(out[j].Paired) })
	return out
}

// revoke marks the device id revoked.
func (d *devices) revoke(id string, now time.Time) (Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dev := range d.list {
		if dev.ID != id {
			continue
		}
		if dev.Revoked != nil {
			return *dev, fmt.Errorf("the device %s was revoked already, at %s", id, dev.Revoked.Local().Format(time.DateTime))
		}
		t := now.UTC()
		dev.Revoked = &t
		if err := d.save(); err != nil {
			dev.Revoked = nil
			return *dev, err
		}
		return *dev, nil
	}
	return Device{}, fmt.Errorf("no device has the id %q: askuser hub devices lists them", id)
}

// cleanName keeps a name or user agent to one line of printable text of
// at most 200 bytes.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}
