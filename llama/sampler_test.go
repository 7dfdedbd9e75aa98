package llama

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestArgmax(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		logits []float32
		want   int32
	}{
		{[]float32{0.1, 3, -1, 2}, 1},
		{[]float32{5, 5, 1}, 0}, // first on ties
		{[]float32{-3}, 0},
		{[]float32{nan, -1, 2}, 2},
		{[]float32{float32(math.Inf(-1)), -1e30}, 1},
		{[]float32{nan, nan}, 0},
		{[]float32{nan, float32(math.Inf(-1))}, 1},
		{[]float32{float32(math.Inf(-1)), float32(math.Inf(-1))}, 0},
		{[]float32{1, 2, 3, 4, 5, 6, 7, 9}, 7},    // the last lane
		{[]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 8}, // the tail
		{[]float32{0, 0, 0, 7, 0, 0, 7, 7, 7}, 3}, // ties across lanes: the first
		{nil, 0},
	}
	for _, c := range cases {
		if got := Argmax(c.logits); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.logits, got, c.want)
		}
	}
	// Against the one-pass definition on random rows with ties and NaNs.
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 70 {
		l := make([]float32, n)
		for i := range l {
			switch r.IntN(8) {
			case 0:
				l[i] = nan
			default:
				l[i] = float32(r.IntN(5))
			}
		}
		want := 0
		for i, v := range l {
			if v > l[want] || (math.IsNaN(float64(l[want])) && !math.IsNaN(float64(v))) {
				want = i
			}
		}
		if got := Argmax(l); int(got) != want {
			t.Errorf("Argmax(%v) = %d, want %d", l, got, want)
		}
	}
}

// draw samples n tokens with cfg from fixed logits and counts them.
func draw(t *testing.T, cfg SamplerConfig, logits []float32, n int) []int {
	t.Helper()
	s, err := NewSampler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(logits))
	for i := 0; i < n; i++ {
		id, err := s.Sample(logits)
		if err != nil {
			t.Fatal(err)
		}
		counts[id]++
	}
	return counts
}

func TestSamplerDistributions(t *testing.T) {
	// Probabilities at temperature 1: 0.5, 0.25, 0.125, 0.0625, 0.0625.
	logits := []float32{0, float32(-math.Ln2), float32(-2 * math.Ln2), float32(-3 * math.Ln2), float32(-3 * math.Ln2)}
	const n = 20000
	cases := []struct {
		name string
		cfg  SamplerConfig
		want []float64 // expected frequencies
	}{
		{"greedy", SamplerConfig{Temp: 0}, []float64{1, 0, 0, 0, 0}},
		{"temp 1", SamplerConfig{Temp: 1, Seed: 1}, []float64{0.5, 0.25, 0.125, 0.0625, 0.0625}},
		// Temperature 0.5 squares the probabilities: 1/4, 1/16, 1/64, 1/256 ×2, normalized.
		{"temp 0.5", SamplerConfig{Temp: 0.5, Seed: 2}, normalize([]float64{256, 64, 16, 4, 4})},
		{"top-k 2", SamplerConfig{Temp: 1, TopK: 2, Seed: 3}, []float64{2.0 / 3, 1.0 / 3, 0, 0, 0}},
		{"top-k 1", SamplerConfig{Temp: 1, TopK: 1, Seed: 4}, []float64{1, 0, 0, 0, 0}},
		{"top-k beyond vocab", SamplerConfig{Temp: 1, TopK: 50, Seed: 5}, []float64{0.5, 0.25, 0.125, 0.0625, 0.0625}},
		// 0.5+0.25 = 0.75 reaches top-p 0.7: two tokens remain.
		{"top-p 0.7", SamplerConfig{Temp: 1, TopP: 0.7, Seed: 6}, []float64{2.0 / 3, 1.0 / 3, 0, 0, 0}},
		{"top-p 0.8", SamplerConfig{Temp: 1, TopP: 0.8, Seed: 7}, normalize([]float64{4, 2, 1, 0, 0})},
		{"top-p 1 keeps all", SamplerConfig{Temp: 1, TopP: 1, Seed: 8}, []float64{0.5, 0.25, 0.125, 0.0625, 0.0625}},
		// Top-p filters before the temperature reshapes: 3 tokens, then squared.
		{"top-p 0.8 temp 0.5", SamplerConfig{Temp: 0.5, TopP: 0.8, Seed: 9}, normalize([]float64{16, 4, 1, 0, 0})},
		{"top-k 3 top-p 0.6", SamplerConfig{Temp: 1, TopK: 3, TopP: 0.6, Seed: 10}, normalize([]float64{4, 2, 0, 0, 0})},
	}
	for _, c := range cases {
		counts := draw(t, c.cfg, logits, n)
		for i, w := range c.want {
			got := float64(counts[i]) / n
			// 5 standard deviations of a binomial frequency.
			tol := 5*math.Sqrt(w*(1-w)/n) + 1e-9
			if math.Abs(got-w) > tol {
				t.Errorf("%s: token %d drawn %.4f of the time, want %.4f ± %.4f", c.name, i, got, w, tol)
			}
		}
	}
}

