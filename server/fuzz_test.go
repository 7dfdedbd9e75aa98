package server

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequestBodies: any body decodes, and its messages, prompt and
// parameters check, to a request or an API error, without a panic.
func FuzzRequestBodies(f *testing.F) {
	for _, s := range []string{
		`{"messages":[{"role":"user","content":"hi"}],"max_tokens":3,"temperature":0.5,"stop":["\n"]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],"stream":true,"stream_options":{"include_usage":true}}`,
		`{"prompt":"a","n_predict":-1,"top_k":0,"top_p":1,"min_p":0.1,"seed":-1,"repeat_penalty":1.1,"repeat_last_n":-1}`,
		`{"prompt":[1,2,3],"stop":"x","n":1,"max_completion_tokens":1e3}`,
		`{"messages":"x"}`, `[]`, `{}`, `{"prompt":{"a":[1e400]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var chat chatRequest
		if e := decodeBody(httptest.NewRecorder(), httptest.NewRequest("POST", "/", strings.NewReader(body)), 1<<16, &chat); e == nil {
			for i, m := range chat.Messages {
				messageText(i, m.Content)
			}
			chat.check(func() uint64 { return 7 })
			parseStops(chat.Stop)
		}
		var comp completionRequest
		if e := decodeBody(httptest.NewRecorder(), httptest.NewRequest("POST", "/", strings.NewReader(body)), 1<<16, &comp); e == nil {
			comp.check(func() uint64 { return 7 })
		}
	})
}

// FuzzStopMatcher: text pushed in any pieces against any stop strings
// comes out whole up to the first stop to complete, with no stop inside
// what was sent and nothing sent twice or lost.
func FuzzStopMatcher(f *testing.F) {
	f.Add("\n\x00User:", "Hello\nUser: hi", []byte{1, 2, 3})
	f.Add("abcd\x00c", "xxabcd", []byte{3, 1})
	f.Add("<|im_end|>", "ok<|im_e", []byte{5})
	f.Fuzz(func(t *testing.T, stopList, text string, cuts []byte) {
		var stops []string
		for _, s := range strings.Split(stopList, "\x00") {
			if s != "" {
				stops = append(stops, s)
			}
		}
		if len(stops) == 0 {
			return
		}
		m := stopMatcher{stops: stops}
		var sent strings.Builder
		rest, pushed, done := text, 0, false
		for i := 0; len(rest) > 0 && !done; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, 1+int(cuts[i])%8)
			}
			var out string
			out, done = m.push(rest[:n])
			sent.WriteString(out)
			pushed += n
			rest = rest[n:]
		}
		if !done {
			sent.WriteString(m.flush())
		}
		got := sent.String()
		for _, s := range stops {
			if strings.Contains(got, s) {
				t.Fatalf("stops %q, text %q: sent %q holds stop %q", stops, text, got, s)
			}
		}
		if !strings.HasPrefix(text, got) {
			t.Fatalf("stops %q, text %q: sent %q is not the text's start", stops, text, got)
		}
		if !done {
			if got != text {
				t.Fatalf("stops %q, text %q: no stop, but sent %q", stops, text, got)
			}
			return
		}
		after := text[len(got):pushed]
		stopped := false
		for _, s := range stops {
			stopped = stopped || strings.HasPrefix(after, s)
		}
		if !stopped {
			t.Fatalf("stops %q, text %q: stopped after %q, which no stop follows (%q)", stops, text, got, after)
		}
	})
}
