package server

import (
	"fmt"
	"io"
	"sort"
	"sync"
	"time"
)

// Metrics counts what the server does, for /metrics (Prometheus text
// format 0.0.4).
type Metrics struct {
	mu        sync.Mutex
	requests  map[string]map[int]int64 // endpoint -> status -> count
	prompt    int64
	generated int64
	genTime   time.Duration
	queue     int
	busy      int
	peakBusy  int
	steps     int64
	batched   int64 // slot-steps: the sum over steps of the slots in each
}

func (m *Metrics) request(endpoint string, status int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.requests == nil {
		m.requests = map[string]map[int]int64{}
	}
	if m.requests[endpoint] == nil {
		m.requests[endpoint] = map[int]int64{}
	}
	m.requests[endpoint][status]++
}

func (m *Metrics) addPrompt(n int) {
	m.mu.Lock()
	m.prompt += int64(n)
	m.mu.Unlock()
}

func (m *Metrics) addGenerated(n int) {
	m.mu.Lock()
	m.generated += int64(n)
	m.mu.Unlock()
}

func (m *Metrics) addGenTime(d time.Duration) {
	m.mu.Lock()
	m.genTime += d
	m.mu.Unlock()
}

func (m *Metrics) setQueue(n int) {
	m.mu.Lock()
	m.queue = n
	m.mu.Unlock()
}

func (m *Metrics) setBusy(n int) {
	m.mu.Lock()
	m.busy = n
	m.peakBusy = max(m.peakBusy, n)
	m.mu.Unlock()
}

// write prints every metric in the Prometheus text format.
func (m *Metrics) write(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP gpurt_requests_total HTTP requests by endpoint and status code.")
	fmt.Fprintln(w, "# TYPE gpurt_requests_total counter")
	eps := make([]string, 0, len(m.requests))
	for ep := range m.requests {
		eps = append(eps, ep)
	}
	sort.Strings(eps)
	for _, ep := range eps {
		codes := make([]int, 0, len(m.requests[ep]))
		for c := range m.requests[ep] {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		for _, c := range codes {
			fmt.Fprintf(w, "gpurt_requests_total{endpoint=%q,code=\"%d\"} %d\n", ep, c, m.requests[ep][c])
		}
	}
	tps := 0.0
	if m.genTime > 0 {
		tps = float64(m.generated) / m.genTime.Seconds()
	}
	for _, g := range []struct {
		name, kind, help string
		v                any
	}{
		{"gpurt_prompt_tokens_total", "counter", "Prompt tokens evaluated (cached prefixes not counted).", m.prompt},
		{"gpurt_generated_tokens_total", "counter", "Tokens generated.", m.generated},
		{"gpurt_generation_seconds_total", "counter", "Time spent generating.", m.genTime.Seconds()},
		{"gpurt_generation_tokens_per_second", "gauge", "Generated tokens per second of generation time, since start.", tps},
		{"gpurt_queue_depth", "gauge", "Requests waiting for a slot.", m.queue},
		{"gpurt_slots_busy", "gauge", "Slots generating now.", m.busy},
		{"gpurt_slots_busy_peak", "gauge", "The most slots that generated at once.", m.peakBusy},
		{"gpurt_decode_steps_total", "counter", "Batched forward passes.", m.steps},
		{"gpurt_decode_slot_steps_total", "counter", "Slots served by those passes (over steps: the mean batch in slots).", m.batched},
	} {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %v\n", g.name, g.help, g.name, g.kind, g.name, g.v)
	}
}

// busyNow is the number of slots generating.
func (m *Metrics) busyNow() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.busy
}

func (m *Metrics) addStep(slots int) {
	m.mu.Lock()
	m.steps++
	m.batched += int64(slots)
	m.mu.Unlock()
}

// peak is the most slots that generated at once.
func (m *Metrics) peak() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peakBusy
}
