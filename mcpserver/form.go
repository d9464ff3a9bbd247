package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The elicitation form is flat: every question and form field is one
// property. Names are built from the question's position, never from its
// id, so they cannot collide whatever ids and field names the model picks:
//
//	q<N>          the answer to question N (1-based)
//	q<N>_note     free text beside the options of a single or multi question
//	q<N>.<field>  a field of the simple-form question N
//
// A field name holds only letters, digits, '_' and '-', and a position only
// digits, so the three shapes never meet.

func questionProp(i int) string { return "q" + strconv.Itoa(i+1) }
func noteProp(i int) string     { return questionProp(i) + "_note" }
func fieldProp(i int, name string) string {
	return questionProp(i) + "." + name
}

// property is one property of an elicitation schema. Its members are those
// the MCP elicitation schema allows.
type property struct {
	Type        string          `json:"type"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	OneOf       []titledConst   `json:"oneOf,omitempty"`
	Items       *itemsSchema    `json:"items,omitempty"`
	MinLength   *int            `json:"minLength,omitempty"`
	MinItems    *int            `json:"minItems,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
}

type titledConst struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

type itemsSchema struct {
	AnyOf []titledConst `json:"anyOf"`
}

func (p *property) itemsAnyOf() []titledConst {
	if p.Items == nil {
		return nil
	}
	return p.Items.AnyOf
}

// formSchema is the requested schema of an elicitation form. Properties
// keep question order when marshalled.
type formSchema struct {
	names    []string
	props    map[string]*property
	required []string
}

// add puts p in the form. The text a client shows of it (titles and
// descriptions, the model's words) goes through safetext first: many
// clients draw forms on a terminal. Text defaults are neutralized where
// they are made (see textDefault), and formAnswers maps them back. Option
// labels, the enum consts sent back, stay as they are, so that answers
// map back exactly; clients show the titles, not the consts, and a label
// default is one of those consts.
func (s *formSchema) add(name string, p *property, required bool) {
	p.Title, p.Description = safetext.Line(p.Title), safetext.Text(p.Description)
	for _, list := range [][]titledConst{p.OneOf, p.itemsAnyOf()} {
		for i := range list {
			list[i].Title = safetext.Line(list[i].Title)
		}
	}
	s.names = append(s.names, name)
	s.props[name] = p
	if required {
		s.required = append(s.required, name)
	}
}

