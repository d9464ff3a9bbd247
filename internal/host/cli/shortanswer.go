package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/strictjson"
)

// A short answer is what a person types for askuser answer in place of
// the contract's whole result: KEY=VALUE arguments, or a JSON object of
// the same keys. It is turned into the result JSON of the question's
// contract, which the hub then checks as it checks any answer.
//
// KEY names a question by its id, its number (1 for the first) or, for
// AskUserQuestion, its header, followed for a part of it by a dot and:
// a form field's name (ask_user), "other" for the person's own words,
// "note" for a note on the question, or "note.OPTION" for a note on an
// option (AskUserQuestion). A form field may also be named alone when
// no question has that id and no other form has that field. VALUE is an
// option by its label (or, for AskUserQuestion, its id), several
// separated by commas for a multi-select question ("\," for a comma in
// a label); yes, no, true or false for a bool; text for the rest.

// maxShortEntries bounds the entries of a short answer: far more than a
// questionnaire of either contract has questions, fields and notes.
const maxShortEntries = 256

// shortValue is the value of one entry of a short answer.
type shortValue struct {
	text   string   // KEY=TEXT, a JSON string or number
	list   []string // a JSON array of strings, when isList
	isList bool
	b      *bool // a JSON boolean
	null   bool  // JSON null: not answered yet, as a template leaves it
}

// shortEntry is one KEY=VALUE of a short answer.
type shortEntry struct {
	where string // the argument as written, or the JSON member's path
	key   string
	val   shortValue
}

// shortAnswerError lists every problem of a short answer, each with
// where it is.
type shortAnswerError struct {
	problems []string
}

func (e *shortAnswerError) Error() string {
	return "the short answer is refused: " + strings.Join(e.problems, "; ")
}

// shortProblems collects the problems of a short answer.
type shortProblems struct{ list []string }

func (p *shortProblems) add(where, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if where != "" {
		msg = where + ": " + msg
	}
	p.list = append(p.list, msg)
}

func (p *shortProblems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &shortAnswerError{problems: p.list}
}

// parseShortArgs reads KEY=VALUE arguments.
func parseShortArgs(args []string) ([]shortEntry, error) {
	var p shortProblems
	if len(args) > maxShortEntries {
		p.add("", "%d arguments; a short answer has at most %d", len(args), maxShortEntries)
		return nil, p.err()
	}
	out := make([]shortEntry, 0, len(args))
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		key = strings.TrimSpace(key)
		switch {
		case !ok:
			p.add(strconv.Quote(a), "not KEY=VALUE; name the question before =, as in env=staging")
			continue
		case key == "":
			p.add(strconv.Quote(a), "no KEY before =; name the question by its id or number")
			continue
		}
		out = append(out, shortEntry{where: strconv.Quote(a), key: key, val: shortValue{text: val}})
	}
	return out, p.err()
}

// isFullResult reports whether data is the whole result of q's contract
// rather than a short answer: an object with a member status (ask_user)
// or cancelled (AskUserQuestion), unless a question of q has that id.
// What is not an object is neither, and the hub says why.
func isFullResult(q *hub.Question, data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
	}
	name := "status"
	if f, ok := shortForms[q.Tag.Contract]; ok {
		name = f.resultMember
	}
	if _, ok := top[name]; !ok {
		return false
	}
	var ids struct {
		Questions []struct {
			ID string `json:"id"`
		} `json:"questions"`
	}
	_ = json.Unmarshal(q.Request, &ids)
	for _, x := range ids.Questions {
		if x.ID == name {
			return false
		}
	}
	return true
}

// errNotShort marks a short answer in JSON that cannot be read.
var errNotShort = errors.New("the answer is refused")

