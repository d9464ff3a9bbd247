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
// Why a reader of its own rather than the JSON v2 token layer: Go 1.26's
// encoding/json/jsontext needs GOEXPERIMENT=jsonv2, unusable in a release
// build, and its twin github.com/go-json-experiment/json/jsontext, carrying
// this Decoder in a prototype (commit d1e1d20, `git log -S jsonv2proto`),
// passed the contracts' differential fuzz targets but parsed the maximal
// requests 1.25 to 2.35 times as slowly: medians of 6 alternating runs
// (`go test -c`, then -test.bench Maximal -test.benchmem -test.benchtime
// 2000x) of contract 60.8 against 76.0 µs, contract with long texts 81.8
// against 192.0 µs, auq 52.0 against 101.7 µs, with auq's Validate, which
// reads no JSON, at 1.05 for the noise; allocations even (49 to 48, 50 to
// 49, 15 to 15) only with jsontext's decoders pooled.
//
// Files by concern: scan.go (the Scanner), decode.go (the contracts' member
// decoding), number.go (whole numbers), path.go (JSON paths in messages),
// suggest.go (the member name meant), problems.go, text.go and names.go
// (the checks the contracts share), modeltext.go and hub.go (the model
// text they share), check.go (checking JSON that
// encoding/json has read), linereader.go (reading bounded lines), line.go,
// escape.go and append.go (writing). The reference that the packages'
// differential fuzz targets compare with is in internal/testkit.
package strictjson
