package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestLoadProgress: small models draw nothing; large ones a bar that ends
// its line at 100%.
func TestLoadProgress(t *testing.T) {
	var buf bytes.Buffer
	p := loadProgress(&buf)
	p(10, 1<<20)
	if buf.Len() != 0 {
		t.Errorf("a 1 MiB model drew %q", buf.String())
	}
	p = loadProgress(&buf)
	total := int64(200 << 20)
	for done := int64(0); done <= total; done += total / 100 {
		p(done, total)
	}
	out := buf.String()
	if !strings.Contains(out, "100%") || !strings.HasSuffix(out, "\n") || strings.Count(out, "\r") > 51 {
		t.Errorf("bar output %q", out[max(0, len(out)-80):])
	}
}
