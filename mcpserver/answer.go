package mcpserver

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/askuser/askuser/contract"
)

// formAnswers maps the content of an accepted elicitation form back to one
// answer per question of req, a normalized request. It checks every
// property as the dialog would: known names only, values of the right
// type, labels that are options. A property that breaks the form is an
// error naming it; an answer that is merely missing is returned empty, for
// the core to report as empty_answer. A client need not prefill a
// property's default, so an absent (or null) property whose question or
// field has a default takes the default, with UsedDefault set, as an empty
// reply does in the dialog.
func formAnswers(req *contract.Request, content map[string]any) ([]contract.Answer, error) {
	known := map[string]bool{}
	free := req.FreeTextAllowed()
	answers := make([]contract.Answer, len(req.Questions))
	for i := range req.Questions {
		q := &req.Questions[i]
		a := contract.NewAnswer(req, i)
		var err error
		switch q.Kind {
		case contract.KindSingle, contract.KindMulti:
			known[questionProp(i)] = true
			if free {
				known[noteProp(i)] = true
			}
			err = choiceAnswer(q, i, content, free, &a)
		case contract.KindInput:
			known[questionProp(i)] = true
			var s string
			var ok bool
			s, ok, err = stringProp(content, questionProp(i))
			d, hasDef := q.TextDefault()
			switch {
			case ok:
				a.FreeText = strings.TrimSpace(s)
				if hasDef {
					a.FreeText = restoreDefault(a.FreeText, d)
					a.UsedDefault = a.FreeText == strings.TrimSpace(d)
				}
			case hasDef:
				a.FreeText, a.UsedDefault = strings.TrimSpace(d), true
			}
		case contract.KindBool:
			known[questionProp(i)] = true
			var b, ok bool
			b, ok, err = boolProp(content, questionProp(i))
			var d, hasDef bool
			if q.Default != nil {
				d, hasDef = q.Default.Bool()
			}
			switch {
			case ok:
				v := contract.AnswerValue{Bool: b}
				a.Value = &v
				a.UsedDefault = hasDef && d == b
			case hasDef:
				v := contract.AnswerValue{Bool: d}
				a.Value, a.UsedDefault = &v, true
			}
		case contract.KindForm:
			for j := range q.Fields {
				known[fieldProp(i, q.Fields[j].Name)] = true
			}
			err = formAnswer(q, i, content, &a)
		}
		if err != nil {
			return nil, err
		}
		answers[i] = a
	}
	var unknown []string
	for k := range content {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("the form came back with properties it does not have: %s", strings.Join(quoteAll(unknown), ", "))
	}
	return answers, nil
}

func choiceAnswer(q *contract.Question, i int, content map[string]any, free bool, a *contract.Answer) error {
	name := questionProp(i)
	var chose, noted bool
	if q.Kind == contract.KindSingle {
		s, ok, err := stringProp(content, name)
		if err != nil {
			return err
		}
		chose = ok
		if ok {
			if !hasLabel(q.Options, s) {
				return fmt.Errorf("property %q: %q is not one of the options", name, s)
			}
			a.Selections = []string{s}
		}
	} else {
		list, ok, err := labelsProp(content, name, q.Options)
		if err != nil {
			return err
		}
		chose = ok
		if ok {
			a.Selections = list
		}
	}
	if free {
		note, ok, err := stringProp(content, noteProp(i))
		if err != nil {
			return err
		}
		noted = ok
		if ok {
			a.FreeText = strings.TrimSpace(note)
		}
	}
	if def, isLabel := choiceDefault(q); def != "" {
		if !isLabel {
			a.FreeText = restoreDefault(a.FreeText, def)
		}
		switch {
		case chose || noted:
		case isLabel:
			a.Selections = []string{def}
		case free:
			a.FreeText = def
		}
		if isLabel {
			a.UsedDefault = slices.Equal(a.Selections, []string{def}) && a.FreeText == ""
		} else {
			a.UsedDefault = len(a.Selections) == 0 && a.FreeText == def
		}
	}
	return nil
}

func formAnswer(q *contract.Question, i int, content map[string]any, a *contract.Answer) error {
	v := contract.AnswerValue{IsForm: true, Form: []contract.FormEntry{}}
	for j := range q.Fields {
		f := &q.Fields[j]
		name := fieldProp(i, f.Name)
		var val contract.Value
		var ok bool
		switch f.Kind {
		case contract.KindBool:
			b, present, err := boolProp(content, name)
			if err != nil {
				return err
			}
			ok = present
			val = contract.BoolValue(b)
		case contract.KindInput:
			s, present, err := stringProp(content, name)
			if err != nil {
				return err
			}
			s = strings.TrimSpace(s)
			if f.Default != nil {
				if d, isText := f.Default.String(); isText {
					s = restoreDefault(s, d)
				}
			}
			ok = present && s != ""
			val = contract.StringValue(s)
		case contract.KindSingle:
			s, present, err := stringProp(content, name)
			if err != nil {
				return err
			}
			if present && !hasLabel(f.Options, s) {
				return fmt.Errorf("property %q: %q is not one of the options", name, s)
			}
			ok = present
			val = contract.StringValue(s)
		case contract.KindMulti:
			list, present, err := labelsProp(content, name, f.Options)
			if err != nil {
				return err
			}
			ok = present && len(list) > 0
			val = contract.StringsValue(list...)
		}
		d, hasDef := f.EffectiveDefault()
		if _, present := content[name]; hasDef && (!present || content[name] == nil) {
			val, ok = d, true
		}
		if !ok {
			continue
		}
		if hasDef && d.Equal(val) {
			a.UsedDefault = true
		}
		v.Form = append(v.Form, contract.FormEntry{Name: f.Name, Value: val})
	}
	a.Value = &v
	return nil
}

