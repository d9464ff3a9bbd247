package hubserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/askuser/askuser/hub"
)

// serveDevice says which device the request comes from.
func serveDevice(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "this device is %s\n", deviceOf(r))
}

// pair exchanges a pairing code for a device token, in the body of the
// answer: the page's script keeps it for its origin and sends it in a
// header, so no other service of the host ever receives it.
func (s *Web) pair(w http.ResponseWriter, r *http.Request) {
	if !s.secure {
		refuse(w, http.StatusForbidden, "the page pairs devices over HTTPS only: start the hub with --tls, --cert and --key, or --url")
		return
	}
	var body struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&body); err != nil || body.Code == "" {
		refuse(w, http.StatusBadRequest, "the pairing request holds no code: open the whole link askuser hub pair printed")
		return
	}
	dev, token, err := s.devices.pair(body.Code, r.UserAgent(), time.Now())
	var pe *PairError
	if errors.As(err, &pe) {
		refuse(w, pe.Status, "%s", pe.Message)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(struct {
		Device string `json:"device"`
		Token  string `json:"token"`
	}{dev.ID, token})
}

// questionID is the ID of the question the query of r names.
func questionID(r *http.Request) string { return r.URL.Query().Get("id") }

// byOf names the device r comes from, for the asker and its model.
func (s *Web) byOf(r *http.Request) string {
	if dev := deviceOf(r); dev != localDevice {
		return s.devices.by(dev)
	}
	return s.by
}

// serveAnswer answers the question the query's id names with the
// request's body, the answer in its contract's JSON.
func (s *Web) serveAnswer(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		refuse(w, http.StatusUnsupportedMediaType, "an answer is sent as application/json, not %q", ct)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, hub.MaxAnswerBytes+1))
	if err != nil {
		refuse(w, http.StatusBadRequest, "read the answer: %v", err)
		return
	}
	ans, err := s.c.Answer(r.Context(), questionID(r), body, s.byOf(r))
	settled(w, err, ans.Where)
}

// serveDismiss dismisses the question the query's id names.
func (s *Web) serveDismiss(w http.ResponseWriter, r *http.Request) {
	ans, err := s.c.Dismiss(r.Context(), questionID(r), s.byOf(r))
	settled(w, err, ans.Where)
}

// serveStop stops the countdown of the question the query's id names.
func (s *Web) serveStop(w http.ResponseWriter, r *http.Request) {
	err := s.c.StopCountdown(r.Context(), questionID(r), s.byOf(r))
	settled(w, err, func() string { return "the countdown is stopped" })
}

// settled answers a request that answered, dismissed or stopped the
// countdown of a question: with what became of it, or why the hub did
// not take it.
func settled(w http.ResponseWriter, err error, what func() string) {
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
	case err != nil:
		refuse(w, http.StatusBadGateway, "the hub did not take it: %v", err)
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, what())
	}
}
