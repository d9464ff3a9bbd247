package pibridge

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite ../../../pi/src/tool.json and auq-tool.json")

// The Pi package registers ask_user from a committed copy; it must say
// what the engine says. Run with -update after changing the description,
// the guidelines or the schema.
func TestToolFileIsCurrent(t *testing.T) {
	for file, spec := range map[string]func() ([]byte, error){
		"../../../pi/src/tool.json":     ToolSpec,
		"../../../pi/src/auq-tool.json": QuestionToolSpec,
	} {
		t.Run(file, func(t *testing.T) { checkToolFile(t, file, spec) })
	}
}

func checkToolFile(t *testing.T, toolFile string, spec func() ([]byte, error)) {
	want, err := spec()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(toolFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(toolFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale; run go test ./pibridge -run TestToolFileIsCurrent -update (-want +got):\n%s", toolFile, diff)
	}
}
