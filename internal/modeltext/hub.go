package modeltext

// HubAnswered returns the line that tells the model an answer came
// through the askuser hub rather than from local, the host's own surface
// ("the form of CLIENT"); where says by whom, as hub.Answer.Where does.
// With only set, the host had no surface of its own and local names the
// client that could show none.
func (t *Tool) HubAnswered(local, where string, only bool) string {
	if only {
		return t.text("hub-answered-only", "local", local, "where", where) + "\n"
	}
	return t.text("hub-answered", "local", local, "where", where) + "\n"
}

// HubWaited returns the line that tells the model the questions waited
// on the askuser hub, because local, the client, could show them nowhere,
// and that nobody answered them there.
func (t *Tool) HubWaited(local string) string {
	return t.text("hub-waited", "local", local) + "\n"
}

// HubCall is how the askuser hub took part in one call that settled.
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

// HubNote returns what the model is told about the hub once a call
// settled: where the answer came from when the hub's won, and, when the
// hub was the only route, that nobody answered there. "" for nothing.
func (t *Tool) HubNote(c HubCall) string {
	switch {
	case c.Won && c.Only:
		return t.HubAnswered(c.Alone, c.Where, true)
	case c.Won:
		return t.HubAnswered(c.Local, c.Where, false)
	case c.Only && !c.Answered:
		return t.HubWaited(c.Alone)
	}
	return ""
}