func normalize(w []float64) []float64 {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	out := make([]float64, len(w))
	for i, x := range w {
		out[i] = x / sum
	}
	return out
}

func TestSamplerDeterministic(t *testing.T) {
	logits := make([]float32, 100)
	for i := range logits {
		logits[i] = float32(math.Sin(float64(i)))
	}
	run := func(seed uint64) []int32 {
		s, err := NewSampler(SamplerConfig{Temp: 0.8, TopK: 40, TopP: 0.95, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var out []int32
		for i := 0; i < 50; i++ {
			id, err := s.Sample(logits)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, id)
		}
		return out
	}
	a, b, c := run(42), run(42), run(43)
	if !slices.Equal(a, b) {
		t.Errorf("same seed gave different tokens:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 42 and 43 gave the same 50 tokens")
	}
}

func TestSamplerEdgeCases(t *testing.T) {
	inf := float32(math.Inf(1))
	ninf := float32(math.Inf(-1))
	cases := []struct {
		name   string
		logits []float32
		want   []float64
	}{
		{"+Inf wins", []float32{0, inf, 3}, []float64{0, 1, 0}},
		{"-Inf never drawn", []float32{0, ninf, 0}, []float64{0.5, 0, 0.5}},
		{"all -Inf is uniform", []float32{ninf, ninf}, []float64{0.5, 0.5}},
	}
	const n = 4000
	for _, c := range cases {
		counts := draw(t, SamplerConfig{Temp: 1, Seed: 1}, c.logits, n)
		for i, w := range c.want {
			if got := float64(counts[i]) / n; math.Abs(got-w) > 0.05 {
				t.Errorf("%s: token %d drawn %.3f of the time, want %.3f", c.name, i, got, w)
			}
		}
	}

	errs := []struct {
		name string
		cfg  SamplerConfig
		want string
	}{
		{"top-k", SamplerConfig{TopK: -1}, "top-k -1 is negative"},
		{"top-p", SamplerConfig{TopP: 1.5}, "top-p 1.5 is outside [0, 1]"},
		{"top-p NaN", SamplerConfig{TopP: float32(math.NaN())}, "top-p NaN is outside [0, 1]"},
		{"temp NaN", SamplerConfig{Temp: float32(math.NaN())}, "temperature NaN must be a finite number"},
		{"temp negative", SamplerConfig{Temp: -1}, "temperature -1 must be"},
		{"temp Inf", SamplerConfig{Temp: float32(math.Inf(1))}, "temperature +Inf must be"},
	}
	for _, c := range errs {
		_, err := NewSampler(c.cfg)
		if !errors.Is(err, rt.ErrInvalidArgument) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrInvalidArgument saying %q", c.name, err, c.want)
		}
	}
	// Greedy decoding and sampling both report NaN logits.
	for _, temp := range []float32{0, 1} {
		s, _ := NewSampler(SamplerConfig{Temp: temp})
		if _, err := s.Sample(nil); err == nil {
			t.Errorf("temp %v: sampling no logits did not fail", temp)
		}
		if _, err := s.Sample([]float32{1, float32(math.NaN())}); !errors.Is(err, rt.ErrInvalidArgument) || !strings.Contains(err.Error(), "logit 1 is NaN") {
			t.Errorf("temp %v: NaN logit: %v", temp, err)
		}
		if _, err := s.Sample([]float32{float32(math.NaN()), 5, 1}); err == nil {
			t.Errorf("temp %v: a NaN first logit was hidden", temp)
		}
	}
}

// TestBestKMatchesSort: the k best candidates selected with the heap are
// the first k of the fully sorted list (ties by id), for every k.
func TestBestKMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 64, 513} {
		all := make([]candidate, n)
		for i := range all {
			all[i] = candidate{id: int32(i), logit: float32(rng.IntN(20))} // many ties
		}
		sorted := slices.Clone(all)
		slices.SortFunc(sorted, func(a, b candidate) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		for _, k := range []int{1, 2, 3, n / 2, n - 1, n} {
			if k < 1 || k > n {
				continue
			}
			got := bestK(slices.Clone(all), k)
			slices.SortFunc(got, func(a, b candidate) int {
				if better(a, b) {
					return -1
				}
				return 1
			})
			if !slices.Equal(got, sorted[:k]) {
				t.Errorf("n %d, k %d: %v, want %v", n, k, got, sorted[:k])
			}
		}
	}
}
