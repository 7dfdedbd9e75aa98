package cpu

import "syscall"

// yieldCore gives the core to another runnable thread, if the OS has one;
// on an idle core it returns at once.
func yieldCore() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
