package hubserver_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/chromedp/chromedp"
	qrcode "github.com/piglig/go-qr"
)

// pairText is the pairing page's line that says how pairing went.
const pairText = `document.getElementById('pair')?.textContent`

var (
	pairLink  = regexp.MustCompile(`https://\S+/pair#code=[0-9a-f]{64}`)
	deviceRow = regexp.MustCompile(`(?m)^([0-9a-f]{8})  paired `)
)

// hubCommand runs askuser hub with args against the fixture's hub, as
// another process would, and returns its output.
func (f *fixture) hubCommand(t testing.TB, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": f.state}[k] }
	if code := hubserver.Main(context.Background(), args, &out, &errs, getenv); code != 0 {
		t.Fatalf("askuser hub %s = %d, %s", strings.Join(args, " "), code, errs.String())
	}
	return out.String()
}

// pair makes a pairing link with askuser hub pair and checks what it
// prints: the link, its QR code, and the certificate's fingerprint.
func (f *fixture) pair(t testing.TB, cert tls.Certificate, args ...string) string {
	t.Helper()
	out := f.hubCommand(t, append([]string{"pair"}, args...)...)
	link := pairLink.FindString(out)
	if link == "" || !strings.HasPrefix(link, f.base+"/") {
		t.Fatalf("askuser hub pair printed no link to %s:\n%s", f.base, out)
	}
	if !strings.Contains(out, hubserver.Fingerprint(cert)) {
		t.Errorf("askuser hub pair does not show the fingerprint %s:\n%s", hubserver.Fingerprint(cert), out)
	}
	if got := readQR(t, out); got != link {
		t.Errorf("the QR code holds %q, not the link %q", got, link)
	}
	return link
}

// readQR decodes the QR code drawn in half blocks in out, a file's: the
// blocks are its dark modules.
func readQR(t testing.TB, out string) string {
	t.Helper()
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 20 && strings.Trim(l, " █▀▄") == "" {
			rows = append(rows, l)
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no QR code in:\n%s", out)
	}
	const scale = 4
	w := len([]rune(rows[0]))
	img := image.NewGray(image.Rect(0, 0, w*scale, len(rows)*2*scale))
	for y, row := range rows {
		for x, r := range []rune(row) {
			top, bottom := r == '█' || r == '▀', r == '█' || r == '▄'
			for dy := range scale {
				for dx := range scale {
					img.SetGray(x*scale+dx, 2*y*scale+dy, color.Gray{Y: map[bool]uint8{false: 255}[top]})
					img.SetGray(x*scale+dx, (2*y+1)*scale+dy, color.Gray{Y: map[bool]uint8{false: 255}[bottom]})
				}
			}
		}
	}
	s, err := qrcode.Decode(img)
	if err != nil {
		t.Fatalf("the QR code cannot be read: %v", err)
	}
	return s
}

