package strictjson

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"questions", "header", "multiSelect", "id"}
	for _, tt := range []struct{ key, want string }{
		{"Questions", "questions"},
		{"questoins", "questions"},
		{"multiselect", "multiSelect"},
		{"multi_select", "multiSelect"},
		{"heder", "header"},
		{"ID", "id"},
		{"ix", ""},    // too short to guess from edits
		{"hdr", ""},   // three edits away
		{"title", ""}, // nothing near
	} {
		if got := Suggest(tt.key, known); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}
