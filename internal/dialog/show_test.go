package dialog

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

var show = flag.String("show", "", "print the screen of a fixture: name,WxH,keys")

func TestShow(t *testing.T) {
	if *show == "" {
		t.Skip("run with -show=fixture,WxH[,keys] to print a screen")
	}
	parts := strings.SplitN(*show, ",", 3)
	fx := map[string]string{"single": reqSingle, "multi": reqMulti, "input": reqInput, "bool": reqBool, "form": reqForm, "release": reqRelease, "preview": reqPreview, "cjk": reqCJK}
	var w, h int
	fmt.Sscanf(parts[1], "%dx%d", &w, &h)
	m := New(parse(t, fx[parts[0]]), plain(fixedClock{left: 102 * time.Second, ok: true}))
	if len(parts) > 2 {
		e := run(m, keys(parts[2]))
		fmt.Fprintf(os.Stdout, "effect: %+v\n", e)
	}
	f := m.View(w, h)
	fmt.Println("+" + strings.Repeat("-", w) + "+")
	for _, l := range f.Lines {
		fmt.Println("|" + l + strings.Repeat(" ", max(w-widthOf(l), 0)) + "|")
	}
	fmt.Println("+" + strings.Repeat("-", w) + "+")
	fmt.Printf("cursor: %+v\n", f.Cursor)
}