// parseShortJSON reads a short answer written as a JSON object: its
// members are the keys, an object's members the keys after its own and
// a dot, and a value is a string, a number, a boolean, an array of
// strings, or null for not answered yet.
func parseShortJSON(data []byte) ([]shortEntry, error) {
	if err := strictjson.Check(data, nil); err != nil {
		return nil, fmt.Errorf("%w: it is not strict JSON (%v); give KEY=VALUE arguments, or JSON such as {\"env\": \"staging\"}", errNotShort, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: a short answer in JSON is an object keyed by question id, such as {\"env\": \"staging\"}", errNotShort)
	}
	var p shortProblems
	out := []shortEntry{}
	var walk func(prefix, path string) error
	walk = func(prefix, path string) error {
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			name := tok.(string) // json.Valid held, and an object's members are named by strings
			key, at := prefix+name, strictjson.MemberPath(path, name)
			if len(out) >= maxShortEntries {
				return fmt.Errorf("more than %d answers; a short answer has at most that many", maxShortEntries)
			}
			tok, err = dec.Token()
			if err != nil {
				return err
			}
			e := shortEntry{where: at, key: key}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' {
					if err := walk(key+".", at); err != nil {
						return err
					}
					if _, err := dec.Token(); err != nil {
						return err
					}
					continue
				}
				e.val.isList, e.val.list = true, []string{}
				for i := 0; dec.More(); i++ {
					tok, err := dec.Token()
					if err != nil {
						return err
					}
					s, ok := tok.(string)
					if !ok {
						p.add(strictjson.IndexPath(at, i), "a list holds option labels, as strings")
						if _, ok := tok.(json.Delim); ok {
							skipJSON(dec)
						}
						continue
					}
					e.val.list = append(e.val.list, s)
				}
				if _, err := dec.Token(); err != nil {
					return err
				}
			case string:
				e.val.text = v
			case json.Number:
				e.val.text = v.String()
			case bool:
				e.val.b = &v
			case nil:
				e.val.null = true
			}
			out = append(out, e)
		}
		return nil
	}
	if err := walk("", ""); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotShort, err)
	}
	return out, p.err()
}

// skipJSON reads past the rest of the array or object just opened.
func skipJSON(dec *json.Decoder) {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
}

// shortQuestion is what resolving a key needs of one question.
type shortQuestion struct {
	id, header string
	fields     []string // a form's field names
}

// resolveKey finds the question key names and the part of it after the
// question's name: its id (the longest that fits), its number, its
// header (AskUserQuestion), or a form field's name alone.
func resolveKey(key string, qs []shortQuestion) (q int, sub string, msg string) {
	best := -1
	for i, sq := range qs {
		if (key == sq.id || strings.HasPrefix(key, sq.id+".")) && (best < 0 || len(sq.id) > len(qs[best].id)) {
			best = i
		}
	}
	if best >= 0 {
		return best, strings.TrimPrefix(strings.TrimPrefix(key, qs[best].id), "."), ""
	}
	head, rest, _ := strings.Cut(key, ".")
	if n, err := strconv.Atoi(head); err == nil && strings.TrimLeft(head, "0123456789") == "" {
		if n < 1 || n > len(qs) {
			return -1, "", fmt.Sprintf("there is no question %d: the questions are 1 to %d", n, len(qs))
		}
		return n - 1, rest, ""
	}
	var found []int
	for i, sq := range qs {
		if sq.header != "" && strings.EqualFold(head, sq.header) {
			found = append(found, i)
		}
	}
	if len(found) == 1 {
		return found[0], rest, ""
	}
	found = found[:0]
	for i, sq := range qs {
		if slices.Contains(sq.fields, key) {
			found = append(found, i)
		}
	}
	if len(found) == 1 {
		return found[0], key, ""
	}
	names := make([]string, len(qs))
	for i, sq := range qs {
		names[i] = strconv.Quote(sq.id)
	}
	what := "no question has the id " + strconv.Quote(head)
	if len(found) > 1 {
		what = "the field " + strconv.Quote(key) + " is in more than one form; name its question first, as QUESTION." + key
	}
	return -1, "", what + "; the questions are " + strings.Join(names, ", ") + ", or 1 to " + strconv.Itoa(len(qs)) + " by number"
}

