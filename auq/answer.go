package auq

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/askuser/askuser/internal/strictjson"
)

type singleJSON struct {
	Kind Kind `json:"kind"`
	Choice
}

type multiJSON struct {
	Kind       Kind     `json:"kind"`
	Selections []Choice `json:"selections"`
	Empty      bool     `json:"empty"`
}

// MarshalJSON encodes the answer with the members of its kind only:
// kind, optionId, label, other and text for KindSingle; kind, selections
// (an array, never null) and empty for KindMulti. An answer of another
// kind, or one holding members of the other kind, is an error rather
// than JSON that would say something else.
func (a Answer) MarshalJSON() ([]byte, error) {
	switch a.Kind {
	case KindSingle:
		if len(a.Selections) > 0 || a.Empty {
			return nil, errors.New("auq: a single answer has selections or empty set; they belong to a multi answer")
		}
		return marshal(singleJSON{Kind: a.Kind, Choice: a.Choice})
	case KindMulti:
		if a.Choice != (Choice{}) {
			return nil, errors.New("auq: a multi answer has a choice set; its choices belong in selections")
		}
		sel := a.Selections
		if sel == nil {
			sel = []Choice{}
		}
		return marshal(multiJSON{Kind: a.Kind, Selections: sel, Empty: a.Empty})
	}
	return nil, errors.New("auq: an answer has kind " + strconv.Quote(string(a.Kind)) + "; want single or multi")
}

// marshal encodes v without escaping <, > and &: the encoder that called
// MarshalJSON escapes them if it is set to, and leaves them otherwise.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON decodes an answer strictly: member names match exactly
// and appear once, kind is single or multi, and only the members of that
// kind may appear (label is required for single, selections and empty
// for multi). It does not check the answer against a request: that is
// CheckResult's job.
func (a *Answer) UnmarshalJSON(data []byte) error {
	s := strictjson.NewScanner(data)
	var out Answer
	var err error
	fail := func(msg string) {
		if err == nil {
			err = errors.New("auq: answer: " + msg)
		}
	}
	if s.AtEnd() || s.Peek() != '{' {
		return errors.New("auq: answer: must be an object, got " + s.Type())
	}
	var seen []string
	var kind string
	var hasLabel, hasSel, hasEmpty bool
	s.Open()
	for first := true; err == nil; {
		key, dup, ok := s.NextMember(&first, &seen)
		if !ok {
			break
		}
		if dup {
			fail(strconv.Quote(key) + " appears more than once")
		}
		switch key {
		case "kind":
			kind = scanString(s, key, fail)
		case "selections":
			hasSel = true
			if s.Peek() != '[' {
				fail("selections must be an array, got " + s.Type())
				break
			}
			s.Open()
			out.Selections = []Choice{}
			for first := true; err == nil && s.NextElem(&first); {
				var c Choice
				path := "selections[" + strconv.Itoa(len(out.Selections)) + "]"
				scanChoice(s, &c, nil, func(msg string) { fail(path + ": " + msg) })
				out.Selections = append(out.Selections, c)
			}
		case "empty":
			hasEmpty = true
			out.Empty = scanBool(s, key, fail)
		default:
			if !choiceMember(s, key, &out.Choice, fail) {
				fail("unknown field " + strconv.Quote(key))
			}
			if key == "label" {
				hasLabel = true
			}
		}
	}
	if off, msg := s.Err(); msg != "" {
		return errors.New("auq: answer: invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg)
	}
	if err != nil {
		return err
	}
	s.End()
	if off, msg := s.Err(); msg != "" {
		return errors.New("auq: answer: invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg)
	}
	out.Kind = Kind(kind)
	switch out.Kind {
	case KindSingle:
		switch {
		case hasSel || hasEmpty:
			return errors.New("auq: answer: a single answer has no selections or empty")
		case !hasLabel:
			return errors.New("auq: answer: a single answer needs a label")
		}
	case KindMulti:
		switch {
		case out.Choice != (Choice{}) || hasLabel:
			return errors.New("auq: answer: a multi answer has only kind, selections and empty")
		case !hasSel || !hasEmpty:
			return errors.New("auq: answer: a multi answer needs selections and empty")
		}
	case "":
		return errors.New("auq: answer: kind is required")
	default:
		return errors.New("auq: answer: kind must be single or multi, got " + strconv.Quote(kind))
	}
	*a = out
	return nil
}

// UnmarshalJSON decodes a choice strictly, as Answer.UnmarshalJSON does:
// label is required, optionId, other and text are optional.
func (c *Choice) UnmarshalJSON(data []byte) error {
	s := strictjson.NewScanner(data)
	s.Space() // scanChoice starts at the value
	var err error
	var out Choice
	scanChoice(s, &out, &err, func(msg string) {
		if err == nil {
			err = errors.New("auq: choice: " + msg)
		}
	})
	if err == nil {
		s.End()
	}
	if off, msg := s.Err(); msg != "" {
		return errors.New("auq: choice: invalid JSON at byte offset " + strconv.Itoa(off) + ": " + msg)
	}
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// scanChoice reads a choice object at s.Pos into c, reporting the first
// problem to fail. errp, when not nil, stops the scan once it is set.
func scanChoice(s *strictjson.Scanner, c *Choice, errp *error, fail func(string)) {
	if s.Peek() != '{' {
		fail("must be a choice object, got " + s.Type())
		s.Skip()
		return
	}
	var seen []string
	hasLabel := false
	bad := false
	s.Open()
	for first := true; ; {
		key, dup, ok := s.NextMember(&first, &seen)
		if !ok {
			break
		}
		if dup {
			fail(strconv.Quote(key) + " appears more than once")
			bad = true
		}
		if key == "label" {
			hasLabel = true
		}
		if !choiceMember(s, key, c, fail) {
			fail("unknown field " + strconv.Quote(key))
			bad = true
			s.Skip()
		}
		if errp != nil && *errp != nil {
			return
		}
	}
	if !hasLabel && !bad && !s.Failed() {
		fail("label is required")
	}
}

// choiceMember decodes the member key of a choice, and reports whether
// a choice has such a member.
func choiceMember(s *strictjson.Scanner, key string, c *Choice, fail func(string)) bool {
	switch key {
	case "optionId":
		c.OptionID = scanString(s, key, fail)
	case "label":
		c.Label = scanString(s, key, fail)
	case "other":
		c.Other = scanBool(s, key, fail)
	case "text":
		c.Text = scanString(s, key, fail)
	default:
		return false
	}
	return true
}

func scanString(s *strictjson.Scanner, key string, fail func(string)) string {
	if s.Peek() != '"' {
		fail(key + " must be a string, got " + s.Type())
		s.Skip()
		return ""
	}
	v, bad := s.String()
	if bad >= 0 {
		fail(key + " is not valid UTF-8")
	}
	return v
}

func scanBool(s *strictjson.Scanner, key string, fail func(string)) bool {
	v, ok := s.Bool()
	if !ok {
		fail(key + " must be a boolean, got " + s.Type())
		s.Skip()
	}
	return v
}
