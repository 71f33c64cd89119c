// Package report turns plain data into figures a room can read: stacked
// time-series panels with fault windows, bar charts with error whiskers and
// heatmaps, rendered to PNG or SVG with gonum.org/v1/plot.
//
// It knows nothing of the simulator. It imports no engine, topology,
// metrics or policy package; callers copy their series into the types
// below (Figure, Panel, Line, Span, StateBand, BarChart, Heatmap), which
// are plain values with exported fields.
//
// # Time-series figures
//
// A Figure stacks Panels top to bottom. They share one x axis, in seconds
// of simulated time, whose range covers every line, span and state band.
// Each panel has a bold title above it, a y label with its unit at the
// left, a legend in a column on the right, light grid lines at the labelled
// ticks, and y ticks chosen from {1, 2, 2.5, 5} x 10^k (Heckbert's "nice
// numbers"), printed compactly (12k, 2.5M). Panel.LogY gives a base-10 log
// axis for latencies. Only the bottom plot prints x tick labels and the x
// label (default "simulated time (s)"). NaN in a line is a gap; a point
// alone between gaps is drawn as a dot.
//
// Spans are fault windows: shaded in a light vermillion tint across every
// panel, and labelled in a lane above the first panel (labels that would
// overlap move up a row). A panel's States are drawn as a strip of coloured
// bands under it, named inside each band when the name fits, with a legend:
// "closed" is green, "open" vermillion, "half-open" yellow (an alert's
// "inactive", "firing", "pending" the same); other states take
// the remaining palette colours in order of first appearance. A band
// narrower than 5 px at the default size is widened to that about its
// middle and drawn on top of its neighbours, so that a state held for an
// instant still shows.
//
// A panel's Markers mark instants (a probe, an ejection): a dashed rule
// across the panel and a glyph at its top, glyphs at one instant stacked
// downwards, one legend entry per label. Marker.Tone picks the look: bad
// news in vermillion and purple crosses and triangles, good news in green
// and blue circles, neutral in black and orange squares.
//
// Colours come from the Okabe-Ito palette (Okabe and Ito 2008, "Color
// Universal Design"), safe for the common colour-vision deficiencies:
// blue, vermillion, bluish green, reddish purple, orange, sky blue, black,
// yellow. A label that appears in several panels keeps one colour in all of
// them; other lines take the first colours free in their panel. Line.Dashed
// marks a baseline or a target.
//
// Direct labels: a panel with two labelled lines or more writes each label
// at the right end of its line (at the height of its last value, with a
// leader and a sample of the line's colour and dashes), nudged apart so
// that no two overlap and kept in the order of the lines' ends; a panel
// too short for its labels stacked, or with one line, keeps its legend.
// Line.Thin draws a faint thin line under the others, with no label, in
// the colour of the panel's line with the same label: one replication
// behind a mean. Figure.Marks are reference values of the x axis (a
// capacity on a load axis): dashed dark lines across every panel, labelled
// in the lane above the first. A title or subtitle wider than the figure
// shrinks, down to 70 %.
//
// Sizes: Figure.Width x Figure.Height pixels, default 1200 x 900, each in
// [200, 8000]. Lengths are laid out at 96 dpi, so SVG output is the same
// figure at Width*0.75 x Height*0.75 points. Text and line widths scale with
// the figure (factor min(W/1200, H/900), clamped to [0.6, 2.5]): at the
// default size the title is 19 pt bold, panel titles 14 pt bold, axis labels
// 13 pt, ticks 12 pt, legend 12.5 pt, lines 2 pt, all in Liberation Sans.
//
// # Bar charts and heatmaps
//
// A BarChart compares variants (Series, one Okabe-Ito colour each, in order)
// over Groups: bars side by side, the value axis from zero, light
// horizontal grid lines, optional whiskers from Lo to Hi (absolute values,
// e.g. a 95 % confidence interval over replications; NaN omits one), and a
// legend on the right. NaN in Values leaves a slot empty.
//
// A Heatmap colours a grid of cells, centred on X[i] and Y[j] (cell edges
// midway between centres), by Z[j][i] on the viridis colour map (van der
// Walt and Smith 2015: perceptually uniform, readable in grey and with
// colour-vision deficiencies), with a colour bar and ZLabel on the right.
// NaN cells are light grey with a "no data" key. With 12 centres or fewer,
// every centre is labelled; Annotate prints each value (3 significant
// digits) in its cell, in black or white for contrast. ZMin and ZMax fix
// the ends of the scale. Heatmap.Outline draws, white over black, the
// boundary of a region of cells (those locked in, say); Heatmap.Marks are
// vertical reference lines, labelled in white boxes at the top, or at the
// edge with an arrow when beyond the cells.
//
// Both render with methods (RenderPNG, RenderSVG, WriteFile) that behave
// like the package functions for a Figure.
//
// # Downsampling
//
// The rasteriser behind gonum/plot (freetype's) slows down sharply with the
// number of points in a path, so each line is reduced, when drawn, to about
// 2 points per horizontal pixel of its panel: Downsample keeps, in every
// pixel column, the minimum and the maximum point in their original order
// (the 2-point core of M4; Jugel et al., "M4: A Visualization-Oriented Time
// Series Data Aggregation", PVLDB 7(10), 2014), plus the first and last
// point of every gap-free run. Each column's extremes are drawn exactly,
// so a one-sample spike is never lost; only the order of the joins inside
// a column may differ, by less than a pixel. Long runs are also stroked in pieces
// of 64 segments, which keeps the rasteriser's cost linear. The reference
// figure (3 panels, 4 lines each, 3 600 points per line, 1 200 x 900 px)
// renders to PNG in about 75 ms on one core of the reference machine (see
// BenchmarkRenderPNG).
//
// # Determinism
//
// Rendering reads no clock, no global random source and no map order: the
// same Figure gives the same PNG and SVG bytes, for a given Go toolchain,
// module versions and architecture. (PNG pixels come from floating-point
// rasterisation; on architectures where the compiler fuses multiply-adds,
// such as arm64, a pixel may differ from amd64. The golden tests therefore
// compare PNG images by decoded pixels, and SVG files byte for byte.) Run
// "go test -update" in this directory to rewrite the golden files under
// testdata/ after an intended change, and look at them before committing.
//
// # Output
//
// RenderPNG and RenderSVG write to an io.Writer; WriteFile chooses the
// format from the extension (.png, .svg) and replaces the file atomically
// through internal/atomicfile. Bad input is reported as an error wrapping
// ErrInvalid, before anything is written.
//
// # Concurrency
//
// The functions of this package keep no state between calls and may be
// called from several goroutines at once on different values; gonum/plot's
// font cache is safe for concurrent use. A value must not be modified while
// it is being rendered.
package report
