package safetext

// Dropped reports whether r can never be part of text a person typed:
// C0 and C1 controls (line breaks and tabs among them), DEL, and bidi
// overrides, embeddings, isolates and marks. The dialog's text inputs drop
// these runes as they are typed, and a surface that takes a person's text
// from elsewhere, such as the hub, refuses text that holds one.
func Dropped(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
