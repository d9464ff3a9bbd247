package ask

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/config"
	"github.com/askuser/askuser/prefs"
)

// Capabilities are the renderers a host binds, at most one per route and
// contract (Bind), and why a route has none. A route can run when a
// renderer of any contract is bound on it; a route with none cannot run
// on this host, and the matching reason says why, for a person ("no
// terminal", "print mode has no UI"). A host usually serves one contract
// and binds the renderers of that one only. The zero value binds none.
type Capabilities struct {
	CustomReason, NativeReason string

	bound map[binding]any // a Renderer[Req, Ans] of the contract
}

// binding names a renderer's place: its contract's tool and its route.
type binding struct {
	tool  string
	route contract.Route
}

// Bind returns caps with r bound as the renderer of contract c on route,
// in place of any bound there before; a nil r unbinds it. caps itself is
// not changed.
func Bind[Req, Ans, Res any](caps Capabilities, route contract.Route, c Contract[Req, Ans, Res], r Renderer[Req, Ans]) Capabilities {
	bound := make(map[binding]any, len(caps.bound)+1)
	for k, v := range caps.bound {
		bound[k] = v
	}
	if r == nil {
		delete(bound, binding{c.Tool(), route})
	} else {
		bound[binding{c.Tool(), route}] = r
	}
	caps.bound = bound
	return caps
}

// Bound returns the renderer bound for contract c on route, or nil.
func Bound[Req, Ans, Res any](caps Capabilities, route contract.Route, c Contract[Req, Ans, Res]) Renderer[Req, Ans] {
	r, _ := caps.bound[binding{c.Tool(), route}].(Renderer[Req, Ans])
	return r
}

// CanRun reports whether a renderer of any contract is bound on route.
func (caps Capabilities) CanRun(route contract.Route) bool {
	for b := range caps.bound {
		if b.route == route {
			return true
		}
	}
	return false
}

// HostOptions configures NewHost. The zero value, like a nil
// *HostOptions, sets no programmatic option and reads no config file.
type HostOptions struct {
	// Options are the programmatic preferences. Each one that is set
	// overrides the config file.
	Options prefs.Prefs
	// ConfigFile is the path of the user config file; "" reads none.
	ConfigFile string
	// ConfigNamed says the user named ConfigFile, as with --config, so it
	// must exist; the default config file may be missing.
	ConfigNamed bool
	// ToolKey says the host is the Pi package's, whose preferences may
	// choose its tool (prefs.Prefs.Tool). Every other host refuses preferences
	// that set it, as invalid_config.
	ToolKey bool
	// Wrap, when set, is given the resolved preferences of a valid
	// config and the capabilities, before the route is picked, and
	// returns the capabilities to use: a host joins a second surface,
	// such as the user's hub, this way, with the preferences read once.
	Wrap func(prefs.Effective, Capabilities) Capabilities
}

// Host binds the renderers of one host to the preferences and the route
// that were resolved, once, when it was created. A Host is immutable and
// safe for concurrent use. The zero Host has no route.
type Host struct {
	caps    Capabilities
	prefs   prefs.Effective
	route   contract.Route // "" when the host cannot prompt
	support Support
	refusal contract.Error // why the host cannot prompt
	refused contract.Route // the configured route that was refused, if any
}