// MarshalJSON writes the schema with its properties in question order, so
// that clients that show them in the order received show them as asked.
func (s *formSchema) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range s.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, err := json.Marshal(s.props[n])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString("}")
	if len(s.required) > 0 {
		r, _ := json.Marshal(s.required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

var one = 1

// elicitParams turns req, a normalized request, into one flat elicitation
// form holding every question. left is the time the user has, 0 for no
// deadline: a client's form shows no countdown, so the message says it.
func elicitParams(req *contract.Request, left time.Duration) *mcp.ElicitParams {
	return formParams(req, nil, nil, left)
}

// formParams is the form for what of req g names, or for all of it when g
// is nil: the form that asks again for what an accepted form left out or
// sent in a way that could not be used, which bad names.
//
// A property is required when the contract needs a value there that no
// default gives: a client that enforces required then cannot let the user
// skip it. A single or multi question that takes free text is answered by
// a choice or by its note, and the form schema cannot say "one of the
// two", so neither is required; formAnswers fills in every default that a
// client leaves out.
func formParams(req *contract.Request, g gaps, bad problems, left time.Duration) *mcp.ElicitParams {
	s := &formSchema{props: map[string]*property{}}
	free := req.FreeTextAllowed()
	for i := range req.Questions {
		q := &req.Questions[i]
		fields, asked := g[i]
		if g != nil && !asked {
			continue
		}
		desc := questionDescription(q)
		switch q.Kind {
		case contract.KindSingle, contract.KindMulti:
			p := &property{Title: q.Title, Description: desc}
			choices := titled(q.Options)
			if q.Kind == contract.KindSingle {
				p.Type, p.OneOf = "string", choices
			} else {
				p.Type, p.Items = "array", &itemsSchema{AnyOf: choices}
				if !free {
					p.MinItems = &one
				}
			}
			def, isLabel := choiceDefault(q)
			if isLabel {
				if q.Kind == contract.KindSingle {
					p.Default = mustJSON(def)
				} else {
					p.Default = mustJSON([]string{def})
				}
			}
			s.add(questionProp(i), p, !free && def == "")
			if free {
				n := &property{Type: "string", Title: q.Title + ": other answer or note",
					Description: "Optional. Type an answer of your own instead of choosing, or a note to go with your choice."}
				if def != "" && !isLabel {
					n.Default = textDefault(def)
				}
				s.add(noteProp(i), n, false)
			}
		case contract.KindInput:
			p := &property{Type: "string", Title: q.Title, Description: desc, MinLength: &one}
			d, hasDef := q.TextDefault()
			if hasDef {
				p.Default = textDefault(d)
			}
			s.add(questionProp(i), p, !hasDef)
		case contract.KindBool:
			p := &property{Type: "boolean", Title: q.Title, Description: desc}
			hasDef := false
			if q.Default != nil {
				var b bool
				if b, hasDef = q.Default.Bool(); hasDef {
					p.Default = mustJSON(b)
				}
			}
			s.add(questionProp(i), p, !hasDef)
		case contract.KindForm:
			for j := range q.Fields {
				f := &q.Fields[j]
				if g != nil && !slices.Contains(fields, f.Name) {
					continue
				}
				_, hasDef := f.EffectiveDefault()
				s.add(fieldProp(i, f.Name), fieldProperty(q, f, desc), f.Required && !hasDef)
			}
		}
	}
	msg := formMessage(req, left)
	if g != nil {
		msg = againMessage(req, g, bad, left)
	}
	return &mcp.ElicitParams{Mode: "form", Message: safetext.Text(msg), RequestedSchema: s}
}

func fieldProperty(q *contract.Question, f *contract.Field, desc string) *property {
	p := &property{Title: f.Label, Description: q.Title}
	if desc != "" {
		p.Description += "\n\n" + desc
	}
	switch f.Kind {
	case contract.KindBool:
		p.Type = "boolean"
	case contract.KindInput:
		p.Type = "string"
		if f.Required {
			p.MinLength = &one
		}
	case contract.KindSingle:
		p.Type, p.OneOf = "string", titled(f.Options)
	case contract.KindMulti:
		p.Type, p.Items = "array", &itemsSchema{AnyOf: titled(f.Options)}
		if f.Required {
			p.MinItems = &one
		}
	}
	if v, ok := f.EffectiveDefault(); ok {
		if s, isText := v.String(); isText && f.Kind == contract.KindInput {
			p.Default = textDefault(s)
		} else {
			p.Default = mustJSON(v)
		}
	}
	return p
}

// textDefault is the default of a text property, safe to draw on a
// terminal: a client may show it as the text already typed.
func textDefault(d string) json.RawMessage {
	return mustJSON(safetext.Text(d))
}

// restoreDefault returns the default d, trimmed, when got, a trimmed text
// answer, is the neutralized default that textDefault sent and not the
// default itself: the user kept the default. Otherwise it returns got.
func restoreDefault(got, d string) string {
	t := strings.TrimSpace(d)
	if got != t && got == strings.TrimSpace(safetext.Text(d)) {
		return t
	}
	return got
}

// formMessage is the message shown above the form.
func formMessage(req *contract.Request, left time.Duration) string {
	msg := "Please answer these " + strconv.Itoa(len(req.Questions)) + " questions."
	if h := strings.TrimSpace(req.Header); h != "" {
		msg = h
	} else if len(req.Questions) == 1 {
		msg = req.Questions[0].Title
	}
	if left > 0 {
		msg += "\n\n(" + timeLeft(left) + " to answer)"
	}
	return msg
}

// againMessage is the message above a form that asks again for what g
// names, saying what was wrong with the answers bad names.
func againMessage(req *contract.Request, g gaps, bad problems, left time.Duration) string {
	msg := "Some answers are still missing: " + g.describe(req, bad) + ". The answers you gave are kept."
	if len(bad) > 0 {
		msg = "Some answers are missing or could not be used: " + g.describe(req, bad) + ". Your other answers are kept."
	}
	if left > 0 {
		msg += "\n\n(" + timeLeft(left) + " to answer)"
	}
	return msg
}

// timeLeft says d in whole seconds up to two minutes, in whole minutes
// beyond, rounded up.
func timeLeft(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	if s <= 120 {
		return strconv.FormatInt(s, 10) + " s"
	}
	return strconv.FormatInt((s+59)/60, 10) + " min"
}

// questionDescription is a question's prompt followed by the previews of
// its options, which a form cannot show beside the choices.
func questionDescription(q *contract.Question) string {
	var parts []string
	if p := strings.TrimSpace(q.Prompt); p != "" {
		parts = append(parts, p)
	}
	for _, o := range q.Options {
		if strings.TrimSpace(o.Preview) != "" {
			parts = append(parts, o.Label+":\n"+o.Preview)
		}
	}
	return strings.Join(parts, "\n\n")
}

// titled turns options into titled enum entries: the label is the value
// sent back, the title adds the description.
func titled(opts []contract.Option) []titledConst {
	out := make([]titledConst, len(opts))
	for i, o := range opts {
		t := o.Label
		if d := strings.TrimSpace(o.Description); d != "" {
			t += " — " + d
		}
		out[i] = titledConst{Const: o.Label, Title: t}
	}
	return out
}

// choiceDefault returns the default of a single or multi question and
// whether it is an option label; otherwise it is free text.
func choiceDefault(q *contract.Question) (string, bool) {
	i, free, ok := q.ChoiceDefault()
	switch {
	case !ok:
		return "", false
	case i >= 0:
		return q.Options[i].Label, true
	}
	return free, false
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: marshalling a default: %v", err))
	}
	return b
}