// splitList splits a multi-select value at its commas; "\," is a comma
// in a label. An empty value is an empty list.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return []string{}
	}
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// parseBool reads yes, no, true or false, in any case.
func parseBool(v shortValue) (bool, bool) {
	if v.b != nil {
		return *v.b, true
	}
	if v.isList {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(v.text)) {
	case "yes", "y", "true":
		return true, true
	case "no", "n", "false":
		return false, true
	}
	return false, false
}

// matchOption finds the option s names: by its label exactly, by its id
// exactly (when ids is not nil), or else by a label or id alike but for
// case, when only one is.
func matchOption(labels, ids []string, s string) int {
	s = strings.TrimSpace(s)
	if i := slices.Index(labels, s); i >= 0 {
		return i
	}
	if i := slices.Index(ids, s); i >= 0 {
		return i
	}
	found := -1
	for i := range labels {
		if strings.EqualFold(labels[i], s) || i < len(ids) && strings.EqualFold(ids[i], s) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// quoteList quotes each of list and joins them with commas.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// pickOptions resolves the labels (or ids) of v to option indices, in
// option order: one for a single choice, any number for a multi. It
// reports each problem to p.
func pickOptions(p *shortProblems, where, qname string, labels, ids []string, v shortValue, multi bool) ([]int, bool) {
	var items []string
	switch {
	case v.b != nil:
		p.add(where, "%s is a choice of %s, not a boolean", qname, quoteList(labels))
		return nil, false
	case v.isList && !multi:
		p.add(where, "%s takes one option, not a list; the options are %s", qname, quoteList(labels))
		return nil, false
	case v.isList:
		items = v.list
	case multi:
		items = splitList(v.text)
	default:
		items = []string{v.text}
	}
	var picked []int
	ok := true
	for _, it := range items {
		i := matchOption(labels, ids, it)
		if i < 0 && !multi {
			// "\," is a comma in a multi-select's label; a single's
			// may be written so too.
			i = matchOption(labels, ids, strings.ReplaceAll(it, `\,`, ","))
		}
		switch {
		case i < 0:
			p.add(where, "%s is not an option of %s; the options are %s", strconv.Quote(strings.TrimSpace(it)), qname, quoteList(labels))
			ok = false
		case slices.Contains(picked, i):
			p.add(where, "%s is chosen twice", strconv.Quote(labels[i]))
			ok = false
		default:
			picked = append(picked, i)
		}
	}
	slices.Sort(picked)
	return picked, ok
}

// shortAnswer turns a short answer into the result JSON of q's contract.
func shortAnswer(q *hub.Question, entries []shortEntry) ([]byte, error) {
	f, ok := shortForms[q.Tag.Contract]
	if !ok {
		return nil, fmt.Errorf("the question's contract %q is not one askuser knows", q.Tag.Contract)
	}
	return f.answer(q.Request, entries)
}

// shortForm is how askuser answer and askuser pending handle short
// answers to one contract's questions.
type shortForm struct {
	// resultMember is the member that a whole result of the contract
	// has and a short answer has not, unless a question has it as id.
	resultMember string
	// answer turns a short answer to a stored request into the
	// contract's result JSON.
	answer func(request []byte, entries []shortEntry) ([]byte, error)
	// template is a short answer to a stored request, to fill in; nil
	// when the request cannot be read.
	template func(request []byte) object
}

// shortForms are the short answers of each contract, by its name: one
// line a contract.
var shortForms = map[string]shortForm{
	ask.ToolAskUser:         shortFormOf(ask.AskUser, "status", shortAskUser, askUserTemplate),
	ask.ToolAskUserQuestion: shortFormOf(ask.AskUserQuestion, "cancelled", shortQuestions, questionsTemplate),
}

// shortFormOf is the shortForm of contract c, whose whole results have
// the member resultMember, with answer and template working on its
// parsed requests.
func shortFormOf[Req, Ans, Res any](c ask.Contract[Req, Ans, Res], resultMember string, answer func(Req, []shortEntry) ([]byte, error), template func(Req) object) shortForm {
	return shortForm{
		resultMember: resultMember,
		answer: func(request []byte, entries []shortEntry) ([]byte, error) {
			req, _, err := c.Parse(request)
			if err != nil {
				return nil, fmt.Errorf("the stored question does not parse: %w", err)
			}
			return answer(req, entries)
		},
		template: func(request []byte) object {
			req, _, err := c.Parse(request)
			if err != nil {
				return nil
			}
			return template(req)
		},
	}
}

// shortTarget is what an entry was resolved to, to refuse a second one
// for the same.
type shortTarget struct {
	q   int
	sub string
}

// claim records that where answers t, and says so when another entry did.
func claim(p *shortProblems, seen map[shortTarget]string, t shortTarget, where string) bool {
	if prev, ok := seen[t]; ok {
		p.add(where, "answers what %s answers already", prev)
		return false
	}
	seen[t] = where
	return true
}

// shortAskUser builds an ask_user result from a short answer. A question
// left out takes its default, with usedDefault set, and so does a form
// field left out.
func shortAskUser(req *contract.Request, entries []shortEntry) ([]byte, error) {
	f := newAskUserFill(req)
	// last is the target of the entry before, and lastN the problems
	// found before it: when it added one, the target is marked bad.
	last, lastN := shortTarget{q: -1}, 0
	markBad := func() {
		if last.q >= 0 && len(f.p.list) > lastN {
			f.bad[last.q], f.badField[last] = true, true
		}
	}
	for _, e := range entries {
		markBad()
		qi, sub, msg := resolveKey(e.key, f.qs)
		last, lastN = shortTarget{qi, sub}, len(f.p.list)
		if qi < 0 {
			f.p.add(e.where, "%s", msg)
			continue
		}
		f.apply(e, qi, sub)
	}
	markBad()
	for i := range req.Questions {
		f.finish(i)
	}
	if err := f.p.err(); err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Status  contract.Status   `json:"status"`
		Answers []contract.Answer `json:"answers"`
	}{contract.StatusAnswered, f.answers})
}

