package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/claudecode"
	"github.com/askuser/askuser/codex"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/opencode"
	"github.com/askuser/askuser/prefs"
)

const hookUsage = `usage: askuser hook [flags] CLIENT

Answer one hook event of CLIENT, claude-code, codex, opencode or kilo,
which the client runs as its hook (OpenCode and Kilo through askuser's
plugin): the event is read as JSON on standard input, and the decision,
if any, is printed as JSON on standard output. Register it with askuser
setup CLIENT.

  claude-code  PreToolUse of its AskUserQuestion tool: the questions are
               asked, and the answers handed to Claude Code as its own
               dialog hands them over. PermissionRequest: the tool call
               is asked as an approval: allow once, one of Claude Code's
               "always allow" choices, or deny with a reason.
  codex        PermissionRequest: the command (or other action) is asked
               as an approval: allow once, or deny with a reason.
  opencode     Its permission.asked event: an approval: allow once,
  kilo         allow always (OpenCode's patterns, until it restarts), or
               reject with a reason. question.asked: the questions of
               its question tool, answered as its own prompt answers
               them. Printed as the body of OpenCode's reply, which
               askuser's plugin posts; OpenCode's own prompt stays on
               screen, and an answer there first makes the plugin stop
               the hook.

Inside tmux the questions are shown in askuser's popup and published to
the user's hub at once, and the first answer wins. Outside tmux they go
to the hub alone, and only when someone else than the person at this
terminal could answer there: a device is paired with the hub's page, or
the config names a remote hub, or --hub on says so (for answers from
askuser answer, askuser inbox or a program). Otherwise the hook decides
nothing at once, and the client's own prompt asks here.

The hook waits until its deadline: --timeout, else the config file's
timeoutPerQuestionMs for each question, else askuser's default of 60
seconds a question; and never longer than 9 minutes for a permission
prompt (clients wait 10 minutes for a hook by default) or 12 hours for
questions, even with the countdown stopped.

Anything but the person's answer (a dismissal, the deadline, no popup and
no hub, a hub out of reach, an event or an answer that cannot be read, a
signal, a failure of askuser) decides nothing: the hook prints nothing,
exits with status 0 and says why on standard error, and the client asks
in its own prompt, never taking it as an allow. A question left on the
hub is closed there with a note that it was handed back to the client.
A usage error exits with status 1, which both clients show and ignore.

flags:
`

// hookMisuse is the exit status of a usage error: never 2, which both
// clients read as a block or a denial.
const hookMisuse = 1

// maxHookEvent bounds the event read on standard input: a tool call's
// input holds at most an approval's texts (approval.MaxDiffLen is the
// largest) many times over.
const maxHookEvent = 8 << 20

// The backstops of a hook's wait, which end it even when the person
// stopped the countdown or the config sets none: well before the
// clients' own timeouts for a hook, 10 minutes by default for a
// permission prompt, and the day askuser setup gives a question hook.
const (
	maxApprovalWait = 9 * time.Minute
	maxQuestionWait = 12 * time.Hour
)

// hookClients are the clients askuser hook answers, by the name
// askuser setup registers it with.
var hookClients = map[string]func(ctx context.Context, h *hookRun, event []byte) ([]byte, error){
	"claude-code": claudeHook,
	"codex":       codexHook,
	"opencode":    opencodeHook("opencode"),
	"kilo":        opencodeHook("kilo"),
}

// errHookDeadline is the cause with which a hook's backstop ends it.
var errHookDeadline = errors.New("the hook's deadline passed")

// hookRun is one run of askuser hook CLIENT.
type hookRun struct {
	env     *Env
	client  string
	opts    *ask.HostOptions
	pref    hubPref
	always  bool          // --hub on: the hub is asked without a device
	timeout time.Duration // --timeout; 0 for the config's
}

