package testkit

import (
	"testing"
	"time"
)

func TestCountdownShown(t *testing.T) {
	tests := []struct {
		text string
		want time.Duration
		ok   bool
	}{
		{"│ Deploy ⏱ 1:00 │", time.Minute, true},
		{"⏱ 0:59 left", 59 * time.Second, true},
		{"⏱ 10:00", 10 * time.Minute, true},
		{"⏱ 2:03:04", 2*time.Hour + 3*time.Minute + 4*time.Second, true},
		{"No timeout", 0, false},
		{"1:00 without the clock", 0, false},
	}
	for _, tt := range tests {
		got, ok := CountdownShown(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CountdownShown(%q) = %v, %v; want %v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
	if !CountdownBetween("⏱ 0:58", 59*time.Second, time.Minute) || CountdownBetween("⏱ 0:57", 59*time.Second, time.Minute) ||
		CountdownBetween("⏱ 1:02", 59*time.Second, time.Minute) || CountdownBetween("none", 0, time.Hour) {
		t.Error("CountdownBetween does not keep to its bounds, a second either side")
	}
}