// askUserFill is an ask_user answer being filled in from a short answer's
// entries, with the problems found on the way.
type askUserFill struct {
	p       shortProblems
	req     *contract.Request
	qs      []shortQuestion
	answers []contract.Answer
	given   []bool
	forms   []map[string]contract.Value
	seen    map[shortTarget]string
	// bad marks the questions, and badField the form fields, an entry
	// of which was refused already, so that they are not also said to
	// have no answer.
	bad      []bool
	badField map[shortTarget]bool
}

func newAskUserFill(req *contract.Request) *askUserFill {
	n := len(req.Questions)
	f := &askUserFill{
		req: req, qs: make([]shortQuestion, n), answers: make([]contract.Answer, n),
		given: make([]bool, n), forms: make([]map[string]contract.Value, n),
		seen: map[shortTarget]string{}, bad: make([]bool, n), badField: map[shortTarget]bool{},
	}
	for i := range req.Questions {
		f.qs[i].id = req.Questions[i].ID
		for _, fd := range req.Questions[i].Fields {
			f.qs[i].fields = append(f.qs[i].fields, fd.Name)
		}
		f.answers[i] = contract.NewAnswer(req, i)
	}
	return f
}

// apply fills in entry e, which names question qi and its part sub.
func (f *askUserFill) apply(e shortEntry, qi int, sub string) {
	p := &f.p
	q := &f.req.Questions[qi]
	a := &f.answers[qi]
	qname := strconv.Quote(q.ID)
	if !claim(p, f.seen, shortTarget{qi, sub}, e.where) {
		return
	}
	f.given[qi] = true
	if e.val.null {
		// A template's null waits for a value; left in, it is a
		// question or field the person passed over, not a default.
		p.add(e.where, "still null: %s", shortNullHint(q, sub))
		return
	}
	switch q.Kind {
	case contract.KindSingle, contract.KindMulti:
		labels := optionLabels(q.Options)
		switch sub {
		case "":
			picked, _ := pickOptions(p, e.where, qname, labels, nil, e.val, q.Kind == contract.KindMulti)
			for _, i := range picked {
				a.Selections = append(a.Selections, labels[i])
			}
		case "other":
			if !f.req.FreeTextAllowed() {
				p.add(e.where, "this questionnaire takes no answer in your own words (allowFreeText is false); choose among %s", quoteList(labels))
				return
			}
			if t, ok := shortText(p, e); ok {
				a.FreeText = t
			}
		default:
			p.add(e.where, "%s has no part %s; give %s=OPTION, or %s.other=TEXT for your own words", qname, strconv.Quote(sub), q.ID, q.ID)
		}
	case contract.KindInput:
		if sub != "" && sub != "other" {
			p.add(e.where, "%s has no part %s; give %s=TEXT", qname, strconv.Quote(sub), q.ID)
			return
		}
		if t, ok := shortText(p, e); ok {
			a.FreeText = t
		}
	case contract.KindBool:
		if sub != "" {
			p.add(e.where, "%s has no part %s; give %s=yes or %s=no", qname, strconv.Quote(sub), q.ID, q.ID)
			return
		}
		b, ok := parseBool(e.val)
		if !ok {
			p.add(e.where, "%s is a yes-or-no question: give yes, no, true or false", qname)
			return
		}
		a.Value = &contract.AnswerValue{Bool: b}
	case contract.KindForm:
		j := slices.IndexFunc(q.Fields, func(fd contract.Field) bool { return fd.Name == sub })
		if j < 0 {
			p.add(e.where, "%s is a form: name a field, as %s.FIELD=VALUE; its fields are %s", qname, q.ID, quoteList(f.qs[qi].fields))
			return
		}
		if v, ok := shortField(p, e, &q.Fields[j]); ok {
			if f.forms[qi] == nil {
				f.forms[qi] = map[string]contract.Value{}
			}
			f.forms[qi][sub] = v
		}
	}
}