func runHook(ctx context.Context, env *Env, args []string) int {
	var f askFlags
	var timeout time.Duration
	var hubFlag string
	fs := newFlagSet("hook", env, hookUsage, func(fs *flag.FlagSet) {
		fs.DurationVar(&timeout, "timeout", 0, "how long to wait for the person's answer, such as 90s; 0 for the config's timeoutPerQuestionMs")
		fs.StringVar(&f.config, "config", "", "read preferences from `FILE` instead of the default config file")
		fs.BoolVar(&f.noConfig, "no-config", false, "read no config file")
		fs.StringVar(&hubFlag, "hub", "", "auto (outside tmux, ask the user's hub when a device or a remote hub could answer there), on (ask it whenever it runs) or off")
	})
	if code, ok := parseFlags(fs, args); !ok {
		if code != 0 {
			return hookMisuse
		}
		return 0
	}
	misuse := func(msg string) int {
		usageError(env, "hook", msg)
		return hookMisuse
	}
	if fs.NArg() != 1 {
		return misuse("give one CLIENT: claude-code, codex, opencode or kilo")
	}
	decide, ok := hookClients[fs.Arg(0)]
	if !ok {
		return misuse(fmt.Sprintf("unknown client %q: want claude-code, codex, opencode or kilo", fs.Arg(0)))
	}
	if timeout < 0 || timeout > maxQuestionWait {
		return misuse(fmt.Sprintf("--timeout must be from 0 to %s, not %s", maxQuestionWait, timeout))
	}
	always := hubFlag == "on"
	if f.hub = hubFlag; always {
		f.hub = prefs.HubAuto
	}
	opts, err := f.hostOptions()
	if err != nil {
		return misuse(strings.Replace(err.Error(), "auto or off", "auto, on or off", 1))
	}
	h := &hookRun{env: env, client: fs.Arg(0), opts: opts, pref: hubPreference(f.hub, opts), always: always, timeout: timeout}
	h.run(ctx, decide)
	return 0
}

// say writes one line to stderr, escaped: what it says can hold the
// model's text.
func (h *hookRun) say(format string, a ...any) {
	fmt.Fprintf(h.env.Stderr, "askuser hook %s: %s\n", h.client, safetext.Line(fmt.Sprintf(format, a...)))
}

// run reads the event, decides and prints the decision. Whatever fails,
// a panic and a signal among them, it prints nothing.
func (h *hookRun) run(ctx context.Context, decide func(context.Context, *hookRun, []byte) ([]byte, error)) {
	defer func() {
		if p := recover(); p != nil {
			h.say("internal failure, so no decision: %v", p)
		}
	}()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	// A client that stopped reading makes the write fail with EPIPE
	// rather than kill the hook before it closed its question.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	event, err := readEvent(ctx, orEOF(h.env.Stdin))
	switch {
	case err != nil:
		h.say("reading the event: %v; no decision", err)
		return
	case len(event) > maxHookEvent:
		h.say("the event is over %d bytes; no decision", maxHookEvent)
		return
	}
	out, err := decide(ctx, h, event)
	switch {
	case err != nil:
		h.say("%v; no decision, so %s asks in its own prompt", err, h.client)
		return
	case ctx.Err() != nil:
		h.say("stopped (%v); no decision", context.Cause(ctx))
		return
	}
	if _, err := h.env.Stdout.Write(append(strictjson.Escape(out), '\n')); err != nil {
		h.say("writing the decision: %v", err)
	}
}

// eventWait bounds the reading of the event, which a client writes at
// once and then closes.
const eventWait = 30 * time.Second

// readEvent reads the event, at most maxHookEvent+1 bytes of it, until
// standard input ends, ctx is done or eventWait has passed: a client
// that never closes it, or a signal, must not hold the hook.
func readEvent(ctx context.Context, r io.Reader) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, eventWait, errors.New("the event took too long to read"))
	defer cancel()
	type read struct {
		data []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, maxHookEvent+1))
		got <- read{data, err}
	}()
	select {
	case r := <-got:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("standard input did not end: %w", context.Cause(ctx))
	}
}

// hookAsk asks req of contract c on askuser's popup, inside tmux, and on
// the user's hub, and returns the call's result; outside tmux, when only
// the person at this terminal could answer, it fails at once. project is
// the client's working directory, questions how many questions req asks,
// and limit the backstop of the wait.
func hookAsk[Req, Ans, Res any](ctx context.Context, h *hookRun, c ask.Contract[Req, Ans, Res], req Req, project string, questions int, limit time.Duration) (Res, error) {
	opts := *h.opts
	custom := contract.RouteCustom
	opts.Options.Mode = custom
	if h.timeout > 0 {
		per := max(h.timeout.Milliseconds()/int64(questions), 1)
		opts.Options.TimeoutPerQuestionMs = &per
		limit = min(limit, h.timeout+time.Second)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, limit, errHookDeadline)
	defer cancel()
	caps := popupCapabilities(h.env, true, false)
	if !caps.CanRun(custom) {
		if err := h.hubCouldAnswer(ctx); err != nil {
			var none Res
			return none, fmt.Errorf("askuser's popup cannot show here (%s), and %w", caps.CustomReason, err)
		}
	}
	caps, closeHub := joinHubAs(ctx, h.env, "hook "+h.client, h.pref, caps, hubAs{
		agent: h.client, project: project,
		unanswered: "handed back to " + h.client + "'s own prompt",
	})
	defer closeHub()
	caps = opencode.BindQuestions(claudecode.BindQuestions(ask.BindApproval(caps)))
	return ask.Ask(ctx, ask.NewAsker(ask.NewHost(caps, &opts), nil), c, req, nil), nil
}

