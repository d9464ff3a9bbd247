package ask_test

import (
	"go/parser"
	"go/token"
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
