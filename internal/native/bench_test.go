package native

import (
	"context"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
)

// instant answers every box at once from a fixed list of replies.
type instant struct {
	replies []string
	n       int
}

func (in *instant) Input(ctx context.Context, title, placeholder string) (string, bool, error) {
	r := in.replies[in.n%len(in.replies)]
	in.n++
	return r, true, nil
}

func BenchmarkRenderFull(b *testing.B) {
	fq := deployForm()
	r := req(true, envQ, checksQ, nameQ, goQ, fq)
	// One reply per dialog: four questions, then the form's six fields.
	in := &instant{replies: []string{"2 | note", "1,3", "name", "yes", "y", "1", "", "note", "", ""}}
	nr := New(in, nil)
	s := &ask.Session[*contract.Request]{Request: r}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		in.n = 0
		out, err := nr.Render(ctx, s)
		if err != nil || len(out.Answer) != 5 {
			b.Fatalf("Render = %+v, %v", out, err)
		}
	}
}
