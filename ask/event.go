package ask

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/contract"
)

// The event names. They are the channel names of Pi's event bus, which
// the Pi package's specification fixes; the other hosts use the same.
const (
	// EventWaiting brackets a call's wait for the user: Active true as
	// the wait opens, Active false once it has ended. Its channel,
	// herdr:blocked, is the one on which tools that watch agents learn
	// that an agent is blocked on its user.
	EventWaiting = "herdr:blocked"
	// EventAnswered, EventAborted, EventTimeout and EventError are the
	// outcome events, one per wait.
	EventAnswered = "ask:answered"
	EventAborted  = "ask:aborted"
	EventTimeout  = "ask:timeout"
	EventError    = "ask:error"
)

// BlockedLabel is the label of the EventWaiting event that opens a wait.
const BlockedLabel = "Waiting for user response"

// Event is one runtime event of a call. It never carries content: no
// question, no answer, no free text.
//
// A call that enters the interactive wait emits, in this order and from
// the goroutine running Ask, before Ask returns:
//
//  1. herdr:blocked with Active true;
//  2. exactly one outcome event: ask:answered, ask:aborted, ask:timeout or
//     ask:error;
//  3. herdr:blocked with Active false.
//
// The outcome comes inside the blocked pair so that a listener which sees
// Active false knows the call has said everything. A call refused before
// the wait (an invalid request, a host that cannot prompt, a renderer's
// refusal, a context already done) emits nothing.
type Event struct {
	// Name is one of the Event* constants.
	Name string
	// CallID correlates the event with its call; "" when the call had none.
	CallID string
	// Active is set on herdr:blocked only.
	Active bool
	// Route is the route that ran; outcome events only.
	Route contract.Route
	// Status is the outcome; outcome events only.
	Status contract.Status
	// CancelledReason is set on ask:aborted only.
	CancelledReason contract.CancelReason
	// ErrorCode is set on ask:error only.
	ErrorCode contract.ErrorCode
}

// MarshalJSON encodes the event's payload, without its name, as Pi's bus
// carries it, for example {"active":true,"label":"Waiting for user
// response","callId":"c1"} or {"callId":"c1","route":"custom","status":"answered"}.
// The callId key is omitted when CallID is "".
func (e Event) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	field := func(key string, val any) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteByte('"')
		b.WriteString(key)
		b.WriteString(`":`)
		enc, _ := json.Marshal(val) // strings and bools always encode
		b.Write(enc)
	}
	callID := func() {
		if e.CallID != "" {
			field("callId", e.CallID)
		}
	}
	switch e.Name {
	case EventWaiting:
		field("active", e.Active)
		if e.Active {
			field("label", BlockedLabel)
		}
		callID()
	case EventAnswered, EventTimeout:
		callID()
		field("route", e.Route)
		field("status", e.Status)
	case EventAborted:
		callID()
		field("route", e.Route)
		field("status", e.Status)
		field("cancelledReason", e.CancelledReason)
	case EventError:
		callID()
		if e.Route != "" {
			field("route", e.Route)
		}
		field("status", e.Status)
		field("errorCode", e.ErrorCode)
	default:
		return nil, fmt.Errorf("ask: unknown event %q", e.Name)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// EventSink receives the runtime events of calls. An Asker used from
// several goroutines calls it from each of them, so it must be safe for
// concurrent use then. Event should return quickly: the call waits for it.
// A panic in Event is recovered and ignored.
type EventSink interface {
	Event(e Event)
}

// EventSinkFunc adapts a function to an EventSink.
type EventSinkFunc func(e Event)

// Event calls f(e).
func (f EventSinkFunc) Event(e Event) { f(e) }

// outcomeEvent is the outcome event of a settled call.
func outcomeEvent(callID string, res contract.Result) Event {
	e := Event{CallID: callID, Route: res.Route, Status: res.Status}
	switch res.Status {
	case contract.StatusAnswered:
		e.Name = EventAnswered
	case contract.StatusAborted:
		e.Name = EventAborted
		e.CancelledReason = res.CancelledReason
	case contract.StatusTimeout:
		e.Name = EventTimeout
	default:
		e.Name = EventError
		e.Status = contract.StatusError
		e.ErrorCode = contract.ErrInternal
		if res.Error != nil {
			e.ErrorCode = res.Error.Code
		}
	}
	return e
}
