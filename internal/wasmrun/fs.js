// fs.js: the file system and process a Go js/wasm program sees in the
// page wasmrun serves (package wasmrun). It is node's callback API, the
// part of it Go's syscall package calls (syscall/fs_js.go), over two
// layers: writes go to memory, and a path not written is read from the
// host through the server's read-only /host/ handlers (under the root it
// was given). Standard output and error are kept for the harness.
"use strict";

(() => {
	const S_IFDIR = 0o040000, S_IFREG = 0o100000;
	const C = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
	const fail = (code) => { const e = new Error(code); e.code = code; return e; };
	const nodes = new Map(); // path -> { dir } or { data, size }; host: read from the host
	const gone = new Set(); // host paths removed here
	const fds = new Map();
	const out = { 1: [], 2: [] };
	let nextFD = 10;
	let cwd = "/";
	let root = "/";
	nodes.set("/", { dir: true, host: true });
	nodes.set("/tmp", { dir: true });

	const norm = (p) => {
		const parts = [];
		for (const s of (p.startsWith("/") ? p : cwd + "/" + p).split("/")) {
			if (s === "" || s === ".") continue;
			if (s === "..") parts.pop(); else parts.push(s);
		}
		return "/" + parts.join("/");
	};
	const parent = (p) => p.slice(0, p.lastIndexOf("/")) || "/";
	const removed = (p) => {
		for (let q = p; ; q = parent(q)) {
			if (gone.has(q)) return true;
			if (q === "/") return false;
		}
	};
	const host = async (what, p) => {
		const r = await fetch("host/" + what + "?p=" + encodeURIComponent(p));
		if (r.status === 404) return null;
		if (!r.ok) throw fail("EIO");
		return what === "read" ? new Uint8Array(await r.arrayBuffer()) : r.json();
	};
	// onHost tells whether the host may hold p: a path under a folder
	// made here, or outside the root and not above it, needs no request.
	const onHost = (p) => {
		const dir = nodes.get(parent(p));
		if (dir && !dir.host) return false;
		return p === root || p.startsWith(root === "/" ? "/" : root + "/") || root.startsWith(p === "/" ? "/" : p + "/");
	};
	const lookup = async (p) => {
		if (nodes.has(p)) return nodes.get(p);
		if (removed(p) || !onHost(p)) return null;
		const st = await host("stat", p);
		if (st === null) return null;
		const n = st.dir ? { dir: true, host: true } : { data: null, size: st.size, host: true };
		nodes.set(p, n);
		return n;
	};
	const load = async (n, p) => {
		if (!n.dir && n.data === null) {
			const d = await host("read", p);
			if (d === null) throw fail("ENOENT");
			n.data = d;
			n.size = d.length;
		}
	};
	const list = async (p, n) => {
		const names = new Set(n.host ? (await host("list", p)) || [] : []);
		for (const q of names) if (removed(p === "/" ? "/" + q : p + "/" + q)) names.delete(q);
		for (const q of nodes.keys()) if (q !== p && parent(q) === p) names.add(q.slice(p.length + (p === "/" ? 0 : 1)));
		return [...names].sort();
	};
	const stats = (n) => ({
		dev: 1, ino: 0, mode: n.dir ? S_IFDIR | 0o755 : S_IFREG | 0o644, nlink: 1, uid: 0, gid: 0, rdev: 0,
		size: n.dir ? 4096 : n.size, blksize: 4096, blocks: n.dir ? 8 : Math.ceil(n.size / 512),
		atimeMs: 0, mtimeMs: 0, ctimeMs: 0, isDirectory: () => !!n.dir,
	});
	const grow = (n, size) => {
		if (size > n.data.length) {
			const d = new Uint8Array(Math.max(size, 2 * n.data.length, 4096));
			d.set(n.data.subarray(0, n.size));
			n.data = d;
		}
		if (size > n.size) n.size = size;
	};
	// op wraps an async body as node's callback API: body's value or
	// thrown code goes to the callback, which is always the last argument.
	const op = (body) => (...args) => {
		const cb = args.pop();
		body(...args).then((v) => cb(null, v), (e) => cb(e.code ? e : fail("EIO")));
	};
	const file = (fd) => {
		const f = fds.get(fd);
		if (!f) throw fail("EBADF");
		return f;
	};
	globalThis.fs = {
		constants: C,
		writeSync(fd, buf) {
			if (!out[fd]) throw fail("EBADF");
			out[fd].push(buf.slice());
			return buf.length;
		},
		write: op(async (fd, buf, offset, length, position) => {
			if (out[fd]) return globalThis.fs.writeSync(fd, buf.subarray(offset, offset + length));
			const f = file(fd);
			if (f.n.dir) throw fail("EISDIR");
			const at = position ?? (f.append ? f.n.size : f.pos);
			grow(f.n, at + length);
			f.n.data.set(buf.subarray(offset, offset + length), at);
			if (position === null || position === undefined) f.pos = at + length;
			return length;
		}),
		read: op(async (fd, buf, offset, length, position) => {
			const f = file(fd);
			if (f.n.dir) throw fail("EISDIR");
			const at = position ?? f.pos;
			const n = Math.max(0, Math.min(length, f.n.size - at));
			buf.set(f.n.data.subarray(at, at + n), offset);
			if (position === null || position === undefined) f.pos = at + n;
			return n;
		}),
		open: op(async (path, flags, mode) => {
			const p = norm(path);
			let n = await lookup(p);
			if (n && (flags & C.O_CREAT) && (flags & C.O_EXCL)) throw fail("EEXIST");
			if (!n) {
				if (!(flags & C.O_CREAT)) throw fail("ENOENT");
				const dir = await lookup(parent(p));
				if (!dir) throw fail("ENOENT");
				if (!dir.dir) throw fail("ENOTDIR");
				n = { data: new Uint8Array(0), size: 0 };
				nodes.set(p, n);
			}
			if (n.dir && (flags & (C.O_WRONLY | C.O_RDWR))) throw fail("EISDIR");
			if (!n.dir && (flags & C.O_DIRECTORY)) throw fail("ENOTDIR");
			await load(n, p);
			if (!n.dir && (flags & C.O_TRUNC)) n.size = 0;
			const fd = nextFD++;
			fds.set(fd, { p, n, pos: 0, append: !!(flags & C.O_APPEND) });
			return fd;
		}),
		close: op(async (fd) => { file(fd); fds.delete(fd); }),
		fstat: op(async (fd) => stats(file(fd).n)),
		stat: op(async (path) => {
			const n = await lookup(norm(path));
			if (!n) throw fail("ENOENT");
			return stats(n);
		}),
		lstat: (path, cb) => globalThis.fs.stat(path, cb),
		readdir: op(async (path) => {
			const p = norm(path);
			const n = await lookup(p);
			if (!n) throw fail("ENOENT");
			if (!n.dir) throw fail("ENOTDIR");
			return list(p, n);
		}),
		mkdir: op(async (path) => {
			const p = norm(path);
			if (await lookup(p)) throw fail("EEXIST");
			const dir = await lookup(parent(p));
			if (!dir) throw fail("ENOENT");
			if (!dir.dir) throw fail("ENOTDIR");
			nodes.set(p, { dir: true });
		}),
		unlink: op(async (path) => {
			const p = norm(path);
			const n = await lookup(p);
			if (!n) throw fail("ENOENT");
			if (n.dir) throw fail("EISDIR");
			nodes.delete(p);
			gone.add(p);
		}),
		rmdir: op(async (path) => {
			const p = norm(path);
			const n = await lookup(p);
			if (!n) throw fail("ENOENT");
			if (!n.dir) throw fail("ENOTDIR");
			if ((await list(p, n)).length > 0) throw fail("ENOTEMPTY");
			nodes.delete(p);
			gone.add(p);
		}),
		rename: op(async (from, to) => {
			const a = norm(from), b = norm(to);
			const n = await lookup(a);
			if (!n) throw fail("ENOENT");
			if (n.dir && n.host) throw fail("EXDEV"); // the host's folders stay where they are
			const m = await lookup(b);
			if (m && m.dir && (!n.dir || (await list(b, m)).length > 0)) throw fail(n.dir ? "ENOTEMPTY" : "EISDIR");
			if (m && !m.dir && n.dir) throw fail("ENOTDIR");
			if (!(await lookup(parent(b)))) throw fail("ENOENT");
			await load(n, a);
			const moves = [...nodes.keys()].filter((q) => q === a || q.startsWith(a + "/"));
			for (const q of moves) {
				const v = nodes.get(q);
				nodes.delete(q);
				nodes.set(b + q.slice(a.length), v);
				gone.delete(b + q.slice(a.length));
			}
			gone.add(a);
		}),
		ftruncate: op(async (fd, length) => {
			const f = file(fd);
			grow(f.n, length);
			f.n.size = length;
		}),
		truncate: op(async (path, length) => {
			const p = norm(path);
			const n = await lookup(p);
			if (!n) throw fail("ENOENT");
			await load(n, p);
			grow(n, length);
			n.size = length;
		}),
		fsync: op(async () => {}),
		utimes: op(async () => {}),
		chmod: op(async () => {}),
		fchmod: op(async () => {}),
		chown: op(async () => {}),
		fchown: op(async () => {}),
		lchown: op(async () => {}),
		link: op(async () => { throw fail("ENOSYS"); }),
		symlink: op(async () => { throw fail("ENOSYS"); }),
		readlink: op(async () => { throw fail("EINVAL"); }),
	};

	globalThis.process = {
		getuid: () => -1, getgid: () => -1, geteuid: () => -1, getegid: () => -1,
		getgroups: () => { throw fail("ENOSYS"); },
		pid: -1, ppid: -1,
		umask: () => 0o022,
		cwd: () => cwd,
		chdir: (p) => { cwd = norm(p); },
	};
	globalThis.path = { resolve: (...ps) => norm(ps.join("/")) };

	// wasmrunFS is the harness's handle: where the program starts, and what
	// it wrote to its standard output and error.
	globalThis.wasmrunFS = {
		start(dir, hostRoot) {
			cwd = norm(dir);
			root = norm(hostRoot);
			if (root === "/tmp" || root.startsWith("/tmp/")) nodes.get("/tmp").host = true;
		},
		output(fd) {
			const d = new TextDecoder("utf-8");
			return out[fd].map((b) => d.decode(b, { stream: true })).join("") + d.decode();
		},
	};
})();
