package ask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/approval"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/strictjson"
)

// Approval is the contract of an agent's permission prompt (package
// approval): its renderers report the person's approval.Decision, and a
// call returns an approval.Outcome. A host has no renderer of its own
// for it: BindApproval shows it through the host's AskUserQuestion
// renderers.
//
// A request that approval.Validate refuses is invalid_request. A
// dismissal, a timeout and an abort are outcomes without a decision,
// which the agent takes as a denial or its own prompt; so is any error.
var Approval Contract[*approval.Request, approval.Decision, approval.Outcome] = approvalContract{}

// ApprovalView shows an approval as an AskUserQuestion questionnaire
// (approval.Show) and reads the person's decision from its answer
// (approval.Read).
var ApprovalView View[*approval.Request, approval.Decision, *auq.Request, auq.Result] = approvalView{}

// approvalKind is what the hub's surfaces show of an approval: previews
// of what the agent wants to do, exactly as they are, and an allow that
// only a person may give.
var approvalKind = Kind{
	ShownAs:       ToolAskUserQuestion,
	Waits:         "an approval",
	Icon:          "lock",
	PlainPreviews: true,
	Hint: fmt.Sprintf("%s=%s, or %s=%s %s.note=WHY", approval.QuestionID, approval.AllowID,
		approval.QuestionID, approval.DenyID, approval.QuestionID),
	OnlyAPerson: allowsApproval,
}

// allowsApproval reports whether data, the result JSON of an answer to an
// approval, allows it. What does not decode allows nothing; the hub
// refuses it besides.
func allowsApproval(data []byte) bool {
	var res auq.Result
	if json.Unmarshal(data, &res) != nil {
		return false
	}
	return approval.Allows(res)
}

// BindApproval binds the approval contract on every route where caps
// has an AskUserQuestion renderer, through ApprovalView.
func BindApproval(caps Capabilities) Capabilities {
	return BindView(caps, Approval, AskUserQuestion, ApprovalView)
}

type approvalContract struct{}

func (approvalContract) Tool() string { return approval.ToolName }

func (c approvalContract) Parse(data []byte) (*approval.Request, []string, error) {
	if err := strictjson.Check(data, nil); err != nil {
		return nil, nil, err
	}
	var r approval.Request
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return nil, nil, fmt.Errorf("the approval does not decode: %w", err)
	}
	if d.More() {
		return nil, nil, errors.New("the approval has data after its object")
	}
	return c.Check(&r)
}

func (approvalContract) Check(req *approval.Request) (*approval.Request, []string, error) {
	return req, nil, approval.Validate(req)
}

func (approvalContract) Brief(*approval.Request) Brief {
	return Brief{Header: approval.Header, Questions: 1}
}

func (approvalContract) Verify(req *approval.Request, d approval.Decision) (approval.Decision, contract.ErrorCode, error) {
	return d, contract.ErrInternal, approval.CheckDecision(req, d)
}

func (approvalContract) DecodeAnswer(result []byte) (approval.Decision, error) {
	var o approval.Outcome
	if err := json.Unmarshal(result, &o); err != nil {
		return approval.Decision{}, err
	}
	if o.Status != approval.StatusDecided || o.Decision == nil {
		return approval.Decision{}, fmt.Errorf("an approval's answer is decided, with a decision; this one is %q", o.Status)
	}
	return *o.Decision, nil
}

func (approvalContract) Result(_ *approval.Request, end End[approval.Decision]) approval.Outcome {
	switch end.How {
	case EndAnswered:
		d := end.Answer
		return approval.Outcome{Status: approval.StatusDecided, Decision: &d}
	case EndDismissed:
		return approval.Outcome{Status: approval.StatusDismissed}
	case EndTimeout:
		return approval.Outcome{Status: approval.StatusTimeout}
	case EndAborted:
		return approval.Outcome{Status: approval.StatusAborted}
	}
	return approval.Outcome{Status: approval.StatusError, Error: &approval.Error{Code: string(end.Code), Message: end.Message}}
}

type approvalView struct{}

func (approvalView) Kind() string { return KindApproval }

func (approvalView) Show(req *approval.Request) (*auq.Request, error) { return approval.Show(req) }

func (approvalView) Summary(req *approval.Request) Summary {
	return Summary{Agent: req.Agent, Wants: req.What()}
}

func (approvalView) Read(req *approval.Request, shown *auq.Request, res auq.Result) (approval.Decision, error) {
	return approval.Read(req, shown, res)
}
