package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The release builds the MCP SDK with one change. Its package oauthex,
// which every MCP server links through package auth, makes an HTTP
// transport for OAuth discovery in a package variable. That initializer
// runs when the program starts and keeps crypto/tls, X.509 and HTTP/2
// in the binary, about 1.4 MB of code that askuser, a stdio server that
// never fetches anything, cannot reach otherwise. The change makes the
// transport when it is first used instead. The behaviour is the same:
// the variable is read only by newDiscoveryClient, and the transport made
// at first use is the one the initializer made.
//
// go install builds the module unchanged; only the release binaries
// carry the change, through a -modfile that replaces the SDK with a
// patched copy. Each step fails loudly when the SDK no longer has the
// line, so that an upgrade of the SDK makes the change be looked at again.
const (
	sdkModule = "github.com/modelcontextprotocol/go-sdk"
	sdkFile   = "oauthex/oauth2.go"
	sdkEager  = "var defaultDiscoveryTransport = newDiscoveryTransport(http.DefaultTransport)"
	sdkLazy   = "var defaultDiscoveryTransport http.RoundTripper = lazyDiscoveryTransport{}"
)

// sdkLazyFile is the file the patch adds to package oauthex.
const sdkLazyFile = `// Added by askuser's release build (build/dist/sdkpatch.go).

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
`

// patchSDKSource applies the change to the source of oauth2.go.
func patchSDKSource(src []byte) ([]byte, error) {
	if n := bytes.Count(src, []byte(sdkEager)); n != 1 {
		return nil, fmt.Errorf("%s/%s has the line %q %d times, not once: look at build/dist/sdkpatch.go again for this version of the SDK", sdkModule, sdkFile, sdkEager, n)
	}
	return bytes.Replace(src, []byte(sdkEager), []byte(sdkLazy), 1), nil
}

// releaseModfile copies the SDK into dir (absolute, or relative to the
// module's root, the working directory), patches the copy, and writes a
// go.mod and go.sum beside it that are the module's own plus a replace
// of the SDK by the copy. It returns the go.mod's path, for -modfile.
func releaseModfile(dir string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", sdkModule).Output()
	if err != nil {
		return "", fmt.Errorf("find the MCP SDK's source: %w", commandError(err))
	}
	src := strings.TrimSpace(string(out))
	if src == "" {
		return "", fmt.Errorf("find the MCP SDK's source: go list printed no directory for %s", sdkModule)
	}
	sdk := filepath.Join(dir, "go-sdk")
	if err := copyTree(src, sdk); err != nil {
		return "", fmt.Errorf("copy the MCP SDK: %w", err)
	}
	file := filepath.Join(sdk, filepath.FromSlash(sdkFile))
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if b, err = patchSDKSource(b); err != nil {
		return "", err
	}
	// The module cache's files are read-only, and so are their copies.
	if err := os.Remove(file); err != nil {
		return "", err
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(sdk, "oauthex", "askuser_lazy.go"), []byte(sdkLazyFile), 0o644); err != nil {
		return "", err
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		return "", err
	}
	modfile := filepath.Join(dir, "release.mod")
	// A relative replacement is read from the module's root.
	replacement := sdk
	if !filepath.IsAbs(sdk) {
		replacement = "./" + filepath.ToSlash(sdk)
	}
	mod = fmt.Appendf(mod, "\nreplace %s => %s\n", sdkModule, replacement)
	if err := os.WriteFile(modfile, mod, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "release.sum"), sum, 0o644); err != nil {
		return "", err
	}
	return modfile, nil
}

// commandError adds a command's standard error to err.
func commandError(err error) error {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}
