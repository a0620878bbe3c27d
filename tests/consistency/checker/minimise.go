// Minimising a failing history by steps that keep it a history the emulator could have produced (so the smaller
// one fails for the same reason, not because an operation it depended on was cut out):
//
//  1. the shortest failing prefix in time: operations called after the cut are dropped, except writes logged before
//     a write that stays (dropping them would change what the kept ones did); reads still running at the cut are
//     dropped, writes still running become pending (in the log: applied at some point after their call);
//  2. then as few reads as possible (ddmin): a read only constrains, so dropping reads never makes a history
//     that holds fail.
//
// Writes are never dropped otherwise: a later read may have seen their effect, and without them it would fail
// artificially.
package main

import (
	"math"
	"sort"
)

func cut(ops []Op, order []int64, at int64) []Op {
	logPos := map[int64]int{}
	for p, n := range order {
		logPos[n] = p
	}
	last := -1
	for _, op := range ops {
		if p, ok := logPos[op.N]; ok && op.Write != nil && op.Call <= at && p > last {
			last = p
		}
	}
	out := []Op{}
	for _, op := range ops {
		p, inLog := logPos[op.N]
		inLog = inLog && op.Write != nil
		if op.Call > at && !(inLog && p <= last) {
			continue
		}
		if op.Return > at {
			if op.Read != nil {
				continue
			}
			op.Unknown = true
			op.Applied = inLog
			op.Result = nil
			op.Return = math.MaxInt64
		}
		out = append(out, op)
	}
	return out
}

func minimise(ops []Op, order []int64, fails func([]Op) bool) []Op {
	times := []int64{}
	for _, op := range ops {
		if op.Return != math.MaxInt64 {
			times = append(times, op.Return)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	best := ops
	lo, hi := 0, len(times)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		candidate := cut(ops, order, times[mid])
		if fails(candidate) {
			best = candidate
			hi = mid - 1
		} else {
			lo = mid + 1
		}
	}
	return ddminReads(best, fails)
}

// ddminReads removes reads in chunks, halving the chunk size when no chunk can go (Zeller's ddmin, complements only).
func ddminReads(ops []Op, fails func([]Op) bool) []Op {
	live := []int{}
	for i, op := range ops {
		if op.Read != nil {
			live = append(live, i)
		}
	}
	keep := make([]bool, len(ops))
	for i := range keep {
		keep[i] = true
	}
	build := func() []Op {
		out := []Op{}
		for i, op := range ops {
			if keep[i] {
				out = append(out, op)
			}
		}
		return out
	}
	for chunk := (len(live) + 1) / 2; chunk >= 1 && len(live) > 0; {
		removed := false
		for start := 0; start < len(live); start += chunk {
			end := start + chunk
			if end > len(live) {
				end = len(live)
			}
			for _, i := range live[start:end] {
				keep[i] = false
			}
			if fails(build()) {
				live = append(append([]int{}, live[:start]...), live[end:]...)
				removed = true
				break
			}
			for _, i := range live[start:end] {
				keep[i] = true
			}
		}
		if !removed {
			if chunk == 1 {
				break
			}
			chunk = (chunk + 1) / 2
		} else if chunk > len(live) {
			chunk = (len(live) + 1) / 2
		}
	}
	return build()
}
