package metrics_test

import (
	"os"
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

func ExampleWriteCSV() {
	ts, err := metrics.NewTimeSeries(time.Second)
	if err != nil {
		panic(err)
	}
	throughput, _ := ts.Column("checkout", "throughput", "req/s")
	goodput, _ := ts.Column("checkout", "goodput", "req/s")
	sec := int64(time.Second)
	for i, v := range [][2]float64{{1000, 998}, {1000, 12}} { // the pool floods in second 2
		if err := ts.AppendInterval(int64(i)*sec, int64(i+1)*sec); err != nil {
			panic(err)
		}
		throughput.Set(v[0])
		goodput.Set(v[1])
	}
	if err := metrics.WriteCSV(os.Stdout, ts); err != nil {
		panic(err)
	}
	// Output:
	// t_start_s,t_end_s,entity,metric,unit,value
	// 0,1,checkout,throughput,req/s,1000
	// 0,1,checkout,goodput,req/s,998
	// 1,2,checkout,throughput,req/s,1000
	// 1,2,checkout,goodput,req/s,12
}