// stringProp returns the string property name; ok is false when it is
// absent or null.
func stringProp(content map[string]any, name string) (string, bool, error) {
	raw, present := content[name]
	if !present || raw == nil {
		return "", false, nil
	}
	s, isString := raw.(string)
	if !isString {
		return "", false, typeError(name, "a string", raw)
	}
	return s, true, nil
}

func boolProp(content map[string]any, name string) (bool, bool, error) {
	raw, present := content[name]
	if !present || raw == nil {
		return false, false, nil
	}
	b, isBool := raw.(bool)
	if !isBool {
		return false, false, typeError(name, "a boolean", raw)
	}
	return b, true, nil
}

// labelsProp returns the labels of an array property in option order. A
// label that is no option, or one chosen twice, is an error.
func labelsProp(content map[string]any, name string, opts []contract.Option) ([]string, bool, error) {
	raw, present := content[name]
	if !present || raw == nil {
		return nil, false, nil
	}
	items, isList := raw.([]any)
	if !isList {
		return nil, false, typeError(name, "an array of option labels", raw)
	}
	chosen := make([]bool, len(opts))
	for k, it := range items {
		s, isString := it.(string)
		if !isString {
			return nil, false, typeError(fmt.Sprintf("%s[%d]", name, k), "an option label", it)
		}
		j := slices.IndexFunc(opts, func(o contract.Option) bool { return o.Label == s })
		switch {
		case j < 0:
			return nil, false, fmt.Errorf("property %q: %q is not one of the options", name, s)
		case chosen[j]:
			return nil, false, fmt.Errorf("property %q: %q is chosen twice", name, s)
		}
		chosen[j] = true
	}
	list := []string{}
	for j, c := range chosen {
		if c {
			list = append(list, opts[j].Label)
		}
	}
	return list, true, nil
}

func typeError(name, want string, got any) error {
	return fmt.Errorf("property %q must be %s, not %s", name, want, jsonType(got))
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case float64, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

func hasLabel(opts []contract.Option, s string) bool {
	return slices.ContainsFunc(opts, func(o contract.Option) bool { return o.Label == s })
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// problems are the values of a form that cannot be used, by property
// name, each with what is wrong with it, in words for the person who
// filled in the form: the next form names them.
type problems map[string]string

// propRule is what one property of the form of a questionnaire holds:
// the question it belongs to, the field for a simple-form question, and
// the kind of value it takes.
type propRule struct {
	question int
	field    string // "" for the question's own property or its note
	note     bool
	kind     contract.Kind // KindInput for text
	options  []contract.Option
}

// propRules returns the rule of every property of the whole form of req.
func propRules(req *contract.Request) map[string]propRule {
	rules := map[string]propRule{}
	free := req.FreeTextAllowed()
	for i := range req.Questions {
		q := &req.Questions[i]
		switch q.Kind {
		case contract.KindForm:
			for _, f := range q.Fields {
				rules[fieldProp(i, f.Name)] = propRule{question: i, field: f.Name, kind: f.Kind, options: f.Options}
			}
			continue
		case contract.KindSingle, contract.KindMulti:
			if free {
				rules[noteProp(i)] = propRule{question: i, note: true, kind: contract.KindInput}
			}
		}
		rules[questionProp(i)] = propRule{question: i, kind: q.Kind, options: q.Options}
	}
	return rules
}

// problem says what is wrong with v as the value of a property of rule r,
// or returns "" when v can be used. A null is no value, never a problem.
func (r propRule) problem(v any) string {
	if v == nil {
		return ""
	}
	switch r.kind {
	case contract.KindBool:
		if _, ok := v.(bool); !ok {
			return wrongValue(v, "yes or no")
		}
	case contract.KindSingle:
		s, ok := v.(string)
		switch {
		case !ok:
			return wrongValue(v, "one of the options")
		case !hasLabel(r.options, s):
			return fmt.Sprintf("%q is not one of the options", s)
		}
	case contract.KindMulti:
		items, ok := v.([]any)
		if !ok {
			return wrongValue(v, "a list of options")
		}
		seen := map[string]bool{}
		for _, it := range items {
			s, ok := it.(string)
			switch {
			case !ok:
				return "the list holds " + jsonType(it) + ", not an option"
			case !hasLabel(r.options, s):
				return fmt.Sprintf("%q is not one of the options", s)
			case seen[s]:
				return fmt.Sprintf("%q is chosen twice", s)
			}
			seen[s] = true
		}
	default:
		if _, ok := v.(string); !ok {
			return wrongValue(v, "text")
		}
	}
	return ""
}

func wrongValue(got any, want string) string {
	return "the form sent " + jsonType(got) + " where it needs " + want
}

// screen splits content, the content of an accepted form of req, into
// what can be used and the problems of the rest. A property the form
// does not have is no problem of the person's: screen leaves it in, for
// formAnswers to refuse.
func screen(req *contract.Request, content map[string]any) (map[string]any, problems) {
	rules := propRules(req)
	usable := make(map[string]any, len(content))
	bad := problems{}
	for k, v := range content {
		if r, known := rules[k]; known {
			if p := r.problem(v); p != "" {
				bad[k] = p
				continue
			}
		}
		usable[k] = v
	}
	return usable, bad
}
