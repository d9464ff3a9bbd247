package tooltext

// ShimTexts are the sentences the Pi package's TypeScript shim gives the
// model when it cannot reach askuser at all (no binary, a dead child, a
// session that has ended), so that every sentence the model reads comes
// from here. Each is a template: {reason} stands for the reason, which
// the shim fills in. The keys are the shim's names for the cases.
func ShimTexts() map[string]string {
	const noAnswer = "No answer was given; do not invent one."
	const askInText = "Ask the user in ordinary text instead."
	return map[string]string{
		"unavailable":  "ask_user cannot show a dialog: {reason}. " + noAnswer + " " + askInText,
		"notReady":     "ask_user is not ready: {reason}. " + noAnswer + " " + askInText,
		"failed":       "ask_user failed: {reason}. " + noAnswer,
		"notJSON":      "ask_user was called with a request that is not JSON. " + noAnswer,
		"sessionEnded": "the Pi session has ended; ask_user works again in the next session",
		"notStarted":   "the Pi session has not started yet; ask_user works once session_start has run",
	}
}
