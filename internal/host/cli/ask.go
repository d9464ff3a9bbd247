package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/internal/native"
	"github.com/askuser/askuser/internal/strictjson"
	"github.com/askuser/askuser/prefs"
	"github.com/askuser/askuser/tui"
)

const askUsage = `usage: askuser ask [flags] [FILE|-]

Ask the questionnaire in FILE (or on standard input) on the controlling
terminal and print the result as one line of JSON on standard output.

Exit status: 0 answered, 1 aborted, 124 timeout, 2 usage error or invalid
questionnaire, 3 any other error.

With --tool AskUserQuestion the request is an AskUserQuestion request and
the result is an AskUserQuestion result: {"cancelled":false,...} when the
user submitted it (status 0), {"cancelled":true,...} when the user
dismissed it or it was stopped (status 1) or timed out (status 124). An
invalid request (status 2) or another error (status 3) prints nothing on
standard output and says why on standard error.

flags:
`

// askFlags are the flags of ask and demo: the programmatic options of the
// terminal host, which take precedence over the config file.
type askFlags struct {
	mode, display, timeout, config string
	noConfig                       bool
	hub                            string
}

func (f *askFlags) register(fs *flag.FlagSet) {
	f.registerFor(fs, "custom (the dialog) or native (line prompts)")
	fs.StringVar(&f.hub, "hub", "", "auto (publish the questions to the user's hub when one runs) or off")
}

// registerMCP registers the same flags for askuser mcp, where the native
// route is the client's own form.
func (f *askFlags) registerMCP(fs *flag.FlagSet) {
	f.registerFor(fs, "custom (the dialog, in a tmux popup) or native (the MCP client's own form)")
	fs.StringVar(&f.hub, "hub", "", "auto (publish the questions to the user's hub when one runs) or off")
}

func (f *askFlags) registerFor(fs *flag.FlagSet, routes string) {
	fs.StringVar(&f.mode, "mode", "", "force the route: "+routes)
	fs.StringVar(&f.display, "display", "", "how the custom dialog is shown: overlay or inline")
	fs.StringVar(&f.timeout, "timeout-per-question", "", "timeout per question in milliseconds; 0 means none")
	fs.StringVar(&f.config, "config", "", "read preferences from `FILE` instead of the default config file")
	fs.BoolVar(&f.noConfig, "no-config", false, "read no config file")
}

// hostOptions checks the flags and turns them into host options.
func (f *askFlags) hostOptions() (*ask.HostOptions, error) {
	var o ask.HostOptions
	switch m := contract.Route(f.mode); m {
	case "", contract.RouteCustom, contract.RouteNative:
		o.Options.Mode = m
	default:
		return nil, fmt.Errorf("--mode must be custom or native, not %q", f.mode)
	}
	switch d := contract.DisplayMode(f.display); d {
	case "", contract.DisplayOverlay, contract.DisplayInline:
		o.Options.DisplayMode = d
	default:
		return nil, fmt.Errorf("--display must be overlay or inline, not %q", f.display)
	}
	if f.timeout != "" {
		ms, err := strconv.ParseInt(f.timeout, 10, 64)
		if err != nil || ms < 0 || ms > config.MaxTimeoutPerQuestionMs {
			return nil, fmt.Errorf("--timeout-per-question must be a whole number of milliseconds from 0 to %d, not %q", int64(config.MaxTimeoutPerQuestionMs), f.timeout)
		}
		o.Options.TimeoutPerQuestionMs = &ms
	}
	switch f.hub {
	case "", prefs.HubAuto, prefs.HubOff:
	default:
		return nil, fmt.Errorf("--hub must be auto or off, not %q", f.hub)
	}
	switch {
	case f.noConfig && f.config != "":
		return nil, errors.New("--config and --no-config cannot be used together")
	case f.noConfig:
	case f.config != "":
		o.ConfigFile, o.ConfigNamed = f.config, true
	default:
		path, err := config.StandalonePath()
		if err != nil {
			return nil, fmt.Errorf("%w; pass --config FILE or --no-config", err)
		}
		o.ConfigFile = path
	}
	return &o, nil
}

func runAsk(ctx context.Context, env *Env, args []string) int {
	var f askFlags
	var tool toolFlag
	fs := newFlagSet("ask", env, askUsage, func(fs *flag.FlagSet) {
		tool.register(fs)
		f.register(fs)
	})
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(env, "ask", "give at most one questionnaire FILE")
	}
	opts, err := f.hostOptions()
	if err != nil {
		return usageError(env, "ask", err.Error())
	}
	data, code, ok := readQuestionnaire(env, "ask", fs.Arg(0))
	if !ok {
		return code
	}
	if tool.questions() {
		return askQuestionsOnTerminal(ctx, env, opts, hubPreference(f.hub, opts), data)
	}
	return askOnTerminal(ctx, env, "ask", opts, hubPreference(f.hub, opts), data)
}

