// The loopback endpoint of `make bench-runner` (benchmarks/bench-runner.ts): a minimal Go net/http server that answers
// every request with 200 "ok". Go's server, pinned to one CPU by the script, so both clients meet the same cheap,
// steady target. It listens on 127.0.0.1 only, prints its port, and exits when its standard input closes.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	body := []byte("ok")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(body)
	})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	if err := http.Serve(ln, handler); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
