package native

import (
	"errors"
	"testing"

	"github.com/askuser/askuser/internal/testkit"
	"github.com/google/go-cmp/cmp"
)

func TestParseChoice(t *testing.T) {
	tests := []struct {
		name     string
		reply    string
		options  int
		multi    bool
		freeText bool
		want     Choice
		wantErr  string // "" means no error; "empty" means ErrEmpty
	}{
		{name: "number", reply: "2", options: 3, freeText: true, want: Choice{Numbers: []int{2}}},
		{name: "number with spaces", reply: "  2 \t", options: 3, freeText: true, want: Choice{Numbers: []int{2}}},
		{name: "number and note", reply: "2 | ship it today", options: 3, freeText: true, want: Choice{Numbers: []int{2}, Note: "ship it today"}},
		{name: "note without spaces", reply: "2|x", options: 3, freeText: true, want: Choice{Numbers: []int{2}, Note: "x"}},
		{name: "empty note", reply: "2 |  ", options: 3, freeText: true, want: Choice{Numbers: []int{2}}},
		{name: "note keeps later bars", reply: "1 | a | b", options: 3, freeText: true, want: Choice{Numbers: []int{1}, Note: "a | b"}},
		{name: "free text", reply: "  something else  ", options: 3, freeText: true, want: Choice{FreeText: "something else"}},
		{name: "free text starting with a digit", reply: "2 apples", options: 3, freeText: true, want: Choice{FreeText: "2 apples"}},
		{name: "free text with a bar", reply: "use a | pipe", options: 3, freeText: true, want: Choice{FreeText: "use a | pipe"}},
		{name: "bar then text is free text", reply: "| none of these", options: 3, freeText: true, want: Choice{FreeText: "none of these"}},
		{name: "empty", reply: "", options: 3, freeText: true, wantErr: "empty"},
		{name: "blank", reply: " \t ", options: 3, freeText: true, wantErr: "empty"},
		{name: "only a bar", reply: " | ", options: 3, freeText: true, wantErr: "empty"},
		{name: "out of range", reply: "4", options: 3, freeText: true, wantErr: "there is no option 4: type a number from 1 to 3"},
		{name: "zero", reply: "0", options: 3, freeText: true, wantErr: "there is no option 0: type a number from 1 to 3"},
		{name: "huge", reply: "99999999999999999999999", options: 3, freeText: true, wantErr: "there is no option 99999999999999999999999: type a number from 1 to 3"},
		{name: "out of range with note", reply: "9 | note", options: 3, freeText: true, wantErr: "there is no option 9: type a number from 1 to 3"},
		{name: "one option", reply: "2", options: 1, freeText: true, wantErr: "there is no option 2: the only option is 1"},
		{name: "single given two", reply: "1,2", options: 3, freeText: true, wantErr: "choose one option, not 2: type a number from 1 to 3"},
		{name: "decimal", reply: "1.5", options: 3, freeText: true, wantErr: `"1.5" is not a list of option numbers: type a number from 1 to 3`},
		{name: "negative", reply: "-1", options: 3, freeText: true, wantErr: `"-1" is not a list of option numbers: type a number from 1 to 3`},
		{name: "range", reply: "1-3", options: 3, multi: true, freeText: true, wantErr: `"1-3" is not a list of option numbers: type numbers from 1 to 3, such as 1,3`},
		{name: "hash", reply: "#2", options: 3, freeText: true, wantErr: `"#2" is not a list of option numbers: type a number from 1 to 3`},
		{name: "full-width digit", reply: "２", options: 3, freeText: true, want: Choice{Numbers: []int{2}}},
		{name: "full-width bar", reply: "2｜メモ", options: 3, freeText: true, want: Choice{Numbers: []int{2}, Note: "メモ"}},

		{name: "multi comma", reply: "1,3", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi space", reply: "1 3", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi ideographic comma", reply: "1，3", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi enumeration comma", reply: "1、3", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi mixed separators", reply: "3, 1 、2", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 2, 3}}},
		{name: "multi trailing comma", reply: "1,3,", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi sorted", reply: "3,1", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "multi with note", reply: "1,3 | both", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{1, 3}, Note: "both"}},
		{name: "multi one", reply: "2", options: 3, multi: true, freeText: true, want: Choice{Numbers: []int{2}}},
		{name: "multi duplicate", reply: "1,1", options: 3, multi: true, freeText: true, wantErr: "option 1 is listed twice"},
		{name: "multi out of range", reply: "1,7", options: 3, multi: true, freeText: true, wantErr: "there is no option 7: type numbers from 1 to 3, such as 1,3"},
		{name: "multi free text", reply: "all of them", options: 3, multi: true, freeText: true, want: Choice{FreeText: "all of them"}},

		{name: "numbers only accepts numbers", reply: "1,3", options: 3, multi: true, want: Choice{Numbers: []int{1, 3}}},
		{name: "numbers only rejects prose", reply: "all of them", options: 3, multi: true, wantErr: "type option numbers only: type numbers from 1 to 3, such as 1,3"},
		{name: "numbers only rejects a note", reply: "1,3 | both", options: 3, multi: true, wantErr: "notes are off for this question: type only option numbers"},
		{name: "numbers only rejects a bare note", reply: "| both", options: 3, multi: true, wantErr: "type option numbers before the |; notes are off for this question"},
		{name: "numbers only single", reply: "2", options: 2, want: Choice{Numbers: []int{2}}},
		{name: "numbers only empty", reply: "", options: 2, wantErr: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseChoice(tt.reply, tt.options, tt.multi, tt.freeText)
			switch {
			case tt.wantErr == "empty":
				if !errors.Is(err, ErrEmpty) {
					t.Fatalf("ParseChoice(%q) error = %v, want ErrEmpty", tt.reply, err)
				}
				return
			case tt.wantErr != "":
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("ParseChoice(%q) error = %v, want %q", tt.reply, err, tt.wantErr)
				}
				return
			case err != nil:
				t.Fatalf("ParseChoice(%q) error = %v", tt.reply, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseChoice(%q) mismatch (-want +got):\n%s", tt.reply, diff)
			}
		})
	}
}

