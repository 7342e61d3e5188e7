package config

import (
	"errors"

	"github.com/onetool-dev/onetool/internal/safefile"
	"github.com/onetool-dev/onetool/internal/yamltree"
)

// Bounds that keep a hostile file from hanging or exhausting memory.
// Real configuration files are a few kilobytes and a few hundred nodes.
const (
	maxFileSize = 1 << 20 // bytes per file
	maxNodes    = 100_000 // nodes per load, after expanding aliases and merge keys
	maxDepth    = 64      // nesting of mappings and lists
)

// The tree of a configuration file (see yamltree.Node): after include
// merging one tree mixes nodes from several files, and errors must name
// the right one. The configuration uses Node's Masked (values built from
// secrets) and Bad (values already reported), which toolpacks do not.
type (
	node = yamltree.Node
	pair = yamltree.Pair
	pos  = yamltree.Pos
)

// remove deletes key from the mapping n and returns its pair.
func remove(n *node, key string) (pair, bool) {
	for i, p := range n.Pairs {
		if p.Key == key {
			n.Pairs = append(n.Pairs[:i:i], n.Pairs[i+1:]...)
			return p, true
		}
	}
	return pair{}, false
}

// parseFile parses data as one YAML document. It returns nil with ok=true
// for an empty document, and ok=false when the file could not be read at
// all. Every problem is recorded in errs, each with its key: one that
// stops the reading (too big, too deep, an alias loop) as well as those
// after which the rest of the file is still read.
func parseFile(data []byte, file string, budget *yamltree.Budget, errs *errList) (root *node, ok bool) {
	// yaml.v3 has panicked on hostile input in the past; a configuration
	// file must be an error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			errs.at(pos{File: file}, nil, "YAML parser failed: %v", r)
			root, ok = nil, false
		}
	}()
	root, err := yamltree.Parse(data, yamltree.Options{
		File:           file,
		MaxDepth:       maxDepth,
		Budget:         budget,
		SecondDocument: "a configuration file holds one",
		Report:         func(at pos, key keyPath, msg string) { errs.at(at, key, "%s", msg) },
	})
	if err != nil {
		e := &yamltree.Error{Pos: pos{File: file}, Msg: err.Error()}
		errors.As(err, &e) // Parse's errors are all *yamltree.Error
		errs.at(e.Pos, e.Path, "%s", e.Msg)
		return nil, false
	}
	return root, true
}

// readLimited reads a regular file of at most maxFileSize bytes. Devices
// and pipes are refused: opening or reading them could block forever.
func readLimited(file string) ([]byte, error) {
	return safefile.ReadRegular(file, maxFileSize, "a configuration file")
}
