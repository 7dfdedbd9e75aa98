package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// apiError is an OpenAI-style error: the HTTP status and the object
// {"error": {"message", "type", "param", "code"}}.
type apiError struct {
	Status  int     `json:"-"`
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

func (e *apiError) Error() string { return e.Message }

func badRequest(param, format string, args ...any) *apiError {
	e := &apiError{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: fmt.Sprintf(format, args...)}
	if param != "" {
		e.Param = &param
	}
	return e
}

func withCode(e *apiError, code string) *apiError {
	e.Code = &code
	return e
}

// params are the generation fields /v1/completions and
// /v1/chat/completions share, as OpenAI and llama-server name them.
type params struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	NPredict            *int            `json:"n_predict"` // llama-server's name
	Temperature         *float64        `json:"temperature"`
	TopP                *float64        `json:"top_p"`
	TopK                *int            `json:"top_k"`
	MinP                *float64        `json:"min_p"`
	Seed                *int64          `json:"seed"`
	RepeatPenalty       *float64        `json:"repeat_penalty"`
	RepeatLastN         *int            `json:"repeat_last_n"`
	Stop                json.RawMessage `json:"stop"`
	N                   *int            `json:"n"`
}

type chatRequest struct {
	params
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type completionRequest struct {
	params
	Prompt json.RawMessage `json:"prompt"`
}

// decodeBody reads one JSON object from the body into v (unknown fields
// are ignored, as OpenAI clients send some; known ones must have their
// type).
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) *apiError {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Message: fmt.Sprintf("the request body is over the limit of %d bytes", limit)}
		}
		return badRequest("", "reading the request body: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("", "the request body is empty: want a JSON object")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			field := strings.TrimPrefix(typeErr.Field, "params.") // the embedded struct's name
			return badRequest(field, "field %q: want %v, got JSON %s", field, typeErr.Type, typeErr.Value)
		}
		return badRequest("", "the request body is not valid JSON: %v", err)
	}
	if d.More() {
		return badRequest("", "the request body has data after its JSON object")
	}
	return nil
}

// generation is a checked request's settings.
type generation struct {
	maxNew   int // -1: until the context is full
	sampling Sampling
	stops    []string
	stream   bool
	usage    bool // stream_options.include_usage
}

// check validates p and fills in llama-server's defaults.
func (p *params) check(randomSeed func() uint64) (*generation, *apiError) {
	g := &generation{maxNew: -1, stream: p.Stream, sampling: Sampling{Temp: 0.8, TopK: 40, TopP: 0.95, MinP: 0.05, RepeatPenalty: 1, RepeatLastN: 64}}
	g.usage = p.StreamOptions != nil && p.StreamOptions.IncludeUsage
	if p.N != nil && *p.N != 1 {
		return nil, badRequest("n", "n = %d: only one choice per request is supported", *p.N)
	}
	for _, mt := range []struct {
		name string
		v    *int
	}{{"max_tokens", p.MaxTokens}, {"max_completion_tokens", p.MaxCompletionTokens}, {"n_predict", p.NPredict}} {
		if mt.v == nil {
			continue
		}
		if *mt.v < -1 {
			return nil, badRequest(mt.name, "%s = %d: want -1 (no limit) or a count >= 0", mt.name, *mt.v)
		}
		g.maxNew = *mt.v
	}
	float := func(name string, v *float64, lo, hi float64, hiOpen bool, dst *float32) *apiError {
		if v == nil {
			return nil
		}
		x := *v
		if math.IsNaN(x) || x < lo || x > hi || (hiOpen && x == hi) {
			bracket := "]"
			if hiOpen {
				bracket = ")"
			}
			return badRequest(name, "%s = %v is outside [%v, %v%s", name, x, lo, hi, bracket)
		}
		*dst = float32(x)
		return nil
	}
	s := &g.sampling
	for _, e := range []*apiError{
		float("temperature", p.Temperature, 0, 100, false, &s.Temp),
		float("top_p", p.TopP, 0, 1, false, &s.TopP),
		float("min_p", p.MinP, 0, 1, true, &s.MinP),
		float("repeat_penalty", p.RepeatPenalty, 0, 100, false, &s.RepeatPenalty),
	} {
		if e != nil {
			return nil, e
		}
	}
	if s.RepeatPenalty == 0 {
		return nil, badRequest("repeat_penalty", "repeat_penalty = 0: want > 0 (1 is off)")
	}
	if p.TopK != nil {
		if *p.TopK < 0 {
			return nil, badRequest("top_k", "top_k = %d: want >= 0 (0: all tokens)", *p.TopK)
		}
		s.TopK = *p.TopK
	}
	if p.RepeatLastN != nil {
		if *p.RepeatLastN < -1 {
			return nil, badRequest("repeat_last_n", "repeat_last_n = %d: want -1 (the context) or >= 0", *p.RepeatLastN)
		}
		s.RepeatLastN = *p.RepeatLastN
	}
	if p.Seed != nil && *p.Seed != -1 {
		s.Seed = uint64(*p.Seed)
	} else {
		s.Seed = randomSeed()
	}
	stops, err := parseStops(p.Stop)
	if err != nil {
		return nil, err
	}
	g.stops = stops
	return g, nil
}

