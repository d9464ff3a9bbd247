// Package testkit holds what askuser's tests share, and is for tests
// only: no program imports it.
//
//   - Build builds askuser's commands for the tests that run the real
//     binaries, and StartHub runs a hub as a process of its own.
//   - Running tells whether a process the test started still runs.
//   - Buffer is a byte buffer safe for concurrent use, for a test that
//     reads what a process or a goroutine writes while it runs.
//   - UpdateEntry edits a hub's key-value entries behind the hub's back,
//     as a relay or another machine could, and an Impostor plays another
//     user's server on the port a stopped hub left.
//   - HostileCommands are the commands every surface that shows an
//     approval is tested with, and ApprovalRequest and ApprovalQuestion
//     the questionnaire and the hub question package approval makes of
//     one.
//   - Patience is how long a test waits for a state it expects.
//   - Golden compares a text with its golden file, or rewrites the file
//     under the package's -update flag.
//   - InspectJSON, Respace, Forms and WithDuplicate are what the
//     differential fuzz targets of askuser's strict JSON readers compare
//     with encoding/json, and FuzzBound stops a fuzz input that hangs or
//     takes too long with the input in the message.
//
// Build puts the binaries of each test process in a directory of its own
// under the temporary directory, named for its process id, and
// RemoveBuilds removes it when the tests are done. A test binary stopped
// by its -timeout or a signal never gets that far, so every build first
// removes the directories of processes that are gone: a run that was
// killed leaves nothing past the next run.
//
// Since testkit imports approval and hub, a test of a package they are
// built on (strictjson, contract, auq, config, ask) that uses testkit is
// in the package's external test package (package strictjson_test, …):
// one in the package itself would be an import cycle. What such a test
// needs of the package's insides, its export_test.go names.
package testkit