// hubCouldAnswer returns nil when a question is worth offering on the
// hub with no popup: someone else than the person at this terminal, who
// answers in the client's own prompt, could answer it there. That is so
// with --hub on, with a remote hub configured, and when a device is
// paired with the hub's page.
func (h *hookRun) hubCouldAnswer(ctx context.Context) error {
	switch {
	case h.pref.mode == prefs.HubOff:
		return errors.New("the hub is off")
	case h.always || h.pref.remote != nil:
		return nil
	}
	getenv := h.env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c, err := hub.Dial(ctx, &hub.DialOptions{Getenv: getenv, Name: "askuser hook " + h.client})
	switch {
	case errors.Is(err, hub.ErrNoHub):
		return errors.New("no hub runs")
	case err != nil:
		return fmt.Errorf("the hub cannot be reached: %w", err)
	}
	defer c.Close()
	n, err := c.PairedDevices(ctx)
	switch {
	case err != nil:
		return err
	case n == 0:
		return errors.New("no device is paired with the hub's page and no remote hub is configured, so only this terminal could answer (--hub on asks the hub anyway)")
	}
	return nil
}

// claudeHook answers one hook event of Claude Code: PreToolUse of its
// AskUserQuestion tool, or PermissionRequest.
func claudeHook(ctx context.Context, h *hookRun, event []byte) ([]byte, error) {
	name, err := claudecode.HookEvent(event)
	if err != nil {
		return nil, err
	}
	switch name {
	case "PreToolUse":
		e, err := claudecode.DecodePreToolUse(event)
		if err != nil {
			return nil, err
		}
		if e.ToolName != claudecode.QuestionTool {
			return nil, fmt.Errorf("askuser answers PreToolUse of %s only, not of %q", claudecode.QuestionTool, e.ToolName)
		}
		q, err := claudecode.DecodeQuestions(e.ToolInput)
		if err != nil {
			return nil, err
		}
		o, err := hookAsk(ctx, h, claudecode.QuestionContract, q, e.Cwd, len(q.Questions), maxQuestionWait)
		if err != nil {
			return nil, err
		}
		if o.Status != auq.StatusSubmitted || o.Answers == nil {
			return nil, questionsEnded(o)
		}
		return q.PreToolUseOutput(*o.Answers), nil
	case "PermissionRequest":
		e, err := claudecode.DecodePermissionRequest(event)
		if err != nil {
			return nil, err
		}
		p, err := e.Prompt()
		if err != nil {
			return nil, fmt.Errorf("the tool call cannot be asked as an approval: %w", err)
		}
		return askApproval(ctx, h, p.Request, e.Cwd, p.HookOutput)
	}
	return nil, fmt.Errorf("askuser answers PreToolUse and PermissionRequest only, not %q", name)
}

// codexHook answers Codex's PermissionRequest hook.
func codexHook(ctx context.Context, h *hookRun, event []byte) ([]byte, error) {
	e, err := codex.DecodePermissionRequest(event)
	if err != nil {
		return nil, err
	}
	r, err := e.Approval()
	if err != nil {
		return nil, fmt.Errorf("the action cannot be asked as an approval: %w", err)
	}
	return askApproval(ctx, h, r, e.Cwd, func(o approval.Outcome) []byte { return codex.HookOutput(r, o) })
}

// askApproval asks r, of the client working in cwd, and returns the
// decision that output makes of the outcome, or why there is none.
func askApproval(ctx context.Context, h *hookRun, r *approval.Request, cwd string, output func(approval.Outcome) []byte) ([]byte, error) {
	o, err := hookAsk(ctx, h, ask.Approval, r, cwd, 1, maxApprovalWait)
	if err != nil {
		return nil, err
	}
	if out := output(o); out != nil {
		return out, nil
	}
	return nil, approvalEnded(o)
}

// questionsEnded says how questions ended without answers.
func questionsEnded(o claudecode.QuestionsOutcome) error {
	if o.Error != nil {
		return ended("the questions", o.Error.Code, o.Error.Message)
	}
	return fmt.Errorf("the questions were not answered (%s)", o.Status)
}

// approvalEnded says how an approval ended without a decision the
// client takes.
func approvalEnded(o approval.Outcome) error {
	if o.Error != nil {
		return ended("the approval", o.Error.Code, o.Error.Message)
	}
	return fmt.Errorf("the approval ended without a decision (%s)", o.Status)
}

// ended says that what could not be asked, with the error's code and
// message.
func ended(what, code, message string) error {
	return fmt.Errorf("%s could not be asked: %s: %s", what, code, message)
}
