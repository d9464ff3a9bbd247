package hubserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/askuser/askuser/internal/notify"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
)

// Config is the hub's own config file, hub.json in askuser's config
// directory:
//
//	{
//	  "push": { … },  // pushes to the person's phone: see notify.PushConfig
//	  "remote": {     // the NATS server or cluster of the person's other machines
//	    "url": "tls://nats.example.net:4222",
//	    "credentials": "/home/me/.config/askuser/hub.creds",
//	    "recipients": ["askuser-pub-…"],
//	    "leaf": {"domain": "askuser"}, // optional: join it as a leaf node
//	    "replicas": 3 // optional: the buckets it makes on a cluster that has none
//	  }
//	}
//
// Agents never read it; a hub reads it once, when it starts.
type Config struct {
	// Push, when set, pushes waiting questions through ntfy.
	Push *notify.PushConfig
	// Remote, when set, is the hub the questions of this machine are
	// relayed to, sealed, and whose questions sealed to this machine's
	// key are relayed here (see hubstore.Relay).
	Remote *prefs.Remote
	// Leaf, when set with Remote, joins the remote as a leaf node of
	// the hub's own server instead of dialing it as a client (see Leaf).
	Leaf *Leaf
}

// maxConfigSize bounds the hub's config file.
const maxConfigSize = 64 << 10

// ConfigPath is where the hub's config file is: hub.json in
// $XDG_CONFIG_HOME/askuser, else ~/.config/askuser.
func ConfigPath(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			return "", errors.New("locate the hub's config file: neither XDG_CONFIG_HOME nor HOME is set")
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "askuser", "hub.json"), nil
}

// LoadConfig reads the hub's config file at path. A missing file is no
// config. A file that others may read is refused when it holds a token.
func LoadConfig(path string) (Config, error) {
	fail := func(format string, args ...any) (Config, error) {
		return Config{}, fmt.Errorf("the hub's config %s: "+format, append([]any{path}, args...)...)
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return fail("%v", err)
	}
	if !st.Mode().IsRegular() {
		return fail("is not a regular file")
	}
	if st.Size() > maxConfigSize {
		return fail("is %d bytes, over the limit of %d", st.Size(), maxConfigSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail("%v", err)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return fail("%v", err)
	}
	if c.Push != nil && c.Push.Token != "" && st.Mode().Perm()&0o077 != 0 {
		return fail("holds an ntfy token and others may read it (mode %04o); make it yours alone: chmod 600 %s", st.Mode().Perm(), path)
	}
	return c, nil
}

// ParseConfig reads the text of the hub's config file.
func ParseConfig(data []byte) (Config, error) {
	if err := strictjson.Check(data, nil); err != nil {
		return Config{}, err
	}
	if len(data) == 0 || data[firstByte(data)] != '{' {
		return Config{}, errors.New("must be a JSON object, such as {\"push\": {…}}")
	}
	m, err := strictjson.Members(data, "push", "remote")
	if err != nil {
		return Config{}, err
	}
	var c Config
	if raw, ok := m["push"]; ok {
		p, err := notify.ParsePushConfig(raw, "push")
		if err != nil {
			return Config{}, err
		}
		c.Push = &p
	}
	if raw, ok := m["remote"]; ok {
		if c.Remote, c.Leaf, err = parseRemote(raw); err != nil {
			return Config{}, err
		}
	}
	return c, nil
}

// firstByte is the index of data's first byte that is not JSON white
// space.
func firstByte(data []byte) int {
	for i, b := range data {
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return i
		}
	}
	return 0
}
