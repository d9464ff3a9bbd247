package dialog

import (
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/contract"
)

// parse normalizes a JSON request or fails the test.
func parse(t testing.TB, js string) *contract.Request {
	t.Helper()
	r, _, err := contract.Parse([]byte(js))
	if err != nil {
		t.Fatalf("parse %s: %v", js, err)
	}
	return r
}

// fixedClock is a Countdown frozen at one remaining time.
type fixedClock struct {
	left time.Duration
	ok   bool
}

func (c fixedClock) Remaining() (time.Duration, bool) { return c.left, c.ok }

func plain(c Countdown) *Options { return &Options{Theme: PlainTheme(), Countdown: c} }

// keys turns a compact script into keys: space-separated chords, and
// "'text'" for typed text (no spaces inside quotes; _ is a space, ⏎ a
// line feed, ␍ a carriage return and ⇥ a tab).
func keys(script string) []Key {
	var out []Key
	for _, f := range strings.Fields(script) {
		if len(f) >= 2 && f[0] == '\'' && f[len(f)-1] == '\'' {
			r := strings.NewReplacer("_", " ", "⏎", "\n", "␍", "\r", "⇥", "\t")
			out = append(out, Key{Text: r.Replace(f[1 : len(f)-1])})
			continue
		}
		out = append(out, Key{Name: f})
	}
	return out
}

// run sends keys and returns the last effect that was not EffectNone.
func run(m *Model, ks []Key) Effect[[]contract.Answer] {
	var last Effect[[]contract.Answer]
	for _, k := range ks {
		if e := m.Update(k); e.Kind != EffectNone {
			last = e
		}
	}
	return last
}

const (
	reqSingle  = `{"header":"Database","questions":[{"title":"Which database should the service use?","prompt":"Pick one; this decides the driver.","options":[{"label":"Postgres","description":"Relational, mature, needs a server"},{"label":"SQLite","description":"Embedded, zero setup"},{"label":"DuckDB"}]}]}`
	reqMulti   = `{"questions":[{"title":"Which checks should run?","kind":"multi","options":[{"label":"unit"},{"label":"integration","description":"Needs Docker"},{"label":"lint"}],"default":"unit"}]}`
	reqInput   = `{"questions":[{"title":"Name the release","kind":"input","prompt":"One short line."}]}`
	reqBool    = `{"questions":[{"title":"Proceed with deployment?","kind":"bool"}]}`
	reqForm    = `{"header":"Release","questions":[{"title":"Deployment settings","kind":"simple-form","fields":[{"name":"confirmed","label":"Confirm","kind":"bool","required":true},{"name":"target","label":"Target","kind":"single","required":true,"options":[{"label":"staging","description":"Internal smoke test"},{"label":"production","description":"Customer-facing"}]},{"name":"checks","label":"Checks","kind":"multi","options":[{"label":"unit"},{"label":"integration"}],"default":["unit"]},{"name":"note","label":"Release note","kind":"input"}]}]}`
	reqRelease = `{"header":"Release","questions":[{"title":"Proceed with deployment?","kind":"bool","default":false},{"title":"Deployment settings","kind":"simple-form","fields":[{"name":"confirmed","label":"Confirm","kind":"bool","required":true},{"name":"target","label":"Target","kind":"single","required":true,"options":[{"label":"staging","description":"Internal smoke test"},{"label":"production","description":"Customer-facing"}]},{"name":"checks","label":"Checks","kind":"multi","options":[{"label":"unit"},{"label":"integration"}],"default":["unit"]},{"name":"note","label":"Release note","kind":"input"}]}]}`
	reqPreview = `{"header":"Architecture","questions":[{"title":"Which cache layout?","options":[{"label":"Write-through","description":"Simple, slower writes","preview":"# Write-through\n\nEvery write goes to the cache **and** the store.\n\n- consistent reads\n- slower writes\n\n` + "```go\\ncache.Set(k, v)\\nstore.Put(k, v)\\n```" + `"},{"label":"Write-back","preview":"# Write-back\n\nWrites land in the cache and are flushed later.\n\n1. fast writes\n2. risk of loss on crash"},{"label":"No cache"}]}]}`
	reqCJK     = `{"header":"配置","questions":[{"title":"使用哪个数据库？","prompt":"请选择一个。絵文字も👍🏽大丈夫。","options":[{"label":"日本語のラベル","description":"説明文はここにあります"},{"label":"한국어 옵션"},{"label":"emoji 👨‍👩‍👧 family"}]}]}`
)

func widthOf(s string) int { return ansiWidth(s) }
