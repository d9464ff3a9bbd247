package ask

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/askuser/askuser/contract"
)

func TestEventJSON(t *testing.T) {
	tests := []struct {
		name string
		e    Event
		want string
	}{
		{"blocked", Event{Name: EventWaiting, CallID: "toolu_1", Active: true},
			`{"active":true,"label":"Waiting for user response","callId":"toolu_1"}`},
		{"blocked without id", Event{Name: EventWaiting, Active: true},
			`{"active":true,"label":"Waiting for user response"}`},
		{"unblocked", Event{Name: EventWaiting, CallID: "toolu_1"}, `{"active":false,"callId":"toolu_1"}`},
		{"unblocked without id", Event{Name: EventWaiting}, `{"active":false}`},
		{"answered", Event{Name: EventAnswered, CallID: "toolu_1", Route: custom, Status: contract.StatusAnswered},
			`{"callId":"toolu_1","route":"custom","status":"answered"}`},
		{"dismissed", Event{Name: EventAborted, Route: native, Status: contract.StatusAborted, CancelledReason: contract.CancelUser},
			`{"route":"native","status":"aborted","cancelledReason":"user"}`},
		{"aborted", Event{Name: EventAborted, CallID: "c", Route: custom, Status: contract.StatusAborted, CancelledReason: contract.CancelAbort},
			`{"callId":"c","route":"custom","status":"aborted","cancelledReason":"abort"}`},
		{"timeout", Event{Name: EventTimeout, CallID: "c", Route: native, Status: contract.StatusTimeout},
			`{"callId":"c","route":"native","status":"timeout"}`},
		{"error", Event{Name: EventError, CallID: "c", Route: custom, Status: contract.StatusError, ErrorCode: contract.ErrCustomUIFailed},
			`{"callId":"c","route":"custom","status":"error","errorCode":"custom_ui_failed"}`},
		{"error without route", Event{Name: EventError, Status: contract.StatusError, ErrorCode: contract.ErrInternal},
			`{"status":"error","errorCode":"internal"}`},
		{"id is escaped", Event{Name: EventWaiting, CallID: "a\"b"}, `{"active":false,"callId":"a\"b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("json.Marshal mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := json.Marshal(Event{Name: "ask:other"}); err == nil {
		t.Error("json.Marshal of an unknown event succeeded; want an error")
	}
}

func TestOutcomeEvent(t *testing.T) {
	tests := []struct {
		name string
		res  contract.Result
		want Event
	}{
		{"answered", contract.Result{Status: contract.StatusAnswered, Route: custom},
			Event{Name: EventAnswered, CallID: "c", Route: custom, Status: contract.StatusAnswered}},
		{"aborted", contract.Result{Status: contract.StatusAborted, Route: custom, CancelledReason: contract.CancelAbort},
			Event{Name: EventAborted, CallID: "c", Route: custom, Status: contract.StatusAborted, CancelledReason: contract.CancelAbort}},
		{"timeout", contract.Result{Status: contract.StatusTimeout, Route: native},
			Event{Name: EventTimeout, CallID: "c", Route: native, Status: contract.StatusTimeout}},
		{"error", withRoute(contract.ErrorResult(contract.ErrEmptyAnswer, "m"), native),
			Event{Name: EventError, CallID: "c", Route: native, Status: contract.StatusError, ErrorCode: contract.ErrEmptyAnswer}},
		{"error without details", contract.Result{Status: contract.StatusError},
			Event{Name: EventError, CallID: "c", Status: contract.StatusError, ErrorCode: contract.ErrInternal}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, outcomeEvent("c", tt.res)); diff != "" {
				t.Errorf("outcomeEvent mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
