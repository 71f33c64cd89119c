// Package notebooks holds the workshop material: workshop.md, the Jupyter
// labs in labs/, and the tests that keep them runnable (no Go API).
package notebooks
