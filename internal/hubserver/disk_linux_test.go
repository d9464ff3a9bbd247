package hubserver_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/contract"
	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/host/cli"
	"github.com/askuser/askuser/internal/hubserver"
	"github.com/askuser/askuser/internal/hubstore"
	"github.com/askuser/askuser/internal/testkit"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A hub whose store's disk fills says so, in its log and in askuser hub
// status, refuses new questions with an error the asker shows while its
// own dialog goes on, and once space is freed stores answers and takes
// questions again, with no restart.
func TestStoreDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small filesystem for the store needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=16m,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs of 16 MiB for the store: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount the store's tmpfs: %v", err)
		}
	})
	env := getenv(dir)
	paths, err := hub.Locate(env)
	if err != nil {
		t.Fatal(err)
	}
	var log testkit.Buffer
	info, stop, err := hubserver.Start(context.Background(), &hubserver.Options{Paths: paths, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("the hub: %v", err)
		}
	})
	checkBounds(t, info)
	results := askThrough(t, env)
	c, err := hub.Dial(context.Background(), &hub.DialOptions{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	q := pending(t, c, 1)[0]
	// A watch, as the page's and the inbox's, from before the disk
	// filled.
	wctx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	events, err := c.Watch(wctx)
	if err != nil {
		t.Fatal(err)
	}

	fill := fillDisk(t, dir)
	// An answer now meets the full disk; it is not stored.
	actx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	if _, err := c.Answer(actx, q.ID, answerJSON(t, "prod"), "disk test"); err == nil {
		t.Error("an answer was stored on a full disk")
	}
	cancel()
	waitStore(t, c, true)
	if got := log.String(); !strings.Contains(got, "askuser hub: store FULL: ") || !strings.Contains(got, "new questions are refused until space is freed") || !strings.Contains(got, "no space left on device") {
		t.Errorf("the hub's log does not say the store is full:\n%s", got)
	}
	if out := hubStatus(t, env); !strings.Contains(out, "store: FULL: ") || !strings.Contains(out, dir) {
		t.Errorf("askuser hub status does not say the store is full:\n%s", out)
	}

	// A new question is refused with an error its asker shows; its own
	// dialog is shown all the same.
	askRefused(t, env)
	if qs, err := c.Pending(context.Background()); err != nil || len(qs) != 1 {
		t.Errorf("while the disk is full the hub holds %d questions (%v); want the 1 asked before", len(qs), err)
	}

	if err := os.Remove(fill); err != nil {
		t.Fatal(err)
	}
	waitStore(t, c, false)
	if got := log.String(); !strings.Contains(got, "askuser hub: store: room again") {
		t.Errorf("the hub's log does not say the store has room again:\n%s", got)
	}
	t.Logf("the hub logged:\n%s", log.String())
	answerHeld(t, c, q.ID, "disk test", results, "after space was freed")
	askThrough(t, env)
	next := pending(t, c, 1)[0]
	// The watch goes on: it reports the new question.
	for deadline := time.After(testkit.Patience(t)); ; {
		select {
		case e := <-events:
			if e.Kind == hub.WatchWaiting && e.ID == next.ID {
				return
			}
		case <-deadline:
			t.Fatal("a watch from before the disk filled did not report a question asked after space was freed")
		}
	}
}

// fillDisk fills the filesystem of dir with a file, which it returns.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	fill := filepath.Join(dir, "fill")
	f, err := os.Create(fill)
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 64<<10)
	for err == nil {
		_, err = f.Write(block)
	}
	f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling the store's disk: %v", err)
	}
	return fill
}

// askRefused asks a question through the hub of env, whose store is
// full, and checks that its asker is told the hub refused it, and shows
// its own dialog all the same.
func askRefused(t *testing.T, env func(string) string) {
	t.Helper()
	told := make(chan error, 1)
	shown := make(chan struct{})
	link := hub.NewLink(&hub.LinkOptions{
		Dial:        func(ctx context.Context) (*hub.Client, error) { return hub.Dial(ctx, &hub.DialOptions{Getenv: env}) },
		Unreachable: func(err error) { told <- err },
	})
	defer link.Close(context.Background())
	dialog := ask.RendererFunc[*contract.Request, []contract.Answer](func(ctx context.Context, s *ask.Session[*contract.Request]) (ask.Outcome[[]contract.Answer], error) {
		close(shown)
		<-ctx.Done()
		return ask.Outcome[[]contract.Answer]{}, ctx.Err()
	})
	ctx, cancelAsk := context.WithCancel(context.Background())
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		ask.AskJSON(ctx, ask.NewAsker(ask.NewHost(link.Join(ask.Bind(ask.Capabilities{}, contract.RouteCustom, ask.AskUser, dialog)), nil), nil), ask.AskUser, []byte(req), nil)
	}()
	select {
	case err := <-told:
		var full *hub.StoreFullError
		if !errors.As(err, &full) || !strings.Contains(err.Error(), "takes no new question: the disk of its store") {
			t.Errorf("the asker was told %v; want that the hub's store is full", err)
		}
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker was not told that the hub refused its question")
	}
	select {
	case <-shown:
	case <-time.After(testkit.Patience(t)):
		t.Fatal("the asker's own dialog was not shown")
	}
	cancelAsk()
	<-asked
}

// checkBounds checks that each of the buckets of the hub of info is
// bounded to hubstore.BucketBytes.
func checkBounds(t *testing.T, info hub.Info) {
	t.Helper()
	nc, err := nats.Connect(info.URL, nats.Token(info.Token))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{hubstore.QuestionsBucket, hubstore.AnswersBucket} {
		s, err := js.Stream(context.Background(), "KV_"+name)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.CachedInfo().Config.MaxBytes; got != hubstore.BucketBytes {
			t.Errorf("the bucket %s holds up to %d bytes, want %d", name, got, hubstore.BucketBytes)
		}
	}
}

// waitStore waits until the hub of c says that its store is full, or
// that it is not.
func waitStore(t *testing.T, c *hub.Client, full bool) {
	t.Helper()
	deadline := testkit.PatienceDeadline(t)
	for {
		st, ok, err := c.Store(context.Background())
		if err == nil && !ok {
			t.Fatal("the hub does not say how its store is")
		}
		if err == nil && st.Full == full {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub's store: %+v, %v; want full %v", st, err, full)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hubStatus is what askuser hub status prints.
func hubStatus(t *testing.T, env func(string) string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := cli.Run(context.Background(), []string{"hub", "status"}, &cli.Env{Stdout: &out, Stderr: &errOut, Getenv: env}); code != 0 {
		t.Errorf("askuser hub status exited %d: %s", code, errOut.String())
	}
	return out.String()
}