// finish completes question i once every entry is in: a form's fields
// from their defaults, a question left out from its default, and a
// problem for each that still has no answer.
func (f *askUserFill) finish(i int) {
	p := &f.p
	q := &f.req.Questions[i]
	a := &f.answers[i]
	if q.Kind == contract.KindForm {
		a.Value = &contract.AnswerValue{IsForm: true, Form: []contract.FormEntry{}}
		for j := range q.Fields {
			fd := &q.Fields[j]
			v, ok := f.forms[i][fd.Name]
			if !ok {
				if v, ok = fd.EffectiveDefault(); ok {
					a.UsedDefault = true
				}
			}
			switch {
			case ok:
				a.Value.Form = append(a.Value.Form, contract.FormEntry{Name: fd.Name, Value: v})
			case fd.Required && !f.badField[shortTarget{i, fd.Name}]:
				p.add("", "%s, a required field of %s, has no answer: give %s.%s=%s", strconv.Quote(fd.Name), strconv.Quote(q.ID), q.ID, fd.Name, kindHint(fd.Kind, fd.Options))
			}
		}
		return
	}
	if f.given[i] {
		if (q.Kind == contract.KindSingle || q.Kind == contract.KindMulti) && len(a.Selections) == 0 && a.FreeText == "" && !f.bad[i] {
			p.add("", "%s (%s) has no option chosen: give %s=%s, or %s.other=TEXT", strconv.Quote(q.ID), strconv.Quote(q.Title), q.ID, kindHint(q.Kind, q.Options), q.ID)
		}
		return
	}
	if !shortDefault(q, a) {
		p.add("", "%s (%s) has no answer yet: give %s=%s", strconv.Quote(q.ID), strconv.Quote(q.Title), q.ID, kindHint(q.Kind, q.Options))
	}
}

