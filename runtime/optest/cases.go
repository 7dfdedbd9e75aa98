package optest

import (
	"cmp"
	"slices"

	rt "github.com/gpurt/gpurt/runtime"
)

// Cases returns the whole catalogue, ordered by op (in the order of
// runtime.AllOps) and, within an op, as the generators list them. Names are
// unique and stable.
func Cases() []Case {
	var cs []Case
	for _, gen := range []func() []Case{
		copyCases, getRowsCases, setRowsCases, concatCases,
		binaryCases, unaryCases, reduceCases, normCases,
		mulMatCases, ropeCases, softMaxCases, diagMaskCases, viewCases, largeCases,
		gluCases, ropeExtCases, softCapCases, flashAttnCases,
	} {
		cs = append(cs, gen()...)
	}
	slices.SortStableFunc(cs, func(a, b Case) int { return cmp.Compare(a.Op(), b.Op()) })
	return cs
}

// newCase makes a case filed under op and dtype dt, with the tolerance for
// op producing dt.
func newCase(op rt.Op, dt rt.DType, params string, build func(ctx *rt.Context) *rt.Tensor) *opCase {
	return &opCase{op: op, params: params, group: Group{Row: op.String(), DType: dt}, build: build, nmse: tolerance(op, dt)}
}
