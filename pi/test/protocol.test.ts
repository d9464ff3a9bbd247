// The child's lines as the shim reads them: each message of a known type
// with the members its type must have, and nothing else.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseMessage } from "../src/protocol.ts";

test("parseMessage: the child's messages, and the lines that are none", () => {
  const cases: [string, string, boolean][] = [
    ["a whole frame", `{"type":"frame","call":"c1","lines":["a","b"],"cursor":{"row":0,"col":1}}`, true],
    ["a patch", `{"type":"frame","call":"c1","at":1,"length":3,"lines":[]}`, true],
    ["a result", `{"type":"result","call":"c1","result":{"status":"answered","answers":[]},"text":"ok"}`, true],
    ["an event with a null payload", `{"type":"event","call":"c1","channel":"herdr:blocked","payload":null}`, true],
    ["ready", `{"type":"ready","version":1,"support":{"status":"no_available_ui","reason":"x"},"available":false,"reason":"x"}`, true],
    ["a notice", `{"type":"notice","message":"the notify command failed"}`, true],
    ["a dialog", `{"type":"dialog","call":"c1","req":1,"method":"select","title":"Env","options":["dev"],"timeoutMs":5}`, true],
    ["not JSON", `{"type":`, false],
    ["not an object", `["frame"]`, false],
    ["null", `null`, false],
    ["no type", `{"call":"c1"}`, false],
    ["an unknown type", `{"type":"noop","call":"c1"}`, false],
    ["a type from the prototype", `{"type":"toString","call":"c1"}`, false],
    ["notify data that is not a string", `{"type":"notify","call":"c1","data":7}`, false],
    ["a frame without lines", `{"type":"frame","call":"c1"}`, false],
    ["a frame whose lines are not strings", `{"type":"frame","call":"c1","lines":["a",1]}`, false],
    ["a frame with a string at", `{"type":"frame","call":"c1","at":"1","length":2,"lines":[]}`, false],
    ["a result without text", `{"type":"result","call":"c1","result":{}}`, false],
    ["a result that is not an object", `{"type":"result","call":"c1","result":"answered","text":""}`, false],
    ["an event without a payload", `{"type":"event","call":"c1","channel":"x"}`, false],
    ["a dialog_cancel with a string req", `{"type":"dialog_cancel","call":"c1","req":"1"}`, false],
    ["a progress without its call", `{"type":"progress","milestone":"submitted"}`, false],
  ];
  for (const [name, line, ok] of cases) {
    const got = parseMessage(line);
    if (ok) assert.deepEqual(got, JSON.parse(line), name);
    else assert.equal(got, undefined, name);
  }
});
