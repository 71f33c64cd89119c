// Package wasmjump rewrites a WebAssembly module built by the Go toolchain
// so that its forward jumps are direct branches instead of trips through
// the function's dispatch loop, its small copies are loads and stores, and
// its reloads of a value it already holds from its own frame are reads of
// a local, and its addresses of frame slots are offsets of the accesses.
//
// Go's WebAssembly back end compiles every function as one loop around a
// br_table on the local PC_B (the "entry loop"): a resumed goroutine
// enters a function with the resume point in PC_B, and every jump between
// basic blocks is written the same way, as
//
//	i32.const K; local.set PC_B; br $entryLoop
//
// so that the br_table sends it on to block K. Engines compile each such
// jump into a loop back edge (with its interrupt check), a bounds check
// and an indirect jump, and every value the function keeps in locals
// passes through the loop header. In ressim's hot path this dispatch is
// the largest single cost of WebAssembly over native code
// (docs/performance.md, issue 31).
//
// The code of basic block K sits right after the end of the K-th block
// around the br_table, so from the code of block J < K the same jump is a
// plain br out to that block's end. Thread makes that change, and folds
// an if that only branches into a br_if. Backward jumps (loops) keep the
// dispatch: WebAssembly can only branch backwards to a loop. An entry
// loop that no branch goes back to any more becomes a block, and a call
// (PC_B 0) reaches its first block by a br_if ahead of the br_table. Nothing else
// changes: PC_B is read only by the br_table, the resume points and the
// return addresses (constants) stay as they were, so a goroutine resumes
// as before and the module computes the same values.
//
// Thread also writes out the back end's small constant-size memory.copy
// and memory.fill (struct copies and zeroing) as loads and stores, which
// V8 would otherwise compile into calls to C's memmove and memset
// (bulk.go says why the forward copy is exact).
//
// Thread also forwards a function's loads of its own frame (forward.go):
// Go's back end keeps arguments and spilled values in the frame, in
// linear memory, and loads an argument again at each use; where the pass
// proves that nothing but the function's own stores can have changed the
// slot since it was last loaded or stored (no call, no move of the stack
// pointer, no way for the frame's address to have got out), the load
// becomes a read of a local that the first load copied the value to.
//
// And it ends the path of each call to one of the runtime's panics (a nil
// check's sigpanic, an index check's goPanicIndex) at a return
// (exits.go): those calls only ever return to unwind, and as long as the
// engine believes they may come back, it keeps every value the checked
// code uses in memory across them, on the hot path.
//
// Before that frame pass, it folds the constant of each address Go writes
// as SP+K in 64-bit arithmetic (an outgoing argument's or a result's
// slot) into the offset of the load or store that uses it, and narrows
// the widened tests of booleans to 32 bits (fold.go): V8 compiled each
// such address into two instructions before the access, where x86's
// addressing adds an offset for nothing.
//
// Thread accepts only what Go's linker writes (empty block types, the
// opcodes Go emits) and reports anything else as an error, leaving the
// caller to keep the module it had.
package wasmjump
