package ask_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The runnable examples of the public packages show what an embedder
// can write, so they import no internal package.
func TestExamplesUsePublicPackages(t *testing.T) {
	files, err := filepath.Glob("../*/example*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no examples found beside the ask package")
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/askuser/askuser/internal/") {
				t.Errorf("%s imports %s", file, path)
			}
		}
	}
}

// layers names each package's layer in the picture of the architecture
// document: leaves, engine, dialog, hosts, commands. A package imports
// only packages of its own layer or of one below it.
var layers = map[string]int{
	"internal/strictjson": 0, "internal/safetext": 0,
	"contract": 1, "internal/seal": 1, "prefs": 1, "auq": 1, "approval": 1, "claudecode": 1, "codex": 1, "opencode": 1, "ask": 1, "internal/config": 1, "internal/native": 1,
	"internal/dialog": 2,
	"tui":             3, "internal/notify": 3, "mcpserver": 3, "hub": 3, "internal/hubserver": 3,
	"internal/program": 3, "internal/hubstore": 3, "internal/testkit": 3, "internal/host/cli": 3, "internal/host/pibridge": 3, "internal/host/pimirror": 3, "internal/host/popup": 3,
	"cmd/askuser": 4, "cmd/askuser-hub": 4, "cmd/askuser-dialog-wasm": 4, "build/dist": 4, "build/typecheck": 4, "internal/clients": 4,
}

// hostLayer is the layer of the hosts: below it, the engine and the
// dialog know nothing of terminals or protocols.
const hostLayer = 3

// hostOnly are the imports that only a host or a command may make: a
// terminal, a protocol, a process, the hub's engine.
var hostOnly = []string{
	"charm.land/bubbletea/", "github.com/modelcontextprotocol/go-sdk/", "github.com/nats-io/",
	"github.com/creack/pty", "net/http", "os/exec",
}

// testOnly are the packages that only tests import.
var testOnly = map[string]bool{"internal/testkit": true, "internal/clients": true}

// hostImports are the imports of one host by another that the layout
// allows, each with its reason. Any other is an error, and so is a
// reason left here for an import that is gone.
var hostImports = map[[2]string]string{
	{"internal/host/cli", "internal/host/pibridge"}:      "cli is the command line too: askuser pi serves the Pi bridge",
	{"internal/host/cli", "internal/host/popup"}:         "cli is the command line too: askuser popup is the popup's helper, and askuser mcp shows its dialog in one",
	{"internal/host/pibridge", "internal/host/pimirror"}: "pimirror is the Pi host's dialog copy that runs inside Pi's own process",
}

// hostOf is the host that the package in dir belongs to, such as
// "internal/host/pibridge" for it and the packages under it, or "" for a
// package of no host.
func hostOf(dir string) string {
	rest, ok := strings.CutPrefix(dir, "internal/host/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return "internal/host/" + name
}

// goFile is one Go file of the module and what it imports.
type goFile struct {
	path, dir string // path from the module's root; dir, its package's
	test      bool
	imports   []string
}

// moduleFiles parses the imports of every Go file of the module.
func moduleFiles(t *testing.T) []goFile {
	t.Helper()
	var files []goFile
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		g := goFile{path: rel, dir: filepath.ToSlash(filepath.Dir(rel)), test: strings.HasSuffix(path, "_test.go")}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			g.imports = append(g.imports, p)
		}
		files = append(files, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestLayers checks the layout of the architecture document in the
// imports of every package's own files (tests may reach further):
// every package has a layer, and imports no package above it; no host
// imports another but as hostImports allows; below the hosts, no
// package imports a terminal, a protocol or a process; and only tests
// import the packages for tests.
func TestLayers(t *testing.T) {
	const module = "github.com/askuser/askuser/"
	dirs := map[string]bool{}
	used := map[[2]string]bool{}
	for _, f := range moduleFiles(t) {
		dirs[f.dir] = true
		layer, ok := layers[f.dir]
		if !ok {
			t.Errorf("%s has no layer", f.dir)
			continue
		}
		for _, p := range f.imports {
			dep, ours := strings.CutPrefix(p, module)
			if ours && testOnly[dep] && !f.test && !testOnly[f.dir] {
				t.Errorf("%s imports %s, which is for tests only", f.path, dep)
			}
			if f.test {
				continue
			}
			if !ours {
				// The packages for tests may start what tests need.
				if layer < hostLayer && !testOnly[f.dir] && slices.ContainsFunc(hostOnly, func(h string) bool { return p == h || strings.HasPrefix(p, h) }) {
					t.Errorf("%s (layer %d, below the hosts) imports %s", f.path, layer, p)
				}
				continue
			}
			if l, ok := layers[dep]; ok && l > layer {
				t.Errorf("%s (layer %d) imports %s (layer %d)", f.path, layer, dep, l)
			}
			if from, to := hostOf(f.dir), hostOf(dep); from != "" && to != "" && from != to {
				pair := [2]string{from, to}
				used[pair] = true
				if _, ok := hostImports[pair]; !ok {
					t.Errorf("%s imports %s: a host imports no other host", f.path, dep)
				}
			}
		}
	}
	for dir := range layers {
		if !dirs[dir] {
			t.Errorf("layers names %s, which has no Go files", dir)
		}
	}
	for pair := range hostImports {
		if !used[pair] {
			t.Errorf("hostImports allows %s to import %s, which it no longer does", pair[0], pair[1])
		}
	}
}
