package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/tokenizer"
)

//go:embed web
var webFiles embed.FS

// Options configure the HTTP API.
type Options struct {
	// ModelName is the id /v1/models lists and responses carry.
	ModelName string
	// APIKey, when set, must come as "Authorization: Bearer KEY" on every
	// endpoint but /health and the static page.
	APIKey string
	// CORSOrigin, when set ("*" or an origin), allows browsers on other
	// origins; CORS is off otherwise.
	CORSOrigin string
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// RequestTimeout ends a generation that runs longer (default 10 min).
	RequestTimeout time.Duration
	// Template renders chats; nil: chatml.
	Template *Template
	// Logger gets one line per request; nil: none.
	Logger *slog.Logger
}

// Server is the OpenAI-compatible HTTP API over an Engine.
type Server struct {
	e       *Engine
	opts    Options
	metrics *Metrics
	mux     *http.ServeMux
	created int64
}

// New returns the API over e; metrics is the one e counts into (nil: a
// new one, so /metrics lacks the engine's counts).
func New(e *Engine, opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 10 * time.Minute
	}
	if opts.Template == nil {
		opts.Template = builtins["chatml"]
	}
	if opts.ModelName == "" {
		opts.ModelName = "gpurt"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{e: e, opts: opts, metrics: e.stats, mux: http.NewServeMux(), created: time.Now().Unix()}
	s.mux.HandleFunc("POST /v1/chat/completions", s.chat)
	s.mux.HandleFunc("POST /v1/completions", s.completion)
	s.mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	s.mux.HandleFunc("GET /v1/models", s.models)
	s.mux.HandleFunc("GET /health", s.health)
	s.mux.HandleFunc("GET /metrics", s.writeMetrics)
	page, _ := fs.Sub(webFiles, "web")
	s.mux.Handle("GET /{$}", http.FileServerFS(page))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if m, ok := methods[r.URL.Path]; ok {
			w.Header().Set("Allow", m)
			writeError(w, &apiError{Status: http.StatusMethodNotAllowed, Type: "invalid_request_error", Message: fmt.Sprintf("%s %s: this endpoint takes %s", r.Method, r.URL.Path, m)})
			return
		}
		writeError(w, &apiError{Status: http.StatusNotFound, Type: "invalid_request_error", Message: fmt.Sprintf("no endpoint %s %s", r.Method, r.URL.Path)})
	})
	return s
}

// methods are the endpoints' methods, for 405 answers.
var methods = map[string]string{
	"/v1/chat/completions": "POST", "/v1/completions": "POST", "/v1/embeddings": "POST",
	"/v1/models": "GET", "/health": "GET", "/metrics": "GET", "/": "GET",
}

// HTTPServer returns an http.Server for addr with the API's timeouts: 10 s
// for request headers, 60 s to read a body, 120 s idle keep-alive (writes
// are not bounded: a stream lasts as long as its generation, which
// RequestTimeout bounds).
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// statusWriter remembers the status for the metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// ServeHTTP checks CORS and the API key, then routes.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	defer func() {
		endpoint := r.URL.Path
		if !strings.HasPrefix(endpoint, "/v1/") && endpoint != "/health" && endpoint != "/metrics" && endpoint != "/" {
			endpoint = "other"
		}
		s.metrics.request(endpoint, w.status)
		s.opts.Logger.Info("request", "method", r.Method, "path", r.URL.Path, "status", w.status, "duration", time.Since(start))
	}()
	if o := s.opts.CORSOrigin; o != "" {
		w.Header().Set("Access-Control-Allow-Origin", o)
		w.Header().Set("Vary", "Origin")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	public := r.URL.Path == "/health" || (r.URL.Path == "/" && r.Method == http.MethodGet)
	if s.opts.APIKey != "" && !public {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.APIKey)) != 1 {
			writeError(w, withCode(&apiError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Message: "invalid or missing API key (send Authorization: Bearer KEY)"}, "invalid_api_key"))
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.Status, map[string]any{"error": e})
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
		map[string]any{"id": s.opts.ModelName, "object": "model", "created": s.created, "owned_by": "gpurt"},
	}})
}

func (s *Server) writeMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	s.metrics.write(w)
}

