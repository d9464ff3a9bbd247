package strictjson

import (
	"strconv"
	"testing"
)

func TestSet(t *testing.T) {
	tests := []struct {
		name string
		make func(int) Names
		size int
		adds []string
		want []int // the index a repeat returns, -1 for a new name
	}{
		{"exact", MakeNames, 3, []string{"a", "b", "A", "a", "b"}, []int{-1, -1, -1, 0, 1}},
		{"fold", MakeFoldNames, 3, []string{"Yes", "no", "YES", "No"}, []int{-1, -1, 0, 1}},
		{"exact big", MakeNames, 20, []string{"a", "A", "a"}, []int{-1, -1, 0}},
		{"fold big", MakeFoldNames, 20, []string{"Yes", "yes"}, []int{-1, 0}},
		// strings.EqualFold matches "s" with "ſ" and "k" with the Kelvin
		// sign, which strings.ToLower keeps apart: a set of either size
		// must match them as EqualFold does.
		{"fold orbit", MakeFoldNames, 3, []string{"s", "ſ", "K", "\u212a"}, []int{-1, 0, -1, 2}},
		{"fold orbit big", MakeFoldNames, 20, []string{"s", "ſ", "K", "\u212a"}, []int{-1, 0, -1, 2}},
		{"zero", func(int) Names { return Names{} }, 0, []string{"x", "x"}, []int{-1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.make(tt.size)
			for i, name := range tt.adds {
				j, dup := s.Add(name, i)
				got := -1
				if dup {
					got = j
				}
				if got != tt.want[i] {
					t.Errorf("Add(%q, %d) = %d, %v; want repeat of %d", name, i, j, dup, tt.want[i])
				}
				if !s.Has(name) {
					t.Errorf("Has(%q) = false after Add", name)
				}
			}
			if s.Has("absent") {
				t.Error(`Has("absent") = true`)
			}
		})
	}
}

// TestSpill gives a set made for few names more than it holds in place:
// every name keeps the index that added it first.
func TestSpill(t *testing.T) {
	for _, fold := range []bool{false, true} {
		s := MakeNames(2)
		if fold {
			s = MakeFoldNames(2)
		}
		for i := range 3 * smallNames {
			if _, dup := s.Add("n"+strconv.Itoa(i), i); dup {
				t.Fatalf("fold %v: n%d reported as a repeat", fold, i)
			}
		}
		for i := range 3 * smallNames {
			if j, dup := s.Add("N"+strconv.Itoa(i), -1); dup != fold || fold && j != i {
				t.Errorf("fold %v: Add(N%d) = %d, %v", fold, i, j, dup)
			}
		}
	}
}

func BenchmarkSet(b *testing.B) {
	names := []string{"alpha", "beta", "gamma", "delta"}
	b.ReportAllocs()
	for b.Loop() {
		s := MakeFoldNames(len(names))
		for i, n := range names {
			s.Add(n, i)
		}
	}
}
