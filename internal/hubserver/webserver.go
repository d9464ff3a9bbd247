package hubserver

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// ServeHTTP serves one request of the page, through its guards.
func (s *Web) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// guard is a wrapper around a handler that answers a request itself,
// refusing it, or passes it on.
type guard func(http.Handler) http.Handler

// chain wraps h in the guards, the first outermost: a request passes them
// in the order they are listed.
func chain(h http.Handler, guards ...guard) http.Handler {
	for i := len(guards) - 1; i >= 0; i-- {
		h = guards[i](h)
	}
	return h
}

// newHandler returns the page's handler: its routes in a ServeMux, behind
// the guards. Every request passes, outermost first:
//
//  1. withHeaders sets the security headers on every answer, refusals
//     included.
//  2. checkHost refuses, with 421, a Host that names neither this
//     machine's loopback address nor, over HTTPS, the page: against DNS
//     rebinding.
//  3. checkOrigin refuses, with 403, a request that may change something
//     and names no origin, or an origin of another scheme than the
//     page's.
//  4. http.CrossOriginProtection refuses, with 403, a request that may
//     change something from another origin than the page's own.
//  5. The ServeMux picks the route by method and path: 404 for a path the
//     page does not have, 405 with an Allow header for a method a path
//     does not take.
//
// A route of the API then passes, as its access says:
//
//  6. auth refuses, with 401, a request without a device token in its
//     Authorization header (never a cookie), and gives the handler the
//     device's ID.
//  7. trust marks the request's connection as one that showed a
//     credential: the connection limits (conns.go) never close it for
//     another while it serves a request.
//  8. answerToken, on a route that settles a question, refuses with 403 a
//     request without that question's answer token for that device.
//
// The bounds on connections, in all and per client, and their timeouts
// are the listener's and the http.Server's, in Serve: they hold before a
// request is read.
func (s *Web) newHandler() (http.Handler, error) {
	cop, err := s.crossOrigin()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		var h http.Handler = rt.handler
		switch rt.access {
		case device:
			h = chain(h, s.auth, trust)
		case question:
			h = chain(h, s.auth, trust, s.answerToken)
		}
		mux.Handle(rt.pattern, h)
	}
	return chain(mux, withHeaders, s.checkHost, s.checkOrigin, cop.Handler), nil
}

// access is what a route asks of a request, past the guards every
// request passes.
type access int

const (
	// open routes are for any browser.
	open access = iota
	// device routes take a device token.
	device
	// question routes take a device token and the answer token, for that
	// device, of the question their query's id names.
	question
)

// route is one route of the page: a ServeMux pattern, with its method.
type route struct {
	pattern string
	access  access
	handler http.HandlerFunc
}

// routes are the page's routes. Any browser may have the page and its
// scripts, which hold no secret, and pair; the rest is for devices.
func (s *Web) routes() []route {
	return []route{
		{"GET /{$}", open, servePage("assets/index.html")},
		{"GET /app.js", open, servePage("assets/app.js")},
		{"GET /app.css", open, servePage("assets/app.css")},
		{"GET /pair", open, servePage("assets/pair.html")},
		{"GET /pair.js", open, servePage("assets/pair.js")},
		{"GET /favicon.ico", open, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }},
		{"POST /api/pair", open, s.pair},
		{"GET /api/device", device, serveDevice},
		{"GET /api/events", device, s.serveEvents},
		{"GET /api/question", device, s.serveQuestion},
		{"POST /api/answer", question, s.serveAnswer},
		{"POST /api/dismiss", question, s.serveDismiss},
		{"POST /api/stop", question, s.serveStop},
	}
}

// servePage serves the embedded file.
func servePage(file string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.ServeFileFS(w, r, assets, file) }
}

