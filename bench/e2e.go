package bench

import (
	rt "github.com/gpurt/gpurt/runtime"
)

// Model is a model for the end-to-end benchmark.
type Model struct {
	Name string // as reported in records, e.g. "stories260K"
	Path string // a GGUF file; "" is gpurt's embedded default model
}

// DefaultModels are the end-to-end models: the embedded default model and
// stories260K from the shared test data (relative to the repository root).
var DefaultModels = []Model{
	{Name: "default", Path: ""},
	{Name: "stories260K", Path: "../shared/models/stories260K.gguf"},
}

// E2ERequest asks the model integration for one end-to-end measurement.
type E2ERequest struct {
	Device rt.Device // run on this device, with the CPU as the scheduler's fallback
	Model  Model
	// Prompt tokens are evaluated in one batch from an empty KV cache; then
	// Gen tokens are generated one at a time with greedy sampling.
	Prompt, Gen int
	// Policy says how often to repeat each measurement (see MeasureSetup).
	Policy Policy
}

// E2EResult is the speed of one end-to-end run. Times exclude model loading.
type E2EResult struct {
	PromptTokS float64 // prompt tokens per second
	GenTokS    float64 // generated tokens per second
	Runs       int     // timed runs behind each figure
	Note       string  // e.g. the splits used
}

// EndToEnd is the end-to-end hook, filled by the llama integration (the
// gpurt command sets it; see cmd/gpurt/bench.go). It loads req.Model on
// req.Device, evaluates req.Prompt tokens in one batch and generates
// req.Gen tokens, repeating each under req.Policy, and reports the median
// speeds. While it is nil the suite records the end-to-end benchmark as
// skipped.
var EndToEnd func(req E2ERequest) (E2EResult, error)
