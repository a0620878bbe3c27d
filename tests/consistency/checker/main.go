// consistency-checker: checks one recorded history of the consistency suite (tests/consistency/) against the
// namespace model (model.go): porcupine searches for a linearization of the writes, the strong reads and the
// eventual reads known to be current; logcheck.go checks the history against the log the emulator committed
// (nothing acknowledged lost, eventual reads a prefix of it). A history that fails is minimised (minimise.go) and
// written with porcupine's HTML visualisation beside it.
//
//	consistency-checker [-out DIR] [-timeout 60s] HISTORY.json
//
// Prints one JSON line: {"result":"ok"|"violation", ...}. Exit status 0 when the history holds, 1 when not, 2 on
// bad input.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// Op is one operation as the driver records it. Times are microseconds on the driver's monotonic clock; an
// operation whose answer was lost has unknown: true and return set to when the process was seen dead.
type Op struct {
	Client  int   `json:"client"`
	Call    int64 `json:"call"`
	Return  int64 `json:"return"`
	Unknown bool  `json:"unknown,omitempty"`
	// With unknown: the write was found in the log after the restart.
	Applied bool `json:"applied,omitempty"`
	// A write's number in its history (unique; the log order names writes by it).
	N      int64     `json:"n,omitempty"`
	Write  *Write    `json:"write,omitempty"`
	Read   *Read     `json:"read,omitempty"`
	Result *Affected `json:"affected,omitempty"`
	Rows   []Row     `json:"rows,omitempty"`
	// Note is carried into the visualisation (e.g. "after restart 1").
	Note string `json:"note,omitempty"`
}

type History struct {
	Seed    int64           `json:"seed"`
	Index   int             `json:"index"`
	Clients int             `json:"clients"`
	Kills   []int64         `json:"kills"`
	Meta    json.RawMessage `json:"meta,omitempty"`
	Ops     []Op            `json:"ops"`
	// The write numbers in the order of the namespace's log after the run; absent when unknown (then eventual
	// reads are checked by porcupine alone, as reads of any state up to their return).
	LogOrder []int64 `json:"logOrder"`
}

type verdict struct {
	Result     string   `json:"result"`
	Ops        int      `json:"ops"`
	Unknown    int      `json:"unknown"`
	Ms         int64    `json:"ms"`
	Porcupine  string   `json:"porcupine"`
	Witness    bool     `json:"witness"`
	Problems   []string `json:"problems,omitempty"`
	Minimised  *int     `json:"minimisedOps,omitempty"`
	HistoryOut string   `json:"history,omitempty"`
	HTML       string   `json:"html,omitempty"`
	Message    string   `json:"message,omitempty"`
}

// porcupineOps is the part of a history porcupine checks. Without a log, an eventual read that may lag is given
// the whole history before its return as its interval: it may see any state up to then.
func porcupineOps(ops []Op, withLog bool) []porcupine.Operation {
	out := make([]porcupine.Operation, 0, len(ops))
	for _, op := range ops {
		lagging := op.Read != nil && op.Read.Consistency == "eventual" && !op.Read.Covered
		if lagging && withLog {
			continue
		}
		o := Output{Unknown: op.Unknown, Applied: op.Applied, Rows: op.Rows}
		if op.Write != nil && !op.Unknown {
			o.Affected = op.Result
		}
		var meta interface{}
		if op.Note != "" {
			meta = op.Note
		}
		call := op.Call
		if lagging {
			call = math.MinInt64 / 2
		}
		out = append(out, porcupine.Operation{
			ClientId: op.Client,
			Input:    Input{Write: op.Write, Read: op.Read},
			Call:     call,
			Output:   o,
			Return:   op.Return,
			Metadata: meta,
		})
	}
	return out
}

// outcome is everything the checker knows about one history.
type outcome struct {
	porcupine porcupine.CheckResult
	witness   string
	problems  []string
}

func (o outcome) ok() bool {
	return len(o.problems) == 0 && o.witness == "" && o.porcupine != porcupine.Illegal
}

func examine(ops []Op, order []int64, withLog bool, timeout time.Duration) outcome {
	o := outcome{porcupine: porcupine.CheckOperationsTimeout(namespaceModel(), porcupineOps(ops, withLog), timeout)}
	if withLog {
		o.problems = committedChecks(ops, order)
		o.witness = logWitness(ops, order)
	}
	return o
}

