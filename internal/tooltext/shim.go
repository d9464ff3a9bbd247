package tooltext

// ShimTexts are the sentences the Pi package's TypeScript shim gives the
// model when it cannot reach askuser at all (no binary, a dead child, a
// session that has ended), so that every sentence the model reads comes
// from here. Each is a template: {reason} stands for the reason, which
// the shim fills in. The keys are the shim's names for the cases.
func ShimTexts() map[string]string { return ShimTextsFor("ask_user") }

// ShimTextsFor is ShimTexts for the tool named tool, for the Pi package
// that registers AskUserQuestion instead of ask_user.
func ShimTextsFor(tool string) map[string]string {
	const noAnswer = "No answer was given; do not invent one."
	const askInText = "Ask the user in ordinary text instead."
	return map[string]string{
		"unavailable":  tool + " cannot show a dialog: {reason}. " + noAnswer + " " + askInText,
		"notReady":     tool + " is not ready: {reason}. " + noAnswer + " " + askInText,
		"failed":       tool + " failed: {reason}. " + noAnswer,
		"notJSON":      tool + " was called with a request that is not JSON. " + noAnswer,
		"sessionEnded": "the Pi session has ended; " + tool + " works again in the next session",
		"notStarted":   "the Pi session has not started yet; " + tool + " works once session_start has run",
	}
}
