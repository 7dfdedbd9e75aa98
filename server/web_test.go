package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWebPage loads the chat page in headless chromium, types a message,
// waits for the streamed reply and saves a screenshot under
// bin/test-artifacts.
func TestWebPage(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("chromium is not installed (make test-deps installs it): skipping the browser test")
	}
	ts, _ := startServer(t, Options{}, EngineOptions{Queue: 4, Slots: 2})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(900, 700),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#input")),
		chromedp.SendKeys(chromedp.CSS("#input"), "Tell me about Mr. Darcy"),
		chromedp.Click(chromedp.CSS("#send")),
		chromedp.WaitVisible(chromedp.CSS(`.assistant[data-done="1"]`)),
	)
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	reply, err1 := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".assistant")))
	chunksAttr, err2 := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(".assistant"), "data-chunks"))
	finishAttr, err3 := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(".assistant"), "data-finish"))
	model, err4 := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#model")))
	shot, err5 := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
	}
	chunks, finish := chunksAttr.Value, finishAttr.Value
	n, _ := strconv.Atoi(chunks)
	if reply == "" || n < 2 || finish == "" {
		t.Errorf("reply %q in %d chunks, finish %q: want a streamed reply", reply, n, finish)
	}
	if model == "" {
		t.Errorf("the page did not show the model from /v1/models")
	}
	dir := filepath.Join("..", "bin", "test-artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "webchat.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("reply %q in %d chunks (%s); screenshot %s", reply, n, finish, path)
}
