package dialog

import "maps"

// Clone returns a copy of the model that Update and SetSize change
// without changing m, and m's changes do not reach: a host can try a key
// on the copy and keep whichever of the two it wants. The copy shares
// what never changes after New (the request, the sanitized text, the
// theme, the countdown) and the text already laid out, which is never
// changed in place. Until its first Update or SetSize, the copy's View
// lays its frame out afresh.
func (m *Model) Clone() *Model {
	c := *m
	c.tabs = make([]*tab, len(m.tabs))
	for i, t := range m.tabs {
		tc := *t
		tc.fields = make([]*field, len(t.fields))
		for j, f := range t.fields {
			fc := *f
			fc.sel = append([]bool(nil), f.sel...)
			tc.fields[j] = &fc
		}
		tc.ctrls = append([]control(nil), t.ctrls...)
		tc.ctrlTop = append([]int(nil), t.ctrlTop...)
		c.tabs[i] = &tc
	}
	c.cache.tabs = append([]*tabLayout(nil), m.cache.tabs...)
	c.cache.previews = maps.Clone(m.cache.previews)
	c.planned = nil // it points into m's tabs; the copy's next Update plans again
	return &c
}

// Clone returns a copy of the dialog that Update and SetSize change
// without changing m, and m's changes do not reach, as Model.Clone does.
func (m *Questions) Clone() *Questions {
	c := *m
	c.qs = make([]*question, len(m.qs))
	for i, q := range m.qs {
		qc := *q
		qc.sel = append([]bool(nil), q.sel...)
		qc.notes = append([]string(nil), q.notes...)
		c.qs[i] = &qc
	}
	if m.input != nil {
		in := *m.input
		c.input = &in
	}
	if m.lay != nil {
		lay := *m.lay
		lay.qs = append([]*qlayout(nil), m.lay.qs...)
		c.lay = &lay
	}
	c.planned = nil
	return &c
}
