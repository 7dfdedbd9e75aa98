package optest

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestFilter(t *testing.T) {
	cases := Cases()
	add := Filter{Ops: []rt.Op{rt.OpAdd}}.Select(cases)
	for _, c := range add {
		if c.Op() != rt.OpAdd {
			t.Errorf("op filter kept %s", c.Name())
		}
	}
	if len(add) == 0 {
		t.Fatal("no ADD cases")
	}
	named := Filter{Name: regexp.MustCompile(`type_a=q4_0`)}.Select(cases)
	for _, c := range named {
		if !strings.Contains(c.Name(), "type_a=q4_0") {
			t.Errorf("name filter kept %s", c.Name())
		}
	}
	sampled := Filter{Ops: []rt.Op{rt.OpAdd}, Sample: 5}.Select(cases)
	if want := (len(add) + 4) / 5; len(sampled) != want || sampled[0] != add[0] || sampled[1] != add[5] {
		t.Errorf("sample 5 of %d ADD cases kept %d, want %d starting with the first", len(add), len(sampled), want)
	}
	// Every op keeps its first case under sampling.
	ops := map[rt.Op]bool{}
	for _, c := range (Filter{Sample: 1000}).Select(cases) {
		ops[c.Op()] = true
	}
	if len(ops) != len(rt.AllOps()) {
		t.Errorf("sampling kept %d ops, want %d", len(ops), len(rt.AllOps()))
	}
	cheap := Filter{Ops: []rt.Op{rt.OpMulMat}, MaxCost: 4096}.Select(cases)
	if len(cheap) == 0 {
		t.Fatal("no cheap MUL_MAT case")
	}
	for _, c := range cheap {
		if cost, _ := Cost(c); cost > 4096 {
			t.Errorf("cost filter kept %s (cost %d)", c.Name(), cost)
		}
	}
}

func TestCost(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int64
	}{
		{"MUL_MAT(type_a=f32,m=16,n=3,k=3,bs=[1,1],nr=[1,1])", 16 * 3 * 3},
		{"ADD(type_a=f32,type_b=f32,ne_a=[17,3,1,1],ne_b=[17,3,1,1])", 17 * 3},
		{"PERMUTE(type=f32,ne=[3,17,5,2],axes=[0,2,1,3])", 3 * 17 * 5 * 2}, // the CONT
	} {
		c := caseNamed(t, tc.name)
		if got, err := Cost(c); err != nil || got != tc.want {
			t.Errorf("Cost(%s) = %d, %v, want %d", tc.name, got, err, tc.want)
		}
	}
}

func caseNamed(t *testing.T, name string) Case {
	t.Helper()
	for _, c := range Cases() {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return nil
}

// Inputs depend only on the seed and the case's name, never on which other
// cases run.
func TestInputsAreDeterministic(t *testing.T) {
	c := caseNamed(t, "GET_ROWS(type=q8_0,ne0=64,rows=7,n=3,bs=[3,2])")
	draw := func(seed uint64) [][]byte {
		g := graphOf(t, c)
		rng := rand.New(rand.NewPCG(seed, nameHash(c.Name())))
		var out [][]byte
		for _, l := range g.Leafs {
			d, err := c.Init(l, rng)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, d)
		}
		return out
	}
	a, b, other := draw(1), draw(1), draw(2)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("leaf %d differs between draws with the same seed", i)
		}
	}
	if bytes.Equal(a[0], other[0]) {
		t.Error("another seed gave the same data")
	}
}

// Fills suit their ops: indices in range, distinct where writes could race,
// positive inputs to SQRT, divisors away from zero, causal masks keeping a key.
func TestInputRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := func(c Case, name string) []float32 {
		for _, l := range graphOf(t, c).Leafs {
			if l.Name == name {
				d, err := c.Init(l, rng)
				if err != nil {
					t.Fatal(err)
				}
				v, err := rt.DecodeF32(l, d)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
		t.Fatalf("%s has no leaf %q", c.Name(), name)
		return nil
	}
	for _, v := range values(caseNamed(t, "GET_ROWS(type=f32,ne0=17,rows=10,n=5,bs=[1,1])"), "idx") {
		if v < 0 || v >= 10 || v != float32(int(v)) {
			t.Errorf("GET_ROWS index %g", v)
		}
	}
	idx := values(caseNamed(t, "SET_ROWS(type=f32,ne0=17,rows=6,n=3,bs=[3,2],bs_idx=[3,2])"), "idx")
	for i := 0; i < len(idx); i += 3 {
		if idx[i] == idx[i+1] || idx[i] == idx[i+2] || idx[i+1] == idx[i+2] {
			t.Errorf("SET_ROWS indices %v repeat within a slice", idx[i:i+3])
		}
	}
	for _, v := range values(caseNamed(t, "SQRT(type=f32,ne=[33,17,3,2])"), "a") {
		if v < 0 {
			t.Errorf("SQRT input %g", v)
		}
	}
	for _, v := range values(caseNamed(t, "DIV(type_a=f32,type_b=f32,ne_a=[17,3,1,1],ne_b=[17,3,1,1])"), "b") {
		if v > -0.5 && v < 0.5 {
			t.Errorf("DIV divisor %g", v)
		}
	}
	mask := values(caseNamed(t, "SOFT_MAX(ne=[33,17,3,2],mask=f32,ne_mask=[33,17,1,1],causal,scale=0.125)"), "mask")
	for row := 0; row < 17; row++ {
		if mask[row*33] < -1 {
			t.Errorf("causal mask row %d masks key 0", row)
		}
		if got := mask[row*33+32]; (row < 16) != (got < -1e30) {
			t.Errorf("causal mask row %d last key = %g", row, got)
		}
	}
}

func TestCloneGraph(t *testing.T) {
	g := graphOf(t, caseNamed(t, "CPY(type_src=f32,type_dst=f16,ne=[33,5,1,1],view_src=offset)"))
	c, m := cloneGraph(g)
	if len(c.Nodes) != len(g.Nodes) || len(c.Leafs) != len(g.Leafs) {
		t.Fatalf("clone has %d nodes, %d leafs; want %d, %d", len(c.Nodes), len(c.Leafs), len(g.Nodes), len(g.Leafs))
	}
	for i, n := range g.Nodes {
		cn := c.Nodes[i]
		if cn == n || m[n] != cn || cn.Op != n.Op || cn.Ne != n.Ne || cn.Nb != n.Nb || cn.ViewOffs != n.ViewOffs || cn.Flags != n.Flags {
			t.Errorf("node %d: clone %v differs from %v", i, cn, n)
		}
		for j, s := range n.Src {
			if m[s] != cn.Src[j] {
				t.Errorf("node %d source %d not mapped", i, j)
			}
		}
		if m[n.ViewSrc] != cn.ViewSrc {
			t.Errorf("node %d view source not mapped", i)
		}
	}
}
