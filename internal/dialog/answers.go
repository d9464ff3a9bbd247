package dialog

import (
	"github.com/askuser/askuser/contract"
)

// invalid names the first control that blocks submission.
type invalid struct {
	tab, ctrl int
	msg       string
}

// answers builds one answer per question, following the shared
// conventions, or reports the first required question or field that is
// missing.
func (m *Model) answers() ([]contract.Answer, *invalid) {
	out := make([]contract.Answer, 0, len(m.req.Questions))
	for ti, t := range m.tabs {
		if t.index < 0 {
			continue
		}
		a, bad := t.answer()
		if bad != nil {
			bad.tab = ti
			return nil, bad
		}
		out = append(out, a)
	}
	return out, nil
}

// firstCtrl returns the first control of field fi.
func (t *tab) firstCtrl(fi int) int {
	for ci, c := range t.ctrls {
		if c.field == fi {
			return ci
		}
	}
	return 0
}

func (t *tab) answer() (contract.Answer, *invalid) {
	q := t.q
	a := contract.Answer{Index: t.index, ID: q.ID, Title: q.Title, Kind: q.Kind, Selections: []string{}}
	if t.form {
		v := &contract.AnswerValue{IsForm: true, Form: []contract.FormEntry{}}
		for fi, f := range t.fields {
			val, ok := f.value()
			if !ok {
				if f.required {
					return a, &invalid{ctrl: t.firstCtrl(fi), msg: "“" + f.label + "” is required: " + f.need()}
				}
				continue
			}
			v.Form = append(v.Form, contract.FormEntry{Name: f.name, Value: val})
			if f.hasDefault && f.unchanged() {
				a.UsedDefault = true
			}
		}
		a.Value = v
		return a, nil
	}
	f := t.fields[0]
	switch f.kind {
	case contract.KindBool:
		if !f.boolSet {
			return a, &invalid{ctrl: 0, msg: "Required: " + f.need()}
		}
		a.Value = &contract.AnswerValue{Bool: f.boolVal}
	case contract.KindInput:
		a.FreeText = trimSpace(f.text.Value())
		if a.FreeText == "" {
			return a, &invalid{ctrl: 0, msg: "Required: " + f.need()}
		}
	default:
		a.Selections = f.chosen()
		if f.free {
			a.FreeText = trimSpace(f.text.Value())
		}
		if len(a.Selections) == 0 && a.FreeText == "" {
			return a, &invalid{ctrl: 0, msg: "Required: " + f.need()}
		}
	}
	a.UsedDefault = f.hasDefault && f.unchanged()
	return a, nil
}

// need says what a missing field needs.
func (f *field) need() string {
	switch f.kind {
	case contract.KindBool:
		return "choose True or False"
	case contract.KindInput:
		return "type an answer"
	case contract.KindMulti:
		if f.free {
			return "choose at least one option or type an answer"
		}
		return "choose at least one option"
	default:
		if f.free {
			return "choose an option or type an answer"
		}
		return "choose an option"
	}
}

// chosen returns the selected labels in option order, never nil.
func (f *field) chosen() []string {
	out := []string{}
	for i, s := range f.sel {
		if s {
			out = append(out, f.options[i].Label)
		}
	}
	return out
}

// value returns a form field's value, and false when it is unset or empty.
func (f *field) value() (contract.Value, bool) {
	switch f.kind {
	case contract.KindBool:
		return contract.BoolValue(f.boolVal), f.boolSet
	case contract.KindInput:
		s := trimSpace(f.text.Value())
		return contract.StringValue(s), s != ""
	case contract.KindSingle:
		c := f.chosen()
		if len(c) == 0 {
			return contract.Value{}, false
		}
		return contract.StringValue(c[0]), true
	default:
		c := f.chosen()
		return contract.StringsValue(c...), len(c) > 0
	}
}

// answered reports whether the tab's question has a valid answer, for the
// tab bar and the review tab.
func (t *tab) answered() bool {
	_, bad := t.answer()
	return bad == nil
}