// shortNullHint says what to do with a null left in a short answer, on
// q or on its part sub.
func shortNullHint(q *contract.Question, sub string) string {
	var a contract.Answer
	switch j := slices.IndexFunc(q.Fields, func(f contract.Field) bool { return f.Name == sub }); {
	case q.Kind == contract.KindForm && j >= 0:
		if _, ok := q.Fields[j].EffectiveDefault(); ok {
			break
		}
		if q.Fields[j].Required {
			return "give a value"
		}
		return "give a value, or leave the member out to leave the field unanswered"
	case q.Kind == contract.KindForm || !shortDefault(q, &a):
		return "give a value"
	}
	return "give a value, or leave the member out to take the default"
}

// shortDefault fills in a with q's default, as a dialog submitted
// without touching q does, and reports whether q has one.
func shortDefault(q *contract.Question, a *contract.Answer) bool {
	switch q.Kind {
	case contract.KindSingle, contract.KindMulti:
		i, free, ok := q.ChoiceDefault()
		if !ok {
			return false
		}
		if i >= 0 {
			a.Selections = append(a.Selections, q.Options[i].Label)
		} else {
			a.FreeText = free
		}
	case contract.KindInput:
		t, ok := q.TextDefault()
		if !ok {
			return false
		}
		a.FreeText = strings.TrimSpace(t)
	case contract.KindBool:
		if q.Default == nil {
			return false
		}
		b, ok := q.Default.Bool()
		if !ok {
			return false
		}
		a.Value = &contract.AnswerValue{Bool: b}
	default:
		return false
	}
	a.UsedDefault = true
	return true
}

// kindHint says what a value of kind looks like, for a message.
func kindHint(kind contract.Kind, opts []contract.Option) string {
	labels := optionLabels(opts)
	switch kind {
	case contract.KindBool:
		return "yes|no"
	case contract.KindSingle:
		return strings.Join(labels, "|")
	case contract.KindMulti:
		return strings.Join(labels, ",")
	}
	return "TEXT"
}

func optionLabels(opts []contract.Option) []string {
	labels := make([]string, len(opts))
	for i := range opts {
		labels[i] = opts[i].Label
	}
	return labels
}

// shortText reads the text of e, trimmed and not empty.
func shortText(p *shortProblems, e shortEntry) (string, bool) {
	if e.val.isList || e.val.b != nil {
		p.add(e.where, "give text here, not a list or a boolean")
		return "", false
	}
	t := strings.TrimSpace(e.val.text)
	if t == "" {
		p.add(e.where, "the text is empty; leave an answer out rather than give it empty")
		return "", false
	}
	return t, true
}

// shortField reads the value of a form field.
func shortField(p *shortProblems, e shortEntry, f *contract.Field) (contract.Value, bool) {
	fname := strconv.Quote(f.Name)
	switch f.Kind {
	case contract.KindBool:
		b, ok := parseBool(e.val)
		if !ok {
			p.add(e.where, "the field %s is yes or no: give yes, no, true or false", fname)
		}
		return contract.BoolValue(b), ok
	case contract.KindSingle, contract.KindMulti:
		labels := optionLabels(f.Options)
		picked, ok := pickOptions(p, e.where, "the field "+fname, labels, nil, e.val, f.Kind == contract.KindMulti)
		if !ok {
			return contract.Value{}, false
		}
		if f.Kind == contract.KindSingle {
			return contract.StringValue(labels[picked[0]]), true
		}
		if len(picked) == 0 {
			p.add(e.where, "no option chosen; leave the field out rather than give it empty")
			return contract.Value{}, false
		}
		chosen := make([]string, len(picked))
		for i, k := range picked {
			chosen[i] = labels[k]
		}
		return contract.StringsValue(chosen...), true
	}
	t, ok := shortText(p, e)
	return contract.StringValue(t), ok
}

