package notify

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/askuser/askuser/prefs"
	"github.com/google/go-cmp/cmp"
)

// recorder is a terminal that Attach opens: it records what is written,
// and whether it was closed.
type recorder struct {
	strings.Builder
	closed int
}

func (r *recorder) Close() error { r.closed++; return nil }

func TestAttach(t *testing.T) {
	on := prefs.NotifyPrefs{Bell: true, Title: true, Desktop: prefs.DesktopOff}
	off := prefs.NotifyPrefs{Desktop: prefs.DesktopOff}
	env := []string{"TERM=xterm-256color"}
	const opened, closed = BEL + TitlePush + "\x1b]2;askuser: question waiting · Deploy\x1b\\", TitlePop
	tests := []struct {
		name    string
		prefs   prefs.NotifyPrefs
		openErr error
		// want is what reaches the terminal; opens and closes count the
		// terminal's opening and closing; reports the errors reported.
		want                    string
		opens, closes, reported int
	}{
		{"written", on, nil, opened + closed, 1, 1, 0},
		{"off", off, nil, "", 0, 0, 0},
		{"terminal missing", on, errors.New("no pane"), "", 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var viaWrite strings.Builder
			stop := Attach(Output{Environ: env, Write: func(s string) { viaWrite.WriteString(s) }}, tt.prefs, Subject{Header: "Deploy"}, nil)
			stop()
			if tt.openErr == nil {
				if diff := cmp.Diff(tt.want, viaWrite.String()); diff != "" {
					t.Errorf("through Write (-want +got):\n%s", diff)
				}
			}

			rec := &recorder{}
			opens := 0
			var reports []error
			stop = Attach(Output{
				Environ: env,
				Open: func() (io.WriteCloser, error) {
					opens++
					if tt.openErr != nil {
						return nil, tt.openErr
					}
					return rec, nil
				},
				Report: func(err error) { reports = append(reports, err) },
			}, tt.prefs, Subject{Header: "Deploy"}, nil)
			stop()
			if diff := cmp.Diff(tt.want, rec.String()); diff != "" {
				t.Errorf("through Open (-want +got):\n%s", diff)
			}
			if opens != tt.opens || rec.closed != tt.closes || len(reports) != tt.reported {
				t.Errorf("opened %d, closed %d, reported %v; want %d, %d, %d errors", opens, rec.closed, reports, tt.opens, tt.closes, tt.reported)
			}
		})
	}
}
