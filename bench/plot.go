package bench

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// barGroup is the data of one grouped bar chart: a value per series and category.
type barGroup struct {
	title, ylabel string
	cats, series  []string
	vals          map[string]map[string]float64 // series -> category -> value
}

func (g *barGroup) set(series, cat string, v float64) {
	if g.vals == nil {
		g.vals = map[string]map[string]float64{}
	}
	if g.vals[series] == nil {
		g.vals[series] = map[string]float64{}
		g.series = append(g.series, series)
	}
	if !contains(g.cats, cat) {
		g.cats = append(g.cats, cat)
	}
	g.vals[series][cat] = v
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// seriesName labels a record's bars: the backend, with the device when the
// family has several in recs.
func seriesNamer(recs []Record) func(Record) string {
	devs := map[string]map[string]bool{}
	for _, r := range recs {
		if devs[r.Backend] == nil {
			devs[r.Backend] = map[string]bool{}
		}
		devs[r.Backend][r.Device] = true
	}
	return func(r Record) string {
		if len(devs[r.Backend]) > 1 {
			return r.Backend + "/" + r.Device
		}
		return r.Backend
	}
}

// chartGroups arranges recs into charts: one GFLOPS chart per MUL_MAT shape
// (a bar per backend and dtype), and one GB/s chart of the memory-bound ops
// with the bandwidth probe, and tokens/s charts of the end-to-end runs.
func chartGroups(recs []Record) []*barGroup {
	name := seriesNamer(recs)
	var groups []*barGroup
	byShape := map[string]*barGroup{}
	bw := &barGroup{title: "memory-bound ops", ylabel: "GB/s"}
	e2e := map[string]*barGroup{
		"E2E_PROMPT": {title: "end to end: prompt", ylabel: "tokens/s"},
		"E2E_GEN":    {title: "end to end: generation", ylabel: "tokens/s"},
	}
	for _, r := range recs {
		if !r.OK() {
			continue
		}
		switch {
		case r.Op == "MUL_MAT" && r.GFLOPS > 0:
			key := mnk(r.M, r.N, r.K)
			g := byShape[key]
			if g == nil {
				g = &barGroup{title: "MUL_MAT " + key + " (MxNxK)", ylabel: "GFLOPS"}
				byShape[key] = g
				groups = append(groups, g)
			}
			g.set(name(r), r.Type, r.GFLOPS)
		case e2e[r.Op] != nil && r.TokS > 0: // gpurt and llama.cpp side by side
			e2e[r.Op].set(name(r), r.Model, r.TokS)
		case r.GBps > 0 && r.Op != "MUL_MAT":
			cat := r.Op
			if r.Type != "f32" {
				cat += " " + r.Type
			}
			bw.set(name(r), cat, r.GBps)
		}
	}
	if len(bw.cats) > 0 {
		groups = append(groups, bw)
	}
	for _, op := range []string{"E2E_PROMPT", "E2E_GEN"} {
		if g := e2e[op]; len(g.cats) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// seriesOrder fixes each backend's colour across all the panels.
var seriesOrder = []string{BackendGonum, "vulkan", "webgpu", "cpu", BackendMemBW}

// seriesColor is the colour of a backend's bars in every panel; other
// series take the palette's colours after those.
func seriesColor(name string) color.Color {
	for i, n := range seriesOrder {
		if n == name {
			return plotutil.Color(i)
		}
	}
	h := 0
	for _, r := range name {
		h = h*31 + int(r)
	}
	return plotutil.Color(len(seriesOrder) + h%3)
}

// newBarPlot draws one grouped bar chart.
func newBarPlot(g *barGroup) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = g.title
	p.Y.Label.Text = g.ylabel
	p.Y.Min = 0
	p.Legend.Top = true
	width := vg.Points(min(20, 240/float64(len(g.cats)*len(g.series))))
	top := 0.0
	for i, s := range g.series {
		vals := make(plotter.Values, len(g.cats))
		for j, c := range g.cats {
			vals[j] = g.vals[s][c]
			top = max(top, vals[j])
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bc.Color = seriesColor(s)
		bc.LineStyle.Width = 0
		bc.Offset = width * vg.Length(float64(i)-float64(len(g.series)-1)/2)
		p.Add(bc)
		p.Legend.Add(s, bc)
	}
	p.NominalX(g.cats...)
	p.Y.Max = top * (1 + 0.1*float64(len(g.series)+1)) // headroom for the legend
	if len(g.cats) > 4 {
		p.X.Tick.Label.Rotation = 0.6
		p.X.Tick.Label.XAlign = draw.XRight
	}
	return p, nil
}

// WritePNG draws bar charts of recs as a PNG: GFLOPS per backend and dtype
// for every MUL_MAT shape, and GB/s of the memory-bound ops next to the
// bandwidth probe. title heads the image (e.g. where it was measured).
func WritePNG(w io.Writer, recs []Record, title string) error {
	groups := chartGroups(recs)
	if len(groups) == 0 {
		return errors.New("png: no successful GFLOPS or GB/s measurements to plot")
	}
	const tileW, tileH, head = 460, 340, 30
	cols := min(3, len(groups))
	rows := (len(groups) + cols - 1) / cols
	img := vgimg.New(vg.Points(float64(cols*tileW)), vg.Points(float64(rows*tileH+head)))
	dc := draw.New(img)
	dc.FillText(draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, 14), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler},
		vg.Point{X: dc.Center().X, Y: dc.Max.Y - 6}, strings.TrimSpace(title))
	body := dc
	body.Max.Y -= head
	tiles := draw.Tiles{Cols: cols, Rows: rows, PadX: 8, PadY: 8, PadTop: 4, PadBottom: 4, PadLeft: 4, PadRight: 4}
	for i, g := range groups {
		p, err := newBarPlot(g)
		if err != nil {
			return fmt.Errorf("png: %s: %w", g.title, err)
		}
		p.Draw(tiles.At(body, i%cols, i/cols))
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}
