//go:build !js

package playground

import (
	"bufio"
	"net"
	"net/http"
	"testing"
	"time"
)

// rawGet sends "GET target HTTP/1.1" as it is, byte for byte, on a new
// connection to addr and returns the answer's status.
func rawGet(t *testing.T, addr, target string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second)) // a hung server fails the test instead of hanging it
	if _, err := c.Write([]byte("GET " + target + " HTTP/1.1\r\nHost: playground\r\nConnection: close\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %q: %v", target, err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestServeBadPaths: a path no file can have is a bad request (400),
// whether net/http refuses the request line (bad percent-encoding, a raw
// control character) or Handler refuses the decoded path (a NUL byte,
// which os.DirFS refused with an error http.FileServer answered with 500;
// other control characters; bad UTF-8; \ and :). Never a 500; the site
// and a missing file still answer as before.
func TestServeBadPaths(t *testing.T) {
	addr := serveTest(t)
	for _, c := range []struct {
		target string
		want   int
	}{
		{"/", 200},
		{"/" + WasmFile, 200},
		{"/?q=%00", 200}, // the query names no file
		{"/missing.js", 404},
		{"/%2e%2e/%2e%2e/etc/passwd", 404}, // cleaned to /etc/passwd, which the site has not
		{"/%00", 400},
		{"/a%00b", 400},
		{"/index.html%00.png", 400},
		{"/%zz", 400},
		{"/%", 400},
		{"/%0", 400},
		{"/%01", 400},
		{"/%0a", 400},
		{"/%0d%0aSet-Cookie:x", 400},
		{"/%09", 400},
		{"/%1b[2J", 400},
		{"/%7f", 400},
		{"/%c2%85", 400}, // U+0085, a C1 control
		{"/%ff%fe", 400}, // not UTF-8: fs.ValidPath refuses it
		{"/%c0%ae%c0%ae/", 400},
		{"/..%5c..%5cwindows", 400},
		{"/c:/windows", 400},
		{"/\x01", 400},
		{"/a\x7fb", 400},
		{"/a\x00b", 400},
	} {
		if got := rawGet(t, addr, c.target); got != c.want {
			t.Errorf("GET %q: %d, want %d", c.target, got, c.want)
		}
	}
}
