// SPDX-License-Identifier: GPL-3.0-or-later
// sp-work-go: a Go program for the conformance matrix (go build, no
// modules, no network): goroutines on the Go runtime's own threads.
//
//	sp-work-go SECONDS
//
// two goroutines: main.goWorker → main.goLeaf
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

//go:noinline
func goLeaf(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i
	}
	return s
}

//go:noinline
func goWorker(until time.Time, out *int) {
	for time.Now().Before(until) {
		*out += goLeaf(20000)
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sp-work-go SECONDS")
		os.Exit(2)
	}
	seconds, err := strconv.ParseFloat(os.Args[1], 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: sp-work-go SECONDS")
		os.Exit(2)
	}
	until := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	var wg sync.WaitGroup
	results := make([]int, 2)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			goWorker(until, &results[i])
		}(i)
	}
	wg.Wait()
	fmt.Println(results[0] + results[1])
}
