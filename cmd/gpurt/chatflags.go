package main

import (
	"fmt"
	"os"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/server"
)

// checkChatModelFlags validates the model flags that gpurt chat and gpurt
// serve share, before anything loads. It returns the parsed tensor split
// and KV dtype, or a usage message naming the bad flag.
func checkChatModelFlags(model, device string, gpuLayers int, splitList, kv, tmpl string) (split []float64, kvType rt.DType, msg string) {
	if gpuLayers < -1 {
		return nil, 0, fmt.Sprintf("-ngl/--gpu-layers %d: want -1 (all) or a block count >= 0", gpuLayers)
	}
	split, err := parseTensorSplitFlag(splitList)
	if err != nil {
		return nil, 0, err.Error()
	}
	kvType, err = rt.ParseDType(kv)
	if err != nil || (kvType != rt.F16 && kvType != rt.F32) {
		return nil, 0, fmt.Sprintf("--kv %s: want f16 or f32", kv)
	}
	if _, err := parseDevices(device); err != nil {
		return nil, 0, fmt.Sprintf("-d/--device %v", err)
	}
	if model != "" {
		if err := checkModelPath(model); err != nil {
			return nil, 0, fmt.Sprintf("-m: %v", err)
		}
	}
	if tmpl != "" {
		if _, err := server.ChooseTemplate(tmpl, "", "", "", os.ReadFile); err != nil {
			return nil, 0, fmt.Sprintf("--chat-template: %v", err)
		}
	}
	return split, kvType, ""
}