func TestParseBool(t *testing.T) {
	tests := []struct {
		reply   string
		want    bool
		wantErr error
	}{
		{reply: "true", want: true},
		{reply: "TRUE", want: true},
		{reply: " yes ", want: true},
		{reply: "Y", want: true},
		{reply: "false", want: false},
		{reply: "No", want: false},
		{reply: "n", want: false},
		{reply: "", wantErr: ErrEmpty},
		{reply: "  ", wantErr: ErrEmpty},
		{reply: "maybe", wantErr: errors.New("type true or false (yes/no and y/n work too)")},
		{reply: "1", wantErr: errors.New("type true or false (yes/no and y/n work too)")},
		{reply: "true | sure", wantErr: errors.New("type true or false (yes/no and y/n work too)")},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got, err := ParseBool(tt.reply)
			if tt.wantErr != nil {
				if err == nil || err.Error() != tt.wantErr.Error() {
					t.Fatalf("ParseBool(%q) error = %v, want %v", tt.reply, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseBool(%q) = %v, %v; want %v, nil", tt.reply, got, err, tt.want)
			}
		})
	}
}

func TestParseText(t *testing.T) {
	tests := []struct {
		reply, want string
		wantErr     error
	}{
		{reply: "  hello  world ", want: "hello  world"},
		{reply: "2 | x", want: "2 | x"},
		{reply: "", wantErr: ErrEmpty},
		{reply: "\t ", wantErr: ErrEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got, err := ParseText(tt.reply)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("ParseText(%q) = %q, %v; want %q, %v", tt.reply, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"2", "2 | note", "1,3", "1 3", "1，3", "1、3", "１,３｜メモ", "1.5", "| x", "free text", ""} {
		f.Add(s, 3, true, true)
	}
	for _, n := range testkit.FuzzNumbers() {
		f.Add(n, 3, true, true)
	}
	f.Fuzz(func(t *testing.T, reply string, options int, multi, freeText bool) {
		testkit.FuzzBound(t, struct {
			Reply           string
			Options         int
			Multi, FreeText bool
		}{reply, options, multi, freeText}, func() {
			if options < 1 || options > 5 {
				return
			}
			c, err := ParseChoice(reply, options, multi, freeText)
			if err != nil {
				return
			}
			if (len(c.Numbers) == 0) == (c.FreeText == "") {
				t.Fatalf("ParseChoice(%q) = %+v: want exactly one of numbers and free text", reply, c)
			}
			if c.FreeText != "" && !freeText {
				t.Fatalf("ParseChoice(%q) gave free text %q with free text off", reply, c.FreeText)
			}
			if c.Note != "" && (!freeText || len(c.Numbers) == 0) {
				t.Fatalf("ParseChoice(%q) gave note %q", reply, c.Note)
			}
			if !multi && len(c.Numbers) > 1 {
				t.Fatalf("ParseChoice(%q) gave %v for a single choice", reply, c.Numbers)
			}
			for i, n := range c.Numbers {
				if n < 1 || n > options || (i > 0 && n <= c.Numbers[i-1]) {
					t.Fatalf("ParseChoice(%q, %d) gave numbers %v", reply, options, c.Numbers)
				}
			}
		})
	})
}

func FuzzParseBool(f *testing.F) {
	for _, s := range []string{"true", "No", "y", "", "maybe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		testkit.FuzzBound(t, reply, func() {
			b, err := ParseBool(reply)
			if err != nil && b {
				t.Fatalf("ParseBool(%q) = true with error %v", reply, err)
			}
		})
	})
}
