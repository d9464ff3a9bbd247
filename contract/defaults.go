package contract

import (
	"slices"
	"strings"
)

// The rules for what a default fills in, coded once for every host: the
// dialog, the line prompts, Pi's and MCP clients' own dialogs.

// ChoiceDefault returns what the default of a single or multi question
// selects: the index of the option whose label it is, or -1 and the
// default trimmed, as free text. ok is false when there is no default or
// it is blank.
func (q *Question) ChoiceDefault() (option int, freeText string, ok bool) {
	s, ok := q.TextDefault()
	if !ok {
		return -1, "", false
	}
	if i := slices.IndexFunc(q.Options, func(o Option) bool { return o.Label == s }); i >= 0 {
		return i, "", true
	}
	return -1, strings.TrimSpace(s), true
}

// TextDefault returns the default of a question as text when it is a
// string that is not blank, as it is written.
func (q *Question) TextDefault() (string, bool) {
	return nonBlank(q.Default)
}

func nonBlank(v *Value) (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.String()
	return s, ok && strings.TrimSpace(s) != ""
}

// EffectiveDefault returns the value a form field's default gives it,
// in the form an answer carries: a bool for a bool field, a label for a
// single field, the trimmed text for an input field, and for a multi
// field the labels in option order. ok is false when the default gives
// the field no value (none, a blank text, an empty list, or a value of
// the wrong kind), since a field without a value is left out of answers.
func (f *Field) EffectiveDefault() (Value, bool) {
	if f.Default == nil {
		return Value{}, false
	}
	v := *f.Default
	switch f.Kind {
	case KindBool:
		_, ok := v.Bool()
		return v, ok
	case KindSingle:
		s, ok := v.String()
		return v, ok && s != ""
	case KindInput:
		s, ok := v.String()
		if !ok || strings.TrimSpace(s) == "" {
			return Value{}, false
		}
		return StringValue(strings.TrimSpace(s)), true
	case KindMulti:
		list, ok := v.Strings()
		if !ok || len(list) == 0 {
			return Value{}, false
		}
		var ordered []string
		for _, o := range f.Options {
			if slices.Contains(list, o.Label) {
				ordered = append(ordered, o.Label)
			}
		}
		return StringsValue(ordered...), true
	}
	return Value{}, false
}
