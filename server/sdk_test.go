package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenAINodeSDK runs the official OpenAI Node SDK (npm package openai,
// installed by make test-deps into testdata/node) against the server:
// models, chat and completion, whole and streamed, and a 400.
func TestOpenAINodeSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: skipping the OpenAI Node SDK test")
	}
	dir := filepath.Join("testdata", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openai", "package.json")); err != nil {
		t.Skip("the openai npm package is not installed: run make test-deps (npm ci in server/testdata/node)")
	}
	ts, _ := startServer(t, Options{APIKey: "test-key", ModelName: "austen"}, EngineOptions{Queue: 4, Slots: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sdk.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE_URL="+ts.URL+"/v1", "API_KEY=test-key")
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node sdk.mjs: %v\n%s%s", err, out, stderr)
	}
	var r struct{ Model, Chat, Completion, BadRequest string }
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("sdk.mjs output %q: %v", out, err)
	}
	if r.Model != "austen" || r.Chat == "" || r.Completion == "" || r.BadRequest == "" {
		t.Errorf("sdk.mjs: %+v", r)
	}
	t.Logf("chat %q; completion %q; 400: %s", r.Chat, r.Completion, r.BadRequest)
}
