package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/models"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/tokenizer"
)

// startServer serves the embedded default model on a loopback port.
func startServer(t testing.TB, opts Options, eo EngineOptions) (*httptest.Server, *Engine) {
	t.Helper()
	f, err := gguf.Parse(models.Default)
	if err != nil {
		t.Fatal(err)
	}
	be, err := cpu.NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be}, NSeq: max(eo.Slots, 1)})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(m, eo, &Metrics{})
	ts := httptest.NewServer(New(e, opts))
	t.Cleanup(func() {
		ts.Close()
		e.Close()
		m.Close()
		be.Close()
	})
	return ts, e
}

func post(t testing.TB, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestBadRequests(t *testing.T) {
	// A chat template that runs away on messages longer than a letter
	// (a hostile model file's): the requests below fail before rendering
	// but one.
	hostile, err := JinjaTemplate("hostile", hostileTemplate, "", "")
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := startServer(t, Options{MaxBodyBytes: 4096, Template: hostile}, EngineOptions{Queue: 4, Slots: 2})
	long := strings.Repeat("truth universally acknowledged ", 200)
	chat := ts.URL + "/v1/chat/completions"
	comp := ts.URL + "/v1/completions"
	for _, c := range []struct {
		name, url, body string
		status          int
		param           string
	}{
		{"not JSON", chat, `{"messages": [`, 400, ""},
		{"empty body", chat, ``, 400, ""},
		{"two objects", chat, `{"messages":[{"role":"user","content":"a"}]} {}`, 400, ""},
		{"array body", chat, `[1,2]`, 400, ""},
		{"no messages", chat, `{"messages": []}`, 400, "messages"},
		{"messages wrong type", chat, `{"messages": "hi"}`, 400, "messages"},
		{"bad role", chat, `{"messages": [{"role":"wizard","content":"hi"}]}`, 400, "messages[0].role"},
		{"content number", chat, `{"messages": [{"role":"user","content":5}]}`, 400, "messages[0].content"},
		{"image part", chat, `{"messages": [{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, 400, "messages[0].content"},
		{"temperature string", chat, `{"messages": [{"role":"user","content":"hi"}], "temperature": "hot"}`, 400, "temperature"},
		{"temperature negative", chat, `{"messages": [{"role":"user","content":"hi"}], "temperature": -1}`, 400, "temperature"},
		{"top_p above 1", chat, `{"messages": [{"role":"user","content":"hi"}], "top_p": 1.5}`, 400, "top_p"},
		{"top_k negative", chat, `{"messages": [{"role":"user","content":"hi"}], "top_k": -3}`, 400, "top_k"},
		{"top_k fraction", chat, `{"messages": [{"role":"user","content":"hi"}], "top_k": 2.5}`, 400, "top_k"},
		{"min_p 1", chat, `{"messages": [{"role":"user","content":"hi"}], "min_p": 1}`, 400, "min_p"},
		{"repeat_penalty 0", chat, `{"messages": [{"role":"user","content":"hi"}], "repeat_penalty": 0}`, 400, "repeat_penalty"},
		{"max_tokens -5", chat, `{"messages": [{"role":"user","content":"hi"}], "max_tokens": -5}`, 400, "max_tokens"},
		{"n_predict huge", comp, `{"prompt":"a", "n_predict": 1e30}`, 400, "n_predict"},
		{"n 2", chat, `{"messages": [{"role":"user","content":"hi"}], "n": 2}`, 400, "n"},
		{"stop number", chat, `{"messages": [{"role":"user","content":"hi"}], "stop": 3}`, 400, "stop"},
		{"stop empty", chat, `{"messages": [{"role":"user","content":"hi"}], "stop": [""]}`, 400, "stop"},
		{"chat template runs away", chat, `{"messages": [{"role":"user","content":"hello"}]}`, 400, "messages"},
		{"stream string", chat, `{"messages": [{"role":"user","content":"hi"}], "stream": "yes"}`, 400, "stream"},
		{"no prompt", comp, `{"max_tokens": 3}`, 400, "prompt"},
		{"prompt object", comp, `{"prompt": {"a": 1}}`, 400, "prompt"},
		{"two prompts", comp, `{"prompt": ["a", "b"]}`, 400, "prompt"},
		{"token outside vocab", comp, `{"prompt": [1, 99999]}`, 400, "prompt"},
		{"prompt beyond context", comp, `{"prompt": "` + long[:3500] + `"}`, 400, "prompt"},
		{"body over limit", comp, `{"prompt": "` + long + `"}`, 413, ""},
		{"unknown endpoint", ts.URL + "/v1/nothing", `{}`, 404, ""},
		{"GET on POST endpoint", "", "", 405, ""},
		{"embeddings without input", ts.URL + "/v1/embeddings", `{"model":"x"}`, 400, "input"},
		{"embeddings input number", ts.URL + "/v1/embeddings", `{"input": 7}`, 400, "input"},
		{"embeddings beyond a slot", ts.URL + "/v1/embeddings", `{"input": "` + strings.Repeat("truth ", 40) + `"}`, 400, "input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var resp *http.Response
			var body []byte
			if c.url == "" {
				r, err := http.Get(chat)
				if err != nil {
					t.Fatal(err)
				}
				body, _ = io.ReadAll(r.Body)
				r.Body.Close()
				resp = r
			} else {
				resp, body = post(t, c.url, c.body)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			var e struct {
				Error struct {
					Message, Type string
					Param         *string
				}
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Message == "" || e.Error.Type == "" {
				t.Fatalf("not an OpenAI error object: %s", body)
			}
			if c.param != "" && (e.Error.Param == nil || *e.Error.Param != c.param) {
				t.Errorf("param %v, want %q (%s)", e.Error.Param, c.param, e.Error.Message)
			}
		})
	}
	// After all of that the server still answers.
	resp, body := post(t, comp, `{"prompt": "It is", "max_tokens": 4, "temperature": 0}`)
	if resp.StatusCode != 200 {
		t.Fatalf("after the bad requests: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, chat, `{"messages": [{"role":"user","content":"h"}], "max_tokens": 4, "temperature": 0}`)
	if resp.StatusCode != 200 {
		t.Fatalf("a chat after the bad requests: %d %s", resp.StatusCode, body)
	}
}

func TestAPIKeyAndCORS(t *testing.T) {
	ts, _ := startServer(t, Options{APIKey: "sekrit"}, EngineOptions{Queue: 4, Slots: 2})
	for _, c := range []struct {
		method, path, auth string
		status             int
	}{
		{"GET", "/health", "", 200},
		{"GET", "/", "", 200},
		{"GET", "/v1/models", "", 401},
		{"GET", "/v1/models", "Bearer wrong", 401},
		{"GET", "/v1/models", "sekrit", 401},
		{"GET", "/v1/models", "Bearer sekrit", 200},
		{"GET", "/metrics", "", 401},
		{"POST", "/v1/completions", "", 401},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(`{"prompt":"a","max_tokens":1}`))
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s with %q: %d, want %d", c.method, c.path, c.auth, resp.StatusCode, c.status)
		}
		if h := resp.Header.Get("Access-Control-Allow-Origin"); h != "" {
			t.Errorf("%s: CORS header %q without Options.CORSOrigin", c.path, h)
		}
	}
}

// stream reads a streamed completion and returns its text, the finish
// reason and the completion token count of the usage.
func stream(ctx context.Context, url, body string, stopAfter int) (text, finish string, tokens int, err error) {
	chunks := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	text, finish, tokens, err = streamWith(ctx, url, body, func() {
		if chunks++; stopAfter > 0 && chunks >= stopAfter {
			cancel()
		}
	})
	if stopAfter > 0 && chunks >= stopAfter {
		return text, "", 0, nil
	}
	return text, finish, tokens, err
}

// streamClient sends the streamed requests (the benchmark drops keep-alive:
// llama-server closes idle connections under the client's feet).
var streamClient = http.DefaultClient

// streamWith reads a streamed completion, calling onChunk after each
// content chunk.
func streamWith(ctx context.Context, url, body string, onChunk func()) (text, finish string, tokens int, err error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	resp, err := streamClient.Do(req)
	if err != nil {
		return "", "", 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return "", "", 0, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	sc := bufio.NewScanner(resp.Body)
	var b strings.Builder
	done := false
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			done = true
			break
		}
		var c struct {
			Choices []struct {
				Text         string
				Delta        struct{ Content string }
				FinishReason *string `json:"finish_reason"`
			}
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			}
			Error *apiError
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return "", "", 0, err
		}
		if c.Error != nil {
			return "", "", 0, c.Error
		}
		if c.Usage != nil {
			tokens = c.Usage.CompletionTokens
		}
		content := false
		for _, ch := range c.Choices {
			b.WriteString(ch.Text + ch.Delta.Content)
			content = content || ch.Text+ch.Delta.Content != ""
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
		}
		if content && onChunk != nil {
			onChunk()
			if ctx.Err() != nil {
				return b.String(), "", 0, nil
			}
		}
	}
	if !done {
		return b.String(), finish, tokens, fmt.Errorf("the stream ended without [DONE]")
	}
	return b.String(), finish, tokens, sc.Err()
}

func TestStreamMatchesWhole(t *testing.T) {
	ts, _ := startServer(t, Options{}, EngineOptions{Queue: 4, Slots: 2})
	for _, path := range []string{"/v1/completions", "/v1/chat/completions"} {
		body := `{"prompt": "It is a truth universally acknowledged", "max_tokens": 24, "temperature": 0}`
		if strings.Contains(path, "chat") {
			body = `{"messages": [{"role":"system","content":"Be brief."},{"role":"user","content":"Tell me of Bath."}], "max_tokens": 24, "temperature": 0}`
		}
		resp, raw := post(t, ts.URL+path, body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, raw)
		}
		var whole struct {
			Choices []struct {
				Text         string
				FinishReason string `json:"finish_reason"`
				Message      struct{ Content string }
			}
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			}
		}
		json.Unmarshal(raw, &whole)
		var wholeText struct {
			Choices []struct{ Text string }
		}
		json.Unmarshal(raw, &wholeText)
		want := wholeText.Choices[0].Text + whole.Choices[0].Message.Content
		streamBody := strings.Replace(body, `"temperature": 0`, `"temperature": 0, "stream": true`, 1)
		chunks := 0
		got, finish, n, err := streamWith(context.Background(), ts.URL+path, streamBody, func() { chunks++ })
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// One chunk a token that made text, however far the handler fell
		// behind the engine; a few tokens may make none (partial UTF-8).
		if chunks < n/2 || chunks > n {
			t.Errorf("%s: %d content chunks for %d tokens, want about one a token", path, chunks, n)
		}
		if got != want || want == "" {
			t.Errorf("%s: streamed %q, whole %q", path, got, want)
		}
		if finish != whole.Choices[0].FinishReason || n != whole.Usage.CompletionTokens {
			t.Errorf("%s: streamed finish %q with %d tokens, whole %q with %d", path, finish, n, whole.Choices[0].FinishReason, whole.Usage.CompletionTokens)
		}
	}
}

// TestTextQueueKeepsPieces: a handler that takes late still gets each
// token's piece on its own, in order.
func TestTextQueueKeepsPieces(t *testing.T) {
	q := &textQueue{ready: make(chan struct{}, 1)}
	for _, p := range []string{"It", "", " is", " a"} {
		q.push(p)
	}
	if got := q.take(); !slices.Equal(got, []string{"It", " is", " a"}) {
		t.Errorf("take: %q, want the three non-empty pieces", got)
	}
	if got := q.take(); len(got) != 0 {
		t.Errorf("second take: %q, want nothing", got)
	}
}

func TestStopStrings(t *testing.T) {
	ts, _ := startServer(t, Options{}, EngineOptions{Queue: 4, Slots: 2})
	body := `{"prompt": "It is a truth universally acknowledged", "max_tokens": 40, "temperature": 0%s}`
	_, raw := post(t, ts.URL+"/v1/completions", fmt.Sprintf(body, ""))
	var r struct {
		Choices []struct {
			Text         string
			FinishReason string `json:"finish_reason"`
		}
	}
	json.Unmarshal(raw, &r)
	full := r.Choices[0].Text
	if len(full) < 12 {
		t.Fatalf("too short to cut: %q", full)
	}
	stop := full[8:11]
	want := full[:strings.Index(full, stop)]
	for _, streamed := range []bool{false, true} {
		b := fmt.Sprintf(body, fmt.Sprintf(`, "stop": [%q, "qqqqqq"], "stream": %v`, stop, streamed))
		var got, finish string
		if streamed {
			var err error
			if got, finish, _, err = stream(context.Background(), ts.URL+"/v1/completions", b, 0); err != nil {
				t.Fatal(err)
			}
		} else {
			_, raw := post(t, ts.URL+"/v1/completions", b)
			json.Unmarshal(raw, &r)
			got, finish = r.Choices[0].Text, r.Choices[0].FinishReason
		}
		if got != want || finish != "stop" {
			t.Errorf("stream %v, stop %q: %q (%s), want %q (stop)", streamed, stop, got, finish, want)
		}
	}
}

func TestStopMatcher(t *testing.T) {
	for _, c := range []struct {
		pieces []string
		stops  []string
		want   string
		hit    bool
	}{
		{[]string{"hel", "lo wo", "rld"}, []string{"wor"}, "hello ", true},
		{[]string{"ab", "c"}, []string{"cd"}, "abc", false},
		{[]string{"a<|im", "_end|>b"}, []string{"<|im_end|>"}, "a", true},
		{[]string{"x", "y"}, nil, "xy", false},
	} {
		s := &stopMatcher{stops: c.stops}
		var out string
		hit := false
		for _, p := range c.pieces {
			o, h := s.push(p)
			out += o
			if h {
				hit = true
				break
			}
		}
		if !hit {
			out += s.flush()
		}
		if out != c.want || hit != c.hit {
			t.Errorf("%q with stops %q: %q %v, want %q %v", c.pieces, c.stops, out, hit, c.want, c.hit)
		}
	}
}

// TestLoad: 16 streaming clients x 8 requests at temperature 0 each get
// exactly the text one client alone gets for its prompt; then clients that
// leave mid-stream free their slot and the server serves on.
func TestLoad(t *testing.T) {
	ts, e := startServer(t, Options{}, EngineOptions{Queue: 32, Slots: 4})
	url := ts.URL + "/v1/completions"
	const clients, requests = 16, 8
	prompts := []string{"It is a truth", "Mr. Darcy", "Emma Woodhouse, handsome", "The family of Dashwood", "Elizabeth", "Sir Walter Elliot", "Catherine Morland", "Fanny Price"}
	body := func(i int) string {
		return fmt.Sprintf(`{"prompt": %q, "max_tokens": 16, "temperature": 0, "stream": true}`, prompts[i%len(prompts)])
	}
	want := make([]string, len(prompts))
	for i := range prompts {
		text, _, _, err := stream(context.Background(), url, body(i), 0)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = text
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients*requests)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range requests {
				i := c*requests + r
				got, finish, n, err := stream(context.Background(), url, body(i), 0)
				switch {
				case err != nil:
					errs <- fmt.Errorf("client %d request %d: %v", c, r, err)
				case got != want[i%len(prompts)] || finish != "length" || n != 16:
					errs <- fmt.Errorf("client %d request %d: %q (%s, %d tokens), want %q (length, 16)", c, r, got, finish, n, want[i%len(prompts)])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if p := e.stats.peak(); p != 4 {
		t.Errorf("at most %d of 4 slots generated at once under 16 clients", p)
	}

	// Clients that leave after two chunks of a long generation.
	long := `{"prompt": "It is", "max_tokens": 200, "temperature": 0.8, "stream": true}`
	var left sync.WaitGroup
	for range 8 {
		left.Add(1)
		go func() {
			defer left.Done()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stream(ctx, url, long, 2)
		}()
	}
	left.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for e.stats.busyNow() > 0 || e.QueueDepth() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("slots still busy 10 s after every client left: %d busy, %d queued", e.stats.busyNow(), e.QueueDepth())
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, _, _, err := stream(context.Background(), url, body(0), 0)
	if err != nil || got != want[0] {
		t.Fatalf("after the clients left: %q %v, want %q", got, err, want[0])
	}
}

// TestQueueFull: with the one slot held (a job whose token callback
// waits) and the queue of one taken, the next request gets 503 at once;
// once the slot is let go, the queued request is served.
func TestQueueFull(t *testing.T) {
	ts, e := startServer(t, Options{}, EngineOptions{Queue: 1, Slots: 1})
	url := ts.URL + "/v1/completions"
	hold, held := make(chan struct{}), make(chan struct{})
	var once sync.Once
	prompt, err := e.Model().Tok.Tokenizer.Encode("It is a truth universally acknowledged", tokenizer.EncodeOptions{AddSpecial: true})
	if err != nil {
		t.Fatal(err)
	}
	// Greedy: the default model's first token after this prompt is text,
	// not an end of generation, so it reaches the callback.
	blocker, err := e.Submit(context.Background(), &Job{Prompt: prompt, MaxNew: 2, Sampling: Sampling{RepeatPenalty: 1}, OnToken: func(int32) bool {
		once.Do(func() { close(held) })
		<-hold // the engine's goroutine waits here: the slot stays busy
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case r := <-blocker:
		t.Fatalf("the holding job ended (%q, %v) before its first token reached the callback", r.Finish, r.Err)
	}
	queued := make(chan int, 1)
	go func() {
		resp, _ := post(t, url, `{"prompt": "It is", "max_tokens": 4}`)
		queued <- resp.StatusCode
	}()
	for e.QueueDepth() == 0 { // the request above takes the queue
		time.Sleep(time.Millisecond)
	}
	resp, body := post(t, url, `{"prompt": "It is", "max_tokens": 4}`)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a request with the slot busy and the queue full: %d %s, want 503", resp.StatusCode, body)
	}
	close(hold)
	if r := <-blocker; r.Err != nil {
		t.Fatal(r.Err)
	}
	if code := <-queued; code != http.StatusOK {
		t.Errorf("the queued request: %d, want 200", code)
	}
}

func TestEndpoints(t *testing.T) {
	ts, _ := startServer(t, Options{ModelName: "austen"}, EngineOptions{Queue: 4, Slots: 2})
	post(t, ts.URL+"/v1/completions", `{"prompt":"It is","max_tokens":3}`)
	for _, c := range []struct{ path, want string }{
		{"/health", `"ok"`},
		{"/v1/models", `"id":"austen"`},
		{"/metrics", `gpurt_generated_tokens_total 3`},
		{"/metrics", `gpurt_requests_total{endpoint="/v1/completions",code="200"} 1`},
		{"/", `<title>gpurt chat</title>`},
	} {
		resp, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %d, want %q in %s", c.path, resp.StatusCode, c.want, b)
		}
	}
	resp, raw := post(t, ts.URL+"/v1/embeddings", `{"input":["It is a truth", "Mr. Darcy"]}`)
	var emb struct {
		Data []struct{ Embedding []float32 }
	}
	if err := json.Unmarshal(raw, &emb); resp.StatusCode != 200 || err != nil || len(emb.Data) != 2 || len(emb.Data[0].Embedding) != 128 {
		t.Errorf("/v1/embeddings: %d %.200s", resp.StatusCode, raw)
	}
}

// TestEmbedWithFullSlots: an embedding needs free cells in one slot's
// cache stream; when every idle slot kept a full cache, the engine frees
// one, and the vector is the one an empty cache gives.
func TestEmbedWithFullSlots(t *testing.T) {
	_, e := startServer(t, Options{}, EngineOptions{Queue: 4, Slots: 2})
	input := make([]int32, 40)
	for i := range input {
		input[i] = int32(10 + i)
	}
	want, err := e.Embed(context.Background(), input)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 { // both slots generate until their context is full
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Submit(context.Background(), &Job{Prompt: input[:8], MaxNew: -1, Sampling: Sampling{Temp: 1, RepeatPenalty: 1, Seed: 1}})
			if err != nil {
				t.Error(err)
				return
			}
			if r := <-res; r.Err != nil || r.Finish != "length" {
				t.Errorf("job: %+v", r)
			}
		}()
	}
	wg.Wait()
	got, err := e.Embed(context.Background(), input)
	if err != nil {
		t.Fatalf("embedding with both slots' caches full: %v", err)
	}
	if d := maxAbsDiff(got, want); d > 1e-5 {
		t.Errorf("embedding differs by %g from the one with empty caches", d)
	}
}

func maxAbsDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = max(d, float64(abs32(a[i]-b[i])))
	}
	return d
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestChunkTemplate: a stream chunk filled from its template is the bytes
// json.Marshal gives for the whole chunk, whatever the text needs escaped.
func TestChunkTemplate(t *testing.T) {
	chunk := func(text string) map[string]any {
		return map[string]any{"id": "cmpl-1", "object": "text_completion", "created": 7, "model": "m \x00 \"x\"",
			"choices": []any{map[string]any{"index": 0, "finish_reason": nil, "delta": map[string]any{"content": text}}}}
	}
	tmpl := newChunkTemplate(chunk("\x00"))
	for _, text := range []string{"a", " Once", "é✓", `"quoted" \ back`, "<b>&amp;", "line\nbreak\ttab\r", "\x00\x1f", "\u2028\u2029", "bad \xff utf-8", ""} {
		want, _ := json.Marshal(chunk(text))
		if got := tmpl.fill(text); !bytes.Equal(got, want) {
			t.Errorf("text %q:\n got %s\nwant %s", text, got, want)
		}
	}
}
