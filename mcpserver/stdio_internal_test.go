package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFilterLines(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":`,
		`{"jsonrpc":"2.0","id":"a","method":"x","params":"p"}`,
		`{"jsonrpc":"2.0","id":3,"method":"` + strings.Repeat("y", 100) + `"}`,
		`  {"jsonrpc":"2.0","method":"notifications/initialized"}  `,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"1.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":6}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
	}, "\n")
	var pass, out bytes.Buffer
	if err := filterLines(strings.NewReader(in), &pass, &out, 80); err != nil {
		t.Fatal(err)
	}
	wantPass := `{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":4,"result":{}}
{"jsonrpc":"2.0","id":7,"method":"ping"}
`
	if diff := cmp.Diff(wantPass, pass.String()); diff != "" {
		t.Errorf("passed on (-want +got):\n%s", diff)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID    json.RawMessage
			Error struct{ Code int }
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("error line %q: %v", l, err)
		}
		got = append(got, fmt.Sprintf("%s %d", m.ID, m.Error.Code))
	}
	want := []string{"null -32700", `"a" -32600`, "null -32600", "5 -32600", "6 -32600"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// A message over the limit is answered whether or not a newline ends it,
// and however far past the reader's buffer it runs.
func TestFilterLinesOversized(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	huge := strings.Repeat("x", 200<<10) // past the 64 KiB buffer
	tests := []struct{ name, in string }{
		{"short, last, no newline", ping + strings.Repeat("x", 100)},
		{"short, newline", ping + strings.Repeat("x", 100) + "\n"},
		{"past the buffer, last, no newline", ping + huge},
		{"past the buffer, newline", ping + huge + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pass, out bytes.Buffer
			if err := filterLines(strings.NewReader(tt.in), &pass, &out, 80); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ping, pass.String()); diff != "" {
				t.Errorf("passed on (-want +got):\n%s", diff)
			}
			want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is longer than 80 bytes and was dropped"}}` + "\n"
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzFilterLines(f *testing.F) {
	for _, s := range []string{"", "\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", "[1]\n{}", `{"id":[` + "\n", strings.Repeat("x", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var pass, out bytes.Buffer
		if err := filterLines(strings.NewReader(in), &pass, &out, 64); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(pass.String(), "\n"), "\n") {
			if l == "" {
				continue
			}
			if _, code, why := checkMessage([]byte(l)); code != 0 || len(l) > 65 {
				t.Fatalf("passed on %q: %s", l, why)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("wrote invalid JSON %q", l)
			}
		}
	})
}
