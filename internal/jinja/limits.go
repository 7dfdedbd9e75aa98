package jinja

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// ErrLimit is wrapped by the error of a render that went past one of the
// limits below: a chat template comes from a model file, and one written
// to recurse forever, loop 10¹¹ times or double a string in a loop must
// fail, not hang or take the process with it.
var ErrLimit = errors.New("jinja: template exceeds a render limit")

const (
	// renderFuel is the work one render may do, in units: a node or
	// expression evaluated, a loop pass, a value visited by a walk
	// (printing, comparing, encoding), a byte of a string made or
	// written, itemFuel for a list item or dict entry made.
	renderFuel = 1 << 25
	itemFuel   = 16
	// renderTime bounds a render's time whatever its units.
	renderTime = 2 * time.Second
	// maxCalls is the most macro and caller() calls in progress at once.
	maxCalls = 100
	// maxValueDepth is how deep walks go into lists and dicts held by
	// lists and dicts (a list that holds itself is infinitely deep).
	maxValueDepth = 100
	// maxParseDepth is how deep expressions and blocks may nest in a
	// template's source.
	maxParseDepth = 200
	// maxEvalDepth is how deep expression evaluations may nest, macro
	// calls included: a chain of a million filters or additions parses
	// in a loop but evaluates as deep as it is long.
	maxEvalDepth = 2000
)

// budget is one render's account of its limits.
type budget struct {
	fuel     int64
	calls    int   // macro and caller() calls in progress
	depth    int   // expression evaluations in progress
	ticks    int64 // units spent since the clock was last read
	deadline time.Time
}

var (
	// renderMu makes renders one at a time, so that the walks and
	// builtins they call charge active without an evaluator at hand.
	// A chat render takes microseconds.
	renderMu sync.Mutex
	// active is the budget of the render in progress (renderMu held),
	// else nil: Value's exported methods called outside a render pass
	// nil and are not charged.
	active *budget
)

// limitPanic carries a limit's error from deep in a walk or an
// evaluation to render, which returns it.
type limitPanic struct{ err error }

func newBudget() *budget {
	return &budget{fuel: renderFuel, deadline: time.Now().Add(renderTime)}
}

// spend charges units to b (nil: no limit) and aborts the render when
// its fuel or time is gone.
func (b *budget) spend(units int) {
	if b == nil {
		return
	}
	if units < 0 || int64(units) > b.fuel {
		b.fail(fmt.Sprintf("it does more than %d units of work (evaluations, values visited, bytes and items made)", renderFuel))
	}
	b.fuel -= int64(units)
	if b.ticks += int64(units); b.ticks >= 1<<14 {
		b.ticks = 0
		if time.Now().After(b.deadline) {
			b.fail(fmt.Sprintf("it renders for more than %v", renderTime))
		}
	}
}

// spendProduct charges n×size units, failing on an overflowing product.
func (b *budget) spendProduct(n, size int) {
	if b == nil || n <= 0 || size <= 0 {
		return
	}
	if n > renderFuel/size+1 {
		b.fail(fmt.Sprintf("it makes a value of more than %d units", renderFuel))
	}
	b.spend(n * size)
}

// fail aborts the render with ErrLimit and why.
func (b *budget) fail(why string) {
	panic(limitPanic{fmt.Errorf("%w: %s", ErrLimit, why)})
}

// tooDeep reports a walk past maxValueDepth: under a render it aborts
// with ErrLimit; outside one the caller stops descending.
func (b *budget) tooDeep(depth int) bool {
	if depth < maxValueDepth {
		return false
	}
	if b != nil {
		b.fail(fmt.Sprintf("lists or dicts nested more than %d deep (one that holds itself?)", maxValueDepth))
	}
	return true
}

// charge charges what making v cost: its bytes, or its items.
func (b *budget) charge(v Value) {
	switch v.kind {
	case KindString:
		b.spend(len(v.AsString()))
	case KindList:
		b.spendProduct(v.AsList().Len(), itemFuel)
	case KindDict:
		b.spendProduct(v.AsDict().Len(), itemFuel)
	}
}

// replace is strings.Replace with its result's size charged first: an
// empty old or a long new can make a result many times s's size.
func replace(s, old, new string, n int) string {
	count := strings.Count(s, old)
	if old == "" {
		count = utf8.RuneCountInString(s) + 1
	}
	if n >= 0 && n < count {
		count = n
	}
	if grow := len(new) - len(old); grow > 0 {
		active.spendProduct(count, grow)
	}
	return strings.Replace(s, old, new, n)
}

// repeat is s*n as Python has it: empty for n <= 0, its size charged
// before it is made.
func repeat(s string, n int64) string {
	if n <= 0 || s == "" {
		return ""
	}
	if n > renderFuel {
		n = renderFuel + 1 // spendProduct fails it (under a render)
	}
	active.spendProduct(int(n), len(s))
	return strings.Repeat(s, int(n))
}

// enterCall counts a macro or caller() call in progress, name's;
// leaveCall ends it. (Not a returned closure: these run for every call.)
func (b *budget) enterCall(name string) {
	if b == nil {
		return
	}
	if b.calls++; b.calls > maxCalls {
		b.fail(fmt.Sprintf("calls of %s nest more than %d deep", name, maxCalls))
	}
}

func (b *budget) leaveCall() {
	if b != nil {
		b.calls--
	}
}

// enterExpr charges an expression evaluation and counts it in progress;
// leaveExpr ends it.
func (b *budget) enterExpr() {
	if b == nil {
		return
	}
	b.spend(1)
	if b.depth++; b.depth > maxEvalDepth {
		b.fail(fmt.Sprintf("expressions evaluate more than %d deep", maxEvalDepth))
	}
}

func (b *budget) leaveExpr() {
	if b != nil {
		b.depth--
	}
}
