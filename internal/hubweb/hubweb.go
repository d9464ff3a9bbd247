// Package hubweb is the hub's web page: the list of the questions that
// wait on the hub and each questionnaire as a form, served on a loopback
// address to a browser on the same machine.
//
// Every request must carry the access token, as a cookie set by the
// address askuser hub prints (/?token=…), and name a loopback host;
// every request that changes something must also come from the page's
// own origin and carry its CSRF token. The page is embedded, fetches
// nothing from elsewhere and runs under a strict Content-Security-Policy;
// it shows the model's text as text only.
package hubweb

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/hub"
)

// DefaultAddr is where the page listens when no address is given.
const DefaultAddr = "127.0.0.1:7373"

// TokenFile is the name of the file, in the hub's directory, that keeps
// the page's access token across restarts.
const TokenFile = "web-token"

// cookieName holds the access token in the browser.
const cookieName = "askuser_token"

// csrfHeader carries the CSRF token of a request that changes something.
const csrfHeader = "X-Askuser-Csrf"

// csp lets the page run its own script and style only.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed assets
var assets embed.FS

// pageHead and pageTail are the page before and after its CSRF token,
// the one part of it that is not the same for every hub. The token is
// hex, so it goes in as it is; no template package is linked for it
// (text/template keeps every method of the program alive, megabytes).
var pageHead, pageTail = splitPage()

func splitPage() (head, tail string) {
	b, err := assets.ReadFile("assets/index.html")
	if err != nil {
		panic(err)
	}
	head, tail, ok := strings.Cut(string(b), csrfMark)
	if !ok {
		panic("hubweb: assets/index.html has no " + csrfMark)
	}
	return head, tail
}

// csrfMark is where the page's CSRF token goes in assets/index.html.
const csrfMark = "{{csrf}}"

// Options configures New. A nil *Options means the defaults.
type Options struct {
	// Token is the access token; "" means a new random one.
	Token string
	// By names the page when it answers, dismisses or stops a countdown,
	// for the asker and its model; "" means "the web page of the hub on"
	// the host name.
	By string
}

// Server is the page's HTTP handler. It follows the hub through one
// watch while its context lives. It is safe for concurrent use.
type Server struct {
	c     *hub.Client
	token string
	csrf  string
	by    string

	mu      sync.Mutex
	waiting map[string]*entry
	closed  map[string]string // id → where, for questions that left
	subs    map[chan event]struct{}
	online  bool
}

// entry is one waiting question with its summary line, encoded once.
type entry struct {
	q       *hub.Question
	summary json.RawMessage
}

// event is one server-sent event.
type event struct {
	name string
	data []byte
}

// AddrError is the error CheckAddr returns for an address the page may
// not listen on.
type AddrError struct{ Addr, Reason string }

// Error says which address was refused and why.
func (e *AddrError) Error() string {
	return fmt.Sprintf("the web page may not listen on %s: %s", e.Addr, e.Reason)
}

// CheckAddr checks that addr is host:port with a loopback host: until
// the page has pairing and TLS, it serves this machine only.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return &AddrError{addr, "give host:port, such as " + DefaultAddr}
	}
	if !loopbackHost(host) {
		return &AddrError{addr, "only a loopback address (127.0.0.1, ::1, localhost) is served, since the page has neither pairing nor TLS yet"}
	}
	return nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	return ip != nil && ip.IsLoopback()
}

// LoadToken returns the token kept in path, creating it, 256 random bits
// in hex readable by its user only, when there is none.
func LoadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		t := strings.TrimSpace(string(b))
		if len(t) == 64 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", fmt.Errorf("make the web page's token file private: %w", err)
			}
			return t, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read the web page's token: %w", err)
	}
	t := newToken()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("make the web page's token's directory: %w", err)
	}
	if err := os.WriteFile(path, []byte(t+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write the web page's token: %w", err)
	}
	return t, nil
}

func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// New returns the page of the hub c. It watches the hub until ctx is
// done; the page then serves an empty list.
func New(ctx context.Context, c *hub.Client, opts *Options) (*Server, error) {
	if opts == nil {
		opts = &Options{}
	}
	s := &Server{c: c, token: opts.Token, by: opts.By,
		waiting: map[string]*entry{}, closed: map[string]string{}, subs: map[chan event]struct{}{}}
	if s.token == "" {
		s.token = newToken()
	}
	mac := hmac.New(sha256.New, []byte(s.token))
	mac.Write([]byte("askuser web csrf"))
	s.csrf = hex.EncodeToString(mac.Sum(nil))
	if s.by == "" {
		host, _ := os.Hostname()
		s.by = strings.TrimSpace("the web page of the hub on " + host)
	}
	events, err := c.Watch(ctx)
	if err != nil {
		return nil, fmt.Errorf("watch the hub's questions: %w", err)
	}
	go s.follow(events)
	return s, nil
}

