package llama

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// ValidateTensorSplit checks a tensor split (Options.TensorSplit) for
// gpuBackends non-CPU backends: finite, non-negative proportions, not all
// zero, no more than one per backend. gpuBackends < 0 skips the count check
// (for callers that know the backends only later).
func ValidateTensorSplit(split []float64, gpuBackends int) error {
	if len(split) == 0 {
		return nil
	}
	if gpuBackends >= 0 && len(split) > gpuBackends {
		return fmt.Errorf("llama: %w: tensor split has %d proportions but there are %d non-CPU backends", rt.ErrInvalidArgument, len(split), gpuBackends)
	}
	var sum float64
	for i, p := range split {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return fmt.Errorf("llama: %w: tensor split proportion %d is %v, want a finite number >= 0", rt.ErrInvalidArgument, i, p)
		}
		sum += p
	}
	if sum == 0 || math.IsInf(sum, 0) {
		return fmt.Errorf("llama: %w: tensor split %v: the proportions must not all be zero", rt.ErrInvalidArgument, split)
	}
	return nil
}

// ParseTensorSplit reads a tensor split as llama.cpp's --tensor-split
// spells it: proportions separated by commas ("3,1"); an empty entry is 0.
func ParseTensorSplit(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var split []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			split = append(split, 0)
			continue
		}
		p, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("llama: %w: tensor split entry %q is not a number", rt.ErrInvalidArgument, f)
		}
		split = append(split, p)
	}
	return split, ValidateTensorSplit(split, -1)
}

// splitDevices deals n offloaded blocks over nDev devices in contiguous
// runs by cumulative proportion, as llama.cpp's layer split: block k goes
// to the last device whose run starts at or before k/n. A nil split shares
// them evenly; missing entries are 0. It also returns the device of the
// output layer: the last one with a non-zero proportion.
func splitDevices(n, nDev int, split []float64) (blocks []int, out int) {
	props := make([]float64, nDev)
	for i := range props {
		if split == nil {
			props[i] = 1
		} else if i < len(split) {
			props[i] = split[i]
		}
	}
	var sum float64
	for i, p := range props {
		sum += p
		if p > 0 {
			out = i
		}
	}
	// starts[i] is where device i's run begins, as a fraction of the blocks.
	starts := make([]float64, nDev)
	var acc float64
	for i, p := range props {
		starts[i] = acc / sum
		acc += p
	}
	blocks = make([]int, n)
	for k := range blocks {
		frac := float64(k) / float64(n)
		d := 0
		for i := range starts {
			if starts[i] <= frac && props[i] > 0 {
				d = i
			}
		}
		blocks[k] = d
	}
	return blocks, out
}