// embeddings answers /v1/embeddings with the mean-pooled final hidden
// states (after the output norm) of each input, as llama-server's mean
// pooling.
func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model          string          `json:"model"`
		Input          json.RawMessage `json:"input"`
		EncodingFormat string          `json:"encoding_format"`
	}
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	if req.EncodingFormat != "" && req.EncodingFormat != "float" {
		writeError(w, badRequest("encoding_format", "encoding_format %q: only float is supported", req.EncodingFormat))
		return
	}
	var one string
	var many []string
	switch {
	case len(req.Input) == 0 || string(req.Input) == "null":
		writeError(w, badRequest("input", "input is required"))
		return
	case json.Unmarshal(req.Input, &one) == nil:
		many = []string{one}
	case json.Unmarshal(req.Input, &many) == nil && len(many) > 0 && len(many) <= 64:
	default:
		writeError(w, badRequest("input", "input: want a string or an array of 1 to 64 strings"))
		return
	}
	m := s.e.Model()
	data := make([]any, len(many))
	total := 0
	for i, text := range many {
		tokens, err := m.Tok.Tokenizer.Encode(text, tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true})
		if err != nil || len(tokens) == 0 {
			writeError(w, badRequest("input", "input[%d] cannot be tokenized (%v) or gives no tokens", i, err))
			return
		}
		if n := s.e.SlotContext(); len(tokens) > n {
			// It is evaluated in the cells of one slot's stream.
			writeError(w, withCode(badRequest("input", "input[%d] has %d tokens, more than a slot's context of %d", i, len(tokens), n), "context_length_exceeded"))
			return
		}
		vec, err := s.e.Embed(r.Context(), tokens)
		if err != nil {
			s.engineError(w, err)
			return
		}
		total += len(tokens)
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": vec}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": s.opts.ModelName,
		"usage": map[string]int{"prompt_tokens": total, "total_tokens": total}})
}

// engineError answers an error of Engine.Submit or Engine.Embed.
func (s *Server) engineError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrQueueFull):
		writeError(w, withCode(&apiError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: "the server is busy: every slot is generating and the queue is full; retry later"}, "queue_full"))
	case errors.Is(err, rt.ErrClosed):
		writeError(w, &apiError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: "the server is shutting down"})
	case errors.Is(err, context.Canceled):
	case errors.Is(err, rt.ErrInvalidArgument), errors.Is(err, rt.ErrContextFull), errors.Is(err, rt.ErrOutOfRange):
		writeError(w, badRequest("", "%v", err))
	default:
		writeError(w, &apiError{Status: http.StatusInternalServerError, Type: "server_error", Message: err.Error()})
	}
}

// textQueue passes streamed text from the engine to a handler without
// ever blocking the engine. It keeps each token's piece apart, so a handler
// that falls behind still streams one chunk a token, as llama-server does,
// rather than one chunk of everything made while it waited.
type textQueue struct {
	mu     sync.Mutex
	pieces []string
	ready  chan struct{} // signalled after a push
}

func (q *textQueue) push(s string) {
	if s == "" {
		return
	}
	q.mu.Lock()
	q.pieces = append(q.pieces, s)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns the pieces pushed since the last take, in order.
func (q *textQueue) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.pieces
	q.pieces = nil
	return p
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, badRequest("messages", "messages: want at least one message"))
		return
	}
	msgs := make([]Message, len(req.Messages))
	for i, m := range req.Messages {
		role := m.Role
		if role == "developer" {
			role = "system"
		}
		if role != "system" && role != "user" && role != "assistant" {
			writeError(w, badRequest(fmt.Sprintf("messages[%d].role", i), "messages[%d].role %q: want system, user or assistant", i, m.Role))
			return
		}
		text, e := messageText(i, m.Content)
		if e != nil {
			writeError(w, e)
			return
		}
		msgs[i] = Message{Role: role, Content: text}
	}
	g, e := req.check(randomSeed)
	if e != nil {
		writeError(w, e)
		return
	}
	prompt, err := s.opts.Template.Render(msgs, true)
	if err != nil {
		writeError(w, badRequest("messages", "%v", err))
		return
	}
	g.stops = append(g.stops, s.opts.Template.Stops...)
	s.generate(w, r, g, prompt, nil, true)
}

