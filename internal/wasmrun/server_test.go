package wasmrun

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServer is a step table of what the server answers without a
// browser: nothing without the token, nothing but GET, the host's files
// only under the root (not through a link out of it, not through an
// unclean path), the folders above the root as the way down to it.
func TestServer(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "a", "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(root, "sub", "f.txt"), []byte("in"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("out"), 0o644))
	must(t, os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(root, "link.txt")))
	bin := filepath.Join(dir, "p.wasm")
	must(t, os.WriteFile(bin, []byte("\x00asm"), 0o644))
	s, err := newServer(Options{Binary: bin, Root: root, ExecJS: []byte("// exec")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.root.Close()
	host := func(what, p string) string { return "/" + s.token + "/host/" + what + "?p=" + url.QueryEscape(p) }
	for _, c := range []struct {
		method, path string
		code         int
		body         string // a prefix of the body, if code is 200
	}{
		{"GET", "/", 404, ""},
		{"GET", "/wrongtoken/fs.js", 404, ""},
		{"GET", "/" + s.token + "/", 200, "<!doctype html>"},
		{"POST", "/" + s.token + "/", 404, ""},
		{"GET", "/" + s.token + "/fs.js", 200, "// fs.js"},
		{"GET", "/" + s.token + "/wasm_exec.js", 200, "// exec"},
		{"GET", "/" + s.token + "/bin.wasm", 200, "\x00asm"},
		{"GET", host("read", root+"/sub/f.txt"), 200, "in"},
		{"GET", host("stat", root+"/sub/f.txt"), 200, `{"dir":false,"size":2}`},
		{"GET", host("stat", root), 200, `{"dir":true`},
		{"GET", host("list", root+"/sub"), 200, `["f.txt"]`},
		{"GET", host("list", root+"/sub/f.txt"), 404, ""},
		{"GET", host("read", root+"/sub"), 404, ""},
		{"GET", host("read", dir+"/secret.txt"), 404, ""},
		{"GET", host("read", root+"/../../secret.txt"), 404, ""},
		{"GET", host("read", root+"/link.txt"), 404, ""},
		{"GET", host("read", "sub/f.txt"), 404, ""},
		{"GET", host("read", root+"/missing"), 404, ""},
		{"GET", host("list", dir+"/a"), 200, `["root"]`},
		{"GET", host("stat", dir), 200, `{"dir":true`},
		{"GET", host("read", dir+"/a"), 404, ""},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(c.method, c.path, nil))
		if w.Code != c.code || (c.code == http.StatusOK && !strings.HasPrefix(w.Body.String(), c.body)) {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, w.Code, w.Body.String(), c.code, c.body)
		}
	}
}

// TestServerWholeRoot: with the file system's root as the root, every
// absolute path is under it (no folder is above it).
func TestServerWholeRoot(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte("in"), 0o644))
	s, err := newServer(Options{Binary: filepath.Join(dir, "f.txt"), Root: "/", ExecJS: []byte("//")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.root.Close()
	for p, want := range map[string]string{"/": `{"dir":true`, dir: `{"dir":true`, dir + "/f.txt": `{"dir":false,"size":2}`} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/"+s.token+"/host/stat?p="+url.QueryEscape(p), nil))
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Body.String(), want) {
			t.Errorf("stat %s: %d %q, want %q", p, w.Code, w.Body.String(), want)
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzServerStaysInRoot asks the server for any path: whatever it
// answers, no byte of a file outside the root comes back, and a path
// outside the root and not above it is never a folder.
func FuzzServerStaysInRoot(f *testing.F) {
	dir := f.TempDir()
	root := filepath.Join(dir, "a", "root")
	must(f, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(f, os.WriteFile(filepath.Join(root, "sub", "f.txt"), []byte("inside"), 0o644))
	must(f, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("SECRET"), 0o644))
	must(f, os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(root, "link.txt")))
	must(f, os.Symlink(dir, filepath.Join(root, "up")))
	s, err := newServer(Options{Binary: filepath.Join(dir, "secret.txt"), Root: root, ExecJS: []byte("//")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.root.Close() })
	for _, p := range []string{root + "/sub/f.txt", root + "/link.txt", root + "/up/secret.txt", dir + "/secret.txt",
		root + "/../../secret.txt", "/", dir, root + "//sub", "sub/f.txt", root + "/sub/../../../secret.txt"} {
		f.Add("read", p)
	}
	f.Fuzz(func(t *testing.T, what, p string) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/"+s.token+"/host/"+url.PathEscape(what)+"?p="+url.QueryEscape(p), nil))
		if strings.Contains(w.Body.String(), "SECRET") {
			t.Fatalf("%s %q served a file outside the root: %q", what, p, w.Body.String())
		}
	})
}
