package runtime

import (
	"errors"
	"strings"
	"testing"
)

// fakeDevice is a device that only has a name and properties.
type fakeDevice struct {
	Device
	props DeviceProps
}

func (d fakeDevice) Name() string       { return d.props.Name }
func (d fakeDevice) Props() DeviceProps { return d.props }

// fakeReg is a family whose discovery and Close calls are counted.
type fakeReg struct {
	name     string
	devs     []Device
	err      error
	closeErr error

	discovered, closed int
}

func (r *fakeReg) Name() string { return r.name }

func (r *fakeReg) Devices() ([]Device, error) {
	r.discovered++
	return r.devs, r.err
}

func (r *fakeReg) Close() error {
	r.closed++
	return r.closeErr
}

func dev(name string, typ DeviceType, software bool) Device {
	return fakeDevice{props: DeviceProps{Name: name, Type: typ, Software: software}}
}

func names(devs []Device) string {
	var s []string
	for _, d := range devs {
		s = append(s, d.Name())
	}
	return strings.Join(s, ",")
}

func TestSortDevices(t *testing.T) {
	devs := []Device{
		dev("cpu", DeviceCPU, false),
		dev("igpu", DeviceIGPU, false),
		dev("gpu0", DeviceGPU, false),
		dev("accel", DeviceAccel, false),
		dev("gpu1", DeviceGPU, false),
	}
	sortDevices(devs)
	if got, want := names(devs), "gpu0,gpu1,igpu,accel,cpu"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
}

func TestBestOf(t *testing.T) {
	tests := []struct {
		name string
		devs []Device
		want string
	}{
		{"hardware GPU first", []Device{dev("gpu", DeviceGPU, false), dev("cpu", DeviceCPU, false)}, "gpu"},
		{"software GPU never", []Device{dev("lavapipe", DeviceIGPU, true), dev("cpu", DeviceCPU, false)}, "cpu"},
		{"hardware after software", []Device{dev("lavapipe", DeviceIGPU, true), dev("igpu", DeviceIGPU, false), dev("cpu", DeviceCPU, false)}, "igpu"},
		{"first CPU", []Device{dev("cpu0", DeviceCPU, false), dev("cpu1", DeviceCPU, false)}, "cpu0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := bestOf(tc.devs)
			if err != nil {
				t.Fatal(err)
			}
			if d.Name() != tc.want {
				t.Errorf("got %s, want %s", d.Name(), tc.want)
			}
		})
	}
	if _, err := bestOf([]Device{dev("lavapipe", DeviceIGPU, true)}); err == nil || !strings.Contains(err.Error(), "no device") {
		t.Errorf("software GPU alone: err = %v, want 'no device'", err)
	}
}

// The fake families are software devices, so they never change BestDevice
// for the other tests of this binary.
func TestRegistryDiscoveryAndRelease(t *testing.T) {
	used := &fakeReg{name: "fake-used", devs: []Device{dev("FakeA0", DeviceIGPU, true), dev("FakeA1", DeviceIGPU, true)}}
	unused := &fakeReg{name: "fake-unused"}
	failing := &fakeReg{name: "fake-failing", devs: []Device{dev("FakeB0", DeviceIGPU, true)}, closeErr: errors.New("2 buffers still open")}
	Register(used, -10)
	Register(unused, -11)
	Register(failing, -12)

	// Discovery is lazy, runs once, and DevicesOf touches only its family.
	if used.discovered != 0 {
		t.Fatalf("discovered at Register")
	}
	if got := names(DevicesOf("fake-used")); got != "FakeA0,FakeA1" {
		t.Fatalf("DevicesOf = %s", got)
	}
	if unused.discovered != 0 || failing.discovered != 0 {
		t.Fatalf("DevicesOf(fake-used) discovered other families")
	}
	if _, err := FamilyDevices("no-such-family"); err == nil || !strings.Contains(err.Error(), "no-such-family") {
		t.Errorf("FamilyDevices(no-such-family) error = %v", err)
	}
	if d, err := DeviceByName("fakea1"); err != nil || d.Name() != "FakeA1" {
		t.Fatalf("DeviceByName(fakea1) = %v, %v", d, err)
	}
	DevicesOf("fake-used")
	if used.discovered != 1 || failing.discovered != 1 {
		t.Fatalf("discovered %d and %d times, want once", used.discovered, failing.discovered)
	}

	// Release closes what was discovered; the error names the family.
	used.discovered, unused.discovered, failing.discovered = 0, 0, 0
	err := Release()
	if err == nil || !strings.Contains(err.Error(), "fake-failing") || !strings.Contains(err.Error(), "2 buffers still open") {
		t.Errorf("Release error = %v, want one naming fake-failing", err)
	}
	if used.closed != 1 || failing.closed != 1 {
		t.Errorf("closed %d and %d times, want once", used.closed, failing.closed)
	}
	if err := Release(); err != nil || used.closed != 1 {
		t.Errorf("second Release: %v, closed %d times", err, used.closed)
	}

	// The next registry call discovers afresh.
	if got := names(DevicesOf("fake-used")); got != "FakeA0,FakeA1" || used.discovered != 1 {
		t.Errorf("after Release: DevicesOf = %s, discovered %d times", got, used.discovered)
	}
	if failing.discovered != 0 {
		t.Errorf("DevicesOf(fake-used) rediscovered fake-failing")
	}
	if err := Release(); err != nil {
		t.Errorf("Release of fake-used alone: %v", err)
	}
	if used.closed != 2 || failing.closed != 1 {
		t.Errorf("closed %d and %d times, want 2 and 1", used.closed, failing.closed)
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	Register(&fakeReg{name: "fake-twice"}, -20)
	defer func() {
		if recover() == nil {
			t.Error("second Register of one name did not panic")
		}
	}()
	Register(&fakeReg{name: "fake-twice"}, -20)
}
