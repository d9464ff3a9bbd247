// The set a request checker keeps to find repeated names (ids, labels,
// field names): each name remembers the index that added it, so that a
// repeat can say which one it repeats.

package strictjson

import (
	"strings"
	"unicode"
)

// smallNames is how many names a Names holds in place, searched linearly,
// before it needs a map: requests hold only a few names of each kind.
const smallNames = 16

// Names is a set of names with the index that added each. Make one with
// MakeNames or MakeFoldNames; the zero Names is an exact set. A Names
// holds up to 16 names without allocating, so keep it in a variable
// rather than behind a pointer that outlives the check.
type Names struct {
	fold  bool
	n     int
	names [smallNames]string
	idx   [smallNames]int
	big   map[string]int
}

// MakeNames returns an empty set for about n names that compares them
// exactly. Past 16 names it keeps them in a map.
func MakeNames(n int) Names {
	var s Names
	if n > smallNames {
		s.big = make(map[string]int, n)
	}
	return s
}

// MakeFoldNames returns an empty set for about n names that compares them
// without regard to case, as strings.EqualFold does: up to 16 names with
// it, more by a key that folds each character as it does.
func MakeFoldNames(n int) Names {
	s := MakeNames(n)
	s.fold = true
	return s
}

// Add adds name for index i, or returns the index that added it first
// and true.
func (s *Names) Add(name string, i int) (int, bool) {
	if s.big == nil {
		if k := s.find(name); k >= 0 {
			return s.idx[k], true
		}
		if s.n < smallNames {
			s.names[s.n], s.idx[s.n] = name, i
			s.n++
			return 0, false
		}
		s.spill()
	}
	key := s.key(name)
	if j, ok := s.big[key]; ok {
		return j, true
	}
	s.big[key] = i
	return 0, false
}

// Has reports whether name is in the set.
func (s *Names) Has(name string) bool {
	if s.big == nil {
		return s.find(name) >= 0
	}
	_, ok := s.big[s.key(name)]
	return ok
}

func (s *Names) find(name string) int {
	for k, n := range s.names[:s.n] {
		if n == name || s.fold && strings.EqualFold(n, name) {
			return k
		}
	}
	return -1
}

func (s *Names) key(name string) string {
	if s.fold {
		return strings.Map(foldRune, name)
	}
	return name
}

// foldRune returns the least character of r's case-folding orbit, so that
// two names have the same key exactly when strings.EqualFold holds, where
// strings.ToLower would keep apart "s" and "ſ", which it matches.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// spill moves the names held in place into a map, when a set made for
// few names is given more.
func (s *Names) spill() {
	s.big = make(map[string]int, 2*smallNames)
	for k, n := range s.names[:s.n] {
		if _, ok := s.big[s.key(n)]; !ok {
			s.big[s.key(n)] = s.idx[k]
		}
	}
	s.names, s.n = [smallNames]string{}, 0
}
