// The sequential specification the histories are checked against: one namespace of at most MaxIDs documents
// (id -> {v, g, p}), where a write request applies as one atomic step in the order turbopuffer documents
// (delete_by_filter, patch_by_filter, upserts, patches, deletes) and reports which ids it upserted, patched and
// deleted. Strong reads see the current state, and so do eventual reads issued once the client knew the index plus
// the eventual tail covered the backlog; other eventual reads see a prefix of the committed history (logcheck.go).
package main

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"github.com/anishathalye/porcupine"
)

// MaxIDs bounds the key space so that a state is a comparable array (cheap to copy, hash and compare).
const MaxIDs = 16

type Doc struct {
	Present bool
	V, G    int64
	P       int64
	HasP    bool
}

// State holds document id i+1 at index i.
type State [MaxIDs]Doc

// Filter is the subset of turbopuffer's filters the driver sends: one leaf, or an And of leaves.
type Filter struct {
	Attr  string   `json:"attr,omitempty"`
	Op    string   `json:"op,omitempty"`
	Value *int64   `json:"value,omitempty"`
	IDs   []int64  `json:"ids,omitempty"`
	And   []Filter `json:"and,omitempty"`
}

type Upsert struct {
	ID int64 `json:"id"`
	V  int64 `json:"v"`
	G  int64 `json:"g"`
}

type Patch struct {
	ID int64 `json:"id"`
	P  int64 `json:"p"`
}

type PatchByFilter struct {
	Filter Filter `json:"filter"`
	P      int64  `json:"p"`
}

// Write is one write request. Conditional upserts carry ["v", "Lt", {"$ref_new": "v"}]: an existing document is
// replaced only by a higher v.
type Write struct {
	DeleteByFilter *Filter        `json:"deleteByFilter,omitempty"`
	PatchByFilter  *PatchByFilter `json:"patchByFilter,omitempty"`
	Upserts        []Upsert       `json:"upserts,omitempty"`
	Conditional    bool           `json:"conditional,omitempty"`
	Patches        []Patch        `json:"patches,omitempty"`
	Deletes        []int64        `json:"deletes,omitempty"`
}

type Read struct {
	// "strong" or "eventual".
	Consistency string `json:"consistency"`
	// An eventual read issued after a metadata read (in the same process) reported unindexed_bytes no larger than
	// the eventual tail limit: it must see every write acknowledged before that metadata read began.
	Covered bool    `json:"covered,omitempty"`
	Filter  *Filter `json:"filter,omitempty"`
}

// Affected is a write's answer: the ids it reports (return_affected_ids), in the order given.
type Affected struct {
	Upserted []int64 `json:"upserted"`
	Patched  []int64 `json:"patched"`
	Deleted  []int64 `json:"deleted"`
}

type Row struct {
	ID int64  `json:"id"`
	V  int64  `json:"v"`
	G  int64  `json:"g"`
	P  *int64 `json:"p"`
}

// Input is what porcupine calls an operation's input; Output its output (nil for a write whose answer was lost).
type Input struct {
	Write *Write
	Read  *Read
}

type Output struct {
	Affected *Affected
	Rows     []Row
	// The answer was lost (a kill). Applied says the log showed the write after the restart, so it took effect
	// before the kill; without it the write may have taken effect or not.
	Unknown bool
	Applied bool
}

// inSpace says whether an id is one of the documents; the driver deletes ids above the space (documents that never
// exist) to make every request body unique.
func inSpace(id int64) bool {
	return id >= 1 && id <= MaxIDs
}

func slot(id int64) int {
	if !inSpace(id) {
		panic(fmt.Sprintf("document id %d outside 1..%d", id, MaxIDs))
	}
	return int(id - 1)
}

