package ask

import (
	"encoding/json"
	"errors"
	"sync"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// AskUserQuestion is the contract of the AskUserQuestion tool: its
// renderers report the submitted auq.Result, whose Cancelled is false,
// and a call returns an auq.Outcome.
//
// A request that auq.Validate refuses is invalid_request. A dismissal, a
// timeout and an abort are Cancelled results, told apart by Status. A
// submitted result that auq.CheckResult refuses is an internal error. The
// result's metadata is the request's. The request has no timeout of its
// own: the user's timeout per question applies. A renderer's result
// that is cancelled is an internal error, never an answer. A submission is
// ask:answered, a dismissal ask:aborted with cancelledReason user, an
// abort ask:aborted with cancelledReason abort.
var AskUserQuestion Contract[*auq.Request, auq.Result, auq.Outcome] = auqContract{}

type auqContract struct{}

func (auqContract) Tool() string { return ToolAskUserQuestion }

func (auqContract) Parse(data []byte) (*auq.Request, []string, error) {
	req, err := auq.Parse(data)
	return req, nil, err
}

func (auqContract) Check(req *auq.Request) (*auq.Request, []string, error) {
	if req == nil {
		return nil, nil, errors.New("the request is missing")
	}
	return req, nil, auq.Validate(req)
}

func (auqContract) Brief(req *auq.Request) Brief { return Brief{Questions: len(req.Questions)} }

func (auqContract) Verify(req *auq.Request, res auq.Result) (auq.Result, contract.ErrorCode, error) {
	if res.Cancelled {
		// A renderer reports a dismissal as one: a cancelled result
		// holding answers is no submission, whatever it holds.
		return res, contract.ErrInternal, errors.New("the result is cancelled: a submitted result is not")
	}
	res.Metadata = req.ResultMetadata()
	return res, contract.ErrInternal, auq.CheckResult(req, res)
}

func (auqContract) DecodeAnswer(result []byte) (auq.Result, error) {
	var r auq.Result
	err := json.Unmarshal(result, &r)
	return r, err
}

func (auqContract) Result(req *auq.Request, end End[auq.Result]) auq.Outcome {
	route := ""
	if end.Opened {
		route = string(end.Route)
	}
	ended := func(status auq.Status) auq.Outcome {
		return auq.Outcome{Status: status, Route: route, Result: auq.Result{Cancelled: true, Metadata: req.ResultMetadata()}}
	}
	switch end.How {
	case EndAnswered:
		return auq.Outcome{Status: auq.StatusSubmitted, Route: route, Result: end.Answer}
	case EndDismissed:
		return ended(auq.StatusDismissed)
	case EndTimeout:
		return ended(auq.StatusTimeout)
	case EndAborted:
		return ended(auq.StatusAborted)
	}
	if end.Code == contract.ErrInvalidRequest && end.Err != nil {
		return auq.InvalidRequestOutcome(end.Err)
	}
	return auq.Outcome{Status: auq.StatusError, Route: route, Error: &auq.Error{Code: string(end.Code), Message: end.Message}}
}

// progress forwards milestones until the call settles. A panic in the
// caller's function is recovered and ignored.
type progress struct {
	mu      sync.Mutex
	to      func(auq.Milestone)
	stopped bool
}

func (p *progress) send(m auq.Milestone) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	defer func() { _ = recover() }()
	p.to(m)
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}
