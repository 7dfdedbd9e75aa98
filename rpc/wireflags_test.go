package rpc

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestWireFlags: a tensor the scheduler copies to another split is sent
// flagged as an output, so a server that fuses keeps it; others keep
// their own flags.
func TestWireFlags(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 4).SetName("x")
	x.SetInput()
	norm := ctx.RmsNorm(x, 1e-5)
	out := ctx.Scale(norm, 2, 0)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	view := g.View(0, len(g.Nodes))
	g.MarkReadOutside(norm)
	cases := []struct {
		name string
		t    *rt.Tensor
		want rt.Flag
	}{
		{"copied to another split", norm, rt.FlagOutput},
		{"graph output", out, rt.FlagOutput},
		{"input", x, rt.FlagInput},
	}
	for _, c := range cases {
		if got := wireFlags(c.t, view); got != c.want {
			t.Errorf("%s: flags %v, want %v", c.name, got, c.want)
		}
	}
	g.ClearReadOutside()
	if got := wireFlags(norm, view); got != 0 {
		t.Errorf("after ClearReadOutside: flags %v, want none", got)
	}
}
