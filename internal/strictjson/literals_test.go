package strictjson_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/askuser/askuser/auq"
	"github.com/askuser/askuser/contract"
)

// TestMessagesQuoteConstants checks that no string in either contract's
// code spells out a limit's number, so that every message that states a
// limit builds it from the constant and follows it when it changes. The
// table must name every exported Max or Min constant of the package, so
// that a new limit is not left out of the check.
func TestMessagesQuoteConstants(t *testing.T) {
	tests := []struct {
		dir    string
		limits map[string]int
	}{
		{"../../contract", map[string]int{
			"MaxQuestions": contract.MaxQuestions, "MaxOptions": contract.MaxOptions,
			"MaxFormFields": contract.MaxFormFields, "MaxIDLen": contract.MaxIDLen,
			"MaxHeaderLen": contract.MaxHeaderLen, "MaxTitleLen": contract.MaxTitleLen,
			"MaxFieldLabelLen": contract.MaxFieldLabelLen, "MaxFieldNameLen": contract.MaxFieldNameLen,
			"MaxPromptLen": contract.MaxPromptLen, "MaxOptionLabelLen": contract.MaxOptionLabelLen,
			"MaxDescriptionLen": contract.MaxDescriptionLen, "MaxPreviewLen": contract.MaxPreviewLen,
			"MaxTextDefaultLen": contract.MaxTextDefaultLen, "MaxRequestBytes": contract.MaxRequestBytes,
			"MaxSafeTimeoutMs": contract.MaxSafeTimeoutMs,
		}},
		{"../../auq", map[string]int{
			"MinQuestions": auq.MinQuestions, "MaxQuestions": auq.MaxQuestions,
			"MinOptions": auq.MinOptions, "MaxOptions": auq.MaxOptions,
			"MaxHeaderLen": auq.MaxHeaderLen, "MaxIDLen": auq.MaxIDLen,
			"MaxQuestionLen": auq.MaxQuestionLen, "MaxLabelLen": auq.MaxLabelLen,
			"MaxDescriptionLen": auq.MaxDescriptionLen, "MaxPreviewLen": auq.MaxPreviewLen,
			"MaxSourceLen": auq.MaxSourceLen, "MaxFlowIDLen": auq.MaxFlowIDLen,
			"MaxTags": auq.MaxTags, "MaxTagLen": auq.MaxTagLen,
			"MaxRequestBytes": auq.MaxRequestBytes,
			"MaxOtherTextLen": auq.MaxOtherTextLen, "MaxNoteLen": auq.MaxNoteLen,
		}},
	}
	// A number joined to a letter or a hyphen, as in UTF-8 or q2, is not a count.
	number := regexp.MustCompile(`(?:^|[^\w-])(\d+)(?:$|[^\w-])`)
	for _, tt := range tests {
		names := map[int][]string{}
		for name, v := range tt.limits {
			// 1 is every minimum's count and means nothing alone.
			if v > 1 {
				names[v] = append(names[v], name)
			}
		}
		files, err := filepath.Glob(filepath.Join(tt.dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", tt.dir, err)
		}
		fset := token.NewFileSet()
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if _, ok := n.(*ast.ImportSpec); ok {
					return false
				}
				if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
					for _, s := range d.Specs {
						for _, id := range s.(*ast.ValueSpec).Names {
							_, listed := tt.limits[id.Name]
							if (strings.HasPrefix(id.Name, "Max") || strings.HasPrefix(id.Name, "Min")) && !listed {
								t.Errorf("%s: the limit %s is not in the table", fset.Position(id.Pos()), id.Name)
							}
						}
					}
				}
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				for _, m := range number.FindAllStringSubmatch(lit.Value, -1) {
					v, _ := strconv.Atoi(m[1])
					if ns := names[v]; ns != nil {
						t.Errorf("%s: %s spells out %d; build it from %s", fset.Position(lit.Pos()), lit.Value, v, strings.Join(ns, " or "))
					}
				}
				return true
			})
		}
	}
}
