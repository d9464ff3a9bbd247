package safetext

import "testing"

func TestEqualFold(t *testing.T) {
	tests := []struct {
		s, lower string
		want     bool
	}{
		{"Mode", "mode", true},
		{"MODE", "mode", true},
		{"mode", "mode", true},
		{"mod", "mode", false},
		{"\u212Aey", "key", false}, // the Kelvin sign is not k
		{"ALT+O", "alt+o", true},
		{"", "", true},
		{"Modf", "mode", false},
	}
	for _, tt := range tests {
		if got := EqualFold(tt.s, tt.lower); got != tt.want {
			t.Errorf("EqualFold(%q, %q) = %v", tt.s, tt.lower, got)
		}
	}
}