// askOnTerminal asks the questionnaire in data on the controlling terminal
// and prints the result. It is the one path of ask and demo.
func askOnTerminal(ctx context.Context, env *Env, name string, opts *ask.HostOptions, hubPref hubPref, data []byte) int {
	caps, closeTTY := terminalCapabilities(false)
	caps, closeHub := joinHub(ctx, env, name, hubPref, caps)
	defer closeHub()
	host := ask.NewHost(caps, opts)
	askOpts, finish := terminalNotify(env, name, host)
	res := ask.AskJSON(ctx, ask.NewAsker(host, askOpts), ask.AskUser, data, nil)
	// The core settles a timeout without waiting for the dialog; give the
	// terminal back before printing, or the result could land on the
	// dialog's alternate screen.
	closeTTY()
	// The result comes first: a notify command still running is waited
	// for, within a bound, only after it.
	err := strictjson.WriteLine(env.Stdout, res)
	endResult(env)
	finish(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser %s: writing the result: %v\n", name, err)
		return ExitError
	}
	return exitCode(env, name, res)
}

// terminalCapabilities binds the renderers of the terminal host to the
// controlling terminal, /dev/tty, so that standard output carries only the
// result: those of ask_user, or of AskUserQuestion when questions is set.
// Without a terminal neither route can run.
func terminalCapabilities(questions bool) (ask.Capabilities, func()) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		why := "there is no controlling terminal (" + err.Error() + "); run askuser from an interactive terminal"
		return ask.Capabilities{CustomReason: why, NativeReason: why}, func() {}
	}
	lines := native.NewPrompter(tty, tty)
	// The dialog draws on tty, so standard output carries only the result.
	custom := tui.New(tty, tty, nil)
	var caps ask.Capabilities
	if questions {
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUserQuestion, ask.RendererFunc[*auq.Request, auq.Result](custom.RenderQuestions))
		caps = ask.Bind(caps, contract.RouteNative, ask.AskUserQuestion, native.NewQuestionLines(lines))
	} else {
		caps = ask.Bind(caps, contract.RouteCustom, ask.AskUser, custom)
		caps = ask.Bind(caps, contract.RouteNative, ask.AskUser, native.New(lines, lines))
	}
	var once sync.Once
	return caps, func() {
		once.Do(func() {
			custom.Close()
			lines.Close()
			tty.Close()
		})
	}
}

// exitCode maps a result to the exit status and reports errors on stderr.
func exitCode(env *Env, name string, res contract.Result) int {
	switch res.Status {
	case contract.StatusAnswered:
		return ExitAnswered
	case contract.StatusAborted:
		return ExitAborted
	case contract.StatusTimeout:
		return ExitTimeout
	}
	msg := "the questionnaire could not be asked"
	code := contract.ErrInternal
	if res.Error != nil {
		msg, code = res.Error.Message, res.Error.Code
	}
	fmt.Fprintf(env.Stderr, "askuser %s: %s: %s\n", name, code, msg)
	if code == contract.ErrInvalidRequest {
		return ExitUsage
	}
	return ExitError
}

// readQuestionnaire reads the questionnaire named by arg: a file, or
// standard input for "-" or "". Standard input that is a terminal is read
// only when "-" asks for it, so that a bare command does not hang.
func readQuestionnaire(env *Env, name, arg string) ([]byte, int, bool) {
	var r io.Reader
	src := arg
	switch arg {
	case "":
		if isTerminal(env.Stdin) {
			return nil, usageError(env, name, "give a questionnaire FILE, or - to type it on standard input"), false
		}
		fallthrough
	case "-":
		r, src = env.Stdin, "standard input"
		if r == nil {
			r = eofReader{}
		}
	default:
		f, err := os.Open(arg)
		if err != nil {
			fmt.Fprintf(env.Stderr, "askuser %s: %v\n", name, err)
			return nil, ExitUsage, false
		}
		defer f.Close()
		r = f
	}
	// One byte over the limit is enough for Parse to refuse the request.
	data, err := io.ReadAll(io.LimitReader(r, contract.MaxRequestBytes+1))
	if err != nil {
		fmt.Fprintf(env.Stderr, "askuser %s: reading %s: %v\n", name, src, err)
		return nil, ExitError, false
	}
	return data, 0, true
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
