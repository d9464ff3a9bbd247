package clients

// The config of each client, written into a sandbox: the scripted model
// as the client's model provider, askuser mcp as its one MCP server, and
// every update check, telemetry and sharing switched off.

// claudeHome sets up Claude Code's config in s for the model m.
func claudeHome(s *sandbox, m *model) {
	s.write("home/.claude.json", mustJSON(map[string]any{
		"hasCompletedOnboarding": true,
		// The TUI asks once whether to use a key from the environment.
		"customApiKeyResponses": map[string]any{"approved": []string{claudeKey[len(claudeKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{s.work: map[string]any{"hasTrustDialogAccepted": true}},
	}))
	s.setenv("ANTHROPIC_BASE_URL="+m.url(), "ANTHROPIC_API_KEY="+claudeKey, "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
}

// codexHome sets up Codex's config in s for the model m.
func codexHome(s *sandbox, m *model, mode string) {
	args := ""
	for i, a := range askuserArgs(mode) {
		if i > 0 {
			args += ", "
		}
		args += mustJSON(a)
	}
	s.write("home/.codex/config.toml", `model = "test-model"
model_provider = "scripted"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.scripted]
name = "scripted"
base_url = "`+m.url()+`/v1"
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"

[mcp_servers.askuser]
command = `+mustJSON(askuserBin)+`
args = [`+args+`]
env_vars = ["TMUX", "TMUX_PANE"]
`)
	s.setenv("CODEX_HOME="+s.home+"/.codex", "SCRIPTED_API_KEY=test")
}

// geminiHome sets up Gemini CLI's settings in s for the model m, with
// env added to the server's environment and extra to askuser mcp's
// arguments.
func geminiHome(s *sandbox, m *model, mode string, env map[string]string, extra ...string) {
	server := map[string]any{"command": askuserBin, "args": askuserArgs(mode, extra...), "trust": true}
	if env != nil {
		server["env"] = env // Gemini refuses "env": null
	}
	geminiSettings(s, m, map[string]any{"askuser": server})
}

// geminiSettings sets up Gemini CLI's settings in s for the model m, with
// servers as its MCP servers (none when nil).
func geminiSettings(s *sandbox, m *model, servers map[string]any) {
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	if servers != nil {
		settings["mcpServers"] = servers
	}
	s.write("home/.gemini/settings.json", mustJSON(settings))
	// The TUI asks once whether to trust the folder.
	s.write("home/.gemini/trustedFolders.json", mustJSON(map[string]string{s.work: "TRUST_FOLDER"}))
	s.setenv("GOOGLE_GEMINI_BASE_URL="+m.url(), "GEMINI_API_KEY=test", "GEMINI_CLI_NO_RELAUNCH=1")
}

// opencodeConfig is OpenCode's config, which Kilo reads too, with the
// model m as its one provider and model, and updates and sharing off.
func opencodeConfig(m *model) map[string]any {
	return map[string]any{
		"autoupdate": false,
		"share":      "disabled",
		"model":      "scripted/test-model",
		"provider": map[string]any{"scripted": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Scripted",
			"options": map[string]any{"baseURL": m.url() + "/v1", "apiKey": "test"},
			"models":  map[string]any{"test-model": map[string]any{"name": "Test model"}},
		}},
	}
}

// opencodeHome sets up OpenCode's config in s for the model m.
func opencodeHome(s *sandbox, m *model, mode string) {
	cfg := opencodeConfig(m)
	cfg["$schema"] = "https://opencode.ai/config.json"
	cfg["mcp"] = map[string]any{"askuser": map[string]any{
		"type": "local", "command": append([]string{askuserBin}, askuserArgs(mode)...), "enabled": true}}
	s.write("home/.config/opencode/opencode.json", mustJSON(cfg))
	s.setenv("OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1", "OPENCODE_DISABLE_EXTERNAL_SKILLS=1",
		"OPENCODE_DISABLE_EMBEDDED_WEB_UI=1", "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER=1")
}

// kiloHome sets up Kilo CLI's config in s for the model m, without MCP
// servers: OpenCode's config, in Kilo's directory. Offline, Kilo spends
// over a minute at start installing its plugin package into a config
// directory that holds a plugin, as OpenCode does, unless npm is told it
// is offline (opencodeOffline), and seconds flushing telemetry.
func kiloHome(s *sandbox, m *model) {
	s.write("home/.config/kilo/kilo.json", mustJSON(opencodeConfig(m)))
	opencodeOffline(s)
	s.setenv("KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_LSP_DOWNLOAD=1", "KILO_DISABLE_SHARE=1",
		"KILO_DISABLE_DEFAULT_PLUGINS=1", "KILO_DISABLE_CLAUDE_CODE=1", "KILO_DISABLE_EXTERNAL_SKILLS=1", "KILO_DISABLE_EMBEDDED_WEB_UI=1",
		"KILO_EXPERIMENTAL_DISABLE_FILEWATCHER=1", "KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_CODEBASE_INDEXING=1")
}

// continueHome sets up Continue CLI's config.yaml in s for the model m,
// without MCP servers.
func continueHome(s *sandbox, m *model) {
	s.setenv("CONTINUE_CLI_ENABLE_TELEMETRY=0", "CONTINUE_METRICS_ENABLED=0")
	s.write("home/.continue/config.yaml", `name: Local
version: 1.0.0
schema: v1
models:
  - name: Scripted
    provider: openai
    model: test-model
    apiBase: `+m.url()+`/v1
    apiKey: test
    roles: [chat]
`)
}

// claudeMCP is Claude Code's --mcp-config for askuser mcp in mode.
func claudeMCP(mode string) string {
	return mustJSON(map[string]any{"mcpServers": map[string]any{"askuser": map[string]any{
		"command": askuserBin, "args": askuserArgs(mode)}}})
}

// claudeKey is the API key Claude Code is given.
const claudeKey = "sk-ant-api03-scripted-model-key-0123456789"
