package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ValueKind tells which of its forms a Value holds.
type ValueKind int

// The forms of a Value. The zero Value is ValueNone.
const (
	ValueNone ValueKind = iota
	ValueBool
	ValueString
	ValueStrings
)

// Value is a default or an answer: a boolean, a string, or a list of
// strings. The zero Value holds nothing and marshals as null.
type Value struct {
	kind ValueKind
	b    bool
	s    string
	list []string
}

// BoolValue returns a Value holding b.
func BoolValue(b bool) Value { return Value{kind: ValueBool, b: b} }

// StringValue returns a Value holding s.
func StringValue(s string) Value { return Value{kind: ValueString, s: s} }

// StringsValue returns a Value holding a copy of list. A nil list is held
// as an empty one.
func StringsValue(list ...string) Value {
	return Value{kind: ValueStrings, list: append([]string{}, list...)}
}

// Kind reports which form v holds.
func (v Value) Kind() ValueKind { return v.kind }

// Bool returns the boolean v holds, and whether it holds one.
func (v Value) Bool() (bool, bool) { return v.b, v.kind == ValueBool }

// String returns the string v holds, and whether it holds one.
func (v Value) String() (string, bool) { return v.s, v.kind == ValueString }

// Strings returns a copy of the list v holds, and whether it holds one.
func (v Value) Strings() ([]string, bool) {
	if v.kind != ValueStrings {
		return nil, false
	}
	return append([]string{}, v.list...), true
}

// Equal reports whether v and w hold the same form and contents.
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind || v.b != w.b || v.s != w.s || len(v.list) != len(w.list) {
		return false
	}
	for i := range v.list {
		if v.list[i] != w.list[i] {
			return false
		}
	}
	return true
}

// MarshalJSON encodes v as a JSON boolean, string, array of strings, or null.
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.kind {
	case ValueBool:
		return json.Marshal(v.b)
	case ValueString:
		return json.Marshal(v.s)
	case ValueStrings:
		return json.Marshal(v.list)
	default:
		return []byte("null"), nil
	}
}

// UnmarshalJSON decodes a JSON boolean, string or array of strings. It is
// for reading results; requests go through Parse, which is stricter.
func (v *Value) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*v = Value{}
		return nil
	case len(data) > 0 && (data[0] == 't' || data[0] == 'f'):
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return err
		}
		*v = BoolValue(b)
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*v = StringValue(s)
		return nil
	case len(data) > 0 && data[0] == '[':
		var list []string
		if err := json.Unmarshal(data, &list); err != nil {
			return err
		}
		*v = StringsValue(list...)
		return nil
	}
	return fmt.Errorf("contract: value must be a boolean, a string or an array of strings, not %.20s", data)
}

// FormEntry is one answered field of a simple-form answer.
type FormEntry struct {
	Name  string
	Value Value
}

// AnswerValue is the typed value of a bool or simple-form answer: either a
// boolean, or a flat object keyed by field name whose entries keep the
// order of the form's fields.
type AnswerValue struct {
	// IsForm tells the two forms apart.
	IsForm bool
	// Bool is the answer of a bool question.
	Bool bool
	// Form holds the answered fields of a simple-form question, in field
	// order. Optional fields left unset are absent.
	Form []FormEntry
}

// Field returns the value of the form entry named name, and whether it is
// present.
func (a *AnswerValue) Field(name string) (Value, bool) {
	for _, e := range a.Form {
		if e.Name == name {
			return e.Value, true
		}
	}
	return Value{}, false
}

// MarshalJSON encodes a as a JSON boolean or as an object in field order.
func (a AnswerValue) MarshalJSON() ([]byte, error) {
	if !a.IsForm {
		return json.Marshal(a.Bool)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, e := range a.Form {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(e.Name)
		if err != nil {
			return nil, err
		}
		val, err := e.Value.MarshalJSON()
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes a JSON boolean or a flat object, keeping the
// object's key order.
func (a *AnswerValue) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] != '{' {
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return err
		}
		*a = AnswerValue{Bool: b}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return err
	}
	out := AnswerValue{IsForm: true, Form: []FormEntry{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, ok := tok.(string)
		if !ok {
			return errors.New("contract: form answer key is not a string")
		}
		var v Value
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("contract: form answer %q: %w", name, err)
		}
		out.Form = append(out.Form, FormEntry{Name: name, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*a = out
	return nil
}
