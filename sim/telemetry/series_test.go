package telemetry

import (
	"reflect"
	"testing"
)

// TestMerge merges three sets, read in that order, as ressim fit does with
// several metrics files: a series they share has its points merged in time
// order, a time two sets both hold keeps the first set's value, families
// are kept once by name, and the result is sorted.
func TestMerge(t *testing.T) {
	up := func(job string, pts ...Point) Series {
		return Series{Name: "up", Labels: []Label{{"job", job}}, Points: pts}
	}
	first := Set{
		Series:   []Series{up("api", Point{10, 1}, Point{30, 1}, Point{50, 0})},
		Families: []Family{{Name: "up", Type: "gauge"}},
	}
	second := Set{
		Series: []Series{
			up("db", Point{10, 1}),
			up("api", Point{20, 7}, Point{30, 9}, Point{60, 7}), // 30: the first set's value stays
		},
		Families: []Family{{Name: "up", Type: "counter"}, {Name: "db_up", Type: "gauge"}},
	}
	third := Set{Series: []Series{up("api", Point{5, 3}, Point{50, 3}, Point{70, 3})}}
	got := Merge(first, second, third)
	want := Set{
		Series: []Series{
			up("api", Point{5, 3}, Point{10, 1}, Point{20, 7}, Point{30, 1}, Point{50, 0}, Point{60, 7}, Point{70, 3}),
			up("db", Point{10, 1}),
		},
		Families: []Family{{Name: "db_up", Type: "gauge"}, {Name: "up", Type: "gauge"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge:\n got %+v\nwant %+v", got, want)
	}
	if first.Series[0].Points[1] != (Point{30, 1}) || len(first.Series[0].Points) != 3 {
		t.Fatalf("Merge wrote its first argument's points: %v", first.Series[0].Points)
	}
}

// TestMergePoints walks mergePoints through its cases: either list empty,
// interleaved times, equal times (a's point kept), and a tail of each.
func TestMergePoints(t *testing.T) {
	p := func(ts ...int64) []Point {
		var out []Point
		for _, x := range ts {
			out = append(out, Point{T: x, V: float64(x)})
		}
		return out
	}
	b := func(ts ...int64) []Point { // b's values differ from a's at equal times
		out := p(ts...)
		for i := range out {
			out[i].V = -out[i].V
		}
		return out
	}
	cases := []struct {
		a, b, want []Point
	}{
		{nil, nil, []Point{}},
		{p(1, 2), nil, p(1, 2)},
		{nil, b(1, 2), b(1, 2)},
		{p(1, 3, 5), b(2, 4, 6), []Point{{1, 1}, {2, -2}, {3, 3}, {4, -4}, {5, 5}, {6, -6}}},
		{p(1, 2, 3), b(2, 3, 4), []Point{{1, 1}, {2, 2}, {3, 3}, {4, -4}}},
		{p(5, 6), b(1, 2), []Point{{1, -1}, {2, -2}, {5, 5}, {6, 6}}},
	}
	for i, c := range cases {
		if got := mergePoints(c.a, c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("case %d: mergePoints(%v, %v) = %v, want %v", i, c.a, c.b, got, c.want)
		}
	}
}