// TestPairedPage pairs a phone-sized Chromium with a hub over HTTPS,
// whose certificate it trusts by its key alone, answers with it and
// revokes it mid-session; an expired link, a reused one, another
// question's answer token, a cross-site request and a replayed answer
// are each refused with the reason.
func TestPairedPage(t *testing.T) {
	f := newFixtureWith(t, true)
	cert, err := tls.LoadX509KeyPair(filepath.Join(f.dir, hubserver.CertFile), filepath.Join(f.dir, hubserver.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	spki, err := hubserver.SPKIHash(cert)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, true, chromedp.Flag("ignore-certificate-errors-spki-list", spki))

	// An expired link.
	expired := f.pair(t, cert, "--expires", "1ms")
	time.Sleep(5 * time.Millisecond)
	b.do(chromedp.Navigate(expired))
	b.wait(pairText + `?.startsWith('Not paired: this pairing link expired at')`)
	if os.Getenv("ASKUSER_AXE") != "" {
		b.axeCheck(axeSource(t), "the pairing page")
	}

	// A link that pairs: the page opens, with the device's name.
	link := f.pair(t, cert, "--name", "test phone")
	b.do(chromedp.Navigate(link))
	b.wait(`location.pathname === '/' && document.getElementById('conn')?.textContent === 'Connected to the hub'`)
	devs := f.hubCommand(t, "devices")
	m := deviceRow.FindStringSubmatch(devs)
	if m == nil || !strings.Contains(devs, "test phone") || !strings.Contains(devs, "last seen") {
		t.Fatalf("askuser hub devices =\n%s", devs)
	}
	id := m[1]
	// The device's token: kept for the page's origin, never in a cookie,
	// of which the hub keeps the hash alone, and shows nowhere.
	var token string
	b.eval(`localStorage.getItem('askuser-device')`, &token)
	b.noCookies(f.base)
	stored, err := os.ReadFile(filepath.Join(f.dir, hubserver.DevicesFile))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(token))
	if len(token) != 64 || !strings.Contains(string(stored), hex.EncodeToString(sum[:])) {
		t.Fatalf("the device's token is %q, and the hub keeps\n%s", token, stored)
	}
	defer func() {
		for what, text := range map[string]string{"the hub's log": f.logs.String(), "the devices file": string(stored), "askuser hub devices": devs} {
			for _, secret := range []string{token, expired[len(expired)-64:], link[len(link)-64:]} {
				if strings.Contains(text, secret) {
					t.Errorf("%s holds a token or pairing code:\n%s", what, text)
				}
			}
		}
	}()

	// Answering, through the form.
	results, q1 := f.askUser(t, deployReq)
	_, q2 := f.askUser(t, deployReq)
	b.do(chromedp.Navigate(f.base + "/#q=" + q1.ID))
	b.wait(`document.querySelector('#form-host form')`)
	var key1 string
	b.eval(`fetch('/api/question?id=`+q1.ID+`', {headers: {Authorization: 'Bearer ' + localStorage.getItem('askuser-device')}}).then((r) => r.json()).then((d) => d.answerToken)`, &key1)
	b.choose(0, "prod")
	b.press("Send answer")
	if r := receive(t, results); r.Status != "answered" || r.Answers[0].Selections[0] != "prod" {
		t.Fatalf("the asker got %+v", r)
	}

	// Another service on another port of this host name, over HTTPS as
	// the page, receives no credential of it.
	newRecorder(t, &cert).visit(b, token)
	b.do(chromedp.Navigate(f.base + "/"))
	b.wait(`document.getElementById('conn')?.textContent === 'Connected to the hub'`)

	refusedFromPaired(t, f, b, q1, q2, key1)
	revokeMidSession(t, f, b, id, q2, link)
	// The page logged each refusal as a failed load, and nothing else.
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		if !strings.Contains(p, "Failed to load resource") {
			t.Errorf("the page: %s", p)
		}
	}
}

