package testkit

import (
	"regexp"
	"strconv"
	"time"
)

var countdownRe = regexp.MustCompile(`⏱ (?:(\d+):)?(\d+):(\d\d)`)

// CountdownShown returns the time left that the first countdown in text
// shows, "⏱ M:SS" or "⏱ H:MM:SS", and whether text shows one. A test
// that reads a countdown on a real clock compares it with the time left
// before and after it was drawn, never with a fixed text: the figure
// changes every second, and a loaded machine may take one to draw it.
func CountdownShown(text string) (time.Duration, bool) {
	m := countdownRe.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	mins, _ := strconv.Atoi(m[2])
	s, _ := strconv.Atoi(m[3])
	return time.Duration(h)*time.Hour + time.Duration(mins)*time.Minute + time.Duration(s)*time.Second, true
}

// CountdownBetween reports whether text shows a countdown of at most
// most and at least least, each give or take the second a countdown
// rounds to: most is the time left before it was drawn, least after.
func CountdownBetween(text string, least, most time.Duration) bool {
	shown, ok := CountdownShown(text)
	return ok && shown >= least-time.Second && shown <= most+time.Second
}