func (f *Filter) match(id int64, d Doc) bool {
	if len(f.And) > 0 {
		for i := range f.And {
			if !f.And[i].match(id, d) {
				return false
			}
		}
		return true
	}
	if f.Op == "In" && f.Attr == "id" {
		for _, x := range f.IDs {
			if x == id {
				return true
			}
		}
		return false
	}
	var value int64
	present := true
	switch f.Attr {
	case "id":
		value = id
	case "v":
		value = d.V
	case "g":
		value = d.G
	case "p":
		value, present = d.P, d.HasP
	default:
		panic("filter on unknown attribute " + f.Attr)
	}
	want := *f.Value
	switch f.Op {
	case "Eq":
		return present && value == want
	case "Gte":
		return present && value >= want
	case "Lt":
		// turbopuffer: Lt matches null values.
		return !present || value < want
	}
	panic("filter operator not modelled: " + f.Op)
}

// apply runs one write request as a single step and returns the new state and what it reports.
func apply(s State, w *Write) (State, Affected) {
	out := Affected{Upserted: []int64{}, Patched: []int64{}, Deleted: []int64{}}
	if w.DeleteByFilter != nil {
		for i := range s {
			if s[i].Present && w.DeleteByFilter.match(int64(i+1), s[i]) {
				s[i] = Doc{}
				out.Deleted = append(out.Deleted, int64(i+1))
			}
		}
	}
	if w.PatchByFilter != nil {
		for i := range s {
			if s[i].Present && w.PatchByFilter.Filter.match(int64(i+1), s[i]) {
				s[i].P, s[i].HasP = w.PatchByFilter.P, true
				out.Patched = append(out.Patched, int64(i+1))
			}
		}
	}
	// Conditions are checked against the state before the upserts (each id appears once in them).
	before := s
	for _, u := range w.Upserts {
		old := before[slot(u.ID)]
		if w.Conditional && old.Present && !(old.V < u.V) {
			continue
		}
		s[slot(u.ID)] = Doc{Present: true, V: u.V, G: u.G}
		out.Upserted = append(out.Upserted, u.ID)
	}
	for _, p := range w.Patches {
		d := &s[slot(p.ID)]
		if !d.Present {
			continue // a patch of a missing document is skipped
		}
		d.P, d.HasP = p.P, true
		out.Patched = append(out.Patched, p.ID)
	}
	for _, id := range w.Deletes {
		if inSpace(id) && s[slot(id)].Present {
			s[slot(id)] = Doc{}
			out.Deleted = append(out.Deleted, id)
		}
	}
	return s, out
}

// rows is what a read of `s` through `f` returns, in id order.
func rows(s State, f *Filter) []Row {
	out := []Row{}
	for i, d := range s {
		id := int64(i + 1)
		if !d.Present || (f != nil && !f.match(id, d)) {
			continue
		}
		r := Row{ID: id, V: d.V, G: d.G}
		if d.HasP {
			p := d.P
			r.P = &p
		}
		out = append(out, r)
	}
	return out
}

func sameRows(a, b []Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].V != b[i].V || a[i].G != b[i].G || (a[i].P == nil) != (b[i].P == nil) ||
			(a[i].P != nil && *a[i].P != *b[i].P) {
			return false
		}
	}
	return true
}

