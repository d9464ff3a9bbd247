package auq

// ChoiceOf returns option i of q as a chosen answer; i == len(q.Options)
// is the Other answer, with the user's text other.
func (q *Question) ChoiceOf(i int, other string) Choice {
	if i == len(q.Options) {
		return Choice{Label: OtherLabel, Other: true, Text: other}
	}
	o := &q.Options[i]
	return Choice{OptionID: o.ID, Label: o.Label}
}

// AnswerOf returns q's answer as a dialog holds it: for a single-select
// question the option chosen (len(q.Options) for Other), for a
// multi-select one the ticks, one per option and then one for Other.
// other is the text of the Other answer.
func (q *Question) AnswerOf(chosen int, ticked []bool, other string) Answer {
	if !q.MultiSelect {
		return Answer{Kind: KindSingle, Choice: q.ChoiceOf(chosen, other)}
	}
	a := Answer{Kind: KindMulti}
	for i, on := range ticked {
		if on {
			a.Selections = append(a.Selections, q.ChoiceOf(i, other))
		}
	}
	a.Empty = len(a.Selections) == 0
	return a
}