// refusedFromPaired sends, from the page of a paired device, a replayed
// answer to q1, with key1, its answer token, and an answer to q2 with
// the same token; then has another site post to the page: each is
// refused with the reason, and q2 keeps waiting.
func refusedFromPaired(t *testing.T, f *fixture, b *browser, q1, q2 *hub.Question, key1 string) {
	t.Helper()
	// post sends a request from the page, as its script would, with the
	// answer token key.
	post := func(what, id, key, body string) (got struct {
		Status int
		Text   string
	}) {
		b.eval(fmt.Sprintf(`fetch('/api/%s?id=%s', {method: 'POST', headers: {'Content-Type': 'application/json',
  Authorization: 'Bearer ' + localStorage.getItem('askuser-device'), 'X-Askuser-Answer': %s}, body: %s})
  .then(async (r) => ({status: r.status, text: await r.text()}))`, what, id, q(key), q(body)), &got)
		return got
	}
	// A replayed answer.
	if got := post("answer", q1.ID, key1, deployAnswer); got.Status != 409 || !strings.Contains(got.Text, "already answered by the device “test phone” paired with the hub") {
		t.Errorf("the replayed answer = %d %q, want 409 saying the phone answered it already", got.Status, got.Text)
	}
	// The asker learns the phone answered, by its paired name.
	if _, ans, err := f.client.Question(context.Background(), q1.ID); err != nil || ans == nil || ans.By != "the device “test phone” paired with the hub" {
		t.Errorf("the answer on the hub = %+v, %v; want it given by the phone, by name", ans, err)
	}
	// The answer token of another question.
	if got := post("answer", q2.ID, key1, deployAnswer); got.Status != 403 || !strings.Contains(got.Text, "no answer token of this question") {
		t.Errorf("an answer with another question's token = %d %q, want 403 saying so", got.Status, got.Text)
	}

	// A cross-site request: a form another site posts to the page.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><form id="f" method="POST" enctype="text/plain" action="%s/api/dismiss?id=%s">
<input name="x" value="y"></form><script>document.getElementById('f').submit()</script>`, f.base, q2.ID)
	}))
	defer evil.Close()
	b.do(chromedp.Navigate(evil.URL))
	b.wait(`location.origin === ` + q(f.base) + ` && document.body && document.body.innerText.includes('the request comes from the origin')`)
	if _, ans, err := f.client.Question(context.Background(), q2.ID); err != nil || ans != nil {
		t.Errorf("after the cross-site request, the question is answered %+v, %v; want it waiting", ans, err)
	}
}

// revokeMidSession revokes the device id while its page is open, then
// opens its used pairing link again: each is refused with the reason.
func revokeMidSession(t *testing.T, f *fixture, b *browser, id string, q2 *hub.Question, link string) {
	t.Helper()
	// Revoking, mid-session: the open stream ends and the page says why.
	b.do(chromedp.Navigate(f.base + "/"))
	b.wait(`document.getElementById('conn')?.textContent === 'Connected to the hub'`)
	if out := f.hubCommand(t, "revoke", id); !strings.Contains(out, id+" is revoked") {
		t.Errorf("askuser hub revoke = %q", out)
	}
	b.wait(`document.getElementById('conn')?.textContent?.startsWith('Not connected: this device (` + id + `) was revoked at')`)
	var st int
	b.eval(`fetch('/api/question?id=`+q2.ID+`', {headers: {Authorization: 'Bearer ' + localStorage.getItem('askuser-device')}}).then((r) => r.status)`, &st)
	if st != http.StatusUnauthorized {
		t.Errorf("a revoked device's request = %d, want 401", st)
	}
	if devs := f.hubCommand(t, "devices"); !strings.Contains(devs, id+"  paired") || !strings.Contains(devs, "revoked ") {
		t.Errorf("askuser hub devices after the revocation =\n%s", devs)
	}

	// A reused link.
	var cleared bool
	b.eval(`localStorage.clear(), true`, &cleared)
	b.do(chromedp.Navigate(link))
	b.wait(pairText + `?.startsWith('Not paired: this pairing link was used already, at')`)
}

// TestBehindProxy serves the page as a reverse proxy reaches it: plain
// HTTP on 127.0.0.1, under its public https name. Only that name and
// loopback are served; a link pairs once, its device's token in the
// answer's body, never a cookie; bogus attempts lock no code out.
func TestBehindProxy(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const public = "laptop.example.ts.net"
	srv, err := hubserver.NewWeb(ctx, f.client, &hubserver.WebOptions{Secure: true, Base: "https://" + public})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	p, err := srv.Pair(time.Minute, "proxied")
	if err != nil || !strings.HasPrefix(p.Link, "https://"+public+"/pair#code=") {
		t.Fatalf("Pair = %+v, %v", p, err)
	}
	code := p.Link[strings.Index(p.Link, "=")+1:]
	send := func(host, origin, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL+"/api/pair", strings.NewReader(body))
		req.Host = host
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp, b.String()
	}
	tests := []struct {
		name, host, origin, body string
		status                   int
		msg                      string
	}{
		{"another name", "evil.example", "http://evil.example", `{"code":"` + code + `"}`, 421, "neither this machine's loopback address nor the page's own"},
		{"another origin", public, "https://evil.example", `{"code":"` + code + `"}`, 403, `origin "https://evil.example"`},
		{"no code", public, "https://" + public, `{}`, 400, "holds no code"},
		{"unknown code", public, "https://" + public, `{"code":"00"}`, 401, "not one the hub made"},
		{"the link", public, "https://" + public, `{"code":"` + code + `"}`, 200, `"token":`},
		{"the link again", public, "https://" + public, `{"code":"` + code + `"}`, 410, "was used already"},
	}
	for _, tt := range tests {
		resp, body := send(tt.host, tt.origin, tt.body)
		if resp.StatusCode != tt.status || !strings.Contains(body, tt.msg) {
			t.Errorf("%s: %d %q, want %d and %q", tt.name, resp.StatusCode, body, tt.status, tt.msg)
		}
		if resp.StatusCode == 200 && (len(resp.Cookies()) != 0 || !regexp.MustCompile(`^\{"device":"[0-9a-f]{8}","token":"[0-9a-f]{64}"\}\n$`).MatchString(body)) {
			t.Errorf("pairing answered %q with cookies %v", body, resp.Cookies())
		}
	}
	// Every request comes from 127.0.0.1 through the proxy, so the access
	// token is refused; the address to open is the proxy's, and the
	// listener's own is plain http.
	req, _ := http.NewRequest("GET", ts.URL+"/api/device", nil)
	req.Host = public
	req.Header.Set("Authorization", "Bearer "+srv.Token())
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("the access token through the proxy = %v, %v; want 401", resp, err)
	}
	if got, want := srv.URL("127.0.0.1:7373"), "https://"+public+"/"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got, want := srv.Address("127.0.0.1:7373"), "http://127.0.0.1:7373/"; got != want {
		t.Errorf("Address = %q, want %q", got, want)
	}

	// Bogus attempts, all from 127.0.0.1 as behind a proxy, do not lock
	// the owner's valid code out.
	p, err = srv.Pair(time.Minute, "owner's")
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if resp, body := send(public, "https://"+public, `{"code":"`+strings.Repeat("0", 64)+`"}`); resp.StatusCode != 401 {
			t.Fatalf("a bogus pairing attempt = %d %q, want 401", resp.StatusCode, body)
		}
	}
	if resp, body := send(public, "https://"+public, `{"code":"`+p.Link[strings.Index(p.Link, "=")+1:]+`"}`); resp.StatusCode != 200 {
		t.Errorf("the owner's code after bogus attempts = %d %q, want it to pair", resp.StatusCode, body)
	}
	if ds := srv.Devices(); len(ds) != 2 || ds[0].Name != "proxied" || ds[1].Name != "owner's" || ds[0].Hash == "" {
		t.Errorf("Devices = %+v", ds)
	}
}

// TestLoadCert makes the hub's own certificate once, its key private,
// and takes the user's pair only whole and matching.
func TestLoadCert(t *testing.T) {
	dir := t.TempDir()
	a, err := hubserver.LoadCert(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := hubserver.LoadCert(dir, "", "")
	if err != nil || hubserver.Fingerprint(a) != hubserver.Fingerprint(b) || !regexp.MustCompile(`^([0-9A-F]{2}:){31}[0-9A-F]{2}$`).MatchString(hubserver.Fingerprint(a)) {
		t.Errorf("the certificate made again: %s then %s, %v", hubserver.Fingerprint(a), hubserver.Fingerprint(b), err)
	}
	if st, err := os.Stat(filepath.Join(dir, hubserver.KeyFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the key's mode = %v, %v; want 0600", st, err)
	}
	other := t.TempDir()
	if _, err := hubserver.LoadCert(other, "", ""); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cert, key, msg string
	}{
		{"certificate alone", filepath.Join(dir, hubserver.CertFile), "", "give both"},
		{"another's key", filepath.Join(dir, hubserver.CertFile), filepath.Join(other, hubserver.KeyFile), "private key does not match public key"},
		{"no such file", filepath.Join(dir, "none.pem"), filepath.Join(dir, hubserver.KeyFile), "no such file"},
	}
	for _, tt := range tests {
		if _, err := hubserver.LoadCert(t.TempDir(), tt.cert, tt.key); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.msg)
		}
	}
	if c, err := hubserver.LoadCert(t.TempDir(), filepath.Join(dir, hubserver.CertFile), filepath.Join(dir, hubserver.KeyFile)); err != nil || hubserver.Fingerprint(c) != hubserver.Fingerprint(a) {
		t.Errorf("the user's own pair: %v", err)
	}
}
