package stdlib

import "testing"

// The modules of a program's process and its diagnostics, checked
// against CPython program by program (see checkPrograms):
// go test ./interp/stdlib -run Programs -update regenerates the answers.
func TestProgramsSys(t *testing.T)       { checkPrograms(t, "testdata/sys_programs.txt") }
func TestProgramsTraceback(t *testing.T) { checkPrograms(t, "testdata/traceback_programs.txt") }
func TestProgramsLogging(t *testing.T)   { checkPrograms(t, "testdata/logging_programs.txt") }
func TestProgramsSecrets(t *testing.T)   { checkPrograms(t, "testdata/secrets_programs.txt") }
func TestProgramsCalendar(t *testing.T)  { checkPrograms(t, "testdata/calendar_programs.txt") }
