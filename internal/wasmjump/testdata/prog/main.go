// Command prog exercises what Go's WebAssembly back end compiles into
// jumps and resume points: loops, switches, goroutines that block and
// resume, defer, panic and recover, closures, maps, sorting and a heap.
// wasmjump's test runs it built as is and threaded, and compares the
// output.
package main

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
)

type item struct {
	at  float64
	seq int
}

type events []item

func (h events) Len() int { return len(h) }
func (h events) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h events) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *events) Push(x any)   { *h = append(*h, x.(item)) }
func (h *events) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// queue runs an M/M/1 queue on a linear congruential generator.
func queue(n int) (float64, int) {
	state := uint64(42)
	draw := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return -math.Log(float64(state>>11)/(1<<53) + 1e-12)
	}
	h := &events{}
	heap.Push(h, item{at: draw(), seq: 0})
	busy, waiting, done, seq := false, 0, 0, 1
	var total float64
	for h.Len() > 0 && done < n {
		ev := heap.Pop(h).(item)
		switch {
		case ev.seq%2 == 0: // arrival
			heap.Push(h, item{at: ev.at + draw()/0.8, seq: 2 * seq})
			seq++
			if busy {
				waiting++
				continue
			}
			busy = true
			heap.Push(h, item{at: ev.at + draw(), seq: 2*seq + 1})
			seq++
		default: // departure
			done++
			total += ev.at
			if waiting > 0 {
				waiting--
				heap.Push(h, item{at: ev.at + draw(), seq: 2*seq + 1})
				seq++
			} else {
				busy = false
			}
		}
	}
	return total / float64(done), waiting
}

// pipeline passes numbers through goroutines; each receive blocks and so
// unwinds and resumes the WebAssembly stack.
func pipeline(n int) int {
	src := make(chan int)
	sq := make(chan int)
	go func() {
		for i := range n {
			src <- i
			if i%7 == 0 {
				runtime.Gosched()
			}
		}
		close(src)
	}()
	go func() {
		for v := range src {
			sq <- v * v
		}
		close(sq)
	}()
	sum := 0
	for v := range sq {
		sum += v
	}
	return sum
}

var errOdd = errors.New("odd")

// guarded recovers a panic raised deep in a recursion.
func guarded(depth int) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered at %d: %v", depth, r)
		}
	}()
	var rec func(int) int
	rec = func(d int) int {
		if d == 0 {
			if depth%2 == 1 {
				panic(errOdd)
			}
			return 1
		}
		return rec(d-1) + d
	}
	return fmt.Sprint(rec(depth)), nil
}

func words(s string) []string {
	count := map[string]int{}
	for _, w := range strings.Fields(s) {
		count[strings.ToLower(strings.Trim(w, ".,"))]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%s=%d", k, count[k])
	}
	return out
}

func main() {
	mean, left := queue(20000)
	fmt.Printf("queue %.9f %d\n", mean, left)
	fmt.Println("pipeline", pipeline(1000))
	for d := range 6 {
		fmt.Println(guarded(d * 50))
	}
	fmt.Println(words("The retry, the timeout. The breaker and the bulkhead; retry the retry."))
}
