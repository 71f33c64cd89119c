package wasmrun

import (
	"encoding/json"
	"net/http"
	"os"
	"path"
	"strings"
)

// page loads the file system first, then Go's loader: wasm_exec.js keeps
// a globalThis.fs and globalThis.process it finds.
const page = `<!doctype html><meta charset="utf-8"><title>wasmrun</title>
<script src="fs.js"></script><script src="wasm_exec.js"></script>`

// server answers the page's requests under /<token>/: the page, its two
// scripts, the program, and the host's files under root, read-only.
type server struct {
	token   string
	root    *os.Root
	rootDir string // absolute and clean, as the program's paths are
	binary  string
	execJS  []byte
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/"+s.token+"/")
	if !ok || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	switch name {
	case "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	case "fs.js":
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(fsJS)
	case "wasm_exec.js":
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(s.execJS)
	case "bin.wasm":
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, s.binary)
	case "host/stat", "host/list", "host/read":
		s.host(w, r, strings.TrimPrefix(name, "host/"), r.URL.Query().Get("p"))
	default:
		http.NotFound(w, r)
	}
}

// host answers what about the host's path p: its stat (is it a folder,
// its size), its names (a folder), or its bytes (a file). A folder above
// the root is shown holding only the way down to it; anything else
// outside the root does not exist.
func (s *server) host(w http.ResponseWriter, r *http.Request, what, p string) {
	if !path.IsAbs(p) || path.Clean(p) != p {
		http.NotFound(w, r)
		return
	}
	rel, under := ".", p == s.rootDir
	if !under {
		rel, under = strings.CutPrefix(p, strings.TrimSuffix(s.rootDir, "/")+"/")
	}
	if !under {
		above := strings.TrimSuffix(p, "/") + "/" // "/" for the file system's root
		if below, ok := strings.CutPrefix(s.rootDir, above); ok {
			next, _, _ := strings.Cut(below, "/")
			answer(w, what, hostStat{Dir: true}, []string{next})
		} else {
			http.NotFound(w, r)
		}
		return
	}
	f, err := s.root.Open(rel)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if what == "read" && !st.IsDir() {
		http.ServeContent(w, r, "", st.ModTime(), f)
		return
	}
	var names []string
	if what == "list" && st.IsDir() {
		names, err = f.Readdirnames(-1)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	answer(w, what, hostStat{Dir: st.IsDir(), Size: st.Size()}, names)
}

// hostStat is what fs.js needs of a host path's stat.
type hostStat struct {
	Dir  bool  `json:"dir"`
	Size int64 `json:"size"`
}

// answer writes the stat or the list as JSON; a file's bytes asked of a
// folder, or a folder's names asked of a file, do not exist.
func answer(w http.ResponseWriter, what string, stat hostStat, names []string) {
	var v any = stat
	switch {
	case what == "list" && stat.Dir:
		if names == nil {
			names = []string{}
		}
		v = names
	case what != "stat":
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
