package qtables

import "testing"

// TestTables checks the codebooks against ggml's published values.
func TestTables(t *testing.T) {
	for _, c := range []struct {
		name string
		get  func() ([16]int8, error)
		want [16]int8
	}{
		{"iq4_nl", IQ4NL, [16]int8{-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}},
		{"mxfp4", MXFP4, [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}},
	} {
		got, err := c.get()
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}
