// Checks against the committed history: the order in which the writes sit in the namespace's log after the run
// (the driver reads it from the data directory; every request body is unique). That order is the emulator's
// serialisation: writes are logged and applied in it under the namespace's lock, and a strong read sees a prefix of
// it. So, besides porcupine's search for any linearization:
//
//   - every acknowledged write is in the log (nothing acknowledged was lost, also across kills);
//   - replayed in log order, each acknowledged write reports what the model says it did (a conditional upsert
//     applied exactly where its condition held; deletes and patches of the documents that existed);
//   - a write acknowledged before another was sent comes first in the log;
//   - an eventual read sees the state after some prefix of the log that holds no write sent after the read
//     returned: never an uncommitted write, never part of a request;
//   - the log order is itself a linearization (the witness): each strong read, and each eventual read the client
//     knew covered the backlog, sees a prefix holding every write acknowledged before the read began and none
//     sent after it returned, and a read that began after another returned sees no shorter prefix.
package main

import (
	"fmt"
	"math"
	"sort"
)

type logged struct {
	ops   []Op
	pos   map[int64]int // write number -> position in the log (0-based)
	order []int         // op indexes in log order
	state []State       // state[i]: after the first i writes of the log
	out   []Affected    // out[i]: what the model says write i of the log did
}

func replayLog(ops []Op, order []int64) (*logged, []string) {
	l := &logged{ops: ops, pos: map[int64]int{}}
	byN := map[int64]int{}
	for i, op := range ops {
		if op.Write != nil {
			byN[op.N] = i
		}
	}
	problems := []string{}
	for _, n := range order {
		i, ok := byN[n]
		if !ok {
			continue // a write the history does not hold (a minimised history cut it)
		}
		if _, dup := l.pos[n]; dup {
			problems = append(problems, fmt.Sprintf("write %d is in the log twice", n))
			continue
		}
		l.pos[n] = len(l.order)
		l.order = append(l.order, i)
	}
	s := State{}
	l.state = append(l.state, s)
	for _, i := range l.order {
		var a Affected
		s, a = apply(s, ops[i].Write)
		l.state = append(l.state, s)
		l.out = append(l.out, a)
	}
	return l, problems
}

// bounds is the range of log prefixes an operation over [call, ret] may see: at least every write that returned
// before its call (lower), none sent after it returned (upper).
func (l *logged) bounds(call, ret int64) (lower, upper int) {
	upper = len(l.order)
	for p, i := range l.order {
		w := l.ops[i]
		if w.Return < call && !(w.Unknown && !w.Applied) {
			lower = p + 1
		}
		if w.Call > ret && p < upper {
			upper = p
		}
	}
	return lower, upper
}

func (l *logged) sees(r Op, prefix int) bool {
	return sameRows(rows(l.state[prefix], r.Read.Filter), r.Rows)
}

// committedChecks returns what is wrong with the history against its log (empty: nothing).
func committedChecks(ops []Op, order []int64) []string {
	l, problems := replayLog(ops, order)
	for _, op := range ops {
		if op.Write == nil {
			continue
		}
		if _, ok := l.pos[op.N]; !ok && (!op.Unknown || op.Applied) {
			problems = append(problems, fmt.Sprintf("write %d was acknowledged but is not in the log: lost", op.N))
		}
	}
	for p, i := range l.order {
		op := ops[i]
		if !op.Unknown && !sameAffected(*op.Result, l.out[p]) {
			problems = append(problems, fmt.Sprintf("write %d (log position %d) answered upserted %v patched %v deleted %v; "+
				"in log order it upserts %v patches %v deletes %v", op.N, p+1, op.Result.Upserted, op.Result.Patched,
				op.Result.Deleted, l.out[p].Upserted, l.out[p].Patched, l.out[p].Deleted))
		}
	}
	for pa, ia := range l.order {
		for pb, ib := range l.order {
			a, b := ops[ia], ops[ib]
			if pb < pa && a.Return < b.Call {
				problems = append(problems, fmt.Sprintf("write %d was acknowledged before write %d was sent, but is "+
					"logged after it (positions %d and %d)", a.N, b.N, pa+1, pb+1))
			}
		}
	}
	for _, r := range ops {
		if r.Read == nil || r.Read.Consistency != "eventual" || r.Read.Covered {
			continue
		}
		_, upper := l.bounds(math.MinInt64, r.Return)
		ok := false
		for p := 0; p <= upper && !ok; p++ {
			ok = l.sees(r, p)
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("eventual read by client %d at [%d, %d] (%s) saw %s: no prefix of "+
				"the first %d logged writes holds that", r.Client, r.Call, r.Return, describeFilter(r.Read.Filter),
				describeRows(r.Rows), upper))
		}
	}
	return problems
}

// logWitness says why the log order is no linearization of the writes and the reads that must be current ("" when
// it is one). Reads are placed in order of their call at the shortest prefix that fits: a shorter prefix never
// constrains a later read more.
func logWitness(ops []Op, order []int64) string {
	l, problems := replayLog(ops, order)
	if len(problems) > 0 {
		return problems[0]
	}
	reads := []int{}
	for i, op := range ops {
		if op.Read != nil && (op.Read.Consistency == "strong" || op.Read.Covered) {
			reads = append(reads, i)
		}
	}
	sort.SliceStable(reads, func(a, b int) bool { return ops[reads[a]].Call < ops[reads[b]].Call })
	placed := map[int]int{}
	for k, i := range reads {
		r := ops[i]
		lower, upper := l.bounds(r.Call, r.Return)
		for _, j := range reads[:k] {
			if ops[j].Return < r.Call && placed[j] > lower {
				lower = placed[j]
			}
		}
		at := -1
		for p := lower; p <= upper; p++ {
			if l.sees(r, p) {
				at = p
				break
			}
		}
		if at < 0 {
			return fmt.Sprintf("%s read by client %d at [%d, %d] (%s) saw %s: no log prefix from %d to %d writes "+
				"holds that", r.Read.Consistency, r.Client, r.Call, r.Return, describeFilter(r.Read.Filter),
				describeRows(r.Rows), lower, upper)
		}
		placed[i] = at
	}
	return ""
}
