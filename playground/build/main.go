// Command build assembles the playground: a folder of plain files
// (index.html, app.js, worker.js, style.css, catalogue.json, wasm_exec.js,
// main.wasm) that any static host serves. Run it from ressim's source folder:
//
//	go run ./playground/build -o dist/playground
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/ressim/ressim/playground"
)

func main() {
	out := flag.String("o", "dist/playground", "output folder")
	flag.Parse()
	if err := playground.Build(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("playground built in %s/ (serve it with any static server, or ressim serve --dir %s)\n", *out, *out)
}
