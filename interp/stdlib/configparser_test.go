package stdlib

import "testing"

// The programs of configparser_programs.txt print what CPython 3.11
// prints (configparser_programs.want, made with -update).
func TestProgramsConfigParser(t *testing.T) {
	checkFilePrograms(t, "testdata/configparser_programs.txt")
}

// The programs of tomllib_programs.txt print what CPython 3.11 prints.
func TestProgramsTOMLLib(t *testing.T) { checkFilePrograms(t, "testdata/tomllib_programs.txt") }