func validate(h *History) error {
	seen := map[int64]bool{}
	for i, op := range h.Ops {
		if (op.Write == nil) == (op.Read == nil) {
			return fmt.Errorf("op %d: exactly one of write and read", i)
		}
		if op.Return < op.Call {
			return fmt.Errorf("op %d: returns before its call", i)
		}
		if op.Write != nil && !op.Unknown && op.Result == nil {
			return fmt.Errorf("op %d: a write with an answer needs affected", i)
		}
		if op.Write != nil && h.LogOrder != nil {
			if seen[op.N] {
				return fmt.Errorf("op %d: write number %d twice", i, op.N)
			}
			seen[op.N] = true
		}
		if op.Applied && !op.Unknown {
			return fmt.Errorf("op %d: applied is for writes whose answer was lost", i)
		}
		if op.Read != nil && op.Unknown {
			return fmt.Errorf("op %d: a read without an answer tells nothing; leave it out", i)
		}
		if op.Read != nil && op.Read.Consistency != "strong" && op.Read.Consistency != "eventual" {
			return fmt.Errorf("op %d: consistency %q", i, op.Read.Consistency)
		}
	}
	return nil
}

func main() {
	out := flag.String("out", "", "directory for a failing history's minimised history and visualisation")
	timeout := flag.Duration("timeout", 60*time.Second, "give up on one porcupine search after this long")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: consistency-checker [-out DIR] [-timeout 60s] HISTORY.json")
		os.Exit(2)
	}
	path := flag.Arg(0)
	var h History
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &h)
	}
	if err == nil {
		err = validate(&h)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "consistency-checker: %s: %v\n", path, err)
		os.Exit(2)
	}
	withLog := h.LogOrder != nil
	v := verdict{Ops: len(h.Ops)}
	for _, op := range h.Ops {
		if op.Unknown {
			v.Unknown++
		}
	}
	started := time.Now()
	o := examine(h.Ops, h.LogOrder, withLog, *timeout)
	v.Ms = time.Since(started).Milliseconds()
	v.Porcupine = string(o.porcupine)
	v.Witness = withLog && o.witness == ""
	if o.ok() {
		v.Result = "ok"
		emit(v, 0)
	}
	v.Result = "violation"
	v.Problems = o.problems
	if o.witness != "" {
		v.Problems = append(v.Problems, "the log order is no linearization: "+o.witness)
	}
	if o.porcupine == porcupine.Illegal {
		v.Problems = append(v.Problems, "porcupine: no linearization of the writes and current reads exists")
	}
	// The minimised history must fail the same way: by porcupine's verdict when porcupine found it, else by the
	// log checks (porcupine then only draws it).
	fails := func(candidate []Op) bool {
		if o.porcupine == porcupine.Illegal {
			return porcupine.CheckOperationsTimeout(namespaceModel(), porcupineOps(candidate, withLog), *timeout) == porcupine.Illegal
		}
		return len(committedChecks(candidate, h.LogOrder)) > 0 || logWitness(candidate, h.LogOrder) != ""
	}
	minimal := minimise(h.Ops, h.LogOrder, fails)
	n := len(minimal)
	v.Minimised = &n
	if *out != "" {
		base := strings.TrimSuffix(filepath.Base(path), ".json")
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fail(err)
		}
		m := h
		m.Ops = minimal
		v.HistoryOut = filepath.Join(*out, base+".min.json")
		text, _ := json.MarshalIndent(m, "", " ")
		if err := os.WriteFile(v.HistoryOut, append(text, '\n'), 0o644); err != nil {
			fail(err)
		}
		v.HTML = filepath.Join(*out, base+".min.html")
		// Drawn without the log: lagging eventual reads as reads of any state up to their return.
		model := namespaceModel()
		_, info := porcupine.CheckOperationsVerbose(model, porcupineOps(minimal, false), *timeout)
		if err := porcupine.VisualizePath(model, info, v.HTML); err != nil {
			fail(err)
		}
	}
	mo := examine(minimal, h.LogOrder, withLog, *timeout)
	why := append([]string{}, mo.problems...)
	if mo.witness != "" {
		why = append(why, "the log order is no linearization: "+mo.witness)
	}
	if mo.porcupine == porcupine.Illegal {
		why = append(why, "porcupine: not linearizable")
	}
	v.Message = strings.Join(why, "\n") + "\n" + describeMinimal(minimal, h.LogOrder)
	emit(v, 1)
}

func describeMinimal(ops []Op, order []int64) string {
	sorted := append([]Op(nil), ops...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Call < sorted[j].Call })
	pos := map[int64]int{}
	for p, n := range order {
		pos[n] = p + 1
	}
	lines := []string{}
	for _, op := range sorted {
		ret := fmt.Sprint(op.Return)
		if op.Unknown {
			ret += "?"
		}
		if op.Return == math.MaxInt64 {
			ret = "pending"
		}
		o := porcupineOps([]Op{op}, false)[0]
		what := describeOperation(o.Input, o.Output)
		if op.Write != nil {
			what = fmt.Sprintf("write %d (log position %d): %s", op.N, pos[op.N], what)
		}
		lines = append(lines, fmt.Sprintf("client %d [%d, %s] %s", op.Client, op.Call, ret, what))
	}
	return strings.Join(lines, "\n")
}

func emit(v verdict, code int) {
	text, _ := json.Marshal(v)
	fmt.Println(string(text))
	os.Exit(code)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "consistency-checker: %v\n", err)
	os.Exit(2)
}
