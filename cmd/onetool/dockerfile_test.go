package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The Dockerfile cannot be built here (no Docker daemon in CI): check
// what drifts when the code moves on. Its Go image must be able to build
// the go.mod's go version, it builds this command statically, and the
// image serves HTTP as a non-root user on the port it exposes.
func TestDockerfileMatchesTheBuild(t *testing.T) {
	df, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	image := regexp.MustCompile(`(?m)^FROM golang:(\d+\.\d+)\S* AS build`).FindSubmatch(df)
	if goVersion == nil || image == nil || string(goVersion[1]) != string(image[1]) {
		t.Errorf("Dockerfile's golang image %q does not match go.mod's go %q", image, goVersion)
	}
	text := string(df)
	for _, want := range []string{
		"CGO_ENABLED=0 go build",
		"./cmd/onetool",
		"USER nonroot",
		"EXPOSE 8080",
		`ENTRYPOINT ["onetool", "serve", "--http", "0.0.0.0:8080"]`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// A static binary needs a pure Go SQLite driver.
	if strings.Contains(string(mod), "mattn/go-sqlite3") {
		t.Error("go.mod requires mattn/go-sqlite3, which needs cgo: the Dockerfile's CGO_ENABLED=0 build cannot use it")
	}
}