// withHeaders sets the headers every answer of the page carries.
func withHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// checkHost refuses a request that names a host other than loopback
// without HTTPS, or, behind a reverse proxy, other than the page's own.
func (s *Web) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		switch {
		case loopbackHost(host) || r.TLS != nil:
			// Behind its own TLS, a page reached by another name is safe:
			// its device token is kept for the origin it was paired at.
		case !s.secure:
			refuse(w, http.StatusMisdirectedRequest, "the host %q is not this machine's loopback address: the page answers on 127.0.0.1 only", r.Host)
			return
		case s.baseOrigin != "" && !strings.HasSuffix(s.baseOrigin, "://"+r.Host):
			refuse(w, http.StatusMisdirectedRequest, "the host %q is neither this machine's loopback address nor the page's own (%s)", r.Host, s.baseOrigin)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// changes says whether r may change something: whether it is neither a
// GET nor a HEAD.
func changes(r *http.Request) bool { return r.Method != http.MethodGet && r.Method != http.MethodHead }

// checkOrigin refuses a request that changes something and names no
// origin, or an origin of another scheme than the request came by
// unless it is the page's own address (WebOptions.Base, which a reverse
// proxy serves over HTTPS to the page's plain HTTP): what
// http.CrossOriginProtection lets through. It takes a request that names
// no origin as not a browser's; but the page is for browsers, each of
// which names the origin of such a request. And a browser that sends no
// Sec-Fetch-Site (those before 2023) leaves it only the Origin header's
// host to compare with the Host header: it takes http://host:port and
// https://host:port as one origin, which they are not.
func (s *Web) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if changes(r) {
			scheme := "http://"
			if r.TLS != nil {
				scheme = "https://"
			}
			switch o := r.Header.Get("Origin"); {
			case o == "":
				refuse(w, http.StatusForbidden, "the request names no origin: only the page itself may change anything")
				return
			case o != s.baseOrigin && !strings.HasPrefix(o, scheme):
				refuse(w, http.StatusForbidden, "the request comes from the origin %q, not from the page (%s)", o, scheme+r.Host)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin is the protection against requests from other origins that
// change something: a browser's Sec-Fetch-Site must say same-origin (or
// none, for what the person did themselves), or, from a browser that
// sends none, the Origin header must name the Host. The page's own
// address, WebOptions.Base, is trusted.
func (s *Web) crossOrigin() (*http.CrossOriginProtection, error) {
	cop := http.NewCrossOriginProtection()
	if s.baseOrigin != "" {
		if err := cop.AddTrustedOrigin(s.baseOrigin); err != nil {
			return nil, fmt.Errorf("the web page's address %q: %w", s.base, err)
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse(w, http.StatusForbidden, "the request comes from the origin %q, not from the page (%s)", r.Header.Get("Origin"), r.Host)
	}))
	return cop, nil
}

// deviceKey keys, in a request's context, the ID of the device it comes
// from, which auth puts there.
type deviceKey struct{}

// deviceOf returns the ID of the device r comes from, as auth found it.
func deviceOf(r *http.Request) string {
	dev, _ := r.Context().Value(deviceKey{}).(string)
	return dev
}

// auth lets in a request that carries a device token, the device's ID in
// its context, and refuses any other.
func (s *Web) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dev, why := s.device(r)
		if why != "" {
			refuse(w, http.StatusUnauthorized, "%s", why)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), deviceKey{}, dev)))
	})
}

// answerToken lets in a request that carries the answer token of the
// question its query's id names, for its device, and refuses any other.
func (s *Web) answerToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.same(r.Header.Get(answerHeader), s.mac("answer", deviceOf(r), r.URL.Query().Get("id"))) {
			refuse(w, http.StatusForbidden, "the request has no answer token of this question, for this device: open the question again")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authScheme starts the Authorization header of a request of the page.
const authScheme = "Bearer "

// device returns the ID of the device whose token the request's
// Authorization header holds, or why it is refused.
func (s *Web) device(r *http.Request) (id, why string) {
	t, ok := strings.CutPrefix(r.Header.Get("Authorization"), authScheme)
	if !ok || t == "" {
		return "", "this browser has no device token: open the address askuser hub status prints on its machine, or pair this device with the link askuser hub pair prints"
	}
	if s.same(t, s.token) {
		switch {
		case s.proxied():
			return "", "the page is reached through a reverse proxy, from which every request comes from this machine, so the access token is not taken: pair this browser too, with the link askuser hub pair prints"
		case !fromThisMachine(r):
			return "", "the access token is this machine's own, and this request comes from another: pair the device with askuser hub pair"
		}
		return localDevice, ""
	}
	d, err := s.devices.device(t, time.Now())
	if err != nil {
		return "", err.Error()
	}
	return d.ID, ""
}

// fromThisMachine says whether r comes from this machine: from a
// loopback address, or from the address it came to.
func fromThisMachine(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lhost, _, err := net.SplitHostPort(local.String())
	return err == nil && net.ParseIP(lhost).Equal(ip)
}

func (s *Web) same(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// refuse answers with status and a plain message.
func refuse(w http.ResponseWriter, status int, format string, args ...any) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, format+"\n", args...)
}
