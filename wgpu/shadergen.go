//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpurt/gpurt/internal/qtables"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/shaders"
)

// A kernel is one pipeline variant: a WGSL file from shaders/wgsl, the
// dtypes of its storage bindings, the preprocessor flags and the constants
// it is built with. The backend generates, per variant, the bindings and the
// dtype-specific load/store helpers the file calls, so one file serves every
// dtype.
type kernel struct {
	file   string
	binds  []rt.DType // d (output), a, b, c: storage bindings 1..4
	flags  []string
	consts []kconst // emitted as `const NAME: u32 = V;`; WG is always present
}

type kconst struct {
	name string
	val  uint32
}

// slotNames are the WGSL names of the storage bindings, in binding order.
// Slot e (FLASH_ATTN_EXT's mask) has its shape and strides at the end of
// the params block and its offset in off_e.x.
var slotNames = [maxSlots]string{"d", "a", "b", "c", "e"}

const maxSlots = 5

func (k kernel) key() string {
	b := make([]byte, 0, 96)
	b = append(b, k.file...)
	for _, t := range k.binds {
		b = append(b, '|')
		b = append(b, t.String()...)
	}
	for _, f := range k.flags {
		b = append(b, '|')
		b = append(b, f...)
	}
	for _, c := range k.consts {
		b = append(b, '|')
		b = append(b, c.name...)
		b = append(b, '=')
		b = strconv.AppendUint(b, uint64(c.val), 10)
	}
	return string(b)
}

func (k kernel) constVal(name string) (uint32, bool) {
	for _, c := range k.consts {
		if c.name == name {
			return c.val, true
		}
	}
	return 0, false
}

// segment is a run of lines of the generated module that came from one place.
type segment struct {
	name  string
	first int // 1-based first line in the module
	n     int
}

// source is a generated WGSL module and where its lines came from.
type source struct {
	code string
	segs []segment
}

// locate maps a line of the module back to its file and line.
func (s source) locate(line int) (string, int) {
	for _, sg := range s.segs {
		if line >= sg.first && line < sg.first+sg.n {
			return sg.name, line - sg.first + 1
		}
	}
	return "generated code", line
}

// buildSource assembles the module for k: the file's lines first, so that
// compiler line numbers match the file (an `enable f16;` goes at the start
// of line 1), then the generated prelude, then common.wgsl, and
// reduce.wgsl's workgroup reductions when the file calls them.
func buildSource(k kernel, f16 bool) (source, error) {
	body, err := loadWGSL(k.file, k.flags)
	if err != nil {
		return source{}, err
	}
	common, err := loadWGSL("common.wgsl", k.flags)
	if err != nil {
		return source{}, err
	}
	parts := []struct{ name, text string }{
		{k.file, body}, {"generated prelude of " + k.file, genPrelude(k, f16)}, {"common.wgsl", common},
	}
	if strings.Contains(body, "wsum(") || strings.Contains(body, "wmax(") {
		reduce, err := loadWGSL("reduce.wgsl", k.flags)
		if err != nil {
			return source{}, err
		}
		parts = append(parts, struct{ name, text string }{"reduce.wgsl", reduce})
	}
	var src source
	var sb strings.Builder
	if f16 {
		sb.WriteString("enable f16; ")
	}
	line := 1
	for _, part := range parts {
		text := strings.TrimRight(part.text, "\n") + "\n"
		n := strings.Count(text, "\n")
		sb.WriteString(text)
		src.segs = append(src.segs, segment{name: part.name, first: line, n: n})
		line += n
	}
	src.code = sb.String()
	return src, nil
}

// loadWGSL reads an embedded WGSL file and applies k's #if flags.
func loadWGSL(name string, flags []string) (string, error) {
	text, err := shaders.WGSL(name)
	if err != nil {
		return "", err
	}
	return preprocess(name, text, flags)
}

