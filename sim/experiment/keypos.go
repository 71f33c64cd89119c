package experiment

// KeyPos returns where the key path is written in the experiment's file,
// or where its nearest recorded ancestor is, or line 1 column 1. Paths
// join keys with dots and index arrays of tables from 0, in file order:
// "service.1.step.1.timeout" is the timeout of the second step of the
// second [[service]]. It reads the base document only: a key a variant
// overrides resolves to where the base writes it. Safe for concurrent use
// (the table is not modified after Parse).
func (e *Experiment) KeyPos(path string) Pos { return e.pos.lookup(path) }
