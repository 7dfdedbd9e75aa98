package jinja_test

import (
	"strings"
	"testing"

	"github.com/gpurt/gpurt/internal/jinja"
)

// FuzzRender: any template source compiles or fails, and renders or
// fails, without crashing the process (a stack overflow is not a panic
// and kills it) and without a panic inside the engine, which Render
// would report as "render failed".
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		`{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>{% endfor %}`,
		`{% macro m(n) %}{% if n > 0 %}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(3) }}`,
		`{{ messages|tojson(indent=2) }}{{ (messages[0].content * 3)|replace("h", "j")|upper }}`,
		`{% set ns = namespace(x=[]) %}{% for i in range(5) %}{% set _ = ns.x.append(i) %}{% endfor %}{{ ns.x|join(",") }}`,
		`{{ "a{}b{0}".format(1) }}{{ messages[::-1]|map(attribute="role")|list }}{{ [3,1,2]|sort|first }}`,
		`{% if messages|length > 0 and messages[0]["role"] == "user" %}{{ raise_exception("x") }}{% endif %}`,
		`{%- for k, v in {"a": 1}.items() -%}{{ k }}={{ v }}{%- endfor -%}{% call m() %}x{% endcall %}`,
		`{{ 1 + 2 * 3 ** 2 // 4 % 5 - -1 }}{{ not not true }}{{ x if y else z }}{{ "abc"[1:] ~ "d" }}`,
	} {
		f.Add(s)
	}
	data := map[string]any{"messages": []any{
		map[string]any{"role": "system", "content": "be brief"},
		map[string]any{"role": "user", "content": "hi", "tool_calls": []any{map[string]any{"name": "f", "arguments": map[string]any{"a": 1}}}},
	}, "add_generation_prompt": true, "tools": []any{map[string]any{"type": "function"}}}
	f.Fuzz(func(t *testing.T, src string) {
		tmpl, err := jinja.Compile(src)
		if err != nil {
			return
		}
		if _, err := tmpl.Render(data); err != nil && strings.Contains(err.Error(), "render failed") {
			t.Fatalf("%q: a panic in the engine: %v", src, err)
		}
	})
}
