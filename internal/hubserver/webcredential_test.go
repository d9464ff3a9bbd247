package hubserver_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// recorder is another service of this machine, on 127.0.0.1 and a port
// of its own, such as a dev server, that keeps the headers of every
// request it gets.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

// newRecorder starts a recorder, over HTTPS with cert when it is not nil.
func newRecorder(t testing.TB, cert *tls.Certificate) *recorder {
	t.Helper()
	r := &recorder{}
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var b strings.Builder
		req.Header.Write(&b)
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+req.URL.String()+"\n"+b.String())
		r.mu.Unlock()
		fmt.Fprint(w, "<!doctype html><title>another service</title><p id=other>another service")
	}))
	if cert != nil {
		r.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
		r.StartTLS()
	} else {
		r.Start()
	}
	t.Cleanup(r.Close)
	return r
}

// visit has the browser open the recorder, and load a script and an
// image from it as a page of another service would, then checks that no
// request carried a credential of the page: no cookie, no Authorization
// header, no secret.
func (r *recorder) visit(b *browser, secrets ...string) {
	b.t.Helper()
	b.do(chromedp.Navigate(r.URL + "/"))
	b.wait(`document.getElementById('other') !== null`)
	var n int
	b.eval(`fetch('/fetched', {credentials: 'include'}).then((r) => r.text()).then(() => 2)`, &n)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) < 2 {
		b.t.Fatalf("the other service got %d requests, want 2", len(r.seen))
	}
	for _, req := range r.seen {
		low := strings.ToLower(req)
		bad := strings.Contains(low, "\ncookie:") || strings.Contains(low, "\nauthorization:") || strings.Contains(low, "askuser")
		for _, s := range secrets {
			bad = bad || s == "" || strings.Contains(req, s)
		}
		if bad {
			b.t.Errorf("another service on %s received a credential of the page:\n%s", r.URL, req)
		}
	}
}

// noCookies checks that the browser keeps no cookie for origin.
func (b *browser) noCookies(origin string) {
	b.t.Helper()
	b.do(func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{origin}})
		if err == nil && len(res.Cookies) > 0 {
			b.t.Errorf("the browser keeps cookies for %s: %+v", origin, res.Cookies[0])
		}
		return chromedp.Void{}, err
	})
}

// TestCredentialStaysHome opens the page at the address askuser hub
// status prints and answers with it, then has the browser visit another
// service on another port of 127.0.0.1: that service receives no
// credential of the page (cookies ignore ports), and the access token is
// neither in the address nor in the tab's history.
func TestCredentialStaysHome(t *testing.T) {
	f := newFixture(t)
	b := newBrowser(t, false)
	results, q1 := f.askUser(t, deployReq)
	b.open(f, "#q="+q1.ID)
	b.choose(0, "prod")
	b.press("Send answer")
	if r := receive(t, results); r.Status != "answered" {
		t.Fatalf("the asker got %+v", r)
	}
	var href string
	b.eval(`location.href`, &href)
	b.do(func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		res, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
		for _, e := range res.Entries {
			href += " " + e.URL
		}
		return chromedp.Void{}, err
	})
	if strings.Contains(href, f.token) {
		t.Errorf("the access token is in the address or the history: %s", href)
	}
	b.noCookies(f.base)
	newRecorder(t, nil).visit(b, f.token)
	b.clean()
}
