package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello"), 0o644)
	if data, err := ReadRegular(small, 10, "a test file"); err != nil || string(data) != "hello" {
		t.Errorf("small file: %q, %v", data, err)
	}
	if _, err := ReadRegular(small, 4, "a test file"); err == nil || !strings.Contains(err.Error(), "larger than the 4 bytes a test file may have") {
		t.Errorf("too big: %v", err)
	}
	if _, err := ReadRegular(dir, 10, "x"); err == nil {
		t.Error("a directory was read")
	}
	if _, err := ReadRegular("/dev/zero", 10, "x"); err == nil {
		t.Error("a device was read")
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 10, "x"); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