func (s *Server) completion(w http.ResponseWriter, r *http.Request) {
	var req completionRequest
	if e := decodeBody(w, r, s.opts.MaxBodyBytes, &req); e != nil {
		writeError(w, e)
		return
	}
	var text string
	var tokens []int32
	raw := req.Prompt
	var many []string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		writeError(w, badRequest("prompt", "prompt is required"))
		return
	case json.Unmarshal(raw, &text) == nil:
	case json.Unmarshal(raw, &many) == nil && len(many) == 1:
		text = many[0]
	case json.Unmarshal(raw, &tokens) == nil && len(tokens) > 0:
		nv := int32(s.e.Model().H.NVocab)
		for i, t := range tokens {
			if t < 0 || t >= nv {
				writeError(w, badRequest("prompt", "prompt[%d] = %d: token ids are in [0, %d)", i, t, nv))
				return
			}
		}
	default:
		writeError(w, badRequest("prompt", "prompt: want a string, an array of one string, or an array of token ids"))
		return
	}
	g, e := req.check(randomSeed)
	if e != nil {
		writeError(w, e)
		return
	}
	s.generate(w, r, g, text, tokens, false)
}

// generate tokenizes (unless tokens are given), runs the job and writes
// the response, streamed or whole.
func (s *Server) generate(w http.ResponseWriter, r *http.Request, g *generation, text string, tokens []int32, chat bool) {
	m := s.e.Model()
	if tokens == nil {
		var err error
		tokens, err = m.Tok.Tokenizer.Encode(text, tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true})
		if err != nil {
			writeError(w, badRequest("prompt", "the prompt cannot be tokenized: %v", err))
			return
		}
		if len(tokens) == 0 {
			writeError(w, badRequest("prompt", "the prompt is empty and the vocabulary adds no BOS to start from"))
			return
		}
	}
	if n := s.e.SlotContext(); len(tokens) >= n {
		writeError(w, withCode(badRequest("prompt", "the prompt has %d tokens, which leaves no room in a slot's context of %d", len(tokens), n), "context_length_exceeded"))
		return
	}
	if g.sampling.RepeatLastN == -1 {
		g.sampling.RepeatLastN = m.H.NCtx
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout)
	defer cancel()

	deltas := &textQueue{ready: make(chan struct{}, 1)}
	dec := tokenizer.NewStreamDecoder(m.Tok.Tokenizer, tokenizer.DecodeOptions{KeepLeadingSpace: !chat})
	stops := &stopMatcher{stops: g.stops}
	job := &Job{Prompt: tokens, MaxNew: g.maxNew, Sampling: g.sampling, OnToken: func(id int32) bool {
		piece, _ := dec.Next(id)
		out, hit := stops.push(piece)
		deltas.push(out) // never blocks the engine on a slow client
		return !hit
	}}
	results, err := s.e.Submit(ctx, job)
	if err != nil {
		s.engineError(w, err)
		return
	}

	id, created := newID("cmpl-"), time.Now().Unix()
	object := "text_completion"
	if chat {
		id, object = newID("chatcmpl-"), "chat.completion"
	}
	choice := func(text string, finish any, delta bool) map[string]any {
		c := map[string]any{"index": 0, "finish_reason": finish}
		switch {
		case chat && delta:
			d := map[string]any{}
			if text != "" {
				d["content"] = text
			}
			c["delta"] = d
		case chat:
			c["message"] = map[string]any{"role": "assistant", "content": text}
		default:
			c["text"], c["logprobs"] = text, nil
		}
		return c
	}
	usage := func(res Result) map[string]any {
		return map[string]any{"prompt_tokens": res.PromptTokens, "completion_tokens": len(res.Tokens), "total_tokens": res.PromptTokens + len(res.Tokens),
			"prompt_tokens_details": map[string]any{"cached_tokens": res.CachedTokens}}
	}
	finish := func(res Result) string {
		if res.Finish == "cancelled" {
			return "length"
		}
		return res.Finish
	}
	// tail is what the decoder and the stop matcher still hold at the end.
	tail := func() string {
		out, _ := stops.push(dec.Flush())
		if !stops.done {
			out += stops.flush()
		}
		return out
	}

	if !g.stream {
		var b strings.Builder
		var res Result
	wait:
		for {
			select {
			case <-deltas.ready:
				b.WriteString(strings.Join(deltas.take(), ""))
			case res = <-results:
				break wait
			}
		}
		b.WriteString(strings.Join(deltas.take(), ""))
		if res.Err != nil {
			writeError(w, &apiError{Status: http.StatusInternalServerError, Type: "server_error", Message: res.Err.Error()})
			return
		}
		if res.Finish == "cancelled" {
			if r.Context().Err() == nil { // our timeout, not the client leaving
				writeError(w, withCode(&apiError{Status: http.StatusServiceUnavailable, Type: "server_error", Message: fmt.Sprintf("the request ran past the timeout of %v", s.opts.RequestTimeout)}, "timeout"))
			}
			return
		}
		b.WriteString(tail())
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": object, "created": created, "model": s.opts.ModelName,
			"choices": []any{choice(b.String(), finish(res), false)}, "usage": usage(res)})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	object += ".chunk"
	if !chat {
		object = "text_completion"
	}
	events := newEventWriter(w)
	send := func(v any) {
		b, _ := json.Marshal(v)
		events.send(b)
	}
	chunk := func(text string, fin any) map[string]any {
		return map[string]any{"id": id, "object": object, "created": created, "model": s.opts.ModelName, "choices": []any{choice(text, fin, true)}}
	}
	// Text chunks, one a token, are written from a template: the
	// same fields as chunk(text, nil) with only the text encoded each time.
	textChunk := newChunkTemplate(chunk("\x00", nil))
	if chat { // the first chunk names the role, as OpenAI's
		c := chunk("", nil)
		c["choices"].([]any)[0].(map[string]any)["delta"] = map[string]any{"role": "assistant", "content": ""}
		send(c)
	}
	var res Result