// shortQuestions builds an AskUserQuestion result from a short answer.
// An optional question left out stays unanswered.
func shortQuestions(req *auq.Request, entries []shortEntry) ([]byte, error) {
	var p shortProblems
	qs := make([]shortQuestion, len(req.Questions))
	for i := range req.Questions {
		qs[i] = shortQuestion{id: req.Questions[i].ID, header: req.Questions[i].Header}
	}
	res := auq.Result{Answers: map[string]auq.Answer{}, Annotations: map[string]auq.Annotations{}, Metadata: req.ResultMetadata()}
	chosen := make([][]int, len(req.Questions))
	picked := make([]bool, len(req.Questions))
	other := make([]string, len(req.Questions))
	nulls := make([]string, len(req.Questions))
	seen := map[shortTarget]string{}
	for _, e := range entries {
		qi, sub, msg := resolveKey(e.key, qs)
		if qi < 0 {
			p.add(e.where, "%s", msg)
			continue
		}
		q := &req.Questions[qi]
		qname := strconv.Quote(q.ID)
		note, onOption := strings.CutPrefix(sub, "note.")
		if !onOption && !claim(&p, seen, shortTarget{qi, sub}, e.where) {
			continue
		}
		if e.val.null {
			if nulls[qi] == "" {
				nulls[qi] = e.where
			}
			continue
		}
		labels, ids := make([]string, len(q.Options)), make([]string, len(q.Options))
		for i, o := range q.Options {
			labels[i], ids[i] = o.Label, o.ID
		}
		switch {
		case sub == "":
			c, _ := pickOptions(&p, e.where, qname, labels, ids, e.val, q.MultiSelect)
			chosen[qi], picked[qi] = c, true
		case sub == "other":
			if t, ok := shortText(&p, e); ok {
				other[qi] = t
			}
		case sub == "note":
			if t, ok := shortText(&p, e); ok {
				ann := res.Annotations[q.ID]
				ann.QuestionNotes = t
				res.Annotations[q.ID] = ann
			}
		case onOption:
			key := auq.OtherNoteKey
			if !strings.EqualFold(note, "other") && note != auq.OtherNoteKey {
				i := matchOption(labels, ids, note)
				if i < 0 {
					p.add(e.where, "%s is not an option of %s; notes go on %s, or other", strconv.Quote(note), qname, quoteList(ids))
					continue
				}
				key = ids[i]
			}
			if !claim(&p, seen, shortTarget{qi, "note." + key}, e.where) {
				continue
			}
			if t, ok := shortText(&p, e); ok {
				ann := res.Annotations[q.ID]
				if ann.OptionNotes == nil {
					ann.OptionNotes = map[string]string{}
				}
				ann.OptionNotes[key] = t
				res.Annotations[q.ID] = ann
			}
		default:
			p.add(e.where, "%s has no part %s; give %s=OPTION, %s.other=TEXT, %s.note=TEXT or %s.note.OPTION=TEXT", qname, strconv.Quote(sub), q.ID, q.ID, q.ID, q.ID)
		}
	}
	for i := range req.Questions {
		finishQuestion(&p, &req.Questions[i], chosen[i], picked[i], other[i], nulls[i], &res)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	if len(res.Annotations) == 0 {
		res.Annotations = nil
	}
	if len(res.Answers) == 0 {
		res.Answers = nil
	}
	return json.Marshal(res)
}

// finishQuestion puts question q's answer into res once every entry is
// in: the options chosen, the text given as other, or, for a required
// question with neither, a problem (at null, where a template's null was
// left on it).
func finishQuestion(p *shortProblems, q *auq.Question, chosen []int, picked bool, other, null string, res *auq.Result) {
	if !picked && other == "" {
		if q.IsRequired() {
			labels := make([]string, len(q.Options))
			for k, o := range q.Options {
				labels[k] = o.Label
			}
			sep := "|"
			if q.MultiSelect {
				sep = ","
			}
			p.add(null, "%s (%s) is required and has no answer yet: give %s=%s, or %s.other=TEXT", strconv.Quote(q.ID), strconv.Quote(q.Question), q.ID, strings.Join(labels, sep), q.ID)
		}
		return
	}
	choice := func(k int) auq.Choice { return auq.Choice{OptionID: q.Options[k].ID, Label: q.Options[k].Label} }
	if !q.MultiSelect {
		switch {
		case len(chosen) > 0 && other != "":
			p.add("", "%s takes one answer: an option or other, not both", strconv.Quote(q.ID))
		case other != "":
			res.Answers[q.ID] = auq.Answer{Kind: auq.KindSingle, Choice: auq.Choice{Other: true, Label: auq.OtherLabel, Text: other}}
		case len(chosen) > 0:
			o := q.Options[chosen[0]]
			res.Answers[q.ID] = auq.Answer{Kind: auq.KindSingle, Choice: choice(chosen[0])}
			if o.Preview != "" {
				ann := res.Annotations[q.ID]
				ann.SelectedPreview = o.Preview
				res.Annotations[q.ID] = ann
			}
		}
		return
	}
	sel := []auq.Choice{}
	for _, k := range chosen {
		sel = append(sel, choice(k))
	}
	if other != "" {
		sel = append(sel, auq.Choice{Other: true, Label: auq.OtherLabel, Text: other})
	}
	res.Answers[q.ID] = auq.Answer{Kind: auq.KindMulti, Selections: sel, Empty: len(sel) == 0}
}

// member is one member of an object that keeps its order in JSON.
type member struct {
	key string
	val any
}

// object is a JSON object whose members keep their order.
type object []member

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	parts := make([]string, len(o))
	for i, m := range o {
		k, _ := json.Marshal(m.key) // a string always has its JSON
		v, err := json.Marshal(m.val)
		if err != nil {
			return nil, err
		}
		parts[i] = string(k) + ":" + string(v)
	}
	return []byte("{" + strings.Join(parts, ",") + "}"), nil
}

