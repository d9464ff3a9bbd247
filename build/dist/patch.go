package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The release builds three of askuser's dependencies with small changes,
// so that the binary every agent runs stays within its 10 MiB. Each
// change removes code that askuser cannot reach, or that it keeps out of
// reach by design, and that Go's linker keeps anyway:
//
//   - The MCP SDK's package oauthex, which every MCP server links, makes
//     an HTTP transport for OAuth discovery in a package variable. Its
//     initializer keeps crypto/tls, X.509 and HTTP/2 in the binary,
//     though a stdio server never fetches anything. The release makes the
//     transport when it is first used instead; the variable is read only
//     by newDiscoveryClient, which gets the same transport.
//   - The SDK encodes its pagination cursors with encoding/gob, about
//     240 KB for one string. The release writes the string in base64
//     alone. A cursor is opaque to clients, and it is read only by the
//     server that wrote it.
//   - nats.go, the hub's client, can reach a server over TLS and over
//     WebSocket, about 1.4 MB with crypto/tls, X.509 and compression.
//     askuser reaches only the hub on its own machine, on 127.0.0.1 with
//     a token: the hub alone speaks to other machines (as a leaf node of
//     a cluster). The release's nats.go refuses TLS and WebSocket with an
//     error that says so. It also leaves out the gob encoder of the
//     deprecated EncodedConn, which askuser does not use, and with it
//     encoding/gob.
//   - The terminal library's package kitty, which the terminal renderer
//     links for one event type, can decode and encode PNG images for
//     kitty's graphics protocol. Importing image/png registers its decoder
//     with package image, which keeps about 20 KB that askuser, which
//     shows no images, never runs. The release's kitty refuses PNG with
//     an error that says so.
//
// go install builds the modules unchanged; only the release binaries
// carry the changes, through a -modfile that replaces each module with a
// patched copy. Each edit fails loudly when its text is not in the
// module exactly once, so that an upgrade makes the change be looked at
// again.

// A patch is the changes the release makes to one module.
type patch struct {
	Module string
	Edits  []edit
	// Add is files the patch adds, by path in the module.
	Add map[string]string
	// Remove is files the patch deletes, by path in the module.
	Remove []string
}

// An edit replaces Old, which must be in File exactly once, with New.
type edit struct {
	File, Old, New string
}

// noTLS is the error the release's nats.go gives where it would make a
// TLS or WebSocket connection.
const noTLS = `errors.New("nats: askuser connects to the hub on its own machine only, without TLS or WebSocket")`

var patches = []patch{
	{
		Module: "github.com/modelcontextprotocol/go-sdk",
		Edits: []edit{
			{
				File: "oauthex/oauth2.go",
				Old:  "var defaultDiscoveryTransport = newDiscoveryTransport(http.DefaultTransport)",
				New:  "var defaultDiscoveryTransport http.RoundTripper = lazyDiscoveryTransport{}",
			},
			{File: "mcp/server.go", Old: "\t\"bytes\"\n", New: ""},
			{File: "mcp/server.go", Old: "\t\"encoding/gob\"\n", New: ""},
			{
				File: "mcp/server.go",
				Old: `	var buf bytes.Buffer
	token := pageToken{LastUID: uid}
	encoder := gob.NewEncoder(&buf)
	if err := encoder.Encode(token); err != nil {
		return "", fmt.Errorf("failed to encode page token: %w", err)
	}
	return base64.URLEncoding.EncodeToString(buf.Bytes()), nil`,
				New: `	return base64.URLEncoding.EncodeToString([]byte(uid)), nil`,
			},
			{
				File: "mcp/server.go",
				Old: `	var token pageToken
	buf := bytes.NewBuffer(decodedBytes)
	decoder := gob.NewDecoder(buf)
	if err := decoder.Decode(&token); err != nil {
		return nil, fmt.Errorf("failed to decode page token: %w, cursor: %v", err, cursor)
	}
	return &token, nil`,
				New: `	return &pageToken{LastUID: string(decodedBytes)}, nil`,
			},
		},
		Add: map[string]string{"oauthex/askuser_lazy.go": `// Added by askuser's release build (build/dist/patch.go).

package oauthex

import (
	"net/http"
	"sync"
)

// lazyDiscoveryTransport makes the discovery transport at its first
// round trip, not when the program starts.
type lazyDiscoveryTransport struct{}

var (
	discoveryOnce      sync.Once
	discoveryTransport http.RoundTripper
)

func (lazyDiscoveryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	discoveryOnce.Do(func() { discoveryTransport = newDiscoveryTransport(http.DefaultTransport) })
	return discoveryTransport.RoundTrip(r)
}
`},
	},
	{
		Module: "github.com/nats-io/nats.go",
		// Each function keeps its body under another name, which nothing
		// calls, so that the rest of the file compiles unchanged.
		Edits: []edit{
			{
				File: "nats.go",
				Old:  "func (nc *Conn) makeTLSConn() error {\n",
				New:  "func (nc *Conn) makeTLSConn() error { return " + noTLS + " }\n\nfunc (nc *Conn) makeTLSConnUnused() error {\n",
			},
			{
				File: "nats.go",
				Old:  "func (nc *Conn) TLSConnectionState() (tls.ConnectionState, error) {\n",
				New:  "func (nc *Conn) TLSConnectionState() (tls.ConnectionState, error) {\n\treturn tls.ConnectionState{}, ErrConnectionNotTLS\n}\n\nfunc (nc *Conn) tlsConnectionStateUnused() (tls.ConnectionState, error) {\n",
			},
			{
				File: "nats.go",
				Old:  "func (nc *Conn) tlsHandshakeEOF(err error) error {\n",
				New:  "func (nc *Conn) tlsHandshakeEOF(err error) error { return err }\n\nfunc (nc *Conn) tlsHandshakeEOFUnused(err error) error {\n",
			},
			{
				File: "ws.go",
				Old:  "func (nc *Conn) wsInitHandshake(u *url.URL) error {\n",
				New:  "func (nc *Conn) wsInitHandshake(u *url.URL) error { return " + noTLS + " }\n\nfunc (nc *Conn) wsInitHandshakeUnused(u *url.URL) error {\n",
			},
			{
				File: "enc.go",
				Old:  "\tRegisterEncoder(GOB_ENCODER, &builtin.GobEncoder{})\n",
				New:  "",
			},
		},
		Remove: []string{"encoders/builtin/gob_enc.go"},
	},
	{
		Module: "github.com/charmbracelet/x/ansi",
		Edits: []edit{
			{File: "kitty/decoder.go", Old: "\t\"image/png\"\n", New: ""},
			{
				File: "kitty/decoder.go",
				Old:  "\t\treturn png.Decode(r) //nolint:wrapcheck\n",
				New:  "\t\treturn nil, " + noPNG + "\n",
			},
			{File: "kitty/encoder.go", Old: "\t\"image/png\"\n", New: ""},
			{
				File: "kitty/encoder.go",
				Old:  "\t\tif err := png.Encode(w, m); err != nil {\n\t\t\treturn fmt.Errorf(\"failed to encode PNG: %w\", err)\n\t\t}\n",
				New:  "\t\treturn " + noPNG + "\n",
			},
		},
	},
}

