package clients

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// anthropic is the Anthropic Messages API, which Claude Code speaks:
// POST /v1/messages, streamed as server-sent events.
type anthropic struct{}

func (anthropic) parse(body []byte) ([]string, string, bool, error) {
	var req struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		// count_tokens and the like share the shape; anything else is
		// not for the script.
		return nil, "", false, nil
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}
	for _, m := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == callID {
				text, err := contentText(b.Content)
				return tools, text, err == nil, err
			}
		}
	}
	return tools, "", false, nil
}

func (a anthropic) reply(w http.ResponseWriter, r *http.Request, body []byte, tool, args, text string) {
	a.write(w, r, body, callID, tool, args, text)
}

// searchID is the prefix of the ids of the ToolSearch calls that load
// a deferred tool.
const searchID = "call_toolsearch_"

// search calls ToolSearch to load tool when the request names tool only
// in its list of deferred tools: Claude Code 2.1.332 offers MCP tools by
// name alone, and sends a tool's schema once the model has selected it.
func (a anthropic) search(w http.ResponseWriter, r *http.Request, body []byte, tool string) bool {
	var req struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	searchable := false
	for _, t := range req.Tools {
		searchable = searchable || t.Name == "ToolSearch"
	}
	if !searchable {
		return false
	}
	// The server's name, as Claude Code lists a server still
	// connecting: mcp__NAME__tool.
	server, _, _ := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__")
	named, searches := false, 0
	for _, m := range req.Messages {
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
			Name string `json:"name"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			lines := strings.Split(b.Text, "\n")
			switch {
			case b.Type == "tool_use" && b.Name == "ToolSearch":
				searches++
			case b.Type != "text":
			case strings.Contains(b.Text, "deferred tools") && slices.Contains(lines, tool),
				// A server still connecting when the conversation
				// began is named once, and its tools never are: a
				// model searches for them, and ToolSearch waits for
				// the server.
				strings.Contains(b.Text, "still connecting") && slices.Contains(lines, server):
				named = true
			}
		}
	}
	// A search that found nothing is tried again, a few times.
	if !named || searches >= 5 {
		return false
	}
	a.write(w, r, body, searchID+strconv.Itoa(searches+1), "ToolSearch", mustJSON(map[string]string{"query": "select:" + tool}), "")
	return true
}

func (anthropic) write(w http.ResponseWriter, r *http.Request, body []byte, id, tool, args, text string) {
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens":10}`)
		return
	}
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	json.Unmarshal(body, &req)
	block := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": text}
	stop := "end_turn"
	if tool != "" {
		block = map[string]any{"type": "tool_use", "id": id, "name": tool, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": args}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Stream {
		content := map[string]any{"type": "text", "text": text}
		if tool != "" {
			content = map[string]any{"type": "tool_use", "id": id, "name": tool, "input": json.RawMessage(args)}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, mustJSON(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage}))
		return
	}
	sse(w,
		[2]string{"message_start", mustJSON(map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": usage}})},
		[2]string{"content_block_start", mustJSON(map[string]any{"type": "content_block_start", "index": 0, "content_block": block})},
		[2]string{"content_block_delta", mustJSON(map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})},
		[2]string{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		[2]string{"message_delta", mustJSON(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})},
		[2]string{"message_stop", `{"type":"message_stop"}`},
	)
}

// responses is the OpenAI Responses API, which Codex speaks: POST
// /v1/responses, streamed as server-sent events. A tool in a namespace
// is named namespace.name.
type responses struct{}

func (a responses) parse(body []byte) ([]string, string, bool, error) {
	var req struct {
		Tools []struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"tools"`
		Input []struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, "", false, fmt.Errorf("a Responses request: %w", err)
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
		for _, in := range t.Tools {
			tools = append(tools, t.Name+"."+in.Name)
		}
	}
	for _, in := range req.Input {
		if in.Type == "function_call_output" && in.CallID == callID {
			text, err := contentText(in.Output)
			return tools, text, err == nil, err
		}
	}
	return tools, "", false, nil
}

func (a responses) reply(w http.ResponseWriter, _ *http.Request, _ []byte, tool, args, text string) {
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	if tool != "" {
		item = map[string]any{"type": "function_call", "id": "fc_1", "call_id": callID, "status": "completed", "arguments": args}
		if ns, name, ok := strings.Cut(tool, "."); ok {
			item["namespace"], item["name"] = ns, name
		} else {
			item["name"] = tool
		}
	}
	resp := map[string]any{"id": "resp_1", "object": "response", "status": "in_progress", "output": []any{}}
	done := map[string]any{"id": "resp_1", "object": "response", "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}
	events := [][2]string{
		{"response.created", mustJSON(map[string]any{"type": "response.created", "response": resp})},
		{"response.output_item.added", mustJSON(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})},
	}
	if tool == "" {
		events = append(events, [2]string{"response.output_text.delta", mustJSON(map[string]any{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": text})})
	}
	events = append(events,
		[2]string{"response.output_item.done", mustJSON(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})},
		[2]string{"response.completed", mustJSON(map[string]any{"type": "response.completed", "response": done})},
	)
	sse(w, events...)
}

// gemini is the Gemini API, which Gemini CLI speaks: POST
// /v1beta/models/M:streamGenerateContent?alt=sse, :generateContent and
// :countTokens.
type gemini struct{}

func (gemini) parse(body []byte) ([]string, string, bool, error) {
	var req struct {
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					ID       string          `json:"id"`
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, "", false, fmt.Errorf("a Gemini request: %w", err)
	}
	var tools []string
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			tools = append(tools, f.Name)
		}
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if fr := p.FunctionResponse; fr != nil {
				return tools, string(fr.Response), true, nil
			}
		}
	}
	return tools, "", false, nil
}

func (gemini) reply(w http.ResponseWriter, r *http.Request, _ []byte, tool, args, text string) {
	if strings.HasSuffix(r.URL.Path, ":countTokens") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"totalTokens":10}`)
		return
	}
	part := map[string]any{"text": text}
	if tool != "" {
		part = map[string]any{"functionCall": map[string]any{"id": callID, "name": tool, "args": json.RawMessage(args)}}
	}
	resp := mustJSON(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-flash",
	})
	if strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		sse(w, [2]string{"", resp})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, resp)
}

// chat is the OpenAI chat completions API, which OpenCode speaks through
// @ai-sdk/openai-compatible: POST /v1/chat/completions, streamed.
type chat struct{}

func (chat) parse(body []byte) ([]string, string, bool, error) {
	var req struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, "", false, fmt.Errorf("a chat completions request: %w", err)
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
	}
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			text, err := contentText(m.Content)
			return tools, text, err == nil, err
		}
	}
	return tools, "", false, nil
}

func (chat) reply(w http.ResponseWriter, _ *http.Request, body []byte, tool, args, text string) {
	var req struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &req)
	chunk := func(delta map[string]any, finish any) string {
		return mustJSON(map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	delta := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if tool != "" {
		delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": callID, "type": "function",
			"function": map[string]any{"name": tool, "arguments": args}}}}
		finish = "tool_calls"
	}
	last := mustJSON(map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	sse(w, [2]string{"", chunk(delta, nil)}, [2]string{"", last}, [2]string{"", "[DONE]"})
}