// NewHost resolves a host's preferences and route, once: it reads the
// config file (when opts names one), checks the programmatic options,
// combines both, and picks the route.
//
// An explicit mode is used when its renderer is bound and refused
// otherwise, with no substitution. Without one, the custom route is chosen
// when it can run, else the native route. A host with neither, or with an
// invalid config, is still returned: it cannot prompt, Support says why,
// and every Ask is refused without showing anything.
func NewHost(caps Capabilities, opts *HostOptions) *Host {
	if opts == nil {
		opts = &HostOptions{}
	}
	h := &Host{caps: caps}
	var file prefs.Prefs
	if opts.ConfigFile != "" {
		load := config.Load
		if opts.ConfigNamed {
			load = config.LoadNamed
		}
		p, err := load(opts.ConfigFile)
		if err != nil {
			h.invalid(err)
			return h
		}
		file = p
	}
	if err := config.CheckPrefs(config.OptionsSource, opts.Options); err != nil {
		h.invalid(err)
		return h
	}
	if !opts.ToolKey {
		for _, p := range []struct {
			source string
			prefs  prefs.Prefs
		}{{opts.ConfigFile, file}, {config.OptionsSource, opts.Options}} {
			if err := config.CheckNoTool(p.source, p.prefs); err != nil {
				h.invalid(err)
				return h
			}
		}
	}
	h.prefs = config.Resolve(opts.Options, file)
	if opts.Wrap != nil {
		h.caps = opts.Wrap(h.prefs, h.caps)
	}
	h.resolve()
	return h
}

func (h *Host) invalid(err error) {
	reason := fmt.Sprintf("%v; correct it, then start a new session so that it is read again", err)
	h.support = Support{Status: SupportInvalidConfig, Reason: reason}
	h.refusal = contract.Error{Code: contract.ErrInvalidConfig, Message: reason}
}

func (h *Host) resolve() {
	avail := h.available()
	switch mode := h.prefs.Mode; mode {
	case contract.RouteCustom, contract.RouteNative:
		if h.caps.CanRun(mode) {
			h.route = mode
			h.support = Support{Status: SupportAvailable, Route: mode, Source: SourceConfigured, Available: avail}
			return
		}
		reason := fmt.Sprintf("mode %q is configured, but %s cannot run here (%s); %s",
			mode, routeNoun(mode), h.whyMissing(mode), alternative(mode, avail))
		h.support = Support{Status: SupportConfiguredUnavailable, Configured: mode, Available: avail, Reason: reason}
		h.refusal = contract.Error{Code: contract.ErrUnsupportedMode, Message: reason}
		h.refused = mode
	case "":
		if len(avail) > 0 {
			h.route = avail[0]
			h.support = Support{Status: SupportAvailable, Route: avail[0], Source: SourceProbed, Available: avail}
			return
		}
		reason := fmt.Sprintf("no interactive UI can run here: %s cannot (%s) and %s cannot (%s), so the questions cannot be shown to the user",
			routeNoun(contract.RouteCustom), h.whyMissing(contract.RouteCustom),
			routeNoun(contract.RouteNative), h.whyMissing(contract.RouteNative))
		h.support = Support{Status: SupportNoAvailableUI, Reason: reason}
		h.refusal = contract.Error{Code: contract.ErrUnsupportedMode, Message: reason}
	default:
		h.invalid(fmt.Errorf("invalid config: mode %q is not a route; use \"custom\" or \"native\", or leave it unset", mode))
	}
}

func (h *Host) available() []contract.Route {
	avail := []contract.Route{}
	for _, r := range []contract.Route{contract.RouteCustom, contract.RouteNative} {
		if h.caps.CanRun(r) {
			avail = append(avail, r)
		}
	}
	return avail
}

func (h *Host) whyMissing(r contract.Route) string {
	why := h.caps.NativeReason
	if r == contract.RouteCustom {
		why = h.caps.CustomReason
	}
	if why == "" {
		why = "this host does not provide it"
	}
	return why
}

func routeNoun(r contract.Route) string {
	if r == contract.RouteCustom {
		return "the custom dialog"
	}
	return "native dialogs"
}

func alternative(mode contract.Route, avail []contract.Route) string {
	for _, r := range avail {
		if r != mode {
			return fmt.Sprintf("set mode to %q or remove it so that the route is probed", r)
		}
	}
	return "no other route can run here either, so the questions cannot be shown to the user"
}

// Support reports whether and how the host can prompt, without prompting.
func (h *Host) Support() Support {
	if h == nil || h.support.Status == "" {
		return Support{Status: SupportNoAvailableUI, Reason: "the host has no renderer bound"}
	}
	s := h.support
	if s.Available != nil {
		s.Available = append([]contract.Route{}, s.Available...)
	}
	return s
}