// preprocess keeps or blanks lines by #if/#else/#endif on the given flags.
// Directive and dropped lines become empty, so line numbers are preserved.
func preprocess(name, text string, flags []string) (string, error) {
	set := map[string]bool{}
	for _, f := range flags {
		set[f] = true
	}
	lines := strings.Split(text, "\n")
	type frame struct{ active, taken bool }
	var stack []frame
	active := func() bool {
		for _, f := range stack {
			if !f.active {
				return false
			}
		}
		return true
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "#if "):
			cond := strings.TrimSpace(t[4:])
			neg := strings.HasPrefix(cond, "!")
			v := set[strings.TrimPrefix(cond, "!")] != neg
			stack = append(stack, frame{active: v, taken: v})
			lines[i] = ""
		case t == "#else":
			if len(stack) == 0 {
				return "", fmt.Errorf("%s:%d: #else without #if", name, i+1)
			}
			f := &stack[len(stack)-1]
			f.active = !f.taken
			lines[i] = ""
		case t == "#endif":
			if len(stack) == 0 {
				return "", fmt.Errorf("%s:%d: #endif without #if", name, i+1)
			}
			stack = stack[:len(stack)-1]
			lines[i] = ""
		case strings.HasPrefix(t, "#"):
			return "", fmt.Errorf("%s:%d: unknown directive %q", name, i+1, t)
		default:
			if !active() {
				lines[i] = ""
			}
		}
	}
	if len(stack) != 0 {
		return "", fmt.Errorf("%s: unterminated #if", name)
	}
	return strings.Join(lines, "\n"), nil
}

var wgslLoc = regexp.MustCompile(`wgsl:(\d+):(\d+)`)

// compileError turns a wgpu shader-module error into one that names the
// shader file, the variant and the line in the file.
func compileError(dev string, k kernel, src source, err error) error {
	msg := err.Error()
	summary := ""
	for _, l := range strings.Split(msg, "\n") {
		if i := strings.Index(l, "error:"); i >= 0 {
			summary = strings.TrimSpace(l[i+len("error:"):])
			break
		}
	}
	if summary == "" {
		summary = strings.TrimSpace(msg)
	}
	if m := wgslLoc.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		file, fline := src.locate(line)
		return fmt.Errorf("%s: compile shader %s (variant %s): %s:%d:%d: %s", dev, k.file, k.key(), file, fline, col, summary)
	}
	return fmt.Errorf("%s: compile shader %s (variant %s): %s", dev, k.file, k.key(), summary)
}

// paramsWGSL is the uniform block every kernel receives at binding 0. It
// mirrors the Go struct params: for each of d, a, b, c the shape (ne) and
// byte strides (nb); off holds each binding's byte offset of the tensor
// inside the bound range (bindings start at aligned offsets); slot e's
// come last.
const paramsWGSL = `struct Params {
  ne_d: vec4<u32>, nb_d: vec4<u32>,
  ne_a: vec4<u32>, nb_a: vec4<u32>,
  ne_b: vec4<u32>, nb_b: vec4<u32>,
  ne_c: vec4<u32>, nb_c: vec4<u32>,
  off: vec4<u32>,
  ip: vec4<i32>,
  fp: vec4<f32>,
  n: vec4<u32>,
  ne_e: vec4<u32>, nb_e: vec4<u32>,
  off_e: vec4<u32>,
}
@group(0) @binding(0) var<uniform> P: Params;
`

// genPrelude generates the params block, the constants and, per binding,
// its declaration and helpers:
//
//	ld_$(o) f32 / st_$(o, v)      element at byte offset o (plain dtypes)
//	ldi_$(o) i32 / sti_$(o, v)    I32 element
//	lde_$(row, k) f32             element k of the row starting at byte row (all dtypes)
//	ld4_$(row, k) vec4<f32>       elements k..k+3 of a unit-stride row; k%4 == 0
//	st4_$(o, v)                   4 elements at o (V4 output bindings)
//	ldb_$(o), ldh_$(o)            byte, f16 (as f32) at o (sub-word dtypes)
//	stb_$(o, v), stw2_$(o, w)     byte, 4 bytes at a 2-aligned offset (written sub-word dtypes)
//	stq_$(o, &x)                  quantize 32 values into the block at o
//
// Sub-word dtypes (F16 without shader-f16, BF16, Q8_0, Q4_0) are bound as
// u32 words; when written, as atomic words so that neighbours can be stored
// by different invocations. With the flag V4_<name>, an F32 or (with
// shader-f16) F16 binding is declared as an array of 4-vectors, so that ld4
// is one load; every row start must then be aligned to the vector size.
// With W4_<name>, a read-only F16 or BF16 binding is declared as an array of
// vec4<u32>, and ld8_$(row, k) (k%8 == 0) loads eight elements at once;
// rows must start 16-byte aligned.
func genPrelude(k kernel, f16 bool) string {
	var sb strings.Builder
	sb.WriteString(paramsWGSL)
	if _, ok := k.constVal("WG"); !ok {
		sb.WriteString("const WG: u32 = 64u;\n")
	}
	for _, c := range k.consts {
		fmt.Fprintf(&sb, "const %s: u32 = %du;\n", c.name, c.val)
	}
	if slices.ContainsFunc(k.binds, runtimeTyped) {
		sb.WriteString(dequantTables())
	}
	for i, t := range k.binds {
		name := slotNames[i]
		write := i == 0
		vec := slices.Contains(k.flags, "V4_"+name)
		w4 := slices.Contains(k.flags, "W4_"+name) && !write
		sb.WriteString(strings.ReplaceAll(bindingWGSL(i+1, t, write, f16, vec, w4), "$", name))
	}
	return sb.String()
}

