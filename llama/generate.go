package llama

import (
	"errors"
	"fmt"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// Stats are the timings of one Generate call.
type Stats struct {
	PromptTokens, GenTokens int
	PromptTime, GenTime     time.Duration
	// ContextFull is true when generation stopped because the context
	// window was full, before n tokens or EOS.
	ContextFull bool
}

// PromptTPS is prompt tokens per second.
func (s Stats) PromptTPS() float64 { return perSecond(s.PromptTokens, s.PromptTime) }

// GenTPS is generated tokens per second.
func (s Stats) GenTPS() float64 { return perSecond(s.GenTokens, s.GenTime) }

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Generate evaluates the prompt tokens as one batch, then samples up to n
// tokens one at a time, stopping early at EOS. onToken, if set, sees each
// new token as it is made and may stop generation by returning an error
// (ErrStop stops without failing).
func (m *Model) Generate(prompt []int32, n int, s *Sampler, onToken func(id int32) error) ([]int32, Stats, error) {
	var st Stats
	if len(prompt) == 0 {
		return nil, st, errors.New("llama: empty prompt")
	}
	room := m.H.NCtx - m.nPast - len(prompt) // positions left after the prompt
	if room < 0 {
		return nil, st, fmt.Errorf("llama: a prompt of %d tokens after %d does not fit the context of %d: %w", len(prompt), m.nPast, m.H.NCtx, rt.ErrContextFull)
	}
	// Every generated token but the last is evaluated, so one more token
	// than there are positions left can be generated.
	capped := n > room+1
	if capped {
		n = room + 1
	}
	start := time.Now()
	logits, err := m.Eval(prompt, false)
	if err != nil {
		return nil, st, err
	}
	st.PromptTokens, st.PromptTime = len(prompt), time.Since(start)

	var out []int32
	start = time.Now()
	for len(out) < n {
		t := time.Now()
		id, err := s.Sample(logits)
		lap(m.opts.Profile, "sampling", t)
		if err != nil {
			return out, st, err
		}
		if m.isEOG(id) {
			break
		}
		out = append(out, id)
		if onToken != nil {
			if err := onToken(id); err != nil {
				st.GenTokens, st.GenTime = len(out), time.Since(start)
				if errors.Is(err, ErrStop) {
					err = nil
				}
				return out, st, err
			}
		}
		if len(out) == n {
			break
		}
		if logits, err = m.Eval([]int32{id}, false); err != nil {
			return out, st, err
		}
	}
	st.GenTokens, st.GenTime = len(out), time.Since(start)
	st.ContextFull = capped && len(out) == n
	return out, st, nil
}

// ErrStop, returned by an onToken callback, ends generation normally.
var ErrStop = errors.New("stop generation")

// isEOG says whether id ends generation.
func (m *Model) isEOG(id int32) bool { return m.Tok.IsEOG(id) }
