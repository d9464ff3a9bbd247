package ask_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
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
	"internal/strictjson": 0, "internal/rules": 0, "internal/safetext": 0, "internal/program": 0,
	"internal/testbin": 0, "internal/jsonappend": 0, "internal/seal": 0, "internal/sealkey": 0, "internal/syncbuf": 0,
	"internal/proc": 0, "internal/kvtest": 0,
	"contract": 1, "auq": 1, "ask": 1, "internal/config": 1, "internal/native": 1,
	"internal/modeltext": 1, "internal/notify": 1,
	"internal/dialog": 2,
	"tui":             3, "mcpserver": 3, "hub": 3, "internal/hubserver": 3, "internal/push": 3, "internal/hubweb": 3,
	"internal/hubstart": 3, "internal/hubstore": 3, "internal/host/cli": 3, "internal/host/pibridge": 3, "internal/host/pimirror": 3, "internal/host/popup": 3,
	"cmd/askuser": 4, "cmd/askuser-hub": 4, "cmd/askuser-dialog-wasm": 4, "build/dist": 4, "build/typecheck": 4, "internal/clients": 4,
}

// TestLayers checks that no package imports one above its layer, and
// that every package has a layer.
func TestLayers(t *testing.T) {
	const module = "github.com/askuser/askuser/"
	dirs := map[string]bool{}
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
		dir := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
		dirs[dir] = true
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		layer, ok := layers[dir]
		if !ok {
			t.Errorf("%s has no layer", dir)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			if l, ok := layers[dep]; ok && l > layer {
				t.Errorf("%s (layer %d) imports %s (layer %d)", path, layer, dep, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range layers {
		if !dirs[dir] {
			t.Errorf("layers names %s, which has no Go files", dir)
		}
	}
}
