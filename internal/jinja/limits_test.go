package jinja_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpurt/gpurt/internal/jinja"
)

// renderWithin compiles and renders src with a one-message chat, failing
// the test if that takes longer than limit (a hang, where the engine had
// no limit) rather than waiting on it.
func renderWithin(t *testing.T, src string, limit time.Duration) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		tmpl, err := jinja.Compile(src)
		if err != nil {
			done <- result{err: err}
			return
		}
		out, err := tmpl.Render(map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(limit):
		t.Fatalf("%.60q: still rendering after %v", src, limit)
		return "", nil
	}
}

// doubled is a template that makes a value of 2^40 parts by doubling it
// in a loop (a namespace keeps it across the loop's passes), then uses it
// as use says.
func doubled(start, double, use string) string {
	return "{% set ns = namespace(v=" + start + ") %}{% for i in range(40) %}{% set ns.v = " + double + " %}{% endfor %}" + use
}

// workOrTime is what the errors of templates that run out of work or of
// time say: which comes first depends on the machine (and the race
// detector).
const workOrTime = "exceeds a render limit: it "

// TestRenderLimits: templates written to recurse without end, loop or
// allocate without bound, or nest past the stack each fail with an error
// wrapping ErrLimit, at compile or render time, in bounded time; before
// these limits each of them crashed the process (stack overflow, a
// panic in strings.Repeat) or hung it.
func TestRenderLimits(t *testing.T) {
	cases := []struct {
		name, src string
		why       string // in the error
	}{
		{"recursive macro", `{% macro m(n) %}{{ m(n) }}{% endmacro %}{{ m(1) }}`, "calls of m nest more than"},
		{"recursive caller", `{% macro m() %}{% call m() %}x{% endcall %}{% endmacro %}{{ m() }}`, "nest more than"},
		{"list holding itself, printed", `{% set l = [] %}{% set _ = l.append(l) %}{{ l }}`, "nested more than"},
		{"dict holding itself, printed", `{% set d = {} %}{% set _ = d.update({"a": d}) %}{{ d }}`, "nested more than"},
		{"list holding itself, compared", `{% set l = [] %}{% set _ = l.append(l) %}{{ l == l }}`, "nested more than"},
		{"list holding itself, as JSON", `{% set l = [] %}{% set _ = l.append(l) %}{{ l|tojson }}`, "nested more than"},
		{"list holding itself, as indented JSON", `{% set l = [] %}{% set _ = l.append(l) %}{{ l|tojson(indent=2) }}`, "nested more than"},
		{"huge range", `{% for i in range(100000000000) %}x{% endfor %}`, "makes a value of more than"},
		{"range to the int64 limit", `{{ range(9223372036854775807)|length }}`, "makes a value of more than"},
		{"huge repeat", `{{ "ab" * 1000000000 }}`, "makes a value of more than"},
		{"repeat past int64", `{{ "ab" * 9223372036854775807 }}`, "makes a value of more than"},
		{"repeated message", `{{ messages[0].content * 100000000 }}`, "makes a value of more than"},
		{"huge indent", `{{ "x\ny"|indent(10000000000) }}`, workOrTime},
		{"huge JSON indent", `{{ messages|tojson(indent=1000000000) }}`, workOrTime},
		{"replace with a huge text", `{{ "abc".replace("", "x" * 30000000) }}`, workOrTime},
		{"string doubled", doubled(`"ab"`, `ns.v ~ ns.v`, `{{ ns.v|length }}`), workOrTime},
		{"list doubled", doubled(`[1]`, `ns.v + ns.v`, `{{ ns.v|length }}`), workOrTime},
		{"shared list compared", doubled(`[1]`, `[ns.v, ns.v]`, `{{ ns.v == ns.v }}`), workOrTime},
		{"expressions nested", "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}", "expressions nest more than"},
		{"unary minus nested", "{{ " + strings.Repeat("- ", 100000) + "1 }}", "expressions nest more than"},
		{"blocks nested", strings.Repeat("{% if 1 %}", 10000) + strings.Repeat("{% endif %}", 10000), "blocks nest more than"},
		{"filter chain", "{{ x" + strings.Repeat("|trim", 100000) + " }}", "evaluate more than"},
		{"addition chain", "{{ 1" + strings.Repeat(" + 1", 100000) + " }}", "evaluate more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := renderWithin(t, c.src, 20*time.Second)
			if !errors.Is(err, jinja.ErrLimit) || !strings.Contains(err.Error(), c.why) {
				t.Fatalf("got %.40q, error %v; want one wrapping ErrLimit that says %q", out, err, c.why)
			}
		})
	}
	// A render after those starts with its whole budget.
	if out, err := renderWithin(t, `{{ messages[0].content }}`, 5*time.Second); err != nil || out != "hi" {
		t.Fatalf("after the limits: %q, %v", out, err)
	}
}

// TestRenderWithinLimits: what real templates do stays well inside the
// limits, and the edges that used to panic give Python's results.
func TestRenderWithinLimits(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"recursion 50 deep", `{% macro m(n) %}{% if n > 0 %}({{ m(n - 1) }}){% endif %}{% endmacro %}{{ m(50)|length }}`, "100"},
		{"nesting 50 deep printed", `{% set ns = namespace(v=[]) %}{% for i in range(50) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v|tojson|length }}`, "102"},
		{"negative repeat", `[{{ "a" * -1 }}]`, "[]"},
		{"range near the int64 limit", `{% for i in range(9223372036854775806, 9223372036854775807, 10) %}{{ i }}{% endfor %}`, "9223372036854775806"},
		{"descending range", `{{ range(5, 0, -2)|list }}`, "[5, 3, 1]"},
		{"100,000 passes", `{% set ns = namespace(n=0) %}{% for i in range(100000) %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}`, "100000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := renderWithin(t, c.src, 20*time.Second)
			if err != nil || out != c.want {
				t.Fatalf("got %q, %v; want %q", out, err, c.want)
			}
		})
	}
}

// TestLongChatWithinLimits: a real model's template (Qwen3's, with its
// reasoning and tool branches) renders a chat of 20,000 messages, 4 MB of
// text, well inside the limits.
func TestLongChatWithinLimits(t *testing.T) {
	src, err := os.ReadFile("testdata/templates/Qwen3-8B-Q8_0.jinja")
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := jinja.Compile(string(src))
	if err != nil {
		t.Fatal(err)
	}
	msgs := make([]any, 20000)
	text := strings.Repeat("All work and no play makes Jack a dull boy. ", 5)
	for i := range msgs {
		msgs[i] = map[string]any{"role": []string{"user", "assistant"}[i%2], "content": text}
	}
	out, err := tmpl.Render(map[string]any{"messages": msgs, "add_generation_prompt": true})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, text); n != len(msgs) {
		t.Fatalf("%d of %d messages in the prompt", n, len(msgs))
	}
}

// TestConcurrentRenders: renders from many goroutines, some of them
// running into a limit, each get their own result and budget (the race
// detector runs this in make test).
func TestConcurrentRenders(t *testing.T) {
	good, err := jinja.Compile(`{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}`)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := jinja.Compile(`{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if g%4 == 0 {
					if _, err := bad.Render(nil); !errors.Is(err, jinja.ErrLimit) {
						errs <- fmt.Errorf("hostile render: %v", err)
					}
					continue
				}
				text := fmt.Sprint(g, "/", i)
				out, err := good.Render(map[string]any{"messages": []any{map[string]any{"role": "user", "content": text}}})
				if err != nil || out != "<user>"+text {
					errs <- fmt.Errorf("render %s: %q, %v", text, out, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