// Route returns the route every call on this host uses, and false when the
// host cannot prompt.
func (h *Host) Route() (contract.Route, bool) {
	if h == nil {
		return "", false
	}
	return h.route, h.route != ""
}

// Preferences returns the preferences the host resolved at creation. They
// are meaningful only when the config was valid.
func (h *Host) Preferences() prefs.Effective {
	if h == nil {
		return prefs.Effective{}
	}
	return h.prefs
}

// SupportStatus tells the variants of a Support report apart.
type SupportStatus string

// The support statuses.
const (
	// SupportAvailable: the host can prompt on Support.Route.
	SupportAvailable SupportStatus = "available"
	// SupportConfiguredUnavailable: the configured mode cannot run, and no
	// other route is substituted.
	SupportConfiguredUnavailable SupportStatus = "configured_unavailable"
	// SupportNoAvailableUI: neither route can run.
	SupportNoAvailableUI SupportStatus = "no_available_ui"
	// SupportInvalidConfig: the config file or the programmatic options
	// are invalid.
	SupportInvalidConfig SupportStatus = "invalid_config"
)

// RouteSource tells how an available route was chosen.
type RouteSource string

// The route sources.
const (
	SourceConfigured RouteSource = "configured"
	SourceProbed     RouteSource = "probed"
)

// Support is a host's report on whether and how it can prompt. It is a
// union discriminated by Status:
//
//   - available: Route, Source and Available (every route that can run);
//   - configured_unavailable: Configured (the mode that cannot run),
//     Available and Reason;
//   - no_available_ui and invalid_config: Reason.
//
// Reason tells a person what is wrong and what to do. Fields of other
// variants are empty and are not marshalled.
type Support struct {
	Status     SupportStatus
	Route      contract.Route
	Source     RouteSource
	Available  []contract.Route
	Configured contract.Route
	Reason     string
}

// MarshalJSON encodes s with camelCase keys and only the fields of its
// variant, for example
// {"status":"available","route":"custom","source":"probed","available":["custom","native"]}.
func (s Support) MarshalJSON() ([]byte, error) {
	avail := s.Available
	if avail == nil {
		avail = []contract.Route{}
	}
	var v any
	switch s.Status {
	case SupportAvailable:
		v = struct {
			Status    SupportStatus    `json:"status"`
			Route     contract.Route   `json:"route"`
			Source    RouteSource      `json:"source"`
			Available []contract.Route `json:"available"`
		}{s.Status, s.Route, s.Source, avail}
	case SupportConfiguredUnavailable:
		v = struct {
			Status     SupportStatus    `json:"status"`
			Configured contract.Route   `json:"configured"`
			Available  []contract.Route `json:"available"`
			Reason     string           `json:"reason"`
		}{s.Status, s.Configured, avail, s.Reason}
	case SupportNoAvailableUI, SupportInvalidConfig:
		v = struct {
			Status SupportStatus `json:"status"`
			Reason string        `json:"reason"`
		}{s.Status, s.Reason}
	default:
		return nil, fmt.Errorf("ask: unknown support status %q", s.Status)
	}
	return json.Marshal(v)
}

// errNoHost is reported by an Asker built without a Host.
var errNoHost = errors.New("ask_user is not initialized: no host has been created for this session yet")

// WrapBound returns caps with the renderer bound for contract c on
// route, if there is one, replaced by wrap(it), as a host wraps the
// renderers of another surface in its own.
func WrapBound[Req, Ans, Res any](caps Capabilities, route contract.Route, c Contract[Req, Ans, Res], wrap func(Renderer[Req, Ans]) Renderer[Req, Ans]) Capabilities {
	if r := Bound(caps, route, c); r != nil {
		return Bind(caps, route, c, wrap(r))
	}
	return caps
}
