// The stall probe of `make bench-runner` (BENCH_TIMELINE=1, benchmarks/bench-runner.ts): one thread pinned to each CPU
// sleeps 1 ms at a time and reports every wake-up that came later than a threshold (argument, ms; 5 by default). On
// an idle machine such a thread wakes within a millisecond or so; it wakes late when its CPU did not run it: the
// hypervisor held the CPU (steal), or other threads kept it busy (Linux lets a running thread go on for a few ms
// before a woken one takes the CPU). So it times how long a CPU was unavailable, not who took it. Standard library
// only; it sends nothing anywhere. Each stall goes to stdout as one line, "<epoch ms> <cpu> <late ms>"; it exits when
// its standard input closes.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// pin binds the calling OS thread to one CPU (sched_setaffinity on thread id 0, the caller).
func pin(cpu int) error {
	var mask [16]uint64
	mask[cpu/64] |= 1 << (uint(cpu) % 64)
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask[0])))
	if errno != 0 {
		return errno
	}
	return nil
}

func main() {
	threshold := 5 * time.Millisecond
	if len(os.Args) > 1 {
		ms, err := strconv.ParseFloat(os.Args[1], 64)
		if err != nil || ms <= 0 {
			fmt.Fprintf(os.Stderr, "stall-probe: the threshold must be a positive number of ms, got %q\n", os.Args[1])
			os.Exit(2)
		}
		threshold = time.Duration(ms * float64(time.Millisecond))
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	for cpu := 0; cpu < runtime.NumCPU(); cpu++ {
		go func(cpu int) {
			runtime.LockOSThread()
			if err := pin(cpu); err != nil {
				fmt.Fprintf(os.Stderr, "stall-probe: cannot pin to CPU %d: %v\n", cpu, err)
				os.Exit(1)
			}
			for {
				before := time.Now()
				// The thread's own sleep: Go's time.Sleep waits on the runtime's timers, whose wake-up is the Go
				// scheduler's, not the CPU's.
				_ = syscall.Nanosleep(&syscall.Timespec{Nsec: int64(time.Millisecond)}, nil)
				if late := time.Since(before) - time.Millisecond; late > threshold {
					mu.Lock()
					fmt.Fprintf(out, "%d %d %.3f\n", time.Now().UnixMilli(), cpu, float64(late)/float64(time.Millisecond))
					mu.Unlock()
				}
			}
		}(cpu)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	mu.Lock()
	_ = out.Flush()
	os.Exit(0)
}
