package hubserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	qrcode "github.com/piglig/go-qr"
)

// The subjects on which the running hub's page makes pairing links,
// lists the paired devices and revokes one, for askuser hub pair,
// devices and revoke. Only a client with the hub's token reaches them.
const (
	subjectPair    = "askuser.hub.web.pair"
	subjectDevices = hub.SubjectDevices
	subjectRevoke  = "askuser.hub.web.revoke"
)

// controlRequest is a request on one of the subjects.
type controlRequest struct {
	TTL  time.Duration `json:"ttl,omitempty"`
	Name string        `json:"name,omitempty"`
	ID   string        `json:"id,omitempty"`
}

// controlReply is the hub's reply: what was asked for, or why not.
type controlReply struct {
	Error   string   `json:"error,omitempty"`
	Pairing *Pairing `json:"pairing,omitempty"`
	Devices []Device `json:"devices,omitempty"`
	Device  *Device  `json:"device,omitempty"`
}

// serveControl answers the subjects for the page w until ctx is done.
func serveControl(ctx context.Context, s *server.Server, token string, w *Web) error {
	nc, err := nats.Connect("", nats.InProcessServer(s), nats.Token(token), nats.Name("askuser hub devices"))
	if err != nil {
		return fmt.Errorf("the web page: connect to the hub's own server: %w", err)
	}
	handle := func(subject string, f func(controlRequest) controlReply) error {
		_, err := nc.Subscribe(subject, func(m *nats.Msg) {
			var req controlRequest
			rep := controlReply{Error: "the request is not one the hub reads"}
			if json.Unmarshal(m.Data, &req) == nil {
				rep = f(req)
			}
			b, _ := json.Marshal(rep)
			m.Respond(b)
		})
		return err
	}
	errs := errors.Join(
		handle(subjectPair, func(r controlRequest) controlReply {
			p, err := w.Pair(r.TTL, r.Name)
			if err != nil {
				return controlReply{Error: err.Error()}
			}
			return controlReply{Pairing: &p}
		}),
		handle(subjectDevices, func(controlRequest) controlReply { return controlReply{Devices: w.Devices()} }),
		handle(subjectRevoke, func(r controlRequest) controlReply {
			d, err := w.Revoke(r.ID)
			if err != nil {
				return controlReply{Error: err.Error()}
			}
			return controlReply{Device: &d}
		}),
		// A watch follows a bucket's stream: one made again, or deleted,
		// needs a new watch.
		rewatch(nc, w),
		// The server has the subscriptions once the hub says it is
		// ready: a command right after it finds them.
		nc.Flush(),
	)
	if errs != nil {
		nc.Close()
		return fmt.Errorf("the web page: %w", errs)
	}
	go func() {
		<-ctx.Done()
		nc.Close()
	}()
	return nil
}

// rewatch has the page w watch the hub afresh whenever one of the hub's
// buckets is deleted or made again, as JetStream's advisories tell.
func rewatch(nc *nats.Conn, w *Web) error {
	var errs []error
	for _, what := range []string{"CREATED", "DELETED"} {
		for _, bucket := range []string{hubstore.QuestionsBucket, hubstore.AnswersBucket} {
			_, err := nc.Subscribe("$JS.EVENT.ADVISORY.STREAM."+what+".KV_"+bucket, func(*nats.Msg) { w.Rewatch() })
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// control sends req on subject to the running hub and returns its reply.
func control(ctx context.Context, getenv func(string) string, subject string, req controlRequest) (controlReply, error) {
	paths, err := hub.Locate(getenv)
	if err != nil {
		return controlReply{}, err
	}
	info, err := hub.ReadInfo(paths.Info)
	if errors.Is(err, hub.ErrNoHub) {
		return controlReply{}, errors.New("no hub runs for this user: start one with askuser hub --web ADDR --tls")
	}
	if err != nil {
		return controlReply{}, err
	}
	// Through the hub's certificate, as askers connect: a hub killed
	// leaves its info file, and its port may be anybody's now.
	c, err := hub.Dial(ctx, &hub.DialOptions{Info: &info, Name: "askuser hub devices"})
	var notHub *hub.NotHubError
	switch {
	case errors.As(err, &notHub):
		return controlReply{}, fmt.Errorf("refused the server at %s, which is not the hub: %v", info.URL, notHub)
	case errors.Is(err, nats.ErrSecureConnWanted):
		return controlReply{}, fmt.Errorf("refused the server at %s, which is not the hub: it offers no TLS, and the hub's info file names its certificate", info.URL)
	case err != nil:
		return controlReply{}, fmt.Errorf("the hub of process %d does not answer: %w", info.PID, err)
	}
	defer c.Close()
	b, _ := json.Marshal(req)
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	data, err := c.Request(rctx, subject, b)
	if errors.Is(err, nats.ErrNoResponders) {
		return controlReply{}, errors.New("the hub runs without its web page: start it with askuser hub --web ADDR --tls")
	}
	if err != nil {
		return controlReply{}, fmt.Errorf("the hub did not answer: %w", err)
	}
	var rep controlReply
	if err := json.Unmarshal(data, &rep); err != nil {
		return controlReply{}, fmt.Errorf("the hub's reply: %w", err)
	}
	if rep.Error != "" {
		return rep, errors.New(rep.Error)
	}
	return rep, nil
}

// printPairing prints a pairing link, its QR code and the certificate's
// fingerprint.
func printPairing(w io.Writer, p *Pairing, colour bool) {
	fmt.Fprintf(w, "Open this link on the device to pair it; it works once, until %s:\n\n%s\n\n",
		p.Expires.Local().Format(time.TimeOnly), p.Link)
	if qr, err := qrcode.EncodeText(p.Link, qrcode.Low); err == nil {
		writeQR(w, qr, colour)
		fmt.Fprintln(w)
	}
	if p.Fingerprint != "" {
		fmt.Fprintf(w, "The page's certificate is the hub's own. Its SHA-256 fingerprint, to compare with the one the browser shows:\n%s\n", p.Fingerprint)
	}
}

// qrBorder is the quiet zone around a QR code, in modules.
const qrBorder = 4

// writeQR draws qr with half blocks, two rows of modules a line. With
// colour, for a terminal, it is light on white and dark on black
// whatever the terminal's colours; without, for a file, it holds no
// escape and its blocks are the dark modules, as ink on a page.
func writeQR(w io.Writer, qr *qrcode.QrCode, colour bool) {
	n := qr.Size()
	// block reports whether the module at x, y is drawn as a block: a
	// light one with colour, a dark one without. The row below the
	// last, when the count of rows is odd, is the background.
	block := func(x, y int) bool {
		if y >= n+qrBorder {
			return colour
		}
		light := x < 0 || y < 0 || x >= n || y >= n || !qr.Module(x, y)
		return light == colour
	}
	var b strings.Builder
	for y := -qrBorder; y < n+qrBorder; y += 2 {
		if colour {
			b.WriteString("\x1b[97;40m")
		}
		for x := -qrBorder; x < n+qrBorder; x++ {
			top, bottom := block(x, y), block(x, y+1)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		if colour {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

// printDevices lists the paired devices.
func printDevices(w io.Writer, ds []Device) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "no device is paired; pair one with askuser hub pair")
		return
	}
	for _, d := range ds {
		name := d.Name
		if name == "" {
			name = d.UserAgent
		}
		state := "last seen " + d.LastSeen.Local().Format(time.DateTime)
		if d.Revoked != nil {
			state = "revoked " + d.Revoked.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "%s  paired %s, %s\n    %s\n", d.ID, d.Paired.Local().Format(time.DateTime), state, safetext.Line(name))
	}
}
