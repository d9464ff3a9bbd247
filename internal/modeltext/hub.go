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
