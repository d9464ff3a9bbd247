package hubserver_test

import (
	"context"
	"crypto/tls"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/hubserver"
)

// TestRoutes asks each path of the page by each method: a route answers,
// a known path asked by a method it does not take answers 405 naming
// those it takes, and any other path 404; every answer, refusals
// included, carries the page's security headers.
func TestRoutes(t *testing.T) {
	f := newFixture(t)
	origin := map[string]string{"Origin": f.base}
	tests := []struct {
		name, method, path string
		hdr                map[string]string
		status             int
		allow, msg         string
	}{
		{"the page", "GET", "/", nil, 200, "", "<html"},
		{"its script", "GET", "/app.js", nil, 200, "", ""},
		{"its style's head", "HEAD", "/app.css", nil, 200, "", ""},
		{"the pairing page", "GET", "/pair", nil, 200, "", "<html"},
		{"its script", "GET", "/pair.js", nil, 200, "", ""},
		{"the icon", "GET", "/favicon.ico", nil, 204, "", ""},
		{"the device", "GET", "/api/device", nil, 200, "", "this device is local"},
		{"answer by GET", "GET", "/api/answer?id=zzzzzzzzzzzz", nil, 405, "POST", "Method Not Allowed"},
		{"dismiss by GET", "GET", "/api/dismiss", nil, 405, "POST", ""},
		{"stop by PUT", "PUT", "/api/stop", origin, 405, "POST", ""},
		{"pair by GET", "GET", "/api/pair", nil, 405, "POST", ""},
		{"events by POST", "POST", "/api/events", nil, 405, "GET, HEAD", ""},
		{"question by POST", "POST", "/api/question", nil, 405, "GET, HEAD", ""},
		{"the device by DELETE", "DELETE", "/api/device", origin, 405, "GET, HEAD", ""},
		{"the page by POST", "POST", "/", nil, 405, "GET, HEAD", ""},
		{"a script by POST", "POST", "/app.js", nil, 405, "GET, HEAD", ""},
		{"options", "OPTIONS", "/api/answer", origin, 405, "POST", ""},
		{"no such page", "GET", "/nothing", nil, 404, "", "404 page not found"},
		{"no such call", "POST", "/api/nothing", nil, 404, "", "404 page not found"},
		{"the API's root", "GET", "/api/", nil, 404, "", "404 page not found"},
		{"a file of the page's folder", "GET", "/index.html", nil, 404, "", "404 page not found"},
		{"the pairing page as a folder", "GET", "/pair/", nil, 404, "", "404 page not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.send(t, tt.method, tt.path, "", tt.hdr)
			if resp.StatusCode != tt.status || !strings.Contains(body, tt.msg) {
				t.Errorf("%s %s = %d %q, want %d and %q", tt.method, tt.path, resp.StatusCode, body, tt.status, tt.msg)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("%s %s: Allow = %q, want %q", tt.method, tt.path, got, tt.allow)
			}
			if resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("X-Frame-Options") != "DENY" {
				t.Errorf("%s %s lacks the page's headers: %v", tt.method, tt.path, resp.Header)
			}
		})
	}
}

// TestCrossOrigin sends requests that change something, as browsers
// send them: with Sec-Fetch-Site, and without it as browsers before 2023
// do, over HTTP and HTTPS. Only the page's own origin, and its address
// for devices, get through.
func TestCrossOrigin(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const public = "https://laptop.example.ts.net"
	plain, err := hubserver.NewWeb(ctx, f.client, nil)
	if err != nil {
		t.Fatal(err)
	}
	secure, err := hubserver.NewWeb(ctx, f.client, &hubserver.WebOptions{Secure: true, TLS: true, Base: public})
	if err != nil {
		t.Fatal(err)
	}
	// A pairing request with a code the hub never made: the plain page
	// refuses pairing, the secure one the code, each past the origin
	// checks; those refuse with the origin, or its lack, named.
	const (
		plainPassed  = "pairs devices over HTTPS only"
		securePassed = "not one the hub made"
		refused      = "not from the page"
		unnamed      = "names no origin"
	)
	tests := []struct {
		name         string
		tls          bool
		host, origin string
		site         string // Sec-Fetch-Site; "" sends none
		status       int
		msg          string
	}{
		{"same origin", false, "127.0.0.1:7373", "http://127.0.0.1:7373", "same-origin", 403, plainPassed},
		{"same origin, old browser", false, "127.0.0.1:7373", "http://127.0.0.1:7373", "", 403, plainPassed},
		{"localhost", false, "localhost:7373", "http://localhost:7373", "same-origin", 403, plainPassed},
		{"another site", false, "127.0.0.1:7373", "http://evil.example", "cross-site", 403, refused},
		{"another site naming the page's origin", false, "127.0.0.1:7373", "http://127.0.0.1:7373", "cross-site", 403, refused},
		{"another port", false, "127.0.0.1:7373", "http://127.0.0.1:1", "same-site", 403, refused},
		{"another site, old browser", false, "127.0.0.1:7373", "http://evil.example", "", 403, refused},
		{"another port, old browser", false, "127.0.0.1:7373", "http://127.0.0.1:1", "", 403, refused},
		{"HTTPS to HTTP, old browser", false, "127.0.0.1:7373", "https://127.0.0.1:7373", "", 403, refused},
		{"an opaque origin", false, "127.0.0.1:7373", "null", "cross-site", 403, refused},
		{"no origin", false, "127.0.0.1:7373", "", "", 403, unnamed},
		{"no origin, same origin said", false, "127.0.0.1:7373", "", "same-origin", 403, unnamed},
		{"over HTTPS", true, "127.0.0.1:7373", "https://127.0.0.1:7373", "same-origin", 401, securePassed},
		{"over HTTPS, old browser", true, "127.0.0.1:7373", "https://127.0.0.1:7373", "", 401, securePassed},
		{"typed in", true, "127.0.0.1:7373", "https://127.0.0.1:7373", "none", 401, securePassed},
		{"the page's address", true, "laptop.example.ts.net", public, "same-origin", 401, securePassed},
		{"the page's address, to loopback", true, "127.0.0.1:7373", public, "cross-site", 401, securePassed},
		{"the page's address, old browser", true, "127.0.0.1:7373", public, "", 401, securePassed},
		{"another site over HTTPS", true, "127.0.0.1:7373", "https://evil.example", "cross-site", 403, refused},
		{"HTTP to HTTPS, old browser", true, "127.0.0.1:7373", "http://127.0.0.1:7373", "", 403, refused},
		{"HTTP to HTTPS", true, "127.0.0.1:7373", "http://127.0.0.1:7373", "cross-site", 403, refused},
		{"no origin over HTTPS", true, "127.0.0.1:7373", "", "", 403, unnamed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := plain
			req := httptest.NewRequest("POST", "/api/pair", strings.NewReader(`{"code":"00"}`))
			if tt.tls {
				srv, req.TLS = secure, &tls.ConnectionState{}
			}
			req.Host, req.RemoteAddr = tt.host, "127.0.0.1:50000"
			for k, v := range map[string]string{"Origin": tt.origin, "Sec-Fetch-Site": tt.site} {
				if v != "" {
					req.Header.Set(k, v)
				}
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), tt.msg) {
				t.Errorf("from %q (Sec-Fetch-Site %q) to %s = %d %q, want %d and %q", tt.origin, tt.site, tt.host, rec.Code, rec.Body, tt.status, tt.msg)
			}
		})
	}
}
