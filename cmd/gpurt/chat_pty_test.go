//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gpurt/gpurt/internal/testmodels"
)

// chatChildEnv, when set, makes TestChatTerminalChild run gpurt with the
// arguments it holds (separated by \x1f) in this process: the child of
// TestChatCtrlC, on a pseudo-terminal.
const chatChildEnv = "GPURT_TEST_CHAT_CHILD"

func TestChatTerminalChild(t *testing.T) {
	args := os.Getenv(chatChildEnv)
	if args == "" {
		t.Skip("runs only as TestChatCtrlC's child")
	}
	os.Exit(dispatch(strings.Split(args, "\x1f")))
}

// openPty opens a pseudo-terminal pair: the master, and the slave's path.
func openPty() (*os.File, string, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, "", err
	}
	var n uint32
	var unlock int32
	for _, c := range []struct {
		req uintptr
		arg unsafe.Pointer
	}{{syscall.TIOCGPTN, unsafe.Pointer(&n)}, {syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)}} {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), c.req, uintptr(c.arg)); errno != 0 {
			m.Close()
			return nil, "", errno
		}
	}
	return m, fmt.Sprintf("/dev/pts/%d", n), nil
}

// terminal collects what a child writes to the pseudo-terminal.
type terminal struct {
	mu   sync.Mutex
	out  strings.Builder
	more chan struct{} // signalled after each read
}

// waitFor waits until the output after offset from contains want and
// returns the offset just past it.
func (tm *terminal) waitFor(t *testing.T, from int, want string, timeout time.Duration) int {
	t.Helper()
	deadline := time.After(timeout)
	for {
		tm.mu.Lock()
		s := tm.out.String()
		tm.mu.Unlock()
		s = strings.ReplaceAll(s, "\r", "")
		if from <= len(s) {
			if i := strings.Index(s[from:], want); i >= 0 {
				return from + i + len(want)
			}
		}
		select {
		case <-tm.more:
		case <-deadline:
			t.Fatalf("after %v, no %q in the output after byte %d:\n%s", timeout, want, from, s)
		}
	}
}

func (tm *terminal) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return strings.ReplaceAll(tm.out.String(), "\r", "")
}

// TestChatCtrlC runs gpurt chat on a pseudo-terminal and types Ctrl-C
// (which the terminal turns into SIGINT) while a long reply streams: the
// reply stops, the prompt comes back, the next message is answered, and
// two Ctrl-Cs at the idle prompt end the program with exit code 0.
func TestChatCtrlC(t *testing.T) {
	model := testmodels.StoriesPath(t)
	master, slavePath, err := openPty()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	slave, err := os.OpenFile(slavePath, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("pseudo-terminal %s: %v", slavePath, err)
	}
	// No -n: the first reply runs on to the context's end unless stopped.
	args := []string{"chat", "-m", model, "-d", "cpu", "-t", "1", "--temp", "0"}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChatTerminalChild$")
	cmd.Env = append(os.Environ(), chatChildEnv+"="+strings.Join(args, "\x1f"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-exited
		}
	}()
	tm := &terminal{more: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			select {
			case tm.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	const wait = 60 * time.Second
	at := tm.waitFor(t, 0, "> ", wait)
	master.WriteString("Once upon a time\n")
	at = tm.waitFor(t, at, "Once upon a time\n", wait) // the echo
	tm.waitFor(t, at+200, "", wait)                    // 200 bytes of the reply have streamed
	master.WriteString("\x03")
	stopped := tm.waitFor(t, at, "[stopped]\n> ", wait)
	if first := tm.text()[at:stopped]; len(first) > 3000 {
		t.Errorf("the stopped reply has %d bytes: did Ctrl-C stop it?", len(first))
	}
	master.WriteString("Tell me more\n")
	at = tm.waitFor(t, stopped, "Tell me more\n", wait)
	end := tm.waitFor(t, at, "\n> ", wait)
	if reply := strings.TrimSpace(tm.text()[at:end]); len(reply) < 10 || strings.Contains(reply, "[stopped]") {
		t.Errorf("second reply %q", reply)
	}
	master.WriteString("\x03")
	at = tm.waitFor(t, end, "Ctrl-C again", wait)
	master.WriteString("\x03")
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("gpurt chat ended with %v:\n%s", err, tm.text())
		}
		t.Logf("the terminal:\n%s", tm.text())
	case <-time.After(wait):
		t.Fatalf("gpurt chat still runs after a second Ctrl-C at the prompt:\n%s", tm.text())
	}
}
