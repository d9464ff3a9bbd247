package strictjson

// hubTexts is shared.md, filled in with itself, for the hub's lines,
// which name no tool. It loads on first use.
var hubTexts LazyModelText

func hubText() *ModelText { return hubTexts.Get("shared", "") }

// HubCall is how the askuser hub took part in one call that settled, for
// either tool.
type HubCall struct {
	// Local names the host's own surface ("the form of CLIENT"); Alone
	// names the host as one that had no surface of its own.
	Local, Alone string
	// Only says the hub was the call's only route.
	Only bool
	// Won says the hub's answer won the call; Where says by whom, as
	// hub.Answer.Where does.
	Won   bool
	Where string
	// Answered says the call ended answered.
	Answered bool
}

// Note returns what the model is told about the hub once the call
// settled: where the answer came from when the hub's won, and, when the
// hub was the only route, that nobody answered there. "" for nothing.
func (c HubCall) Note() string {
	switch {
	case c.Won && c.Only:
		return hubAnswered(c.Alone, c.Where, true)
	case c.Won:
		return hubAnswered(c.Local, c.Where, false)
	case c.Only && !c.Answered:
		return hubWaited(c.Alone)
	}
	return ""
}

// hubAnswered returns the line that tells the model an answer came
// through the askuser hub rather than from local, the host's own surface
// ("the form of CLIENT"); where says by whom, as hub.Answer.Where does.
// With only set, the host had no surface of its own and local names the
// client that could show none.
func hubAnswered(local, where string, only bool) string {
	if only {
		return hubText().Text("hub-answered-only", "local", local, "where", where) + "\n"
	}
	return hubText().Text("hub-answered", "local", local, "where", where) + "\n"
}

// hubWaited returns the line that tells the model the questions waited
// on the askuser hub, because local, the client, could show them nowhere,
// and that nobody answered them there.
func hubWaited(local string) string {
	return hubText().Text("hub-waited", "local", local) + "\n"
}