// answerTemplate is a short answer to q, in JSON, for a person or a
// program to fill in and give to askuser answer: each question by its
// id, with its default where it has one and null where it waits for a
// value. nil when q's questionnaire cannot be read.
func answerTemplate(q hub.Question) object {
	f, ok := shortForms[q.Tag.Contract]
	if !ok {
		return nil
	}
	return f.template(q.Request)
}

// askUserTemplate is answerTemplate for an ask_user questionnaire.
func askUserTemplate(req *contract.Request) object {
	t := object{}
	for i := range req.Questions {
		t = append(t, member{req.Questions[i].ID, askUserValue(&req.Questions[i])})
	}
	return t
}

// questionsTemplate is answerTemplate for an AskUserQuestion
// questionnaire.
func questionsTemplate(req *auq.Request) object {
	t := object{}
	for _, x := range req.Questions {
		t = append(t, member{x.ID, nil})
	}
	return t
}

// askUserValue is the value a template gives q: its default, else
// null; a form's is an object of its fields.
func askUserValue(q *contract.Question) any {
	var a contract.Answer
	switch {
	case q.Kind == contract.KindForm:
		fields := object{}
		for j := range q.Fields {
			var v any
			if d, ok := q.Fields[j].EffectiveDefault(); ok {
				v = d
			}
			fields = append(fields, member{q.Fields[j].Name, v})
		}
		return fields
	case !shortDefault(q, &a):
		return nil
	case a.Value != nil:
		return a.Value.Bool
	case len(a.Selections) > 0 && q.Kind == contract.KindMulti:
		return a.Selections
	case len(a.Selections) > 0:
		return a.Selections[0]
	case q.Kind != contract.KindInput:
		return object{{"other", a.FreeText}}
	}
	return a.FreeText
}