// sameIDs compares id lists as multisets: the order within one kind is the emulator's, not the model's.
func sameIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	x := append([]int64(nil), a...)
	y := append([]int64(nil), b...)
	sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
	sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func hashState(s State) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x int64) {
		for i := 0; i < 8; i++ {
			b[i] = byte(x >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, d := range s {
		if !d.Present {
			put(-1)
			continue
		}
		put(d.V)
		put(d.G)
		if d.HasP {
			put(d.P)
		} else {
			put(-2)
		}
	}
	return h.Sum64()
}

func sameAffected(a, b Affected) bool {
	return sameIDs(a.Upserted, b.Upserted) && sameIDs(a.Patched, b.Patched) && sameIDs(a.Deleted, b.Deleted)
}

// step is porcupine's view of one operation. Reads here see the current state: strong reads, covered eventual
// reads, and (in a visualisation of the log order, logcheck.go) eventual reads whose interval spans every prefix.
func step(state, input, output interface{}) []interface{} {
	s := state.(State)
	in := input.(Input)
	out := output.(Output)
	if in.Write != nil {
		next, affected := apply(s, in.Write)
		if out.Unknown && out.Applied {
			return []interface{}{next}
		}
		if out.Unknown {
			// The write took effect before the kill, or never.
			return []interface{}{s, next}
		}
		if !sameAffected(*out.Affected, affected) {
			return nil
		}
		return []interface{}{next}
	}
	if sameRows(rows(s, in.Read.Filter), out.Rows) {
		return []interface{}{s}
	}
	return nil
}

func describeFilter(f *Filter) string {
	if f == nil {
		return "all"
	}
	if len(f.And) > 0 {
		parts := []string{}
		for i := range f.And {
			parts = append(parts, describeFilter(&f.And[i]))
		}
		return strings.Join(parts, " and ")
	}
	if f.Op == "In" {
		return fmt.Sprintf("id in %v", f.IDs)
	}
	return fmt.Sprintf("%s %s %d", f.Attr, f.Op, *f.Value)
}

func describeRows(rs []Row) string {
	parts := []string{}
	for _, r := range rs {
		p := "-"
		if r.P != nil {
			p = fmt.Sprint(*r.P)
		}
		parts = append(parts, fmt.Sprintf("%d:v%d/g%d/p%s", r.ID, r.V, r.G, p))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func describeOperation(input, output interface{}) string {
	in := input.(Input)
	out := output.(Output)
	if in.Write != nil {
		w := in.Write
		parts := []string{}
		if w.DeleteByFilter != nil {
			parts = append(parts, "delete_by_filter("+describeFilter(w.DeleteByFilter)+")")
		}
		if w.PatchByFilter != nil {
			parts = append(parts, fmt.Sprintf("patch_by_filter(%s, p=%d)", describeFilter(&w.PatchByFilter.Filter), w.PatchByFilter.P))
		}
		if len(w.Upserts) > 0 {
			us := []string{}
			for _, u := range w.Upserts {
				us = append(us, fmt.Sprintf("%d:v%d/g%d", u.ID, u.V, u.G))
			}
			kind := "upsert"
			if w.Conditional {
				kind = "upsert if v<new"
			}
			parts = append(parts, kind+"("+strings.Join(us, " ")+")")
		}
		if len(w.Patches) > 0 {
			ps := []string{}
			for _, p := range w.Patches {
				ps = append(ps, fmt.Sprintf("%d:p%d", p.ID, p.P))
			}
			parts = append(parts, "patch("+strings.Join(ps, " ")+")")
		}
		// The driver's marker deletes (ids above the documents, which never exist) only make bodies unique.
		deletes := []int64{}
		for _, id := range w.Deletes {
			if inSpace(id) {
				deletes = append(deletes, id)
			}
		}
		if len(deletes) > 0 {
			parts = append(parts, fmt.Sprintf("delete(%v)", deletes))
		}
		result := "? (answer lost)"
		if out.Unknown && out.Applied {
			result = "? (answer lost; in the log after the restart)"
		}
		if !out.Unknown {
			a := out.Affected
			result = fmt.Sprintf("upserted %v patched %v deleted %v", a.Upserted, a.Patched, a.Deleted)
		}
		return strings.Join(parts, " + ") + " -> " + result
	}
	r := in.Read
	kind := r.Consistency
	if r.Covered {
		kind += " (covered)"
	}
	return fmt.Sprintf("%s read %s -> %s", kind, describeFilter(r.Filter), describeRows(out.Rows))
}

func describeState(state interface{}) string {
	return describeRows(rows(state.(State), nil))
}

// namespaceModel is the porcupine model; Init is the empty namespace the driver creates before the clients start.
func namespaceModel() porcupine.Model {
	nm := porcupine.NondeterministicModel{
		Init: func() []interface{} {
			return []interface{}{State{}}
		},
		Step:              step,
		Equal:             func(a, b interface{}) bool { return a.(State) == b.(State) },
		Hash:              func(state interface{}) uint64 { return hashState(state.(State)) },
		DescribeOperation: describeOperation,
		DescribeState:     describeState,
	}
	return nm.ToModel()
}