// Token returns the access token.
func (s *Server) Token() string { return s.token }

// URL returns the address to open for the page listening on addr, the
// token in it.
func (s *Server) URL(addr string) string {
	return "http://" + addr + "/?token=" + s.token
}

// Serve serves the page on ln until ctx is done, then closes it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	// Server-sent event streams never end by themselves.
	srv.RegisterOnShutdown(s.closeSubs)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (s *Server) closeSubs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		close(ch)
		delete(s.subs, ch)
	}
}

// ServeHTTP serves one request of the page, after its checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if !loopbackHost(host) {
		refuse(w, http.StatusMisdirectedRequest, "the host %q is not this machine's loopback address: the page answers on 127.0.0.1 only", r.Host)
		return
	}
	if r.URL.Path == "/" && r.Method == http.MethodGet && r.URL.Query().Has("token") {
		if !s.same(r.URL.Query().Get("token"), s.token) {
			refuse(w, http.StatusUnauthorized, "the access token in the address is wrong: open the address askuser hub --web printed")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if ck, err := r.Cookie(cookieName); err != nil || !s.same(ck.Value, s.token) {
		refuse(w, http.StatusUnauthorized, "no access token: open the address askuser hub --web printed, with its token")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		switch o := r.Header.Get("Origin"); {
		case o == "":
			refuse(w, http.StatusForbidden, "the request names no origin: only the page itself may change anything")
			return
		case o != "http://"+r.Host:
			refuse(w, http.StatusForbidden, "the request comes from the origin %q, not from the page (http://%s)", o, r.Host)
			return
		}
		if !s.same(r.Header.Get(csrfHeader), s.csrf) {
			refuse(w, http.StatusForbidden, "the request has no valid CSRF token: reload the page")
			return
		}
	}
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		h.Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, pageHead+s.csrf+pageTail)
	case (r.URL.Path == "/app.js" || r.URL.Path == "/app.css") && r.Method == http.MethodGet:
		http.ServeFileFS(w, r, assets, "assets"+r.URL.Path)
	case r.URL.Path == "/favicon.ico" && r.Method == http.MethodGet:
		w.WriteHeader(http.StatusNoContent)
	case r.URL.Path == "/api/events" && r.Method == http.MethodGet:
		s.serveEvents(w, r)
	case r.URL.Path == "/api/question" && r.Method == http.MethodGet:
		s.serveQuestion(w, r)
	case r.URL.Path == "/api/answer" && r.Method == http.MethodPost:
		s.settle(w, r, "answer")
	case r.URL.Path == "/api/dismiss" && r.Method == http.MethodPost:
		s.settle(w, r, "dismiss")
	case r.URL.Path == "/api/stop" && r.Method == http.MethodPost:
		s.settle(w, r, "stop")
	default:
		refuse(w, http.StatusNotFound, "the page has no %s %s", r.Method, r.URL.Path)
	}
}

func (s *Server) same(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// refuse answers with status and a plain message.
func refuse(w http.ResponseWriter, status int, format string, args ...any) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, format+"\n", args...)
}

// settle answers, dismisses or stops the countdown of the question the
// query's id names.
func (s *Server) settle(w http.ResponseWriter, r *http.Request, what string) {
	id := r.URL.Query().Get("id")
	ctx := r.Context()
	var err error
	var ans hub.Answer
	switch what {
	case "answer":
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			refuse(w, http.StatusUnsupportedMediaType, "an answer is sent as application/json, not %q", ct)
			return
		}
		body, rerr := io.ReadAll(io.LimitReader(r.Body, hub.MaxAnswerBytes+1))
		if rerr != nil {
			refuse(w, http.StatusBadRequest, "read the answer: %v", rerr)
			return
		}
		ans, err = s.c.Answer(ctx, id, body, s.by)
	case "dismiss":
		ans, err = s.c.Dismiss(ctx, id, s.by)
	case "stop":
		err = s.c.StopCountdown(ctx, id, s.by)
	}
	var re *hub.RefusedError
	switch {
	case errors.As(err, &re):
		status := map[hub.Refusal]int{
			hub.RefusedInvalid:  http.StatusUnprocessableEntity,
			hub.RefusedLate:     http.StatusGone,
			hub.RefusedUnknown:  http.StatusNotFound,
			hub.RefusedAnswered: http.StatusConflict,
		}[re.Reason]
		if status == 0 {
			status = http.StatusConflict
		}
		refuse(w, status, "%s", re.Message)
		return
	case err != nil:
		refuse(w, http.StatusBadGateway, "the hub did not take it: %v", err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if what == "stop" {
		fmt.Fprintln(w, "the countdown is stopped")
		return
	}
	fmt.Fprintln(w, ans.Where())
}