// parseStops reads "stop": null, a string, or an array of strings.
func parseStops(raw json.RawMessage) ([]string, *apiError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		raw = json.RawMessage(fmt.Sprintf("[%q]", one))
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, badRequest("stop", "stop: want a string or an array of strings")
	}
	if len(many) > 16 {
		return nil, badRequest("stop", "stop: %d strings, at most 16", len(many))
	}
	for _, s := range many {
		if s == "" {
			return nil, badRequest("stop", "stop: an empty string would stop at once")
		}
	}
	return many, nil
}

// messageText reads a message's content: a string, null, or an array of
// {"type": "text", "text": ...} parts.
func messageText(i int, raw json.RawMessage) (string, *apiError) {
	param := fmt.Sprintf("messages[%d].content", i)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string          `json:"type"`
		Text json.RawMessage `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", badRequest(param, "%s: want a string or an array of content parts", param)
	}
	var b strings.Builder
	for j, p := range parts {
		if p.Type != "text" {
			return "", badRequest(param, "%s[%d]: content type %q is not supported (only text)", param, j, p.Type)
		}
		var t string
		if err := json.Unmarshal(p.Text, &t); err != nil {
			return "", badRequest(param, "%s[%d].text: want a string", param, j)
		}
		b.WriteString(t)
	}
	return b.String(), nil
}

// stopMatcher finds stop strings in streamed text: push returns the text
// that can be sent (holding back a tail that may start a stop string) and
// whether a stop string ended the output.
type stopMatcher struct {
	stops   []string
	pending string
	done    bool
}

func (s *stopMatcher) push(text string) (string, bool) {
	if s.done {
		return "", true
	}
	s.pending += text
	cut, found := len(s.pending), false
	for _, st := range s.stops {
		if i := strings.Index(s.pending, st); i >= 0 && i < cut {
			cut, found = i, true
		}
	}
	if found {
		out := s.pending[:cut]
		s.pending, s.done = "", true
		return out, true
	}
	// Hold back the longest tail that is a prefix of some stop string.
	hold := 0
	for _, st := range s.stops {
		for n := min(len(st)-1, len(s.pending)); n > hold; n-- {
			if strings.HasSuffix(s.pending, st[:n]) {
				hold = n
				break
			}
		}
	}
	out := s.pending[:len(s.pending)-hold]
	s.pending = s.pending[len(s.pending)-hold:]
	return out, false
}

// flush returns what is held back once the output ends without a stop.
func (s *stopMatcher) flush() string {
	out := s.pending
	s.pending = ""
	return out
}