// noPNG is the error the release's kitty graphics give for a PNG image.
const noPNG = `fmt.Errorf("kitty: askuser shows no images, and decodes and encodes no PNG")`

// apply makes e's change to src, the source of e.File.
func (e edit) apply(module string, src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(e.Old)); n != 1 {
		return nil, fmt.Errorf("%s/%s has the text %q %d times, not once: look at build/dist/patch.go again for this version of %s", module, e.File, e.Old, n, module)
	}
	return bytes.Replace(src, []byte(e.Old), []byte(e.New), 1), nil
}

// releaseModfile copies each patched module into dir (absolute, or
// relative to the module's root, the working directory), patches the
// copies, and writes a go.mod and go.sum beside them that are the
// module's own plus a replace of each module by its copy. It returns the
// go.mod's path, for -modfile.
func releaseModfile(dir string) (string, error) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		return "", err
	}
	mod = append(mod, '\n')
	for _, p := range patches {
		copyDir, err := p.write(dir)
		if err != nil {
			return "", err
		}
		// A relative replacement is read from the module's root.
		if !filepath.IsAbs(copyDir) {
			copyDir = "./" + filepath.ToSlash(copyDir)
		}
		mod = fmt.Appendf(mod, "replace %s => %s\n", p.Module, copyDir)
	}
	modfile := filepath.Join(dir, "release.mod")
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "release.sum"), sum, 0o644); err != nil {
		return "", err
	}
	return modfile, nil
}

// write copies p's module, at the version the module requires, into a
// directory under dir, applies p there, and returns the directory.
func (p patch) write(dir string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", p.Module).Output()
	if err != nil {
		return "", fmt.Errorf("find the source of %s: %w", p.Module, commandError(err))
	}
	src := strings.TrimSpace(string(out))
	if src == "" {
		return "", fmt.Errorf("find the source of %s: go list printed no directory", p.Module)
	}
	to := filepath.Join(dir, filepath.Base(p.Module))
	if err := copyTree(src, to); err != nil {
		return "", fmt.Errorf("copy %s: %w", p.Module, err)
	}
	for _, e := range p.Edits {
		file := filepath.Join(to, filepath.FromSlash(e.File))
		b, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		if b, err = e.apply(p.Module, b); err != nil {
			return "", err
		}
		// The module cache's files are read-only, and so are their copies.
		if err := os.Remove(file); err != nil {
			return "", err
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return "", err
		}
	}
	for _, name := range p.Remove {
		if err := os.Remove(filepath.Join(to, filepath.FromSlash(name))); err != nil {
			return "", fmt.Errorf("%s: %w: look at build/dist/patch.go again for this version of %s", p.Module, err, p.Module)
		}
	}
	for name, text := range p.Add {
		if err := os.WriteFile(filepath.Join(to, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return to, nil
}

// commandError adds a command's standard error to err.
func commandError(err error) error {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}
