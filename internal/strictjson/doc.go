// Package strictjson is askuser's one strict JSON reader and writer. Every
// door through which JSON comes in holds it to the same rules here: no
// duplicate key, no text that is not UTF-8 and no unpaired surrogate
// escape, no nesting past a limit, and numbers and member names read
// exactly, where encoding/json keeps the last of duplicate keys and turns
// bad text into U+FFFD, so that a message its writer cannot have sent
// passes as another one.
//
// The doors and what they use:
//
//   - The two request contracts, ask_user (package contract) and
//     AskUserQuestion (package auq), decode a request member by member with
//     a Scanner and a Decoder, which report each problem at its JSON path,
//     and read a timeout with WholeMillis.
//   - The config (internal/config) reads its strings with a Scanner, its
//     timeout with WholeMillis, and names its members with MemberPath.
//   - The Pi bridge (internal/host/pibridge) and the popup's socket
//     (internal/host/popup) read their lines with a LineReader, in bounded
//     memory, and check each line encoding/json has read with Check.
//   - The MCP server's envelope (mcpserver) reads the members of a JSON-RPC
//     message with Members, its strings with StringProblem and its nesting
//     with Depth.
//   - The hooks' inputs of the clients (claudecode, codex, opencode) are
//     read into their structs with Unmarshal, which lets members askuser
//     does not use be.
//   - askuser setup (internal/host/cli) reads a client's configuration
//     file, JSON or JSON with comments blanked out, with a Scanner, for
//     where each member is and the line and column of a fault.
//   - The CLI (internal/host/cli) and the popup write their results and
//     messages with WriteLine, Escape and NewEscaper, so that no JSON text
//     askuser writes carries a character a terminal obeys or does not show.
//   - The Pi bridge's frames and the WebAssembly dialog's answers
//     (internal/host/pibridge, internal/host/pimirror,
//     cmd/askuser-dialog-wasm) are written with AppendString, AppendInt and
//     AppendUint, without reflection or allocation.
//
// The two contracts also share here the checks they apply once a request
// is decoded: a Problem at its JSON path, the List of problems found,
// Ordered, which lists them for a contract's error, the rules on text
// (Blank, TooLarge, SizeProblem) and the sets in which they find repeated
// names (Names).
// And they share the machinery of the text the model reads about each
// tool: LoadModelText reads a tool's Markdown sections with the sentences
// both tools say (shared.md), ModelText writes them, and HubCall.Note is
// what the model is told about the askuser hub, the same for both tools.
//
// Why a reader of its own rather than the JSON v2 token layer, measured
// again with the prototype of commit e940676 (`git log -S jsonv2proto`):
// Go 1.26's encoding/json/jsontext builds only with GOEXPERIMENT=jsonv2,
// which also swaps encoding/json's implementation, unusable in a release
// build. Its twin github.com/go-json-experiment/json/jsontext (in go.sum
// for the tests' Chrome driver, in no binary) carried the Decoder with the
// same paths, suggestions, duplicates and exact numbers, but not the
// syntax errors' messages and offsets that 14 tests pin, and parsed the
// maximal requests 1.5 to 1.7 times as slowly, the time going to its
// string scan a byte at a time: medians of 6 alternating runs (`go test
// -c`, then -test.bench 'Maximal|Check$' -test.benchmem -test.benchtime
// 2000x, load average 6 on 2 cores) of contract 55.7 against 84.8 µs,
// with long texts 104 against 178 µs, auq 68.8 against 115.6 µs;
// allocations even (49, 50 and 15, its decoders pooled). For Check it
// matched the Scanner's fast pass (13.8 µs both, against 83.2 µs and 178
// allocations for the walk alone) but would add 110 KB to cmd/askuser
// (14.06 MB stripped) for nothing the Scanner does not do.
//
// Files by concern: scan.go (the Scanner), decode.go (the contracts'
// member decoding), number.go (whole numbers), path.go (JSON paths in
// messages), suggest.go (the member name meant), problems.go, text.go and
// names.go (the checks the contracts share), modeltext.go and hub.go (the
// model text they share), check.go and check_fast.go (checking JSON that
// encoding/json has read), linereader.go (reading bounded lines), line.go,
// escape.go and append.go (writing). The reference that the packages'
// differential fuzz targets compare with is in internal/testkit.
package strictjson
