package bench

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Transfer sizes: a 16 MiB tensor for bandwidth, 4 bytes for latency (a
// model step's per-token inputs and outputs are this small).
const (
	TransferBytes      = 16 << 20
	TransferSmallBytes = 4
)

// StagedTyper is a device whose default buffer type the host maps, and which
// offers a variant that stages every transfer as on a discrete GPU whose
// device memory the host cannot map (vk.Device). StagedBufferType returns nil
// when the default type stages already.
type StagedTyper interface {
	StagedBufferType() rt.BufferType
}

// Transfer measures host↔device copies through the device's default buffer
// type: upload and download GB/s of size bytes, and the µs of a 4-byte
// set+get round trip. On a device with a staged variant (StagedTyper) the
// same three are measured through it in the same run, each with VsMapped,
// its time over the default type's. On Vulkan, GPURT_VK_DISCRETE=1 forces
// the staged path on the default type too.
func Transfer(dev rt.Device, size int, p Policy) ([]Record, error) {
	recs, err := transferOn(dev.BufferType(), size, p, "")
	if err != nil {
		return recs, err
	}
	st, ok := dev.(StagedTyper)
	if !ok {
		return recs, nil
	}
	bt := st.StagedBufferType()
	if bt == nil {
		return recs, nil
	}
	staged, err := transferOn(bt, size, p, "staged (discrete-GPU path)")
	for i := range staged {
		if i < len(recs) && recs[i].Us > 0 {
			staged[i].VsMapped = staged[i].Us / recs[i].Us
			staged[i].Note += fmt.Sprintf(", %.3g× the mapped time", staged[i].VsMapped)
		}
	}
	return append(recs, staged...), err
}

// transferOn measures the three transfer figures through buffer type bt.
func transferOn(bt rt.BufferType, size int, p Policy, path string) ([]Record, error) {
	ctx := rt.NewContext()
	big := ctx.NewTensor(rt.I32, size/4).SetName("transfer")
	small := ctx.NewTensor(rt.I32, TransferSmallBytes/4).SetName("transfer_small")
	buf, err := rt.AllocContextTensors(ctx, bt)
	if err != nil {
		return nil, fmt.Errorf("transfer bench: %w", err)
	}
	defer buf.Free()
	data := make([]byte, big.Nbytes())
	for i := range data {
		data[i] = byte(i)
	}
	got := make([]byte, len(data))
	tiny, tinyGot := make([]byte, TransferSmallBytes), make([]byte, TransferSmallBytes)

	kind := "device"
	if bt.IsHost() {
		kind = "host"
	}
	note := fmt.Sprintf("%s buffer type %s", kind, bt.Name())
	if path != "" {
		note += ", " + path
	}
	var recs []Record
	for _, c := range []struct {
		op    string
		bytes int
		run   func() error
	}{
		{"UPLOAD", len(data), func() error { return rt.TensorSet(big, data, 0) }},
		{"DOWNLOAD", len(data), func() error { return rt.TensorGet(big, got, 0) }},
		{"ROUNDTRIP", 2 * TransferSmallBytes, func() error {
			if err := rt.TensorSet(small, tiny, 0); err != nil {
				return err
			}
			return rt.TensorGet(small, tinyGot, 0)
		}},
	} {
		rec := Record{Op: c.op, Type: "i32", Ne: [4]int{c.bytes / 4, 1, 1, 1}, Note: note}
		if c.op == "ROUNDTRIP" {
			rec.Ne = [4]int{TransferSmallBytes / 4, 1, 1, 1}
			rec.Note += ", 4-byte set then get"
		}
		t, err := Measure(p, c.run)
		if err != nil {
			return recs, fmt.Errorf("transfer bench %s: %w", c.op, err)
		}
		rec.Us = us(t.Median)
		rec.Runs = t.Runs
		if c.op != "ROUNDTRIP" { // latency, not bandwidth
			rec.GBps = float64(c.bytes) / t.Median.Seconds() / 1e9
		}
		rec.Status = StatusOK
		recs = append(recs, rec)
	}
	return recs, nil
}
