//go:build !unix

package main

import "os"

// reserveStdout returns the real stdout for the MCP protocol and points
// os.Stdout at stderr (file descriptors are left as they are).
func reserveStdout() (*os.File, error) {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out, nil
}
