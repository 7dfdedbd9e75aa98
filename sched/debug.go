package sched

import (
	"fmt"
	"strings"

	"github.com/gpurt/gpurt/runtime"
)

// fmtSize formats a byte count as whole MiB or KiB, as the seed's debug output.
func fmtSize(n int) string {
	if n >= 1024*1024 {
		return fmt.Sprintf("%dM", n/1024/1024)
	}
	return fmt.Sprintf("%dK", n/1024)
}

func (s *Scheduler) backendName(t *runtime.Tensor) string {
	if b := s.backendOf(t); b >= 0 {
		return s.backends[b].Name()
	}
	return "NULL"
}

// printAssignments writes the splits with their inputs (GPURT_SCHED_DEBUG=1)
// and every computing node with its backend, cause and sources (=2), in the
// seed's format.
func (s *Scheduler) printAssignments(g *runtime.Graph) {
	var w strings.Builder
	cur := 0
	for i, n := range g.Nodes {
		if cur < len(s.splits) && i == s.splits[cur].start {
			sp := &s.splits[cur]
			fmt.Fprintf(&w, "\n## SPLIT #%d: %s # %d inputs", cur, s.backends[sp.backend].Name(), len(sp.inputs))
			for j, in := range sp.inputs {
				if j == 0 {
					w.WriteString(": ")
				}
				fmt.Fprintf(&w, "[%s (%5.5s)] ", in.Name, fmtSize(in.Nbytes()))
			}
			w.WriteString("\n")
			cur++
		}
		if n.Op.IsView() || s.debug < 2 {
			continue
		}
		fmt.Fprintf(&w, "node #%3d (%10.10s): %20.20s (%5.5s) [%5.5s %8.8s]:", i, n.Op, n.Name,
			fmtSize(n.Nbytes()), s.backendName(n), s.Cause(n))
		for _, src := range n.Src {
			if src == nil {
				continue
			}
			fmt.Fprintf(&w, " %20.20s (%5.5s) [%5.5s %8.8s]", src.Name, fmtSize(src.Nbytes()), s.backendName(src), s.Cause(src))
		}
		w.WriteString("\n")
	}
	fmt.Fprint(s.debugOut, w.String())
}