// subword reports whether dtype t is stored in u32 words with several
// elements per word.
func subword(t rt.DType, f16 bool) bool {
	switch t {
	case rt.F32, rt.I32:
		return false
	case rt.F16:
		return !f16
	}
	return true
}

// runtimeTyped reports whether dtype t is loaded by dequant.wgsl, shared
// by all of them with the dtype as a constant (dt_$): every block type but
// Q8_0 and Q4_0, which have loaders of their own.
func runtimeTyped(t rt.DType) bool { return t.IsQuantized() && t != rt.Q8_0 && t != rt.Q4_0 }

// dequantTables declares the codebooks of dequant.wgsl, read from the
// runtime's dequantizers (internal/qtables).
func dequantTables() string {
	table := func(name string, vals [16]int8) string {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = strconv.Itoa(int(v)) + ".0"
		}
		return fmt.Sprintf("var<private> %s: array<f32, %d> = array<f32, %d>(%s);\n", name, len(vals), len(vals), strings.Join(parts, ", "))
	}
	return table("IQ4NL", codebooks.iq4nl) + table("MXFP4", codebooks.mxfp4)
}

func bindingWGSL(binding int, t rt.DType, write, f16, vec, w4 bool) string {
	var sb strings.Builder
	decl := func(elem string) {
		fmt.Fprintf(&sb, "@group(0) @binding(%d) var<storage, read_write> $: array<%s>;\n", binding, elem)
	}
	words := func() {
		if write {
			decl("atomic<u32>")
			sb.WriteString(`fn rw_$(i: u32) -> u32 { return atomicLoad(&$[i]); }
fn stbits_$(i: u32, mask: u32, v: u32) { atomicAnd(&$[i], ~mask); atomicOr(&$[i], v & mask); }
fn sth_$(o: u32, h: u32) { let sh = (o & 2u) * 8u; stbits_$(o >> 2u, 0xffffu << sh, h << sh); }
fn stb_$(o: u32, v: u32) { let sh = (o & 3u) * 8u; stbits_$(o >> 2u, 0xffu << sh, v << sh); }
fn stw2_$(o: u32, w: u32) {
  if ((o & 2u) == 0u) { atomicStore(&$[o >> 2u], w); return; }
  sth_$(o, w & 0xffffu);
  sth_$(o + 2u, w >> 16u);
}
`)
		} else if w4 {
			decl("vec4<u32>")
			sb.WriteString("fn rw_$(i: u32) -> u32 { return $[i >> 2u][i & 3u]; }\n")
		} else {
			decl("u32")
			sb.WriteString("fn rw_$(i: u32) -> u32 { return $[i]; }\n")
		}
		sb.WriteString(`fn ldb_$(o: u32) -> u32 { return (rw_$(o >> 2u) >> ((o & 3u) * 8u)) & 0xffu; }
fn ldu16_$(o: u32) -> u32 { return (rw_$(o >> 2u) >> ((o & 2u) * 8u)) & 0xffffu; }
fn ldh_$(o: u32) -> f32 { return unpack2x16float(ldu16_$(o)).x; }
fn ldw2_$(o: u32) -> u32 {
  let i = o >> 2u;
  if ((o & 2u) == 0u) { return rw_$(i); }
  return (rw_$(i) >> 16u) | (rw_$(i + 1u) << 16u);
}
`)
	}
	lde := "fn lde_$(r: u32, k: u32) -> f32 { return ld_$(r + k * P.nb_$.x); }\n"
	if runtimeTyped(t) {
		words()
		// A constant: the compiler keeps only this dtype's dequantizer
		// (lavapipe runs every branch it cannot prove unused, so a dtype
		// read at run time costs it 10-20x).
		fmt.Fprintf(&sb, "fn dt_$() -> u32 { return %du; }\n", int(t))
		sb.WriteString(dequantWGSL)
		if write {
			sb.WriteString(quantizerWGSL(t))
		}
		return sb.String()
	}
	switch t {
	case rt.F32:
		if vec {
			decl("vec4<f32>")
			sb.WriteString(`fn ld_$(o: u32) -> f32 { return $[o >> 4u][(o >> 2u) & 3u]; }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { return $[(r >> 4u) + (k >> 2u)]; }
`)
			if write {
				sb.WriteString("fn st4_$(o: u32, v: vec4<f32>) { $[o >> 4u] = v; }\n")
			}
			sb.WriteString(lde)
			break
		}
		decl("f32")
		sb.WriteString(`fn ld_$(o: u32) -> f32 { return $[o >> 2u]; }
fn st_$(o: u32, v: f32) { $[o >> 2u] = v; }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { let i = (r >> 2u) + k; return vec4<f32>($[i], $[i + 1u], $[i + 2u], $[i + 3u]); }
`)
		sb.WriteString(lde)
	case rt.I32:
		decl("i32")
		sb.WriteString(`fn ldi_$(o: u32) -> i32 { return $[o >> 2u]; }
fn sti_$(o: u32, v: i32) { $[o >> 2u] = v; }
fn ld_$(o: u32) -> f32 { return f32($[o >> 2u]); }
fn st_$(o: u32, v: f32) { $[o >> 2u] = i32(v); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { let i = (r >> 2u) + k; return vec4<f32>(f32($[i]), f32($[i + 1u]), f32($[i + 2u]), f32($[i + 3u])); }
fn ldei_$(r: u32, k: u32) -> i32 { return ldi_$(r + k * P.nb_$.x); }
`)
		sb.WriteString(lde)
	case rt.F16:
		if w4 {
			words()
			sb.WriteString(`fn ld_$(o: u32) -> f32 { return ldh_$(o); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { let o = r + 2u * k; return vec4<f32>(ld_$(o), ld_$(o + 2u), ld_$(o + 4u), ld_$(o + 6u)); }
fn ld8_$(r: u32, k: u32) -> mat2x4<f32> {
  let w = $[(r >> 4u) + (k >> 3u)];
  return mat2x4<f32>(vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y)), vec4<f32>(unpack2x16float(w.z), unpack2x16float(w.w)));
}
`)
		} else if f16 && vec {
			decl("vec4<f16>")
			sb.WriteString(`fn ld_$(o: u32) -> f32 { return f32($[o >> 3u][(o >> 1u) & 3u]); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { return vec4<f32>($[(r >> 3u) + (k >> 2u)]); }
`)
			if write {
				sb.WriteString("fn st4_$(o: u32, v: vec4<f32>) { $[o >> 3u] = vec4<f16>(v); }\n")
			}
		} else if f16 {
			decl("f16")
			sb.WriteString(`fn ld_$(o: u32) -> f32 { return f32($[o >> 1u]); }
fn st_$(o: u32, v: f32) { $[o >> 1u] = f16(v); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { let i = (r >> 1u) + k; return vec4<f32>(f32($[i]), f32($[i + 1u]), f32($[i + 2u]), f32($[i + 3u])); }
`)
		} else {
			words()
			sb.WriteString(`fn ld_$(o: u32) -> f32 { return ldh_$(o); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> {
  let o = r + 2u * k;
  if ((o & 3u) == 0u) { let i = o >> 2u; return vec4<f32>(unpack2x16float(rw_$(i)), unpack2x16float(rw_$(i + 1u))); }
  return vec4<f32>(ld_$(o), ld_$(o + 2u), ld_$(o + 4u), ld_$(o + 6u));
}
`)
			if write {
				sb.WriteString("fn st_$(o: u32, v: f32) { sth_$(o, f16bits(v)); }\n")
			}
		}
		sb.WriteString(lde)
	case rt.BF16:
		words()
		sb.WriteString(`fn ld_$(o: u32) -> f32 { return bitcast<f32>(((rw_$(o >> 2u) >> ((o & 2u) * 8u)) & 0xffffu) << 16u); }
fn ld4_$(r: u32, k: u32) -> vec4<f32> { let o = r + 2u * k; return vec4<f32>(ld_$(o), ld_$(o + 2u), ld_$(o + 4u), ld_$(o + 6u)); }
`)
		if w4 {
			sb.WriteString(`fn ld8_$(r: u32, k: u32) -> mat2x4<f32> {
  let w = $[(r >> 4u) + (k >> 3u)];
  return mat2x4<f32>(bitcast<vec4<f32>>(vec4<u32>(w.x << 16u, w.x & 0xffff0000u, w.y << 16u, w.y & 0xffff0000u)),
                     bitcast<vec4<f32>>(vec4<u32>(w.z << 16u, w.z & 0xffff0000u, w.w << 16u, w.w & 0xffff0000u)));
}
`)
		}
		if write {
			sb.WriteString("fn st_$(o: u32, v: f32) { sth_$(o, bf16bits(v)); }\n")
		}
		sb.WriteString(lde)
	case rt.Q8_0:
		words()
		sb.WriteString(`fn lde_$(r: u32, k: u32) -> f32 {
  let b = r + (k / 32u) * 34u;
  return ldh_$(b) * f32(extractBits(bitcast<i32>(ldb_$(b + 2u + k % 32u)), 0u, 8u));
}
fn ld4_$(r: u32, k: u32) -> vec4<f32> {
  let b = r + (k / 32u) * 34u;
  let w = bitcast<i32>(ldw2_$(b + 2u + k % 32u));
  return ldh_$(b) * vec4<f32>(f32(extractBits(w, 0u, 8u)), f32(extractBits(w, 8u, 8u)), f32(extractBits(w, 16u, 8u)), f32(extractBits(w, 24u, 8u)));
}
`)
		if write {
			sb.WriteString(`fn stq_$(o: u32, x: ptr<function, array<f32, 32>>) {
  var amax = 0.0;
  for (var j = 0u; j < 32u; j++) { amax = max(amax, abs((*x)[j])); }
  let d = amax / 127.0;
  var id = 0.0;
  if (d != 0.0) { id = 1.0 / d; }
  sth_$(o, f16bits(d));
  for (var j = 0u; j < 32u; j += 4u) {
    var w = 0u;
    for (var t = 0u; t < 4u; t++) { w |= (u32(i32(round_away((*x)[j + t] * id))) & 0xffu) << (8u * t); }
    stw2_$(o + 2u + j, w);
  }
}
`)
		}
	case rt.Q4_0:
		words()
		sb.WriteString(`fn lde_$(r: u32, k: u32) -> f32 {
  let b = r + (k / 32u) * 18u;
  let j = k % 32u;
  let q = ldb_$(b + 2u + j % 16u);
  return ldh_$(b) * (f32(select(q & 15u, q >> 4u, j >= 16u)) - 8.0);
}
fn ld4_$(r: u32, k: u32) -> vec4<f32> {
  let b = r + (k / 32u) * 18u;
  let j = k % 32u;
  var w = ldw2_$(b + 2u + j % 16u);
  if (j >= 16u) { w = w >> 4u; }
  w = w & 0x0f0f0f0fu;
  return ldh_$(b) * (vec4<f32>(f32(w & 0xffu), f32((w >> 8u) & 0xffu), f32((w >> 16u) & 0xffu), f32(w >> 24u)) - vec4<f32>(8.0));
}
`)
		if write {
			sb.WriteString(`fn stq_$(o: u32, x: ptr<function, array<f32, 32>>) {
  var amax = 0.0;
  var vmax = 0.0;
  for (var j = 0u; j < 32u; j++) { let v = (*x)[j]; if (abs(v) > amax) { amax = abs(v); vmax = v; } }
  let d = vmax / -8.0;
  var id = 0.0;
  if (d != 0.0) { id = 1.0 / d; }
  sth_$(o, f16bits(d));
  for (var j = 0u; j < 16u; j += 4u) {
    var w = 0u;
    for (var t = 0u; t < 4u; t++) {
      let x0 = min(15u, u32((*x)[j + t] * id + 8.5));
      let x1 = min(15u, u32((*x)[j + t + 16u] * id + 8.5));
      w |= (x0 | (x1 << 4u)) << (8u * t);
    }
    stw2_$(o + 2u + j, w);
  }
}
`)
		}
	}
	return sb.String()
}

// dequantWGSL and quantizeWGSL are dequant.wgsl, appended per binding of
// a runtimeTyped dtype, and quantize.wgsl, appended when it is written.
var dequantWGSL, quantizeWGSL = embeddedWGSL("dequant.wgsl"), embeddedWGSL("quantize.wgsl")

func embeddedWGSL(name string) string {
	s, err := shaders.WGSL(name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return s
}

// quantizable reports whether the kernels write dtype t from F32 values
// (stq_ in the generated prelude, quantize.wgsl and quantize_k.wgsl).
func quantizable(t rt.DType) bool {
	switch t {
	case rt.Q8_0, rt.Q4_0, rt.Q4_1, rt.Q5_0, rt.Q5_1:
		return true
	}
	return quantizeK(t)
}

// codebooks are the IQ4_NL/IQ4_XS and MXFP4 levels, as the CPU has them.
var codebooks = func() (c struct{ iq4nl, mxfp4 [16]int8 }) {
	var err1, err2 error
	c.iq4nl, err1 = qtables.IQ4NL()
	c.mxfp4, err2 = qtables.MXFP4()
	if err := errors.Join(err1, err2); err != nil {
		panic(err) // the runtime's own dequantizers failed
	}
	return c
}()