stream:
	for {
		select {
		case <-deltas.ready:
			for _, d := range deltas.take() {
				events.send(textChunk.fill(d))
			}
		case res = <-results:
			break stream
		}
	}
	for _, d := range deltas.take() {
		events.send(textChunk.fill(d))
	}
	if res.Err != nil {
		send(map[string]any{"error": &apiError{Status: http.StatusInternalServerError, Type: "server_error", Message: res.Err.Error()}})
		return
	}
	if res.Finish == "cancelled" {
		if r.Context().Err() == nil {
			send(map[string]any{"error": withCode(&apiError{Type: "server_error", Message: fmt.Sprintf("the request ran past the timeout of %v", s.opts.RequestTimeout)}, "timeout")})
		}
		return
	}
	if t := tail(); t != "" {
		send(chunk(t, nil))
	}
	last := chunk("", finish(res))
	last["usage"] = usage(res) // llama-server sends it here too
	send(last)
	if g.usage {
		send(map[string]any{"id": id, "object": object, "created": created, "model": s.opts.ModelName, "choices": []any{}, "usage": usage(res)})
	}
	events.send([]byte("[DONE]"))
}

// eventWriter writes server-sent events, each in one Write and flushed at
// once (a streamed token should reach the client as it is made).
type eventWriter struct {
	w       http.ResponseWriter
	flusher http.Flusher
	buf     []byte
}

func newEventWriter(w http.ResponseWriter) *eventWriter {
	f, _ := w.(http.Flusher)
	return &eventWriter{w: w, flusher: f}
}

// send writes one "data: " event.
func (e *eventWriter) send(data []byte) {
	e.buf = append(append(append(e.buf[:0], "data: "...), data...), "\n\n"...)
	e.w.Write(e.buf)
	if e.flusher != nil {
		e.flusher.Flush()
	}
}

// chunkTemplate is a stream chunk's JSON split around its text, so that a
// chunk costs the encoding of its text rather than of the whole object
// (maps, reflection, sorted keys, a dozen allocations) once per token.
type chunkTemplate struct {
	before, after []byte
	buf           []byte
	text          *json.Encoder
	textBuf       bytes.Buffer
}

// newChunkTemplate splits the encoding of chunk, whose only text field is
// the placeholder "\x00", around that placeholder.
func newChunkTemplate(chunk any) *chunkTemplate {
	b, _ := json.Marshal(chunk)
	const placeholder = `"\u0000"`
	i := bytes.Index(b, []byte(placeholder))
	t := &chunkTemplate{before: b[:i], after: b[i+len(placeholder):]}
	t.text = json.NewEncoder(&t.textBuf)
	return t
}

// fill returns the chunk with text; the slice is reused by the next call.
func (t *chunkTemplate) fill(text string) []byte {
	t.textBuf.Reset()
	t.text.Encode(text) // a string always encodes; escaped as json.Marshal does
	enc := bytes.TrimSuffix(t.textBuf.Bytes(), []byte("\n"))
	t.buf = append(append(append(t.buf[:0], t.before...), enc...), t.after...)
	return t.buf
}
