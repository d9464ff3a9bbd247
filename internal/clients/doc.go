// Package clients holds the tests that run askuser mcp inside the MCP
// clients people use: Claude Code, Codex, Gemini CLI, OpenCode, Kilo CLI
// and Continue CLI, each installed at a pinned version from
// package-lock.json beside this file and each driven by a scripted model
// server on 127.0.0.1 that speaks the client's own API. The package has
// no code of its own; its tests run from `make clients-test`, which
// installs the clients first. They are a package of their own, this file
// its only one, so that the clients' install and their long runs stay
// out of every other package's tests.
package clients
