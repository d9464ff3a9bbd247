package native

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ErrEmpty is returned by the parsers for a reply that is empty or only
// spaces. The flow accepts it only when the question has a default, or
// when it answers an optional form field.
var ErrEmpty = errors.New("the answer is empty")

// Choice is a parsed reply to a choice box.
//
// Exactly one of Numbers and FreeText is set. Numbers are 1-based option
// numbers in ascending order, without duplicates; Note is the trimmed text
// after "|" and goes only with Numbers. FreeText is the whole trimmed reply
// when it is not a number answer.
type Choice struct {
	Numbers  []int
	Note     string
	FreeText string
}

// ParseChoice parses the reply typed into the box of a choice question with
// options options (numbered from 1).
//
// A reply is a number answer when the part before its first "|" holds
// nothing but digits and separators (",", spaces, "，" or "、"); what
// follows the "|" is a note. Full-width digits and "｜" are read as their
// ASCII forms, so replies typed through a CJK input method work. A number
// answer must name existing options, each once, and exactly one when multi
// is false; otherwise ParseChoice returns an error saying what is wrong, so
// an out-of-range or malformed number is never taken as free text. A reply
// that looks like a number attempt (digits with ".", "-", "+" or "#") is
// malformed, not free text.
//
// Any other reply is free text when freeText is true: the whole reply,
// trimmed, "|" included. A reply that is only "| text" is the free text
// "text". When freeText is false only option numbers are accepted: prose
// and "| note" are errors.
//
// An empty reply returns ErrEmpty.
func ParseChoice(reply string, options int, multi, freeText bool) (Choice, error) {
	reply = strings.TrimSpace(foldWide(reply))
	if reply == "" {
		return Choice{}, ErrEmpty
	}
	head, note, hasNote := strings.Cut(reply, "|")
	head = strings.TrimSpace(head)
	note = strings.TrimSpace(note)
	switch {
	case head == "":
		if !freeText {
			return Choice{}, errors.New("type option numbers before the |; notes are off for this question")
		}
		if note == "" {
			return Choice{}, ErrEmpty
		}
		return Choice{FreeText: note}, nil
	case isNumberList(head):
		if hasNote && !freeText {
			return Choice{}, errors.New("notes are off for this question: type only option numbers")
		}
		nums, err := optionNumbers(head, options, multi)
		if err != nil {
			return Choice{}, err
		}
		return Choice{Numbers: nums, Note: note}, nil
	case looksNumeric(head):
		return Choice{}, fmt.Errorf("%q is not a list of option numbers: %s", head, numberHint(options, multi))
	case !freeText:
		return Choice{}, fmt.Errorf("type option numbers only: %s", numberHint(options, multi))
	default:
		return Choice{FreeText: reply}, nil
	}
}

// ParseBool parses the reply typed into the box of a boolean question or
// field. It accepts true, false, yes, no, y and n, in any case, and
// returns ErrEmpty for an empty reply. Anything else is an error.
func ParseBool(reply string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(reply)) {
	case "":
		return false, ErrEmpty
	case "true", "yes", "y":
		return true, nil
	case "false", "no", "n":
		return false, nil
	}
	return false, errors.New("type true or false (yes/no and y/n work too)")
}

// ParseText parses the reply typed into a text box: the reply trimmed, or
// ErrEmpty when nothing is left.
func ParseText(reply string) (string, error) {
	s := strings.TrimSpace(reply)
	if s == "" {
		return "", ErrEmpty
	}
	return s, nil
}

func isSeparator(r rune) bool {
	return r == ',' || r == '，' || r == '、' || unicode.IsSpace(r)
}

// isNumberList reports whether s is digits and separators with at least
// one digit.
func isNumberList(s string) bool { return digitsAnd(s, isSeparator) }

// looksNumeric reports whether s is an attempt at numbers that went wrong,
// such as "1.5", "-2", "1-3" or "#2": digits mixed with separators and
// number punctuation only.
func looksNumeric(s string) bool {
	return digitsAnd(s, func(r rune) bool { return isSeparator(r) || strings.ContainsRune(".-+#", r) })
}

// digitsAnd reports whether s holds at least one digit and, besides
// digits, only runes that also accepts.
func digitsAnd(s string, also func(rune) bool) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case !also(r):
			return false
		}
	}
	return digit
}

func optionNumbers(s string, options int, multi bool) ([]int, error) {
	fields := strings.FieldsFunc(s, isSeparator)
	if !multi && len(fields) > 1 {
		return nil, fmt.Errorf("choose one option, not %d: %s", len(fields), numberHint(options, false))
	}
	nums, bad := readNumbers(fields, options)
	switch {
	case bad == nil:
	case bad.twice:
		return nil, fmt.Errorf("option %d is listed twice", bad.n)
	default:
		return nil, fmt.Errorf("there is no option %s: %s", bad.field, numberHint(options, multi))
	}
	slices.Sort(nums)
	return nums, nil
}

func numberHint(options int, multi bool) string {
	switch {
	case options == 1:
		return "the only option is 1"
	case multi:
		return fmt.Sprintf("type numbers from 1 to %d, such as 1,%d", options, options)
	default:
		return fmt.Sprintf("type a number from 1 to %d", options)
	}
}

// foldWide maps full-width digits and the full-width vertical bar to ASCII.
func foldWide(s string) string {
	if !strings.ContainsFunc(s, isWide) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return '0' + (r - '０')
		case r == '｜':
			return '|'
		}
		return r
	}, s)
}

func isWide(r rune) bool { return (r >= '０' && r <= '９') || r == '｜' }
